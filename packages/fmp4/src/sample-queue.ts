/**
 * The samples a Fragmenter holds for one track until their fragment is cut: sample bytes copied in as
 * they arrive, already in MP4 form (4-byte length + NAL unit; audio as it is), and the numbers the moof
 * needs (dts, composition offset, size, sync flag) in typed columns.
 *
 * Why not keep the access units: a fragment holds up to 2 s of units. Kept as objects, each unit, its
 * NAL array and views survive the young generation and are promoted, and the ingest's shared packet
 * blocks they point into stay alive with them: at 16 recorded streams that drove V8 full collections.
 * Copied here, the units die young, nothing per sample is an object, and the mdat bytes exist once:
 * the fragment's payload is a view of this queue's buffer (written to a file with writev, or copied
 * once into a contiguous fragment).
 *
 * Two byte buffers alternate: when samples are taken out, the ones held back move to the other
 * buffer and new samples go there, so views of the taken bytes stay valid until the next take.
 *
 * The byte buffers come from a pool shared by every queue of the process and go back to it when a
 * queue outgrows them or is released (Fragmenter.release()). A recorder starts a Fragmenter per
 * segment: without the pool each one grew two buffers from 64 KiB to a fragment's size again, a few
 * MB of ArrayBuffers per stream and segment, which V8 frees only by full collections (a Mark-Compact
 * every ~130 ms at 64 recorded streams).
 */
import { BytePool, type AccessUnit, type VideoCodec } from '@opencvr/codec';
import { keepNal } from './nal.js';

const MIN_BYTES = 64 * 1024;
const MIN_SAMPLES = 64;
/** A capacity hint above this is not taken at the start (a stray huge fragment must not pin it). */
const MAX_START_BYTES = 8 * 1024 * 1024;

/** The byte buffers of every SampleQueue of the process. */
export const sampleBytes = new BytePool(MIN_BYTES, 64 * 1024 * 1024);

export class SampleQueue {
  /** Samples held. */
  count = 0;
  /** Sample bytes of the held samples: buf[0, used). */
  private buf: Uint8Array;
  private other: Uint8Array;
  private used = 0;
  private dtsCol = new Float64Array(MIN_SAMPLES);
  private ctoCol = new Int32Array(MIN_SAMPLES);
  private sizeCol = new Uint32Array(MIN_SAMPLES);
  private keyCol = new Uint8Array(MIN_SAMPLES);

  /**
   * `capacity`: bytes to start each buffer with (a recorder passes what its previous segment's queue
   * grew to: a new segment then takes the buffers the last one gave back, instead of growing from
   * 64 KiB by copies again).
   */
  constructor(
    private readonly codec: VideoCodec | undefined,
    private readonly dropSei: boolean,
    capacity = MIN_BYTES,
  ) {
    const bytes = Math.max(MIN_BYTES, Math.min(capacity, MAX_START_BYTES));
    this.buf = sampleBytes.take(bytes);
    this.other = sampleBytes.take(bytes);
  }

  /** Bytes of the larger of the two buffers: what the samples of a fragment needed so far. */
  get capacity(): number {
    return Math.max(this.buf.length, this.other.length);
  }

  /**
   * Gives the byte buffers back to the pool: the queue is not used again, and nothing views bytes it
   * handed out (a fragment's parts are written before this).
   */
  release(): void {
    sampleBytes.give(this.buf);
    sampleBytes.give(this.other);
    this.buf = new Uint8Array(0);
    this.other = new Uint8Array(0);
    this.used = 0;
    this.count = 0;
  }

  dts(i: number): number {
    return this.dtsCol[i];
  }
  /** Composition offset (pts − dts) of sample i. */
  cto(i: number): number {
    return this.ctoCol[i];
  }
  size(i: number): number {
    return this.sizeCol[i];
  }
  keyframe(i: number): boolean {
    return this.keyCol[i] === 1;
  }
  /** Columns for the moof writer (valid until the next push or take). */
  get sizes(): Uint32Array {
    return this.sizeCol;
  }
  get ctos(): Int32Array {
    return this.ctoCol;
  }
  get keyframes(): Uint8Array {
    return this.keyCol;
  }

