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
 * Samples by reference (pushRef, 'parts' output only): a video unit whose bytes the caller keeps
 * valid until the queue is told otherwise (the hub's GOP store keeps a GOP's units until the next
 * keyframe) is not copied; the queue keeps where its NAL units lie (buffer, offset, length: no object
 * per NAL that would live long enough to be promoted) and hands them out as parts, each after a 4-byte
 * length, so the writer's copy is the only one (the recorder at 64 streams: this copy was a fifth of
 * its CPU). detach() copies them in
 * when the caller's bytes are about to go; a copied push after them does so too, so the samples
 * are always [copied ones in buf][ones by reference].
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
  /** Samples [0, copied) have their bytes in buf; [copied, count) are held by reference. */
  private copied = 0;
  /**
   * The NAL units kept of the samples held by reference, in order, as numbers: their ArrayBuffer (a
   * GopStore chunk of the hub, alive anyway), offset and length; refNals[i - copied] of them per
   * sample. Not the unit's NAL array and views: held up to a fragment (1 s), they outlived two
   * scavenges and were promoted (~0.2 MB/s at 64 recorded streams, the most of what the recorder
   * promoted), which is why the hub's GOP cache keeps columns too (gop-log.ts).
   */
  private refParts = 0;
  private refBuffer: ArrayBufferLike[] = [];
  private refOffset = new Int32Array(MIN_SAMPLES);
  private refLength = new Int32Array(MIN_SAMPLES);
  private refNals = new Int32Array(MIN_SAMPLES);
  /** Where takeParts writes the 4-byte lengths of samples held by reference. */
  private lengths = new Uint8Array(0);
  /**
   * Views of `lengths`, 4 bytes each, made once and handed out again at every take (the previous
   * take's parts are void by then): a new view per NAL unit was the recorder's largest young garbage
   * (~130 KB/s at 64 streams), which made V8 scavenge more often than a live-only server.
   */
  private lengthViews: Uint8Array[] = [];

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
    this.copied = 0;
    this.dropRefs(0);
  }

  /** Samples held by reference (not copied in yet). */
  get referenced(): number {
    return this.count - this.copied;
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
    if (this.copied < this.count) this.detach(); // keeps the copied samples first
    const size = unit.kind === 'video' ? this.sampleSize(unit.nalus) : unit.data.length;
    this.reserve(size);
    if (unit.kind === 'video') this.copyNals(unit.nalus, this.used);
    else this.buf.set(unit.data, this.used);
    this.used += size;
    this.copied++;
    this.add(unit, size);
  }

  /**
   * Holds a video unit by reference: its NAL units must stay unchanged until they are taken out or
   * detach() is called. Only for fragments handed out as parts (take() refuses such samples).
   */
  pushRef(unit: AccessUnit): void {
    if (unit.kind !== 'video') throw new TypeError('pushRef takes video units');
    SampleQueue.check(unit);
    const size = this.sampleSize(unit.nalus);
    this.reserve(0);
    const codec = this.codec ?? 'h264';
    let nals = 0;
    for (const nal of unit.nalus) {
      if (!keepNal(codec, nal, this.dropSei)) continue;
      const k = this.refParts++;
      if (k === this.refOffset.length) {
        this.refOffset = grow(this.refOffset, new Int32Array(2 * k));
        this.refLength = grow(this.refLength, new Int32Array(2 * k));
      }
      this.refBuffer[k] = nal.buffer;
      this.refOffset[k] = nal.byteOffset;
      this.refLength[k] = nal.length;
      nals++;
    }
    const r = this.count - this.copied;
    if (r === this.refNals.length) this.refNals = grow(this.refNals, new Int32Array(2 * r));
    this.refNals[r] = nals;
    this.add(unit, size);
  }

  /** Forgets the first `parts` NAL units held by reference (all of them: 0 buffers pinned). */
  private dropRefs(parts: number) {
    const left = parts ? this.refParts - parts : 0;
    if (left > 0) {
      this.refBuffer.copyWithin(0, parts, this.refParts);
      this.refOffset.copyWithin(0, parts, this.refParts);
      this.refLength.copyWithin(0, parts, this.refParts);
    }
    this.refBuffer.fill(undefined as unknown as ArrayBufferLike, left, this.refParts);
    this.refParts = left;
  }

  /** Copies the samples held by reference in: the caller's bytes may change after this. */
  detach(): void {
    if (this.copied === this.count) return;
    let bytes = 0;
    for (let i = this.copied; i < this.count; i++) bytes += this.sizeCol[i];
    this.reserve(bytes, false);
    const b = this.buf;
    let at = this.used;
    for (let k = 0; k < this.refParts; k++) {
      const n = this.refLength[k];
      writeLength(b, at, n);
      b.set(new Uint8Array(this.refBuffer[k], this.refOffset[k], n), at + 4);
      at += 4 + n;
    }
    this.used = at;
    this.dropRefs(0);
    this.copied = this.count;
  }

  /** The columns of one more sample. */
  private add(unit: AccessUnit, size: number) {
    const i = this.count;
    if (unit.kind === 'video') {
      this.dtsCol[i] = unit.dts;
      this.keyCol[i] = unit.keyframe ? 1 : 0;
      this.ctoCol[i] = unit.pts - unit.dts;
    } else {
      this.dtsCol[i] = unit.pts;
      this.keyCol[i] = 1;
      this.ctoCol[i] = 0;
    }
    this.sizeCol[i] = size;
    this.count = i + 1;
  }

  /** MP4 sample bytes of these NAL units: a 4-byte length and the unit, for each one kept. */
  private sampleSize(nalus: readonly Uint8Array[]): number {
    const codec = this.codec ?? 'h264';
    let size = 0;
    for (const nal of nalus) if (keepNal(codec, nal, this.dropSei)) size += 4 + nal.length;
    return size;
  }

  /** Writes the sample of these NAL units into buf at `at` (room reserved); returns its end. */
  private copyNals(nalus: readonly Uint8Array[], at: number): number {
    const codec = this.codec ?? 'h264';
    const b = this.buf;
    for (const nal of nalus) {
      if (!keepNal(codec, nal, this.dropSei)) continue;
      const n = nal.length;
      writeLength(b, at, n);
      b.set(nal, at + 4);
      at += 4 + n;
    }
    return at;
  }

  /** Bytes of the first `n` samples. */
  bytesOf(n: number): number {
    let total = 0;
    for (let i = 0; i < n; i++) total += this.sizeCol[i];
    return total;
  }

  /**
   * Takes the first `n` samples out: returns a view of their bytes, valid until the next take (new
   * samples go to the other buffer). The columns of what is held back move to the front. Refuses
   * samples held by reference (see takeParts).
   */
  take(n: number): Uint8Array {
    if (n > this.copied) throw new Error('take: samples held by reference; use takeParts');
    return this.takeCopied(n);
  }

  /**
   * Takes the first `n` samples out as parts (appended to `out`): a view of the copied ones' bytes,
   * then for each one held by reference its NAL units, each after its 4-byte length. Valid until the
   * next take.
   */
  takeParts(n: number, out: Uint8Array[]): void {
    const fromBuf = Math.min(n, this.copied);
    const nRefs = n - fromBuf;
    let nals = 0;
    if (nRefs) {
      // The lengths go in a buffer of their own: the parts view it until the next take.
      for (let r = 0; r < nRefs; r++) nals += this.refNals[r];
      if (this.lengths.length < 4 * nals) {
        this.lengths = new Uint8Array(Math.max(256, 8 * nals));
        this.lengthViews = [];
      }
    }
    // Columns first shift as if the copied ones were all that is taken; the referenced ones follow.
    const copiedBytes = this.takeCopied(fromBuf, nRefs);
    if (copiedBytes.length) out.push(copiedBytes);
    if (!nRefs) return;
    const len = this.lengths;
    const views = this.lengthViews;
    // A view per NAL unit made here dies young: the writer copies the parts at once.
    for (let k = 0; k < nals; k++) {
      const n = this.refLength[k];
      writeLength(len, 4 * k, n);
      if (k === views.length) views.push(len.subarray(4 * k, 4 * k + 4));
      out.push(views[k], new Uint8Array(this.refBuffer[k], this.refOffset[k], n));
    }
    this.dropRefs(nals);
    // The per-sample counts of what is held back move to the front (a cut takes them all, but for a unit held back).
    const left = this.count - this.copied;
    if (left > 0) this.refNals.copyWithin(0, nRefs, nRefs + left);
  }

  /**
   * Takes the first `n` samples out, all copied ones, and `alsoRefs` referenced ones right after them
   * (their bytes are not in buf): returns a view of the copied ones' bytes.
   */
  private takeCopied(n: number, alsoRefs = 0): Uint8Array {
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
    const gone = n + alsoRefs;
    const held = this.count - gone;
    if (held > 0) {
      this.dtsCol.copyWithin(0, gone, this.count);
      this.ctoCol.copyWithin(0, gone, this.count);
      this.sizeCol.copyWithin(0, gone, this.count);
      this.keyCol.copyWithin(0, gone, this.count);
    }
    this.count = held;
    this.copied -= n;
    return out;
  }

  /** Room for `size` more bytes in buf and (unless `sample` is false) for one more sample's columns. */
  private reserve(size: number, sample = true) {
    if (this.used + size > this.buf.length) {
      const next = sampleBytes.take(Math.max(this.buf.length * 2, this.used + size + (size >> 1)));
      next.set(this.buf.subarray(0, this.used));
      sampleBytes.give(this.buf); // views handed out by take() point into `other`, never into this one
      this.buf = next;
    }
    if (sample && this.count === this.dtsCol.length) {
      const cap = this.count * 2;
      this.dtsCol = grow(this.dtsCol, new Float64Array(cap));
      this.ctoCol = grow(this.ctoCol, new Int32Array(cap));
      this.sizeCol = grow(this.sizeCol, new Uint32Array(cap));
      this.keyCol = grow(this.keyCol, new Uint8Array(cap));
    }
  }
}

/** A NAL unit's 4-byte big-endian length, as MP4 samples carry it (bytes set one by one: no view object). */
function writeLength(b: Uint8Array, at: number, n: number) {
  b[at] = n >>> 24;
  b[at + 1] = (n >>> 16) & 0xff;
  b[at + 2] = (n >>> 8) & 0xff;
  b[at + 3] = n & 0xff;
}

function grow<T extends Float64Array | Int32Array | Uint32Array | Uint8Array>(from: T, to: T): T {
  to.set(from as never);
  return to;
}
