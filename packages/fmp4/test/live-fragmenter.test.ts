/**
 * LiveFragmenter: one fragment per unit the moment it arrives, a batch (cached GOP) as one fragment
 * on the same timeline, decode time continuous, dropping before the first keyframe and after damage,
 * one fragmenter carrying on another's timeline (`after`, a camera that came back);
 * the stream of fragments read back by Debian's ffprobe (timestamps equal the input's); random
 * scenarios never throw and keep every track's decode time continuous.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { AccessUnit } from '@opencvr/codec';
import { LiveFragmenter, type Fragment } from '../src/index.js';
import { readFragments } from './helpers/boxes.js';
import { cleanup, decodeErrors, ffprobe, hasFfmpeg, hasLibx265, tmpFile } from './helpers/ffprobe.js';
import { arrivalOrder, concat, type Input } from './helpers/mux.js';
import { aacStream, alawStream, videoStream } from './helpers/streams.js';
import { AAC_TRACK, audio, H264_TRACK, video } from './helpers/units.js';

afterAll(cleanup);

const frames = (n: number, gop: number, start = 0, step = 3600) =>
  Array.from({ length: n }, (_, i) => video(start + i * step, i % gop === 0));

/** Every unit of `inputs` pushed on its own, in arrival order; the first `batched` units as one batch. */
function liveMux(inputs: Input[], batched = 0) {
  const f = new LiveFragmenter(inputs.map((i) => i.track));
  const order = arrivalOrder(inputs);
  const fragments: Fragment[] = [];
  const first = batched ? f.batch(order.slice(0, batched)) : undefined;
  if (first) fragments.push(first);
  for (const { unit, track } of order.slice(batched)) {
    const out = f.push(unit, track);
    if (out) fragments.push(out);
  }
  return { init: f.init, fragments, file: concat([f.init, ...fragments.map((x) => x.data)]) };
}

/** Per track: the fragments' tfdt must equal the previous tfdt plus the previous durations. */
function expectContinuous(data: Uint8Array[]) {
  const next = new Map<number, number>();
  for (const buf of data) {
    for (const frag of readFragments(buf)) {
      for (const traf of frag.trafs) {
        const want = next.get(traf.trackId);
        if (want !== undefined) expect(traf.baseDecodeTime).toBe(want);
        next.set(traf.trackId, traf.baseDecodeTime + traf.samples.reduce((n, s) => n + s.duration!, 0));
      }
    }
  }
}

