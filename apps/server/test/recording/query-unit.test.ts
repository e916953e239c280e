/**
 * The month flags (querymonthly, queryflags): RecordingIndex.overlaps over the local days of a month
 * against the plain definition (a day is flagged when a row overlaps it), on random rows in the
 * test database (SQLite, or PostgreSQL in the pg stage), including rows across midnight and the
 * month's edges. The day view's spans against the full rows, and retention's skip scan of the
 * channels against SELECT DISTINCT.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TestApp } from '../helpers/index.js';
import { startIndexTestApp } from './support.js';
import { dayBounds } from '../../src/services/recording/query.js';
import { indexedChannels } from '../../src/services/recording/retention.js';

let t: TestApp;
beforeAll(async () => {
  // These rows are years old and have no files: reconciliation and the first retention pass are over first.
  t = await startIndexTestApp();
});
afterAll(async () => t?.close());

function naive(rows: { s: number; e: number }[], bounds: Date[]) {
  return bounds.slice(0, -1).map((from, d) => rows.some((r) => r.s < bounds[d + 1].getTime() && r.e > from.getTime()));
}

async function put(pk: number, rows: { s: number; e: number }[]) {
  await t.ctx.db.deleteFrom('recordings').where('channel_pk', '=', pk).execute();
  if (!rows.length) return;
  await t.ctx.db
    .insertInto('recordings')
    .values(rows.map((r, i) => ({ channel_pk: pk, root: '', path: `x/${i}.mp4`, start_at: new Date(r.s).toISOString(), end_at: new Date(r.e).toISOString(), duration_ms: r.e - r.s, bytes: 1, important: 0, status: 'complete' as const, created_at: new Date().toISOString() })))
    .execute();
}

describe('month flags', () => {
  const month = new Date(2024, 2, 1); // March: a DST change in many zones
  const bounds = dayBounds(month, 31);
  it('flag a row across midnight on both days, and the month edges', async () => {
    const at = (d: number, h: number, m = 0) => new Date(2024, 2, d, h, m).getTime();
    const rows = [
      { s: at(3, 23, 58), e: at(4, 0, 3) },
      { s: new Date(2024, 1, 29, 23, 0).getTime(), e: at(1, 0, 1) },
      { s: at(31, 23, 59), e: new Date(2024, 3, 1, 0, 4).getTime() },
      { s: at(20, 10), e: at(20, 10) }, // a row just opened (no length yet) flags its day
    ];
    await put(7, rows);
    const f = await t.ctx.recording.index.overlaps(7, bounds);
    expect(f.flatMap((x, i) => (x ? [i + 1] : []))).toEqual([1, 3, 4, 20, 31]);
  });
  it('agree with the definition on random rows (segments up to 2 h)', async () => {
    const t0 = month.getTime() - 86400_000;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 0, max: 33 * 86400_000 }), fc.integer({ min: 1, max: 2 * 3600_000 })), { maxLength: 30 }), async (xs) => {
        const rows = xs.map(([s, len]) => ({ s: t0 + s, e: t0 + s + len }));
        await put(8, rows);
        expect(await t.ctx.recording.index.overlaps(8, bounds)).toEqual(naive(rows, bounds));
      }),
      { numRuns: 40 },
    );
  });
});

describe('day spans and indexed channels', () => {
  it('spans are the rows of between without their file columns (the size stays: the recording list shows it)', async () => {
    const day = new Date(2024, 4, 10);
    const next = new Date(2024, 4, 11);
    const t0 = day.getTime() - 3 * 3600_000;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 0, max: 30 * 3600_000 }), fc.integer({ min: 0, max: 2 * 3600_000 })), { maxLength: 25 }), async (xs) => {
        await put(9, xs.map(([s, len]) => ({ s: t0 + s, e: t0 + s + len })));
        const full = await t.ctx.recording.index.between(9, day, next);
        const spans = await t.ctx.recording.index.spans(9, day, next);
        expect(spans).toEqual(full.map((r) => ({ id: r.id, startAt: r.startAt, endAt: r.endAt, bytes: r.bytes, important: r.important, status: r.status })));
      }),
      { numRuns: 20 },
    );
  });
  it('the skip scan finds every channel of the index, and none twice', async () => {
    await put(9, []);
    for (const pk of [3, 11, 12, 500]) await put(pk, [{ s: 1_700_000_000_000 + pk, e: 1_700_000_060_000 }, { s: 1_700_000_100_000, e: 1_700_000_160_000 }]);
    const distinct = (await t.ctx.db.selectFrom('recordings').select('channel_pk').distinct().execute()).map((r) => r.channel_pk).sort((a, b) => a - b);
    expect(await indexedChannels(t.ctx.db)).toEqual(distinct);
    expect(distinct).toEqual(expect.arrayContaining([3, 11, 12, 500]));
  });
});
