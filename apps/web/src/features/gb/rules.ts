/**
 * Client-side checks of the GB forms, the same rules the server applies (the server stays the
 * authority; these only tell the user early).
 */

export const isSerial = (s: string) => /^\d{20}$/.test(s.trim());
export const isRealm = (s: string) => /^\d{10}$/.test(s.trim());

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** A loose IPv6 check: hex groups and colons, at most one '::', optionally an IPv4 tail. */
function isIpv6(s: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(s) || !s.includes(':')) return false;
  if ((s.match(/::/g) ?? []).length > 1) return false;
  let groups = s.split(':');
  const last = groups[groups.length - 1]!;
  let extra = 0;
  if (last.includes('.')) {
    if (!IPV4.test(last)) return false;
    groups = groups.slice(0, -1);
    extra = 2;
  }
  if (groups.some((g) => g.length > 4)) return false;
  const filled = groups.filter((g) => g !== '').length + extra;
  return s.includes('::') ? filled < 8 : filled === 8 && groups.every((g) => g !== '');
}

export const isIp = (s: string) => IPV4.test(s) || isIpv6(s);

/** One address, or a block: address/prefix (≤ 32 for IPv4, ≤ 128 for IPv6). */
export function isIpOrCidr(text: string): boolean {
  const s = text.trim();
  const [addr, prefix, extra] = s.split('/');
  if (extra !== undefined || !addr) return false;
  const v4 = IPV4.test(addr);
  if (!v4 && !isIpv6(addr)) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (v4 ? 32 : 128);
}

/** An IP address or a host name (RFC 1123 labels); '' is allowed (= default). */
export function isHostOrEmpty(text: string): boolean {
  const s = text.trim();
  if (!s || isIp(s)) return true;
  return s.length <= 255 && /^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(s);
}

export const isListDeviceId = (s: string) => /^[A-Za-z0-9_.-]{0,64}$/.test(s.trim());