describe('LiveFragmenter', () => {
  it('writes one fragment per unit at once, each sample lasting the step into it', () => {
    const f = new LiveFragmenter([H264_TRACK]);
    const units = [video(1000, true), video(4600, false), video(8200, false), video(15400, false), video(19000, true)];
    const out = units.map((u) => f.push(u)!);
    expect(out.map((x) => x.sequence)).toEqual([1, 2, 3, 4, 5]);
    expect(out.map((x) => x.keyframe)).toEqual([true, false, false, false, true]);
    const parsed = out.map((x) => readFragments(x.data)[0]);
    expect(parsed.map((p) => p.sequence)).toEqual([1, 2, 3, 4, 5]);
    expect(parsed.map((p) => p.trafs[0].baseDecodeTime)).toEqual([0, 3600, 7200, 10800, 18000]);
    // The first duration is one 25 fps frame; then the step into each sample (a lost frame: 7200).
    expect(parsed.map((p) => p.trafs[0].samples[0].duration)).toEqual([3600, 3600, 3600, 7200, 3600]);
    expect(out[4].startTime).toBe(0.2);
    expectContinuous(out.map((x) => x.data));
  });

  it('drops units before the first keyframe, audio included, and after a damaged unit until a keyframe', () => {
    const f = new LiveFragmenter([H264_TRACK, AAC_TRACK]);
    expect(f.push(video(0, false), 0)).toBeUndefined();
    expect(f.push(audio(100), 1)).toBeUndefined();
    expect(f.push(video(3600, true), 0)?.keyframe).toBe(true);
    const a = f.push(audio(1000), 1)!;
    expect(a.keyframe).toBe(false); // audio alone never counts as a start point when there is video
    expect(a.tracks).toEqual([{ trackId: 2, baseDecodeTime: 1000 - Math.round((3600 / 90000) * 16000), sampleCount: 1, duration: 1024 }]);
    expect(f.push({ ...video(7200, false), damaged: true }, 0)).toBeUndefined();
    expect(f.push(video(10800, false), 0)).toBeUndefined();
    expect(f.push(video(14400, true), 0)?.keyframe).toBe(true);
  });

  it('a batch (a cached GOP) is one fragment with a traf per track, on the timeline per-unit fragments continue', () => {
    const v = frames(10, 50, 90000);
    const a = Array.from({ length: 12 }, (_, i) => audio(16000 + i * 1024));
    const inputs: Input[] = [
      { track: H264_TRACK, units: v },
      { track: AAC_TRACK, units: a },
    ];
    const order = arrivalOrder(inputs);
    const split = order.findIndex((x) => x.unit === v[6]);
    const batched = liveMux(inputs, split);
    const single = liveMux(inputs);
    expect(batched.fragments[0].keyframe).toBe(true);
    expect(batched.fragments[0].tracks.map((t) => [t.trackId, t.sampleCount])).toEqual([
      [1, 6],
      [2, order.slice(0, split).filter((x) => x.track === 1).length],
    ]);
    expect(batched.fragments).toHaveLength(1 + order.length - split);
    expectContinuous(batched.fragments.map((x) => x.data));
    // Same samples, same times, whether batched or not.
    const samples = (fs: Fragment[]) =>
      fs.flatMap((x) => readFragments(x.data)[0].trafs.flatMap((t) => t.samples.map((s, i) => [t.trackId, t.baseDecodeTime, i, s.duration, s.size])));
    const times = (fs: Fragment[]) => {
      const out: string[] = [];
      for (const x of fs)
        for (const t of readFragments(x.data)[0].trafs) {
          let d = t.baseDecodeTime;
          for (const s of t.samples) {
            out.push(`${t.trackId}@${d}+${s.duration}/${s.size}`);
            d += s.duration!;
          }
        }
      return out.sort();
    };
    expect(times(batched.fragments)).toEqual(times(single.fragments));
    expect(samples(single.fragments)).toHaveLength(order.length);
  });

  it('a batch with nothing playable is no fragment', () => {
    const f = new LiveFragmenter([H264_TRACK, AAC_TRACK]);
    expect(f.batch([])).toBeUndefined();
    expect(f.batch([{ track: 0, unit: video(0, false) }, { track: 1, unit: audio(0) }])).toBeUndefined();
  });

  it('rejects a unit for a track of the other kind', () => {
    const f = new LiveFragmenter([H264_TRACK]);
    expect(() => f.push(audio(0))).toThrow(/no audio track/);
    expect(() => f.push(video(0, true), 1)).toThrow(/no video track at 1/);
  });

  it('a step backwards or past 10 s keeps the last good duration (decode time never goes back)', () => {
    const f = new LiveFragmenter([H264_TRACK]);
    const d = [0, 3000, 1000, 1000 + 90000 * 20, 1000 + 90000 * 20 + 3000].map((t, i) => f.push(video(t, i === 0))!);
    expect(d.map((x) => x.tracks[0].duration)).toEqual([3600, 3000, 3000, 3000, 3000]);
    expectContinuous(d.map((x) => x.data));
  });

  it('after: a fragmenter for a camera that came back carries on the last one, the hole closed, the tracks in step', () => {
    const first = new LiveFragmenter([H264_TRACK, AAC_TRACK]);
    // 1 s of video at 25 fps and AAC (16 kHz, 1024 a frame: the audio ends last, at 1.024 s).
    for (let i = 0; i < 25; i++) first.push(video(i * 3600, i === 0), 0);
    for (let i = 0; i < 16; i++) first.push(audio(i * 1024), 1);
    expect(first.end).toBeCloseTo(1.024, 4);
    // Back 3 s later on the hub's clock (times carried on), the audio 10 ms after the keyframe.
    const next = new LiveFragmenter([H264_TRACK, AAC_TRACK], { after: first });
    const k = next.push(video(4 * 90000, true), 0)!;
    const a = next.push(audio(4 * 16000 + 160), 1)!;
    const p = next.push(video(4 * 90000 + 3600, false), 0)!;
    const [kf, af, pf] = [k, a, p].map((x) => readFragments(x.data)[0]);
    expect(kf.trafs[0].baseDecodeTime / 90000).toBeCloseTo(first.end, 4);
    expect(af.trafs[0].baseDecodeTime / 16000 - kf.trafs[0].baseDecodeTime / 90000).toBeCloseTo(0.01, 4);
    expect(pf.trafs[0].baseDecodeTime - kf.trafs[0].baseDecodeTime).toBe(3600);
    // Fragment numbers run on from the last fragmenter's.
    expect(kf.sequence).toBe(25 + 16 + 1);
    expect([af.sequence, pf.sequence]).toEqual([kf.sequence + 1, kf.sequence + 2]);
  });

  it('random streams: never throws, one fragment per accepted unit, continuous decode time', () => {
    const unit = fc.record({
      video: fc.boolean(),
      step: fc.integer({ min: -5000, max: 20000 }),
      keyframe: fc.boolean(),
      damaged: fc.boolean(),
      cts: fc.integer({ min: 0, max: 9000 }),
    });
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 120 }), fc.integer({ min: 0, max: 30 }), (units, batchSize) => {
        const f = new LiveFragmenter([H264_TRACK, AAC_TRACK]);
        let vt = 0;
        let at = 0;
        const items = units.map((u) => {
          if (u.video) {
            vt = Math.max(0, vt + u.step);
            return { track: 0, unit: { ...video(vt, u.keyframe, { cts: u.cts }), damaged: u.damaged && !u.keyframe } as AccessUnit };
          }
          at = Math.max(0, at + Math.round(u.step / 5));
          return { track: 1, unit: audio(at) as AccessUnit };
        });
        const out: Fragment[] = [];
        const b = f.batch(items.slice(0, batchSize));
        if (b) out.push(b);
        for (const it of items.slice(batchSize)) {
          const x = f.push(it.unit, it.track);
          if (x) out.push(x);
        }
        expectContinuous(out.map((x) => x.data));
        for (const x of out) expect(readFragments(x.data)).toHaveLength(1);
      }),
      { numRuns: 200 },
    );
  });
});

