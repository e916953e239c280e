/**
 * One media fragment: moof (mfhd, one traf per track run: tfhd with default-base-is-moof, tfdt v1,
 * trun) followed by one mdat holding the runs' samples in order. The output buffer is sized exactly
 * before writing, and sample bytes are copied once, straight into the mdat region.
 */
import type { AccessUnit, Track } from '@opencvr/codec';
import { BoxWriter } from './box.js';
import { keepNal, videoSampleSize } from './nal.js';

export interface FragmentSample {
  unit: AccessUnit;
  /** In the track's timescale. */
  duration: number;
}

export interface TrackRun {
  /** track_ID in the init segment (index + 1). */
  trackId: number;
  track: Track;
  /** tfdt: decode time of the first sample, in the track's timescale. */
  baseDecodeTime: number;
  samples: readonly FragmentSample[];
}

export interface FragmentOptions {
  /** Leave SEI NAL units out of video samples (default: keep them). */
  dropSei?: boolean;
  /**
   * Where the fragment is written: returns a buffer of at least `size` bytes (the fragment is its first
   * `size`). Lets an output reuse its buffers once sent instead of a new allocation per fragment.
   */
  allocate?: (size: number) => Uint8Array;
}

/** Sample flags: sync = depends on no other sample; non-sync = depends on others, is_non_sync_sample. */
export const SYNC_FLAGS = 0x02000000;
export const NON_SYNC_FLAGS = 0x01010000;

const TFHD_DEFAULT_BASE_IS_MOOF = 0x020000;
const TFHD_DEFAULT_SAMPLE_FLAGS = 0x000020;
const TRUN_DATA_OFFSET = 0x000001;
const TRUN_DURATION = 0x000100;
const TRUN_SIZE = 0x000200;
const TRUN_FLAGS = 0x000400;
const TRUN_CTS = 0x000800;

/** Decode timestamp of a unit in its track's clock (audio has no reordering: dts = pts). */
export const dtsOf = (u: AccessUnit): number => (u.kind === 'video' ? u.dts : u.pts);

/** Builds a run from consecutive units: each duration is the next unit's dts minus this one's. */
export function trackRun(
  trackId: number,
  track: Track,
  units: readonly AccessUnit[],
  opts: { nextDts?: number; defaultDuration?: number; baseDecodeTime?: number } = {},
): TrackRun {
  if (!units.length) throw new Error('track run needs at least one unit');
  const samples = units.map((unit, i) => {
    const next = i + 1 < units.length ? dtsOf(units[i + 1]) : opts.nextDts;
    let duration: number;
    if (next !== undefined) duration = next - dtsOf(unit);
    else if (opts.defaultDuration !== undefined) duration = opts.defaultDuration;
    else throw new Error('last unit needs nextDts or defaultDuration');
    return { unit, duration };
  });
  return { trackId, track, baseDecodeTime: opts.baseDecodeTime ?? dtsOf(units[0]), samples };
}

/**
 * What the moof says of one track run, sample by sample (columns of at least `count` entries). Both
 * the unit-based mediaFragment() and the Fragmenter's sample queues describe their runs this way.
 */
export interface RunHeader {
  trackId: number;
  video: boolean;
  baseDecodeTime: number;
  count: number;
  durations: ArrayLike<number>;
  sizes: ArrayLike<number>;
  /** Video: 1 where the sample is a sync sample. */
  keyframes?: ArrayLike<number>;
  /** Video: composition offsets (pts − dts); left out when all are 0. */
  ctos?: ArrayLike<number>;
  /** Sum of the sizes: the run's bytes in the mdat. */
  dataBytes: number;
}

function hasCto(r: RunHeader): boolean {
  if (!r.video || !r.ctos) return false;
  for (let i = 0; i < r.count; i++) if (r.ctos[i] !== 0) return true;
  return false;
}

/** Bytes of moof + the mdat header for these runs (the mdat payload follows: the runs' bytes in order). */
export function fragmentHeaderSize(runs: readonly RunHeader[]): number {
  let moof = 8 + 16;
  for (const r of runs) {
    const perSample = 8 + (r.video ? 4 : 0) + (hasCto(r) ? 4 : 0);
    moof += 8 + (16 + (r.video ? 0 : 4)) + 20 + (12 + 8 + perSample * r.count);
  }
  return moof + 8;
}

/**
 * Writes moof (mfhd, one traf per run: tfhd default-base-is-moof, tfdt v1, trun) and the mdat box
 * header; the caller writes (or hands out) the `dataBytes` of each run after it, in order.
 */
