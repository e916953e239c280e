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
  /**
   * Video only: assemble units in `memory` from the next unit on (undefined: in the depacketiser's own
   * buffers again). A unit assembled there is given to the memory's owner: it needs no copy to be kept.
   */
  useMemory?(memory: AssemblyMemory | undefined): void;
}

/**
 * Memory a depacketiser may assemble its units in, owned by whoever keeps them (the hub's GOP store):
 * a unit assembled in place needs no copy to be kept. The unit in progress is bytes[base, ...); once
 * committed its bytes stay where they are (until the owner reuses them) and the next unit starts
 * right after them. One depacketiser writes in a memory at a time.
 */
export interface AssemblyMemory {
  /** The buffer the unit in progress is assembled in; read again after ensure() and commit(). */
  readonly bytes: Uint8Array;
  /** Where in `bytes` the unit in progress starts; read again after ensure() and commit(). */
  readonly base: number;
  /**
   * Room for `total` bytes of the unit in progress from `base`, of which the first `have` are written
   * already: when they do not fit where they are, they move (bytes and base change).
   */
  ensure(have: number, total: number): void;
  /** The unit in progress is complete with its first `n` bytes; the next one starts after them. */
  commit(n: number): void;
}

export interface DepacketiserLimits {
  /** Largest NAL unit or AAC frame reassembled from fragments (default 4 MiB). */
  maxUnitBytes?: number;
  /** Largest access unit (default 16 MiB). */
  maxAccessUnitBytes?: number;
  /** Most NAL units in one access unit (default 1024). */
  maxNalus?: number;
  /**
   * Video only: the units returned are lent, not given. Their bytes are views of the depacketiser's
   * own buffer, valid until the next push() or flush(); a caller that keeps a unit copies it. This
   * spares an ArrayBuffer per unit: the hub copies each unit into its GOP store anyway (until it gives
   * the depacketiser that store to assemble in: useMemory), and V8 starts a full collection for every
   * few tens of MB of ArrayBuffers allocated (see StreamHub).
   */
  lendUnits?: boolean;
}

/** What push() returns for a packet that completes nothing (shared: callers only read it). */
export const NOTHING: readonly never[] = Object.freeze([]);

/** Sequence number `seq` follows `last` directly. */
export const follows = (seq: number, last: number): boolean => last < 0 || seq === ((last + 1) & 0xffff);
