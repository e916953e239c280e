/**
 * The recorder's unit ring: copies held by a muxer are never overwritten while held, whatever the
 * sizes (including ones larger than the ring) and the order in which tracks release them; released
 * space is reused (the ring does not grow without bound for a steady stream).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { AccessUnit } from '@opencvr/codec';
import { UnitRing } from '../../src/media/outputs/recorder-ring.js';

const bytesOf = (u: AccessUnit) => (u.kind === 'audio' ? [u.data] : u.nalus);
function unitOf(track: number, sizes: number[], fill: number): AccessUnit {
  const parts = sizes.map((n, i) => new Uint8Array(n).fill((fill + i) & 0xff));
  return track === 0 ? { kind: 'video', pts: fill, dts: fill, keyframe: false, nalus: parts } : { kind: 'audio', pts: fill, data: parts[0] ?? new Uint8Array(0) };
}

function intact(u: AccessUnit, fill: number, every: boolean): boolean {
  return bytesOf(u).every((b, i) => {
    const v = (fill + i) & 0xff;
    if (every) return b.every((x) => x === v);
    return !b.length || (b[0] === v && b[b.length - 1] === v && b[b.length >> 1] === v);
  });
}

describe('recorder unit ring', () => {
  it('keeps every held copy intact under random pushes and releases', () => {
    const op = fc.oneof(
      fc.record({ push: fc.integer({ min: 0, max: 1 }), sizes: fc.array(fc.integer({ min: 0, max: 40_000 }), { minLength: 1, maxLength: 3 }) }),
      fc.record({ release: fc.integer({ min: 0, max: 1 }), count: fc.integer({ min: 0, max: 6 }) }),
      fc.constant({ reset: true as const }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const ring = new UnitRing(64 * 1024);
        const held: { copy: AccessUnit; fill: number }[][] = [[], []];
        let n = 0;
        for (const o of ops) {
          if ('push' in o) {
            const u = unitOf(o.push, o.sizes, n++);
            const copy = ring.copy(u);
            ring.kept(o.push);
            held[o.push].push({ copy, fill: n - 1 });
          } else if ('release' in o) {
            ring.release(o.release, o.count);
            held[o.release].splice(0, o.count);
          } else {
            ring.reset();
            held[0] = [];
            held[1] = [];
          }
          // Every part is filled with one value: its ends and middle after each step, every byte at the end.
          for (const q of held) for (const h of q) expect(intact(h.copy, h.fill, false)).toBe(true);
        }
        for (const q of held) for (const h of q) expect(intact(h.copy, h.fill, true)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('reuses released space: a steady stream stays in a small ring', () => {
    const ring = new UnitRing(256 * 1024);
    const held: number[] = [];
    for (let i = 0; i < 5000; i++) {
      ring.copy(unitOf(0, [i % 25 === 0 ? 60_000 : 15_000], i));
      ring.kept(0);
      held.push(i);
      if (held.length > 25) {
        ring.release(0, 25);
        held.splice(0, 25);
      }
    }
    expect(ring.capacity).toBeLessThanOrEqual(2 * 1024 * 1024);
  });
});
