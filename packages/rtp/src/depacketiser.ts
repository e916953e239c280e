/**
 * What every depacketiser does: packets in (in sequence order, after a ReorderBuffer when the
 * transport can reorder), access units out. Malformed payloads throw RtpError before any state
 * changes, so a caller may count the error and go on with the next packet.
 */
import type { AccessUnit } from '@opencvr/codec';
import type { RtpPacket } from './packet.js';

export interface Depacketiser<T extends AccessUnit = AccessUnit> {
  push(packet: RtpPacket): T[];
  /** Whatever is complete enough to emit at the end of the stream. */
  flush(): T[];
}

export interface DepacketiserLimits {
  /** Largest NAL unit or AAC frame reassembled from fragments (default 4 MiB). */
  maxUnitBytes?: number;
  /** Largest access unit (default 16 MiB). */
  maxAccessUnitBytes?: number;
  /** Most NAL units in one access unit (default 1024). */
  maxNalus?: number;
}

/** Sequence number `seq` follows `last` directly. */
export const follows = (seq: number, last: number): boolean => last < 0 || seq === ((last + 1) & 0xffff);
