/**
 * The Rescaler (gb/records/rescale.ts): a device at Scale× keeps the recording's timestamps, the
 * output timeline advances by the input's progression divided by the scale, re-anchored without a
 * jump at each change; seeks and backward jumps go on from the last output; never backwards.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rescaler } from '../../src/gb/records/rescale.js';

const F = 3600; // one frame at 25 fps, 90 kHz

describe('Rescaler', () => {
  it('1×: the output starts at 0 and follows the input', () => {
    const r = new Rescaler();
    const out = [0, 1, 2, 3].map((i) => r.map(900000 + i * F, 900000 + i * F));
    expect(out.map((o) => o.dts)).toEqual([0, F, 2 * F, 3 * F]);
    expect(r.runSeconds).toBeCloseTo((3 * F) / 90000);
  });

  it('4× after two frames: the next frames advance a quarter; pts offsets shrink too', () => {
    const r = new Rescaler();
    r.map(0, 0);
    r.map(F, F);
    r.setScale(4);
    const a = r.map(2 * F, 2 * F);
    const b = r.map(3 * F + 4 * F, 3 * F);
    const c = r.map(7 * F, 7 * F);
    expect(a.dts).toBe(2 * F);
    expect(b.dts).toBe(2 * F + F / 4);
    expect(b.pts - b.dts).toBe(F);
    expect(c.dts).toBe(2 * F + (5 * F) / 4);
    expect(r.current).toBe(4);
  });

  it('a seek (rebase) or a backward jump goes on one frame after the last output', () => {
    const r = new Rescaler();
    r.map(0, 0);
    r.map(F, F);
    r.rebase();
    expect(r.map(90000 * 120, 90000 * 120).dts).toBe(2 * F);
    expect(r.runSeconds).toBe(0);
    expect(r.map(90000 * 120 + F, 90000 * 120 + F).dts).toBe(3 * F);
    // The device's PTS loop back (a new file): no stall, no jump back.
    expect(r.map(0, 0).dts).toBe(4 * F);
  });

  it('property: the output dts only grows, whatever the input and the scale changes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ dts: fc.integer({ min: 0, max: 2 ** 40 }), scale: fc.option(fc.constantFrom(0.5, 1, 2, 4, 8)), rebase: fc.boolean() }), { maxLength: 200 }),
        (steps) => {
          const r = new Rescaler();
          let last = -1;
          for (const s of steps) {
            if (s.scale !== null) r.setScale(s.scale);
            if (s.rebase) r.rebase();
            const o = r.map(s.dts + 1800, s.dts);
            expect(o.dts).toBeGreaterThan(last);
            expect(o.pts).toBeGreaterThanOrEqual(o.dts);
            last = o.dts;
          }
        },
      ),
    );
  });
});
