/**
 * The hub's cached GOP kept as columns: every unit comes back as it was pushed (times, flags, the
 * damaged mark only where set, NAL units or audio frame as views of the same bytes), past the
 * columns' first sizes, and nothing is left after clear().
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AccessUnit } from '@opencvr/codec';
import { GopLog } from '../../src/media/gop-log.js';

/** Chunks the units' bytes lie in, as a GopStore's would. */
const chunks = [new Uint8Array(4096).map((_, i) => i & 0xff), new Uint8Array(4096).map((_, i) => (i * 7) & 0xff)];

const part = fc.record({ chunk: fc.integer({ min: 0, max: 1 }), at: fc.integer({ min: 0, max: 4000 }), length: fc.integer({ min: 0, max: 96 }) });
const view = ({ chunk, at, length }: { chunk: number; at: number; length: number }) => chunks[chunk].subarray(at, at + length);

const unit = fc.oneof(
  fc
    .record({
      pts: fc.integer({ min: 0, max: 2 ** 45 }),
      cts: fc.integer({ min: -9000, max: 9000 }),
      keyframe: fc.boolean(),
      damaged: fc.boolean(),
      nalus: fc.array(part, { maxLength: 7 }),
    })
    .map(({ pts, cts, keyframe, damaged, nalus }): AccessUnit => {
      const u: AccessUnit = { kind: 'video', pts: pts + cts, dts: pts, keyframe, nalus: nalus.map(view) };
      if (damaged) u.damaged = true;
      return u;
    }),
  fc.record({ pts: fc.integer({ min: 0, max: 2 ** 40 }), data: part }).map(({ pts, data }): AccessUnit => ({ kind: 'audio', pts, data: view(data) })),
);

describe('GopLog', () => {
  it('gives back every unit as pushed, as views of the same bytes, across growth and clears', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), unit), { maxLength: 150 }), { minLength: 1, maxLength: 3 }), (gops) => {
        const log = new GopLog();
        for (const gop of gops) {
          log.clear();
          expect(log.length).toBe(0);
          for (const [track, u] of gop) log.push(track, u);
          expect(log.length).toBe(gop.length);
          gop.forEach(([track, u], i) => {
            const got = log.at(i);
            expect(got).toEqual({ track, unit: u });
            const parts = (x: AccessUnit) => (x.kind === 'video' ? x.nalus : [x.data]);
            parts(got.unit).forEach((p, j) => {
              const want = parts(u)[j];
              expect(p.buffer).toBe(want.buffer);
              expect(p.byteOffset).toBe(want.byteOffset);
            });
          });
        }
      }),
      { numRuns: 150 },
    );
  });

  it('keeps a long GOP of many NAL units whole (columns grown several times)', () => {
    const log = new GopLog();
    const units: AccessUnit[] = Array.from({ length: 700 }, (_, i) => ({
      kind: 'video',
      pts: i * 3600,
      dts: i * 3600,
      keyframe: i === 0,
      nalus: Array.from({ length: 1 + (i % 4) }, (_, j) => chunks[(i + j) % 2].subarray(i + j, i + j + 5 + j)),
    }));
    units.forEach((u, i) => log.push(i % 2, u));
    units.forEach((u, i) => expect(log.at(i)).toEqual({ track: i % 2, unit: u }));
  });

  it('has no unit past its length, and none after clear()', () => {
    const log = new GopLog();
    log.push(0, { kind: 'audio', pts: 1, data: chunks[0].subarray(0, 4) });
    expect(() => log.at(1)).toThrow(RangeError);
    log.clear();
    expect(() => log.at(0)).toThrow(RangeError);
  });
});
