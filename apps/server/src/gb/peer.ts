/** Where a SIP message came from / goes to. For TCP, address:port names the connection. */
export type SipTransportName = 'UDP' | 'TCP';

export interface Peer {
  transport: SipTransportName;
  address: string;
  port: number;
}

export const peerKey = (p: Peer) => `${p.transport}:${p.address}:${p.port}`;

/** `::ffff:1.2.3.4` (IPv4 seen through a dual-stack socket) as 1.2.3.4. */
export function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
