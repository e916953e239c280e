/**
 * One sample as a fragment of its own: the live output's hot path (a fragment per frame per viewer).
 *
 * The bytes are exactly those mediaFragment() writes for a run of one sample (fragment.ts: moof with
 * mfhd, one traf of tfhd default-base-is-moof, tfdt v1 and trun; then mdat), and the tests hold the
 * two together. mediaFragment() builds per-run header columns, a box writer and a DataView for every
 * fragment; at 64 live streams that was a fifth of what the hub allocated, and the garbage collector
 * scavenges in proportion. Here the layout of one sample is fixed, so its fields are stored straight
 * into the output buffer and nothing is allocated.
 */
import type { AccessUnit, Track } from '@opencvr/codec';
import { NON_SYNC_FLAGS, SYNC_FLAGS } from './fragment.js';
import { keepNal, videoSampleSize } from './nal.js';

const MOOF = 0x6d6f6f66;
const MFHD = 0x6d666864;
const TRAF = 0x74726166;
const TFHD = 0x74666864;
const TFDT = 0x74666474;
const TRUN = 0x7472756e;
const MDAT = 0x6d646174;

const TFHD_DEFAULT_BASE_IS_MOOF = 0x020000;
const TFHD_DEFAULT_SAMPLE_FLAGS = 0x000020;
// data offset, duration and size; video adds sample flags (0x400) and, with an offset, cts (0x800).
const TRUN_AUDIO = 0x000301;
const TRUN_VIDEO = 0x000701;
const TRUN_CTS = 0x000800;

/** Bytes of the moof and the mdat header before the sample (video with/without a composition offset, audio). */
const headerBytes = (video: boolean, cts: boolean) => 8 + 16 + 8 + (video ? 16 : 20) + 20 + 20 + (video ? 4 : 0) + (cts ? 4 : 0) + 8 + 8;

/** The sample's bytes in the mdat: each kept NAL unit with a 4-byte length, or the audio frame. */
export function sampleBytes(track: Track, unit: AccessUnit, dropSei: boolean): number {
  if (unit.kind === 'audio') return unit.data.length;
  // A video unit in an audio track is refused by writeSampleFragment; its size here is only a guess.
  return videoSampleSize(track.kind === 'video' ? track.codec : 'h264', unit.nalus, dropSei);
}

/** Bytes of the whole fragment of `unit` whose sample is `payload` bytes (sampleBytes). */
export function sampleFragmentSize(unit: AccessUnit, payload: number): number {
  const cts = unit.kind === 'video' && unit.pts !== unit.dts;
  return headerBytes(unit.kind === 'video', cts) + payload;
}

function put32(out: Uint8Array, at: number, v: number): void {
  out[at] = v >>> 24;
  out[at + 1] = (v >>> 16) & 0xff;
  out[at + 2] = (v >>> 8) & 0xff;
  out[at + 3] = v & 0xff;
}

/** Box header: size, type. */
function boxAt(out: Uint8Array, at: number, size: number, type: number): void {
  put32(out, at, size);
  put32(out, at + 4, type);
}

/**
 * Writes the fragment of one sample into out[at, at + sampleFragmentSize(unit, payload)): the same
 * bytes as mediaFragment(sequence, [{ trackId, track, baseDecodeTime, samples: [{ unit, duration }] }]).
 * Throws what mediaFragment throws on a bad duration, composition offset or kind, before writing.
 */
export function writeSampleFragment(
  out: Uint8Array,
  at: number,
  sequence: number,
  trackId: number,
  track: Track,
  baseDecodeTime: number,
  unit: AccessUnit,
  duration: number,
  dropSei: boolean,
  payload: number,
): void {
  if (!Number.isInteger(duration) || duration < 0 || duration > 0xffffffff) throw new RangeError(`track ${trackId}: bad sample duration ${duration}`);
  if (unit.kind !== track.kind) throw new Error(`track ${trackId}: ${unit.kind} unit in a ${track.kind} track`);
  if (!Number.isSafeInteger(baseDecodeTime) || baseDecodeTime < 0) throw new RangeError(`u64 out of range: ${baseDecodeTime}`);
  const video = unit.kind === 'video';
  const offset = video ? unit.pts - unit.dts : 0;
  if (!Number.isInteger(offset) || offset < -0x80000000 || offset > 0x7fffffff) throw new RangeError(`track ${trackId}: bad composition offset ${offset}`);
  const cts = offset !== 0;
  const header = headerBytes(video, cts);
  if (payload + 8 > 0xffffffff) throw new RangeError('fragment too large for a 32-bit mdat');
  if (out.length < at + header + payload) throw new RangeError(`sample fragment needs ${header + payload} bytes at ${at}, buffer has ${out.length}`);

  const moofSize = header - 8;
  const tfhdSize = video ? 16 : 20;
  const trunSize = 20 + (video ? 12 : 8) + (cts ? 4 : 0);
  const trafSize = 8 + tfhdSize + 20 + trunSize;
  let p = at;
  boxAt(out, p, moofSize, MOOF);
  boxAt(out, p + 8, 16, MFHD);
  put32(out, p + 16, 0); // version 0, flags 0
  put32(out, p + 20, sequence);
  p += 24;
  boxAt(out, p, trafSize, TRAF);
  boxAt(out, p + 8, tfhdSize, TFHD);
  put32(out, p + 16, TFHD_DEFAULT_BASE_IS_MOOF | (video ? 0 : TFHD_DEFAULT_SAMPLE_FLAGS));
  put32(out, p + 20, trackId);
  p += 24;
  if (!video) {
    put32(out, p, SYNC_FLAGS);
    p += 4;
  }
  boxAt(out, p, 20, TFDT);
  put32(out, p + 8, 0x01000000); // version 1
  put32(out, p + 12, Math.floor(baseDecodeTime / 0x1_0000_0000));
  put32(out, p + 16, baseDecodeTime >>> 0);
  p += 20;
  boxAt(out, p, trunSize, TRUN);
  put32(out, p + 8, (cts ? 0x01000000 : 0) | (video ? TRUN_VIDEO | (cts ? TRUN_CTS : 0) : TRUN_AUDIO));
  put32(out, p + 12, 1); // sample count
  put32(out, p + 16, header); // data offset from the moof's first byte: the mdat payload
  put32(out, p + 20, duration);
  put32(out, p + 24, payload);
  p += 28;
  if (video) {
    put32(out, p, unit.keyframe ? SYNC_FLAGS : NON_SYNC_FLAGS);
    p += 4;
    if (cts) {
      put32(out, p, offset | 0);
      p += 4;
    }
  }
  boxAt(out, p, payload + 8, MDAT);
  p += 8;
  if (unit.kind === 'audio') {
    out.set(unit.data, p);
    return;
  }
  const codec = track.kind === 'video' ? track.codec : 'h264';
  for (const nal of unit.nalus) {
    if (!keepNal(codec, nal, dropSei)) continue;
    put32(out, p, nal.length);
    out.set(nal, p + 4);
    p += 4 + nal.length;
  }
  if (p !== at + header + payload) throw new Error(`sample fragment size mismatch: ${p - at} != ${header + payload}`);
}
