/**
 * Matching a registering device against list entries. An entry names a device ID, an address
 * (a single IPv4/IPv6 address or a CIDR block) or both; an empty field matches anything, both
 * empty is refused when the entry is written.
 */
import net from 'node:net';

export interface ListEntryRule {
  device_id: string;
  ip: string;
}

/** Parsed form of an entry's address: a BlockList holding one address or one subnet. */
function blockOf(ip: string): net.BlockList | null {
  const parsed = parseAddress(ip);
  if (!parsed) return null;
  const list = new net.BlockList();
  if (parsed.prefix === undefined) list.addAddress(parsed.address, parsed.family);
  else list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  return list;
}

/** `1.2.3.4`, `10.0.0.0/8`, `fe80::1`, `2001:db8::/32` → parts; anything else → null. */
export function parseAddress(text: string): { address: string; prefix?: number; family: 'ipv4' | 'ipv6' } | null {
  const [address, prefixText, extra] = text.trim().split('/');
  if (extra !== undefined || !address) return null;
  const v = net.isIP(address);
  if (!v) return null;
  const family = v === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) return { address, family };
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  if (prefix > (v === 4 ? 32 : 128)) return null;
  return { address, prefix, family };
}

/** A socket's remote address as a plain address: `::ffff:1.2.3.4` is the IPv4 address 1.2.3.4. */
export function normaliseRemote(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return m ? m[1]! : ip;
}

/** The entries of one list compiled for fast repeated checks (one REGISTER each). */
export class CompiledList {
  private readonly byDevice = new Set<string>();
  private readonly anyDeviceBlocks: net.BlockList[] = [];
  private readonly pairs: { deviceId: string; block: net.BlockList }[] = [];

  constructor(entries: ListEntryRule[]) {
    for (const e of entries) {
      const block = e.ip ? blockOf(e.ip) : null;
      if (e.ip && !block) continue; // unreadable address: never matches (validation refuses these)
      if (e.device_id && !block) this.byDevice.add(e.device_id);
      else if (!e.device_id && block) this.anyDeviceBlocks.push(block);
      else if (e.device_id && block) this.pairs.push({ deviceId: e.device_id, block });
    }
  }

  get size() {
    return this.byDevice.size + this.anyDeviceBlocks.length + this.pairs.length;
  }

  matches(deviceId: string, ip: string): boolean {
    if (this.byDevice.has(deviceId)) return true;
    const addr = normaliseRemote(ip);
    const family = net.isIP(addr) === 6 ? 'ipv6' : net.isIP(addr) === 4 ? 'ipv4' : null;
    if (!family) return false;
    if (this.anyDeviceBlocks.some((b) => b.check(addr, family))) return true;
    return this.pairs.some((p) => p.deviceId === deviceId && p.block.check(addr, family));
  }
}