  /** Throws RangeError for a unit MP4 cannot hold (a composition offset outside 32 bits). */
  static check(unit: AccessUnit): void {
    if (unit.kind !== 'video') return;
    const cto = unit.pts - unit.dts;
    if (!Number.isInteger(cto) || cto < -0x80000000 || cto > 0x7fffffff) throw new RangeError(`bad composition offset ${cto}`);
  }

  /** Copies a unit in (checked first: a refused unit leaves nothing behind). */
  push(unit: AccessUnit): void {
    SampleQueue.check(unit);
    let size = 0;
    let cto = 0;
    if (unit.kind === 'video') {
      const codec = this.codec ?? 'h264';
      for (const nal of unit.nalus) if (keepNal(codec, nal, this.dropSei)) size += 4 + nal.length;
      cto = unit.pts - unit.dts;
    } else size = unit.data.length;
    this.reserve(size);
    const i = this.count;
    if (unit.kind === 'video') {
      const codec = this.codec ?? 'h264';
      let at = this.used;
      const b = this.buf;
      for (const nal of unit.nalus) {
        if (!keepNal(codec, nal, this.dropSei)) continue;
        const n = nal.length;
        b[at] = n >>> 24;
        b[at + 1] = (n >>> 16) & 0xff;
        b[at + 2] = (n >>> 8) & 0xff;
        b[at + 3] = n & 0xff;
        b.set(nal, at + 4);
        at += 4 + n;
      }
      this.dtsCol[i] = unit.dts;
      this.keyCol[i] = unit.keyframe ? 1 : 0;
    } else {
      this.buf.set(unit.data, this.used);
      this.dtsCol[i] = unit.pts;
      this.keyCol[i] = 1;
    }
    this.ctoCol[i] = cto;
    this.sizeCol[i] = size;
    this.used += size;
    this.count = i + 1;
  }

  /** Bytes of the first `n` samples. */
  bytesOf(n: number): number {
    let total = 0;
    for (let i = 0; i < n; i++) total += this.sizeCol[i];
    return total;
  }

  /**
   * Takes the first `n` samples out: returns a view of their bytes, valid until the next take (new
   * samples go to the other buffer). The columns of what is held back move to the front.
   */
  take(n: number): Uint8Array {
    const bytes = this.bytesOf(n);
    const out = this.buf.subarray(0, bytes);
    const rest = this.used - bytes;
    if (this.other.length < Math.max(rest, MIN_BYTES) || this.other.length > 4 * Math.max(this.buf.length, MIN_BYTES)) {
      // `other` holds the bytes handed out by the previous take(), which are void now.
      sampleBytes.give(this.other);
      this.other = sampleBytes.take(Math.max(MIN_BYTES, rest * 2));
    }
    this.other.set(this.buf.subarray(bytes, this.used), 0);
    [this.buf, this.other] = [this.other, this.buf];
    this.used = rest;
    const held = this.count - n;
    if (held > 0) {
      this.dtsCol.copyWithin(0, n, this.count);
      this.ctoCol.copyWithin(0, n, this.count);
      this.sizeCol.copyWithin(0, n, this.count);
      this.keyCol.copyWithin(0, n, this.count);
    }
    this.count = held;
    return out;
  }

  /** Room for one more sample of `size` bytes. */
  private reserve(size: number) {
    if (this.used + size > this.buf.length) {
      const next = sampleBytes.take(Math.max(this.buf.length * 2, this.used + size + (size >> 1)));
      next.set(this.buf.subarray(0, this.used));
      sampleBytes.give(this.buf); // views handed out by take() point into `other`, never into this one
      this.buf = next;
    }
    if (this.count === this.dtsCol.length) {
      const cap = this.count * 2;
      this.dtsCol = grow(this.dtsCol, new Float64Array(cap));
      this.ctoCol = grow(this.ctoCol, new Int32Array(cap));
      this.sizeCol = grow(this.sizeCol, new Uint32Array(cap));
      this.keyCol = grow(this.keyCol, new Uint8Array(cap));
    }
  }
}

function grow<T extends Float64Array | Int32Array | Uint32Array | Uint8Array>(from: T, to: T): T {
  to.set(from as never);
  return to;
}
