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

interface Plan {
  run: TrackRun;
  sizes: number[];
  dataBytes: number;
  cts: boolean;
  trunSize: number;
  trafSize: number;
}

function plan(run: TrackRun, dropSei: boolean): Plan {
  const { track } = run;
  const sizes: number[] = [];
  let dataBytes = 0;
  let cts = false;
  for (const { unit, duration } of run.samples) {
    if (!Number.isInteger(duration) || duration < 0 || duration > 0xffffffff) {
      throw new RangeError(`track ${run.trackId}: bad sample duration ${duration}`);
    }
    if (unit.kind !== track.kind) throw new Error(`track ${run.trackId}: ${unit.kind} unit in a ${track.kind} track`);
    let size: number;
    if (unit.kind === 'video') {
      size = videoSampleSize(track.codec as 'h264' | 'h265', unit.nalus, dropSei);
      const offset = unit.pts - unit.dts;
      if (offset !== 0) {
        if (!Number.isInteger(offset) || offset < -0x80000000 || offset > 0x7fffffff) {
          throw new RangeError(`track ${run.trackId}: bad composition offset ${offset}`);
        }
        cts = true;
      }
    } else size = unit.data.length;
    sizes.push(size);
    dataBytes += size;
  }
  const video = track.kind === 'video';
  const perSample = 8 + (video ? 4 : 0) + (cts ? 4 : 0);
  const trunSize = 12 + 8 + perSample * sizes.length;
  const tfhdSize = 16 + (video ? 0 : 4);
  const tfdtSize = 20;
  return { run, sizes, dataBytes, cts, trunSize, trafSize: 8 + tfhdSize + tfdtSize + trunSize };
}

/** moof + mdat for the given runs (runs without samples are left out). */
export function mediaFragment(sequence: number, runs: readonly TrackRun[], opts: FragmentOptions = {}): Uint8Array {
  const dropSei = opts.dropSei ?? false;
  const plans = runs.filter((r) => r.samples.length > 0).map((r) => plan(r, dropSei));
  if (!plans.length) throw new Error('fragment needs at least one sample');
  const moofSize = 8 + 16 + plans.reduce((n, p) => n + p.trafSize, 0);
  const mdatSize = 8 + plans.reduce((n, p) => n + p.dataBytes, 0);
  if (mdatSize > 0xffffffff) throw new RangeError('fragment too large for a 32-bit mdat');
  const total = moofSize + mdatSize;
  let into: Uint8Array | undefined;
  if (opts.allocate) {
    into = opts.allocate(total);
    if (into.length < total) throw new RangeError(`allocate(${total}) gave ${into.length} bytes`);
    into = into.subarray(0, total);
  }
  const w = new BoxWriter(total, { fixed: true, into });

  w.box('moof');
  w.fullBox('mfhd', 0, 0).u32(sequence).end();
  let dataOffset = moofSize + 8; // default-base-is-moof: offsets count from the moof's first byte
  for (const p of plans) {
    const { run } = p;
    const video = run.track.kind === 'video';
    w.box('traf');
    w.fullBox('tfhd', 0, TFHD_DEFAULT_BASE_IS_MOOF | (video ? 0 : TFHD_DEFAULT_SAMPLE_FLAGS)).u32(run.trackId);
    if (!video) w.u32(SYNC_FLAGS);
    w.end();
    w.fullBox('tfdt', 1, 0).u64(run.baseDecodeTime).end();
    const flags = TRUN_DATA_OFFSET | TRUN_DURATION | TRUN_SIZE | (video ? TRUN_FLAGS : 0) | (p.cts ? TRUN_CTS : 0);
    w.fullBox('trun', p.cts ? 1 : 0, flags)
      .u32(run.samples.length)
      .i32(dataOffset);
    run.samples.forEach(({ unit, duration }, i) => {
      w.u32(duration).u32(p.sizes[i]);
      if (unit.kind === 'video') {
        w.u32(unit.keyframe ? SYNC_FLAGS : NON_SYNC_FLAGS);
        if (p.cts) w.i32(unit.pts - unit.dts);
      }
    });
    w.end(); // trun
    w.end(); // traf
    dataOffset += p.dataBytes;
  }
  w.end(); // moof

  w.box('mdat');
  for (const p of plans) {
    const codec = p.run.track.kind === 'video' ? p.run.track.codec : undefined;
    for (const { unit } of p.run.samples) {
      if (unit.kind === 'audio') {
        w.bytes(unit.data);
        continue;
      }
      for (const nal of unit.nalus) {
        if (keepNal(codec!, nal, dropSei)) w.u32(nal.length).bytes(nal);
      }
    }
  }
  w.end();
  const out = w.finish();
  if (out.length !== total) throw new Error(`fragment size mismatch: ${out.length} != ${total}`);
  return out;
}
