/** The address the platform announces in Via/Contact when none is configured: the interface that faces the peer. */
import os from 'node:os';
import net from 'node:net';

function ipv4ToInt(a: string) {
  return a.split('.').reduce((n, p) => (n << 8) + Number(p), 0) >>> 0;
}

export function localAddressFor(peerAddress: string, configured: string, listenHost: string): string {
  if (configured) return configured;
  if (listenHost && listenHost !== '0.0.0.0' && listenHost !== '::') return listenHost;
  if (peerAddress.startsWith('127.') || peerAddress === '::1') return peerAddress.startsWith('127.') ? '127.0.0.1' : '::1';
  const ifaces = Object.values(os.networkInterfaces()).flat().filter((i): i is os.NetworkInterfaceInfo => !!i && !i.internal);
  if (net.isIPv4(peerAddress)) {
    const p = ipv4ToInt(peerAddress);
    for (const i of ifaces) {
      if (i.family !== 'IPv4') continue;
      const mask = ipv4ToInt(i.netmask);
      if ((ipv4ToInt(i.address) & mask) === (p & mask)) return i.address;
    }
  }
  return ifaces.find((i) => i.family === 'IPv4')?.address ?? '127.0.0.1';
}
