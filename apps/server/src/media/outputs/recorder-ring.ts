/**
 * The recorder's copy of the access units its muxer holds. A fragment keeps its units until it is cut
 * (up to 1 s of video, 2 s of the other tracks). Held as they come from the ingest, they pin the
 * depacketiser's shared blocks for that long: 8 MB a second at 16 streams survived the young
 * generation and drove V8 full collections (main-thread GC went from 1 to 23 ms a second when 16
 * streams recorded). Copied into one ring per recorder, the ingest's blocks die young and the ring
 * is reused: one memcpy per unit instead of the collections.
 *
 * Bookkeeping: each copy kept by the muxer is an entry in its track's queue, in order; a fragment
 * written out releases its `sampleCount` oldest entries per track. Space is taken after the newest
 * copy and must not reach the oldest live one; when it does not fit, a larger ring replaces this one
 * (what lives in the old ring stays valid: the views keep it). A unit the muxer drops without saying
 * (a damaged one) leaves an entry behind, which only makes the ring hold a little more than needed
 * until reset() (a new muxer: nothing of the old one is live).
 */
import type { AccessUnit } from '@opencvr/codec';

interface Entry {
  /** The ring the copy is in (undefined: empty, or a buffer of its own). */
  buf?: Uint8Array;
  start: number;
  seq: number;
}

const MIN_RING = 1024 * 1024;
/** A ring grows up to this; a unit that would need more gets a buffer of its own. */
const MAX_RING = 32 * 1024 * 1024;

export class UnitRing {
  private buf: Uint8Array;
  /** Where the next copy goes. */
  private head = 0;
  private seq = 0;
  private queues: Entry[][] = [];
  private last?: Entry;

  constructor(initialBytes = MIN_RING) {
    this.buf = new Uint8Array(Math.max(64 * 1024, initialBytes));
  }

  /** Bytes of the current ring (tests). */
  get capacity(): number {
    return this.buf.length;
  }

  /** A copy of `unit` whose bytes live in the ring; call kept() once the muxer took it. */
  copy(unit: AccessUnit): AccessUnit {
    if (unit.kind === 'audio') {
      const n = unit.data.byteLength;
      const { buf, at } = this.place(n);
      buf.set(unit.data, at);
      return { ...unit, data: buf.subarray(at, at + n) };
    }
    let n = 0;
    for (const x of unit.nalus) n += x.byteLength;
    const { buf, at } = this.place(n);
    const nalus = new Array<Uint8Array>(unit.nalus.length);
    let off = at;
    for (let i = 0; i < unit.nalus.length; i++) {
      const x = unit.nalus[i];
      buf.set(x, off);
      nalus[i] = buf.subarray(off, off + x.byteLength);
      off += x.byteLength;
    }
    return { ...unit, nalus };
  }

  /** The last copy is held by the muxer as a sample of track `track`. */
  kept(track: number): void {
    if (!this.last) return;
    (this.queues[track] ??= []).push(this.last);
    this.last = undefined;
  }

  /** The `count` oldest samples of `track` were written out. */
  release(track: number, count: number): void {
    const q = this.queues[track];
    if (q) q.splice(0, count);
  }

  /** The muxer is gone: nothing in the ring is live. */
  reset(): void {
    this.queues = [];
    this.last = undefined;
    this.head = 0;
  }

  /** The oldest live copy in the current ring. */
  private oldest(): Entry | undefined {
    let best: Entry | undefined;
    for (const q of this.queues) {
      if (!q) continue;
      for (const e of q) {
        if (e.buf !== this.buf) continue;
        if (!best || e.seq < best.seq) best = e;
        break; // a queue is in order: its first entry in this ring is its oldest
      }
    }
    return best;
  }

  private place(n: number): { buf: Uint8Array; at: number } {
    if (n === 0) {
      this.last = { start: 0, seq: this.seq++ };
      return { buf: this.buf, at: 0 };
    }
    const o = this.oldest();
    const size = this.buf.length;
    let at: number | undefined;
    if (!o) {
      if (n <= size) at = 0;
    } else if (this.head > o.start) {
      // Live: [o.start, head).
      if (n <= size - this.head) at = this.head;
      else if (n <= o.start) at = 0;
    } else if (n <= o.start - this.head) {
      // Live: [o.start, size) and [0, head).
      at = this.head;
    }
    if (at === undefined) {
      const want = Math.max(2 * size, 4 * n);
      if (want > MAX_RING) {
        const own = new Uint8Array(n);
        this.last = { buf: own, start: 0, seq: this.seq++ };
        return { buf: own, at: 0 };
      }
      this.buf = new Uint8Array(want);
      at = 0;
    }
    this.head = at + n;
    this.last = { buf: this.buf, start: at, seq: this.seq++ };
    return { buf: this.buf, at };
  }
}
