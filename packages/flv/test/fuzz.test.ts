/**
 * fast-check: random access-unit sequences (tracks of any supported codec, random timestamps with
 * jumps and steps back, damaged units, retracks) always give a well-formed tag chain: readFlv accepts
 * it (PreviousTagSize consistent with every tag), each track's timestamps never go back, every frame
 * tag's payload lengths add up, and the muxer throws nothing. FLV_FUZZ_RUNS=5000 for a longer run.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { g711Track, type AccessUnit, type Track } from '@opencvr/codec';
import { FlvMuxer, readFlv } from '../src/index.js';
import { videoStream } from './helpers/fixtures.js';

const RUNS = Number(process.env.FLV_FUZZ_RUNS ?? 300);
const H264 = videoStream('h264', 'h264-320x240-25fps-bf2.h264').track;
const H265 = videoStream('h265', 'h265-320x240-25fps-bf2.hevc').track;
const AAC: Track = {
  kind: 'audio',
  codec: 'aac',
  sampleRate: 48000,
  channels: 2,
  config: Uint8Array.of(0x11, 0x90),
  codecString: 'mp4a.40.2',
  clockRate: 48000,
};

const trackSets = fc.constantFrom<Track[]>(
  [H264],
  [H265],
  [AAC],
  [g711Track('pcma')],
  [H264, AAC],
  [H265, g711Track('pcmu')],
  [AAC, H264],
);
const nal = fc.uint8Array({ minLength: 1, maxLength: 40 });
const step = fc.oneof(fc.integer({ min: 0, max: 8000 }), fc.integer({ min: -90000, max: 90000 * 30 }));
const op = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('video' as const),
      step,
      cts: fc.integer({ min: -9000, max: 9000 }),
      keyframe: fc.boolean(),
      damaged: fc.boolean(),
      nalus: fc.array(nal, { maxLength: 4 }),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('audio' as const), step, data: fc.uint8Array({ maxLength: 40 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('retrack' as const), tracks: trackSets }) },
);

describe('FlvMuxer fuzz', () => {
  it('random unit sequences give well-formed tag chains', () => {
    fc.assert(
      fc.property(
        trackSets,
        fc.array(op, { maxLength: 60 }),
        fc.constantFrom('enhanced' as const, 'codec-id-12' as const),
        (tracks, ops, hevc) => {
          const m = new FlvMuxer(tracks, { hevc });
          const chunks = [m.header()];
          let t = 0;
          for (const o of ops) {
            if (o.kind === 'retrack') {
              chunks.push(m.retrack(o.tracks));
              continue;
            }
            t = Math.max(0, t + o.step);
            const unit: AccessUnit =
              o.kind === 'video'
                ? { kind: 'video', dts: t, pts: t + o.cts, keyframe: o.keyframe, damaged: o.damaged, nalus: o.nalus }
                : { kind: 'audio', pts: t, data: o.data };
            chunks.push(...m.push(unit));
          }
          const f = readFlv(Buffer.concat(chunks));
          const last: Record<number, number> = {};
          for (const tag of f.tags) {
            expect([8, 9, 18]).toContain(tag.type);
            if (tag.type !== 18) {
              expect(tag.timestamp).toBeGreaterThanOrEqual(last[tag.type] ?? 0);
              last[tag.type] = tag.timestamp;
            }
            const d = tag.data;
            const legacyFrame = tag.type === 9 && (d[0] & 0x80) === 0 && d[1] === 1;
            const exFrame = tag.type === 9 && (d[0] & 0x80) !== 0 && (d[0] & 0x0f) === 1;
            if (legacyFrame || exFrame) {
              let p = legacyFrame ? 5 : 8;
              while (p < d.length) {
                const n = new DataView(d.buffer, d.byteOffset + p).getUint32(0);
                expect(n).toBeGreaterThan(0);
                p += 4 + n;
              }
              expect(p).toBe(d.length);
            }
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
