/** mediaFragment / trackRun: the moof fields, where data_offset points, and what goes into mdat. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mediaFragment, NON_SYNC_FLAGS, parameterSetsChanged, SYNC_FLAGS, trackRun } from '../src/index.js';
import { readFragments, shape, walk } from './helpers/boxes.js';
import { AAC_TRACK, audio, H264_TRACK, video } from './helpers/units.js';

afterEach(() => vi.restoreAllMocks());

const lengthPrefixed = (nalus: Uint8Array[]) => {
  const out: number[] = [];
  for (const n of nalus)
    out.push(n.length >>> 24, (n.length >>> 16) & 0xff, (n.length >>> 8) & 0xff, n.length & 0xff, ...n);
  return out;
};

describe('mediaFragment', () => {
  const v = [video(1000, true, { cts: 7200 }), video(4600, false, { cts: -3600 }), video(8200, false)];
  const a = [audio(500, 30), audio(1524, 31)];
  const runs = [
    trackRun(1, H264_TRACK, v, { nextDts: 11800, baseDecodeTime: 2 ** 33 }),
    trackRun(2, AAC_TRACK, a, { defaultDuration: 1024, baseDecodeTime: 0 }),
  ];
  const out = mediaFragment(42, runs);

  it('is moof(mfhd, traf, traf) + mdat whose sizes add up', () => {
    const boxes = walk(out);
    expect(shape(boxes)).toEqual([
      ['moof', ['mfhd', ['traf', ['tfhd', 'tfdt', 'trun']], ['traf', ['tfhd', 'tfdt', 'trun']]]],
      'mdat',
    ]);
    expect(boxes[0].size + boxes[1].size).toBe(out.length);
  });

  it('carries sequence, track ids, 64-bit decode times, durations, flags and signed offsets', () => {
    const [f] = readFragments(out);
    expect(f.sequence).toBe(42);
    const [tv, ta] = f.trafs;
    expect(tv).toMatchObject({
      trackId: 1,
      tfhdFlags: 0x020000,
      baseDecodeTime: 2 ** 33,
      trunVersion: 1,
      trunFlags: 0xf01,
    });
    expect(tv.samples.map((s) => [s.duration, s.flags, s.cts])).toEqual([
      [3600, SYNC_FLAGS, 7200],
      [3600, NON_SYNC_FLAGS, -3600],
      [3600, NON_SYNC_FLAGS, 0],
    ]);
    expect(ta).toMatchObject({
      trackId: 2,
      tfhdFlags: 0x020020,
      defaultSampleFlags: SYNC_FLAGS,
      baseDecodeTime: 0,
      trunVersion: 0,
      trunFlags: 0x301,
    });
    expect(ta.samples).toEqual([
      { duration: 1024, size: 30 },
      { duration: 1024, size: 31 },
    ]);
  });

  it('data_offset points at each run first sample; sizes cover mdat exactly', () => {
    const [f] = readFragments(out);
    const [tv, ta] = f.trafs;
    expect(tv.dataOffset).toBe(f.moof.size + 8);
    const videoBytes = tv.samples.reduce((n, s) => n + s.size!, 0);
    expect(ta.dataOffset).toBe(tv.dataOffset + videoBytes);
    expect(ta.dataOffset + 61).toBe(f.moof.size + f.mdat.size);
    expect(out.subarray(ta.dataOffset, ta.dataOffset + 30)).toEqual(a[0].data);
  });

  it('video samples are length-prefixed NAL units without SPS, PPS or AUD; SEI is kept unless dropped', () => {
    const [f] = readFragments(out);
    const first = f.trafs[0];
    const keep = v[0].nalus.filter((n) => ![7, 8, 9].includes(n[0] & 0x1f));
    expect(keep.map((n) => n[0] & 0x1f)).toEqual([6, 5]);
    expect([...out.subarray(first.dataOffset, first.dataOffset + first.samples[0].size!)]).toEqual(
      lengthPrefixed(keep),
    );
    const noSei = readFragments(mediaFragment(1, [runs[0]], { dropSei: true }))[0];
    expect(noSei.trafs[0].samples[0].size).toBe(4 + 50);
  });

  it('H.265 drops VPS/SPS/PPS/AUD by its own NAL type field', () => {
    const hevc = { ...H264_TRACK, codec: 'h265' as const, vps: new Uint8Array([0x40, 1]) };
    const t = (type: number, len: number) => Object.assign(new Uint8Array(len), { 0: type << 1, 1: 1 });
    const unit = {
      kind: 'video' as const,
      dts: 0,
      pts: 0,
      keyframe: true,
      nalus: [t(35, 3), t(32, 9), t(33, 9), t(34, 9), t(39, 6), t(19, 40)],
    };
    const f = readFragments(mediaFragment(1, [trackRun(1, hevc, [unit], { defaultDuration: 3000 })]))[0];
    expect(f.trafs[0].samples[0].size).toBe(4 + 6 + 4 + 40);
  });

  it('copies each kept NAL unit once, straight into one exactly sized buffer', () => {
    const set = vi.spyOn(Uint8Array.prototype, 'set');
    const data = mediaFragment(7, runs);
    const kept = v.flatMap((u) => u.nalus.filter((n) => ![7, 8, 9].includes(n[0] & 0x1f)));
    expect(set.mock.calls.map((c) => c[0])).toEqual([...kept, ...a.map((u) => u.data)]);
    expect(data.byteOffset).toBe(0);
    expect(data.buffer.byteLength).toBe(data.length);
  });

  it('leaves out runs without samples and refuses a fragment without any', () => {
    const empty = { trackId: 2, track: AAC_TRACK, baseDecodeTime: 0, samples: [] };
    expect(shape(walk(mediaFragment(1, [runs[0], empty])))[0]).toEqual([
      'moof',
      ['mfhd', ['traf', ['tfhd', 'tfdt', 'trun']]],
    ]);
    expect(() => mediaFragment(1, [empty])).toThrow(/at least one sample/);
  });

  it('refuses bad durations, composition offsets and units of the wrong kind', () => {
    const bad = (samples: { unit: ReturnType<typeof video> | ReturnType<typeof audio>; duration: number }[]) => () =>
      mediaFragment(1, [{ trackId: 1, track: H264_TRACK, baseDecodeTime: 0, samples }]);
    expect(bad([{ unit: video(0, true), duration: -1 }])).toThrow(/duration/);
    expect(bad([{ unit: video(0, true), duration: 1.5 }])).toThrow(/duration/);
    expect(bad([{ unit: video(0, true, { cts: 2 ** 31 }), duration: 1 }])).toThrow(/composition/);
    expect(bad([{ unit: audio(0), duration: 1 }])).toThrow(/audio unit in a video track/);
  });
});

describe('trackRun', () => {
  it('takes each duration from the next dts, the last from nextDts or the default', () => {
    const units = [video(0, true), video(3000, false), video(6500, false)];
    expect(trackRun(1, H264_TRACK, units, { nextDts: 9000 }).samples.map((s) => s.duration)).toEqual([
      3000, 3500, 2500,
    ]);
    const r = trackRun(1, H264_TRACK, units, { defaultDuration: 3333 });
    expect(r.samples.map((s) => s.duration)).toEqual([3000, 3500, 3333]);
    expect(r.baseDecodeTime).toBe(0);
    expect(() => trackRun(1, H264_TRACK, units)).toThrow(/nextDts or defaultDuration/);
    expect(() => trackRun(1, H264_TRACK, [])).toThrow();
  });

  it('audio uses pts as its decode time', () => {
    const r = trackRun(2, AAC_TRACK, [audio(100), audio(1124)], { nextDts: 2148 });
    expect([r.baseDecodeTime, ...r.samples.map((s) => s.duration)]).toEqual([100, 1024, 1024]);
  });
});

describe('parameterSetsChanged', () => {
  it('is false for the track own parameter sets or none, true for a different SPS or PPS', () => {
    expect(parameterSetsChanged(H264_TRACK, video(0, true))).toBe(false); // carries the track's SPS/PPS
    expect(parameterSetsChanged(H264_TRACK, video(0, false))).toBe(false);
    const sps = H264_TRACK.sps.slice();
    sps[sps.length - 1] ^= 1;
    expect(parameterSetsChanged(H264_TRACK, { ...video(0, true), nalus: [sps, H264_TRACK.pps] })).toBe(true);
    expect(
      parameterSetsChanged(H264_TRACK, { ...video(0, true), nalus: [H264_TRACK.sps, new Uint8Array([0x68, 1])] }),
    ).toBe(true);
  });

  it('H.265 compares VPS, SPS and PPS by the H.265 NAL type', () => {
    const track = {
      ...H264_TRACK,
      codec: 'h265' as const,
      vps: new Uint8Array([0x40, 1, 7]),
      sps: new Uint8Array([0x42, 1, 7]),
      pps: new Uint8Array([0x44, 1, 7]),
    };
    const unit = (nalus: Uint8Array[]) => ({ kind: 'video' as const, dts: 0, pts: 0, keyframe: true, nalus });
    expect(parameterSetsChanged(track, unit([track.vps, track.sps, track.pps, new Uint8Array([0x26, 1, 0])]))).toBe(
      false,
    );
    expect(parameterSetsChanged(track, unit([new Uint8Array([0x40, 1, 8])]))).toBe(true);
  });
});