export function writeFragmentHeader(w: BoxWriter, sequence: number, runs: readonly RunHeader[]): void {
  const headerSize = fragmentHeaderSize(runs);
  const mdatSize = 8 + runs.reduce((n, r) => n + r.dataBytes, 0);
  if (mdatSize > 0xffffffff) throw new RangeError('fragment too large for a 32-bit mdat');
  const moofStart = w.pos;
  w.box('moof');
  w.fullBox('mfhd', 0, 0).u32(sequence).end();
  let dataOffset = headerSize; // default-base-is-moof: offsets count from the moof's first byte
  for (const r of runs) {
    const cts = hasCto(r);
    w.box('traf');
    w.fullBox('tfhd', 0, TFHD_DEFAULT_BASE_IS_MOOF | (r.video ? 0 : TFHD_DEFAULT_SAMPLE_FLAGS)).u32(r.trackId);
    if (!r.video) w.u32(SYNC_FLAGS);
    w.end();
    w.fullBox('tfdt', 1, 0).u64(r.baseDecodeTime).end();
    const flags = TRUN_DATA_OFFSET | TRUN_DURATION | TRUN_SIZE | (r.video ? TRUN_FLAGS : 0) | (cts ? TRUN_CTS : 0);
    w.fullBox('trun', cts ? 1 : 0, flags).u32(r.count).i32(dataOffset);
    for (let i = 0; i < r.count; i++) {
      w.u32(r.durations[i]).u32(r.sizes[i]);
      if (r.video) {
        w.u32(r.keyframes?.[i] ? SYNC_FLAGS : NON_SYNC_FLAGS);
        if (cts) w.i32(r.ctos![i]);
      }
    }
    w.end(); // trun
    w.end(); // traf
    dataOffset += r.dataBytes;
  }
  w.end(); // moof
  w.u32(mdatSize).fourcc('mdat');
  if (w.pos - moofStart !== headerSize) throw new Error(`fragment header size mismatch: ${w.pos - moofStart} != ${headerSize}`);
}

/** The run header of unit-based samples (sizes, flags and offsets checked). */
function runHeader(run: TrackRun, dropSei: boolean): RunHeader {
  const { track } = run;
  const n = run.samples.length;
  const durations = new Array<number>(n);
  const sizes = new Array<number>(n);
  const keyframes = new Array<number>(n);
  const ctos = new Array<number>(n);
  let dataBytes = 0;
  for (let i = 0; i < n; i++) {
    const { unit, duration } = run.samples[i];
    if (!Number.isInteger(duration) || duration < 0 || duration > 0xffffffff) {
      throw new RangeError(`track ${run.trackId}: bad sample duration ${duration}`);
    }
    if (unit.kind !== track.kind) throw new Error(`track ${run.trackId}: ${unit.kind} unit in a ${track.kind} track`);
    let size: number;
    if (unit.kind === 'video') {
      size = videoSampleSize(track.codec as 'h264' | 'h265', unit.nalus, dropSei);
      const offset = unit.pts - unit.dts;
      if (!Number.isInteger(offset) || offset < -0x80000000 || offset > 0x7fffffff) {
        throw new RangeError(`track ${run.trackId}: bad composition offset ${offset}`);
      }
      ctos[i] = offset;
      keyframes[i] = unit.keyframe ? 1 : 0;
    } else {
      size = unit.data.length;
      ctos[i] = 0;
      keyframes[i] = 1;
    }
    durations[i] = duration;
    sizes[i] = size;
    dataBytes += size;
  }
  return { trackId: run.trackId, video: track.kind === 'video', baseDecodeTime: run.baseDecodeTime, count: n, durations, sizes, keyframes, ctos, dataBytes };
}

/** moof + mdat for the given runs (runs without samples are left out). */
export function mediaFragment(sequence: number, runs: readonly TrackRun[], opts: FragmentOptions = {}): Uint8Array {
  const dropSei = opts.dropSei ?? false;
  const used = runs.filter((r) => r.samples.length > 0);
  const headers = used.map((r) => runHeader(r, dropSei));
  if (!headers.length) throw new Error('fragment needs at least one sample');
  const total = fragmentHeaderSize(headers) + headers.reduce((n, h) => n + h.dataBytes, 0);
  let into: Uint8Array | undefined;
  if (opts.allocate) {
    into = opts.allocate(total);
    if (into.length < total) throw new RangeError(`allocate(${total}) gave ${into.length} bytes`);
    into = into.subarray(0, total);
  }
  const w = new BoxWriter(total, { fixed: true, into });
  writeFragmentHeader(w, sequence, headers);
  for (const run of used) {
    const codec = run.track.kind === 'video' ? run.track.codec : undefined;
    for (const { unit } of run.samples) {
      if (unit.kind === 'audio') {
        w.bytes(unit.data);
        continue;
      }
      for (const nal of unit.nalus) {
        if (keepNal(codec!, nal, dropSei)) w.u32(nal.length).bytes(nal);
      }
    }
  }
  const out = w.finish();
  if (out.length !== total) throw new Error(`fragment size mismatch: ${out.length} != ${total}`);
  return out;
}