const H264 = 'h264-320x240-25fps-bf2.h264';
const H265 = 'h265-320x240-25fps-bf2.hevc';
const START_S = 1.4;

describe.skipIf(!hasFfmpeg)('ffprobe reads back a stream of per-unit fragments', () => {
  function check(inputs: Input[], file: Uint8Array, name: string, audioCodec?: string) {
    const path = tmpFile(name, file);
    const probe = ffprobe(path);
    const video = inputs[0];
    const origin = (video.units[0].kind === 'video' ? video.units[0].dts : 0) / 90000;
    const vFrames = probe.frames.filter((x) => x.stream_index === 0);
    expect(vFrames).toHaveLength(video.units.length);
    const shift = Math.round(origin * 90000);
    // Steady 25 fps input: output timestamps are the input's, rebased to the first keyframe.
    expect(vFrames.map((x) => x.pts)).toEqual(video.units.map((u) => (u.kind === 'video' ? u.pts : 0) - shift).sort((a, b) => a - b));
    expect(vFrames.filter((x) => x.key_frame).map((x) => x.pts)).toEqual(
      video.units.filter((u) => u.kind === 'video' && u.keyframe).map((u) => (u.kind === 'video' ? u.pts : 0) - shift),
    );
    if (audioCodec) {
      const a = inputs[1];
      const rate = a.track.kind === 'audio' ? a.track.sampleRate : 1;
      expect(probe.streams[1]).toMatchObject({ codec_type: 'audio', codec_name: audioCodec });
      const aFrames = probe.frames.filter((x) => x.stream_index === 1);
      expect(aFrames[0].pts).toBe((a.units[0].kind === 'audio' ? a.units[0].pts : 0) - Math.round(origin * rate));
      if (audioCodec === 'aac') expect(aFrames).toHaveLength(a.units.length);
    }
    expect(decodeErrors(path)).toBe('');
  }

  it('H.264 (B-frames) + AAC 48 kHz, one fragment per unit', () => {
    const inputs = [videoStream('h264', H264), aacStream('aac-48k-stereo.adts', START_S * 48000)];
    const { file, fragments } = liveMux(inputs);
    expect(fragments).toHaveLength(inputs[0].units.length + inputs[1].units.length);
    expect(fragments.filter((f) => f.tracks.length !== 1)).toHaveLength(0);
    check(inputs, file, 'live-h264-aac.mp4', 'aac');
  });

  it('H.264 + AAC with the first GOP batched (a new viewer), then per unit', () => {
    const inputs = [videoStream('h264', H264), aacStream('aac-48k-stereo.adts', START_S * 48000)];
    const order = arrivalOrder(inputs);
    const split = order.findIndex((x, i) => i > 0 && x.unit.kind === 'video' && x.unit.keyframe);
    const { file, fragments } = liveMux(inputs, split);
    expect(fragments[0].tracks.map((t) => t.trackId)).toEqual([1, 2]);
    check(inputs, file, 'live-batch.mp4', 'aac');
  });

  it.skipIf(!hasLibx265)('H.265 + G.711 A-law', () => {
    const inputs = [videoStream('h265', H265), alawStream('g711a-8k-mono.alaw', START_S * 8000)];
    const { file } = liveMux(inputs);
    check(inputs, file, 'live-h265-alaw.mp4', 'pcm_alaw');
  });
});
