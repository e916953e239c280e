/**
 * What every depacketiser does: packets in (in sequence order, after a ReorderBuffer when the
 * transport can reorder), access units out. Malformed payloads throw RtpError before any state
 * changes, so a caller may count the error and go on with the next packet.
 *
 * A packet's payload may be a view of a buffer the caller reuses once push() returns (the RTSP client
 * reads its socket into one buffer): the units returned, and whatever is kept for later packets, are
 * copies that belong to the depacketiser's caller.
 */
import type { AccessUnit } from '@opencvr/codec';
import type { RtpPacket, RtpView } from './packet.js';

export interface Depacketiser<T extends AccessUnit = AccessUnit> {
  push(packet: RtpPacket): readonly T[];
  /** The same for a packet read in place (readRtp): the ingest path, with no allocation per packet. */
  pushView(packet: RtpView): readonly T[];
  /** Whatever is complete enough to emit at the end of the stream. */
  flush(): readonly T[];
}

export interface DepacketiserLimits {
  /** Largest NAL unit or AAC frame reassembled from fragments (default 4 MiB). */
  maxUnitBytes?: number;
  /** Largest access unit (default 16 MiB). */
  maxAccessUnitBytes?: number;
  /** Most NAL units in one access unit (default 1024). */
  maxNalus?: number;
}

/** What push() returns for a packet that completes nothing (shared: callers only read it). */
export const NOTHING: readonly never[] = Object.freeze([]);

/** Sequence number `seq` follows `last` directly. */
export const follows = (seq: number, last: number): boolean => last < 0 || seq === ((last + 1) & 0xffff);
