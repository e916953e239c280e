/**
 * Properties over random streams (sizes, durations, keyframe patterns, composition offsets, missing
 * tracks, fragment limits): every fragment reads back through the test walker with sizes that add up,
 * data offsets at the right mdat bytes, the samples fed (after the first keyframe) in order and byte
 * for byte, and decode times that run on without gaps.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AccessUnit, Track } from '@opencvr/codec';
import { dtsOf, Fragmenter, type Fragment } from '../src/index.js';
import { readFragments } from './helpers/boxes.js';
import { AAC_TRACK, H264_TRACK } from './helpers/units.js';

const videoUnit = fc.record({
  duration: fc.integer({ min: 1, max: 9000 }),
  keyframe: fc.boolean(),
  cts: fc.integer({ min: -3600, max: 9000 }),
  extra: fc.array(fc.record({ type: fc.constantFrom(6, 7, 8, 9, 1), length: fc.integer({ min: 1, max: 64 }) }), {
    maxLength: 4,
  }),
  slice: fc.integer({ min: 1, max: 400 }),
});
const audioUnit = fc.record({ duration: fc.integer({ min: 1, max: 4000 }), length: fc.integer({ min: 1, max: 200 }) });
const scenario = fc.record({
  video: fc.option(
    fc.record({ start: fc.integer({ min: 0, max: 2 ** 40 }), units: fc.array(videoUnit, { maxLength: 60 }) }),
  ),
  audio: fc.option(
    fc.record({ start: fc.integer({ min: 0, max: 2 ** 36 }), units: fc.array(audioUnit, { maxLength: 80 }) }),
  ),
  maxFragmentDuration: fc.constantFrom(0.05, 0.1, 0.5, 2),
  rebase: fc.boolean(),
});

function bytes(first: number, length: number, seed: number): Uint8Array {
  const b = new Uint8Array(length);
  b[0] = first;
  for (let i = 1; i < length; i++) b[i] = (seed + i * 31) & 0xff;
  return b;
}

/** The sample bytes the muxer should write for a unit. */
function sampleBytes(u: AccessUnit): number[] {
  if (u.kind === 'audio') return [...u.data];
  const out: number[] = [];
  for (const n of u.nalus) {
    if ([7, 8, 9].includes(n[0] & 0x1f)) continue;
    out.push(0, (n.length >> 16) & 0xff, (n.length >> 8) & 0xff, n.length & 0xff, ...n);
  }
  return out;
}

describe('Fragmenter over random streams', () => {
  it('always writes a box tree the walker reads back consistently', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        fc.pre(s.video !== null || s.audio !== null);
        const tracks: Track[] = [];
        const inputs: { track: number; unit: AccessUnit; t: number }[] = [];
        let seed = 0;
        if (s.video) {
          const track = tracks.push(H264_TRACK) - 1;
          let dts = s.video.start;
          for (const v of s.video.units) {
            const nalus = [
              ...v.extra.map((e) => bytes(0x60 | e.type, e.length, seed++)),
              bytes(0x60 | (v.keyframe ? 5 : 1), v.slice, seed++),
            ];
            inputs.push({
              track,
              unit: { kind: 'video', dts, pts: dts + v.cts, keyframe: v.keyframe, nalus },
              t: dts / 90000,
            });
            dts += v.duration;
          }
        }
        if (s.audio) {
          const track = tracks.push(AAC_TRACK) - 1;
          let pts = s.audio.start;
          for (const a of s.audio.units) {
            inputs.push({ track, unit: { kind: 'audio', pts, data: bytes(0xff, a.length, seed++) }, t: pts / 16000 });
            pts += a.duration;
          }
        }
        inputs.sort((x, y) => x.t - y.t || x.track - y.track);

        // What must come out: with video, nothing before its first keyframe (in arrival order).
        const firstKey = s.video ? inputs.findIndex((i) => i.unit.kind === 'video' && i.unit.keyframe) : 0;
        const expected = tracks.map((_, k) =>
          firstKey < 0
            ? []
            : inputs
                .slice(firstKey)
                .filter((i) => i.track === k)
                .map((i) => i.unit),
        );

        const f = new Fragmenter(tracks, { maxFragmentDuration: s.maxFragmentDuration, rebase: s.rebase });
        const fragments: Fragment[] = [];
        for (const i of inputs) fragments.push(...f.push(i.unit, i.track));
        fragments.push(...f.flush());

        const got = tracks.map(() => [] as number[][]);
        const nextDecode = new Map<number, number>();
        fragments.forEach((frag, n) => {
          expect(frag.sequence).toBe(n + 1);
          const parsed = readFragments(frag.data);
          expect(parsed).toHaveLength(1);
          const [p] = parsed;
          expect(p.moof.size + p.mdat.size).toBe(frag.data.length);
          expect(p.sequence).toBe(frag.sequence);
          let offset = p.moof.size + 8;
          p.trafs.forEach((traf, k) => {
            expect(traf.dataOffset).toBe(offset);
            for (const sample of traf.samples) {
              expect(sample.duration).toBeGreaterThan(0);
              got[traf.trackId - 1].push([...frag.data.subarray(offset, offset + sample.size!)]);
              offset += sample.size!;
            }
            const info = frag.tracks[k];
            const duration = traf.samples.reduce((x, y) => x + y.duration!, 0);
            expect(info).toEqual({
              trackId: traf.trackId,
              baseDecodeTime: traf.baseDecodeTime,
              sampleCount: traf.samples.length,
              duration,
            });
            if (nextDecode.has(traf.trackId)) expect(traf.baseDecodeTime).toBe(nextDecode.get(traf.trackId));
            else if (!s.rebase) expect(traf.baseDecodeTime).toBe(dtsOf(expected[traf.trackId - 1][0]));
            nextDecode.set(traf.trackId, traf.baseDecodeTime + duration);
          });
          expect(offset).toBe(frag.data.length);
          // The limit holds when steps are regular; the last sample may be one irregular step longer.
          expect(frag.duration).toBeLessThanOrEqual(
            s.maxFragmentDuration * 2 + Math.max(9000 / 90000, 4000 / 16000) + 1e-9,
          );
        });
        tracks.forEach((_, k) => expect(got[k]).toEqual(expected[k].map(sampleBytes)));
      }),
      { numRuns: Number(process.env.FMP4_FUZZ_RUNS ?? 300) },
    );
  });
});
