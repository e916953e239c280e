/**
 * The hub's cached GOP as columns: for each unit its track, times and flags in typed arrays, and
 * where each of its NAL units (or its audio frame) lies: the ArrayBuffer (a GopStore chunk, which
 * lives on anyway), offset and length. A late viewer gets unit objects rebuilt from them.
 *
 * Why not keep the unit objects: they live a GOP (2 s), long enough for V8 to promote them (the unit,
 * its NAL array, a view per NAL, the cache entry: ~300 bytes per frame), and the old generation they
 * fill is what starts the major collections, whose marking runs over the whole heap. At 64 streams,
 * not keeping the GOP at all saved ~15 % of the hub's CPU against keeping its unit objects, most of it
 * on the GC's threads; these columns save 5-11 % (bench/live/ab-dual.ts, docs/architecture.md).
 * Numbers in typed arrays are no objects, and the buffers they point into exist anyway, so the
 * per-frame objects now die young.
 */
import type { AccessUnit } from '@opencvr/codec';

const VIDEO = 1;
const KEYFRAME = 2;
const DAMAGED = 4;

export interface LoggedUnit {
  track: number;
  unit: AccessUnit;
}

export class GopLog {
  /** Units logged. */
  length = 0;
  private track = new Uint8Array(64);
  private flags = new Uint8Array(64);
  private pts = new Float64Array(64);
  private dts = new Float64Array(64);
  /** Index of the unit's first part in the part columns; the unit's parts end where the next unit's begin. */
  private firstPart = new Int32Array(65);
  /** Parts (NAL units, or the audio frame): their buffer, offset and length. */
  private parts = 0;
  private partBuffer: ArrayBufferLike[] = [];
  private partOffset = new Int32Array(256);
  private partLength = new Int32Array(256);

  push(track: number, unit: AccessUnit): void {
    const i = this.length;
    if (i >= this.track.length) this.growUnits(); // firstPart doubles from 65: always longer than track
    this.track[i] = track;
    this.pts[i] = unit.pts;
    if (unit.kind === 'video') {
      this.dts[i] = unit.dts;
      this.flags[i] = VIDEO | (unit.keyframe ? KEYFRAME : 0) | (unit.damaged ? DAMAGED : 0);
      for (let j = 0; j < unit.nalus.length; j++) this.part(unit.nalus[j]);
    } else {
      this.dts[i] = unit.pts;
      this.flags[i] = 0;
      this.part(unit.data);
    }
    this.length = i + 1;
    this.firstPart[i + 1] = this.parts;
  }

  /** Unit i, rebuilt: views of the same bytes as the unit that was pushed. */
  at(i: number): LoggedUnit {
    if (i < 0 || i >= this.length) throw new RangeError(`no unit ${i} in a GOP of ${this.length}`);
    const from = this.firstPart[i];
    const to = this.firstPart[i + 1];
    const flags = this.flags[i];
    if (!(flags & VIDEO)) {
      return { track: this.track[i], unit: { kind: 'audio', pts: this.pts[i], data: this.view(from) } };
    }
    const nalus = new Array<Uint8Array>(to - from);
    for (let k = from; k < to; k++) nalus[k - from] = this.view(k);
    const unit: AccessUnit = { kind: 'video', pts: this.pts[i], dts: this.dts[i], keyframe: (flags & KEYFRAME) !== 0, nalus };
    if (flags & DAMAGED) unit.damaged = true;
    return { track: this.track[i], unit };
  }

  /** Forgets every unit (and the buffers it pointed into). */
  clear(): void {
    this.partBuffer.fill(undefined as unknown as ArrayBufferLike, 0, this.parts);
    this.length = 0;
    this.parts = 0;
  }

  private view(k: number): Uint8Array {
    return new Uint8Array(this.partBuffer[k], this.partOffset[k], this.partLength[k]);
  }

  private part(bytes: Uint8Array): void {
    const k = this.parts;
    if (k >= this.partOffset.length) {
      this.partOffset = grown(this.partOffset, Int32Array);
      this.partLength = grown(this.partLength, Int32Array);
    }
    this.partBuffer[k] = bytes.buffer;
    this.partOffset[k] = bytes.byteOffset;
    this.partLength[k] = bytes.length;
    this.parts = k + 1;
  }

  private growUnits(): void {
    this.track = grown(this.track, Uint8Array);
    this.flags = grown(this.flags, Uint8Array);
    this.pts = grown(this.pts, Float64Array);
    this.dts = grown(this.dts, Float64Array);
    this.firstPart = grown(this.firstPart, Int32Array);
  }
}

function grown<T extends Uint8Array | Int32Array | Float64Array>(a: T, Ctor: new (n: number) => T): T {
  const b = new Ctor(a.length * 2);
  b.set(a);
  return b;
}
