import os from 'node:os';

/** IPv4 addresses of this machine's interfaces; loopback only when there is nothing else. */
export function localAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.family === 'IPv4' && !a.internal) out.push(a.address);
    }
  }
  return out.length ? out : ['127.0.0.1'];
}
