/**
 * The bytes of a hub's cached GOP, in one buffer per hub that is written again from the start at each
 * keyframe. Sources lend their units (the RTSP ingest hands out views of its depacketiser's buffer,
 * valid for the call only), and the hub keeps the GOP by copying each unit here.
 *
 * Why not one buffer per unit: every unit of a GOP lives a GOP long (seconds), long enough to be
 * promoted, so each one's ArrayBuffer is freed only by a full (mark-compact) collection, and V8 starts
 * one for every few tens of MB of ArrayBuffers allocated. At 16 streams of 4 Mbit/s that was a
 * full collection of the whole heap every 1.3 s and about half of the hub's CPU (bench live, perf). A
 * hub's store is allocated again only when a GOP outgrows it.
 *
 * The units handed out stay valid until the store writes over them, which starts with the next
 * keyframe. A subscriber that keeps bytes beyond its unit() call copies them (see Subscriber.unit).
 */
import type { AccessUnit, VideoAccessUnit } from '@opencvr/codec';

/** First size of a store; it grows to the largest GOP seen, in steps of a quarter. */
const INITIAL_BYTES = 256 * 1024;
const STEP = 64 * 1024;

export class GopStore {
  private buf = new Uint8Array(0);
  private used = 0;
  /** Buffers allocated (the first and every growth), for tests and the stream status. */
  allocations = 0;

  /** The next copies start at the beginning again (a keyframe starts a new GOP, or the cache was dropped). */
  reset(): void {
    this.used = 0;
  }

  /** Frees the buffer (the hub stopped). */
  release(): void {
    this.buf = new Uint8Array(0);
    this.used = 0;
  }

  /** A copy of `unit` whose bytes live in the store. */
  copy(unit: AccessUnit): AccessUnit {
    if (unit.kind === 'audio') {
      const at = this.reserve(unit.data.byteLength);
      const data = this.buf.subarray(at, at + unit.data.byteLength);
      data.set(unit.data);
      return { kind: 'audio', pts: unit.pts, data };
    }
    const nalus = unit.nalus;
    let total = 0;
    for (let i = 0; i < nalus.length; i++) total += nalus[i].byteLength;
    let at = this.reserve(total);
    const buf = this.buf;
    const copies: Uint8Array[] = new Array(nalus.length);
    for (let i = 0; i < nalus.length; i++) {
      const n = nalus[i];
      const view = buf.subarray(at, at + n.byteLength);
      view.set(n);
      copies[i] = view;
      at += n.byteLength;
    }
    const out: VideoAccessUnit = { kind: 'video', pts: unit.pts, dts: unit.dts, keyframe: unit.keyframe, nalus: copies };
    if (unit.damaged) out.damaged = true;
    return out;
  }

  /** Room for `n` bytes; returns where. A store too small is replaced (the units in the old one stay whole). */
  private reserve(n: number): number {
    if (this.used + n > this.buf.length) {
      const size = Math.max(INITIAL_BYTES, Math.ceil(Math.max(this.buf.length * 1.25, this.used + n) / STEP) * STEP);
      this.buf = new Uint8Array(size);
      this.allocations++;
      // This GOP's earlier units stay in the old buffer; the new one is written from the start.
      this.used = 0;
    }
    const at = this.used;
    this.used += n;
    return at;
  }
}
