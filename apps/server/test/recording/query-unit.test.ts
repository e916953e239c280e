/** monthFlags against the plain definition (a day is flagged when a row overlaps it), on random rows. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { monthFlags } from '../../src/services/recording/query.js';

function naive(rows: { startAt: Date; endAt: Date }[], monthStart: Date, days: number) {
  let out = '';
  for (let d = 0; d < days; d++) {
    const from = new Date(monthStart.getFullYear(), monthStart.getMonth(), d + 1).getTime();
    const to = new Date(monthStart.getFullYear(), monthStart.getMonth(), d + 2).getTime();
    out += rows.some((r) => r.startAt.getTime() < to && r.endAt.getTime() > from) ? '1' : '0';
  }
  return out;
}

describe('monthFlags', () => {
  const month = new Date(2024, 2, 1); // March: a DST change in many zones
  const days = 31;
  const t0 = month.getTime() - 3 * 86400_000;
  const span = 37 * 86400_000;
  it('flags a row across midnight on both days, and the month edges', () => {
    const at = (d: number, h: number, m = 0) => new Date(2024, 2, d, h, m);
    const rows = [
      { startAt: at(3, 23, 58), endAt: at(4, 0, 3) },
      { startAt: new Date(2024, 1, 29, 23, 0), endAt: at(1, 0, 1) },
      { startAt: at(31, 23, 59), endAt: new Date(2024, 3, 1, 0, 4) },
    ];
    const f = monthFlags(rows, month, days);
    expect(f).toBe(naive(rows, month, days));
    expect([...f].flatMap((c, i) => (c === '1' ? [i + 1] : []))).toEqual([1, 3, 4, 31]);
  });
  it('agrees with the definition on random rows', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: span }), fc.integer({ min: 1, max: 3 * 86400_000 })), { maxLength: 40 }), (xs) => {
        const rows = xs.map(([s, len]) => ({ startAt: new Date(t0 + s), endAt: new Date(t0 + s + len) }));
        expect(monthFlags(rows, month, days)).toBe(naive(rows, month, days));
      }),
    );
  });
});
