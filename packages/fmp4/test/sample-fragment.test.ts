/**
 * The one-sample fragment writer of the live path writes exactly what mediaFragment() writes for a
 * run of one sample (video H.264/H.265 with and without composition offsets, SEI kept or dropped,
 * audio, decode times past 32 bits), refuses what mediaFragment refuses, and LiveFragmenter's
 * headroom puts the same fragment after the requested free bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AccessUnit, VideoTrack } from '@opencvr/codec';
import { LiveFragmenter, mediaFragment } from '../src/index.js';
import { sampleBytes, sampleFragmentSize, writeSampleFragment } from '../src/sample-fragment.js';
import { AAC_TRACK, audio, H264_TRACK, video } from './helpers/units.js';

const H265_TRACK: VideoTrack = { ...H264_TRACK, codec: 'h265', codecString: 'hvc1.1.6.L93.B0' };

/** The reference: mediaFragment of a one-sample run. */
const reference = (seq: number, trackId: number, track: typeof H264_TRACK | typeof AAC_TRACK, base: number, unit: AccessUnit, duration: number, dropSei: boolean) =>
  mediaFragment(seq, [{ trackId, track, baseDecodeTime: base, samples: [{ unit, duration }] }], { dropSei });

function fast(seq: number, trackId: number, track: typeof H264_TRACK | typeof AAC_TRACK, base: number, unit: AccessUnit, duration: number, dropSei: boolean, at = 0) {
  const payload = sampleBytes(track, unit, dropSei);
  const out = new Uint8Array(at + sampleFragmentSize(unit, payload) + 7).fill(0xee);
  writeSampleFragment(out, at, seq, trackId, track, base, unit, duration, dropSei, payload);
  expect([...out.subarray(out.length - 7)]).toEqual(new Array(7).fill(0xee)); // nothing past the end
  return out.subarray(at, out.length - 7);
}

/** A video unit of random NAL units (parameter sets, AUD, SEI, slices) for either codec. */
const videoUnit = fc
  .record({
    types: fc.array(fc.integer({ min: 0, max: 63 }), { minLength: 1, maxLength: 6 }),
    lengths: fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 6, maxLength: 6 }),
    keyframe: fc.boolean(),
    dts: fc.integer({ min: 0, max: 2 ** 40 }),
    cts: fc.integer({ min: -9000, max: 9000 }),
  })
  .map(({ types, lengths, keyframe, dts, cts }) => (h265: boolean): AccessUnit => ({
    kind: 'video',
    dts,
    pts: dts + cts,
    keyframe,
    nalus: types.map((t, i) => {
      const b = new Uint8Array(lengths[i]).map((_, j) => (j * 7 + i) & 0xff);
      if (b.length) b[0] = h265 ? (t << 1) & 0x7e : 0x60 | (t & 0x1f);
      return b;
    }),
  }));

describe('writeSampleFragment', () => {
  it('writes the bytes mediaFragment writes for one sample (random video, both codecs, SEI kept or dropped)', () => {
    fc.assert(
      fc.property(
        videoUnit,
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 2 ** 31 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 2 ** 45 }),
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: 0, max: 40 }),
        (make, h265, dropSei, seq, trackId, base, duration, at) => {
          const track = h265 ? H265_TRACK : H264_TRACK;
          const unit = make(h265);
          expect(fast(seq, trackId, track, base, unit, duration, dropSei, at)).toEqual(reference(seq, trackId, track, base, unit, duration, dropSei));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('writes the bytes mediaFragment writes for an audio frame and for the fixtures units', () => {
    for (const dropSei of [false, true]) {
      const a = audio(100, 37);
      expect(fast(3, 2, AAC_TRACK, 2 ** 33 + 5, a, 1024, dropSei)).toEqual(reference(3, 2, AAC_TRACK, 2 ** 33 + 5, a, 1024, dropSei));
      const key = video(9000, true, { cts: 3600 });
      const p = video(12600, false);
      expect(fast(1, 1, H264_TRACK, 0, key, 3600, dropSei)).toEqual(reference(1, 1, H264_TRACK, 0, key, 3600, dropSei));
      expect(fast(2, 1, H264_TRACK, 3600, p, 3600, dropSei)).toEqual(reference(2, 1, H264_TRACK, 3600, p, 3600, dropSei));
    }
  });

  it('refuses what mediaFragment refuses, and writes nothing then', () => {
    const bad: [AccessUnit, typeof H264_TRACK | typeof AAC_TRACK, number, number][] = [
      [video(0, true), H264_TRACK, 0, -1], // negative duration
      [video(0, true), H264_TRACK, 0, 1.5], // fractional duration
      [video(0, true), H264_TRACK, 0, 2 ** 32], // duration past 32 bits
      [audio(0), H264_TRACK, 0, 1024], // audio in a video track
      [video(0, true, { cts: 2 ** 31 }), H264_TRACK, 0, 3600], // composition offset past int32
      [video(0, true), H264_TRACK, -1, 3600], // negative decode time
    ];
    for (const [unit, track, base, duration] of bad) {
      expect(() => reference(1, 1, track, base, unit, duration, false)).toThrow();
      const payload = sampleBytes(track, unit, false);
      const out = new Uint8Array(sampleFragmentSize(unit, payload));
      expect(() => writeSampleFragment(out, 0, 1, 1, track, base, unit, duration, false, payload)).toThrow();
      expect(out.every((b) => b === 0)).toBe(true);
    }
    const unit = video(0, true);
    const payload = sampleBytes(H264_TRACK, unit, false);
    expect(() => writeSampleFragment(new Uint8Array(sampleFragmentSize(unit, payload) - 1), 0, 1, 1, H264_TRACK, 0, unit, 3600, false, payload)).toThrow(RangeError);
  });
});

describe('LiveFragmenter headroom', () => {
  it('puts each fragment (per unit and batched) after the free bytes asked for, bytes unchanged', () => {
    const taken: Uint8Array[] = [];
    const plain = new LiveFragmenter([H264_TRACK, AAC_TRACK]);
    const roomy = new LiveFragmenter([H264_TRACK, AAC_TRACK], {
      headroom: 10,
      allocate: (n) => {
        const b = new Uint8Array(n + 3);
        taken.push(b);
        return b;
      },
    });
    const units: [AccessUnit, number][] = [
      [video(0, true), 0],
      [audio(0), 1],
      [video(3600, false, { cts: 3600 }), 0],
      [audio(1024), 1],
    ];
    const batchA = plain.batch(units.slice(0, 2).map(([unit, track]) => ({ unit, track })))!;
    const batchB = roomy.batch(units.slice(0, 2).map(([unit, track]) => ({ unit, track })))!;
    expect(batchB.data).toEqual(batchA.data);
    expect(batchB.data.byteOffset).toBe(10);
    for (const [unit, track] of units.slice(2)) {
      const a = plain.push(unit, track)!;
      const b = roomy.push(unit, track)!;
      expect(b.data).toEqual(a.data);
      expect(b.data.byteOffset).toBe(10);
      expect(b.data.buffer).toBe(taken[taken.length - 1].buffer);
      expect({ ...b, data: undefined, parts: undefined }).toEqual({ ...a, data: undefined, parts: undefined });
    }
  });
});
