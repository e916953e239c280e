/**
 * The recorders' progress writes to the index (RecordingIndex.update): writes made in the same tick
 * go to the database as one statement, each row gets its own values, a later write of a row wins and
 * a close stays a close. On the test database (SQLite, or PostgreSQL in the pg stage).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/index.js';
import { startIndexTestApp } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startIndexTestApp();
});
afterAll(async () => t?.close());

const start = new Date(Date.UTC(2023, 4, 6, 10, 0, 0));
async function rows(n: number, pk: number) {
  const index = t.ctx.recording.index;
  return Promise.all(Array.from({ length: n }, (_, i) => index.create({ channelPk: pk, rootKey: '', path: `progress/${pk}/${i}.mp4`, startAt: start, bytes: 100 })));
}

describe('progress writes', () => {
  it('of one tick are one statement, each row with its own values', async () => {
    const index = t.ctx.recording.index;
    const ids = await rows(40, 901);
    const before = index.progressStatements;
    await Promise.all(
      ids.map((id, i) => index.update(id, { endAt: new Date(start.getTime() + 1000 * (i + 1)), durationMs: 1000 * (i + 1), bytes: 5_000_000_000 + i }, i % 3 === 0)),
    );
    expect(index.progressStatements - before).toBe(1);
    for (const [i, id] of ids.entries()) {
      const r = await index.get(id);
      expect(r).toMatchObject({ durationMs: 1000 * (i + 1), bytes: 5_000_000_000 + i, status: i % 3 === 0 ? 'complete' : 'recording' });
      expect(r!.endAt.getTime()).toBe(start.getTime() + 1000 * (i + 1));
    }
  });

  it('of the same row in one tick: the later values win and a close stays', async () => {
    const index = t.ctx.recording.index;
    const [a, b] = await rows(2, 902);
    const before = index.progressStatements;
    await Promise.all([
      index.update(a, { endAt: new Date(start.getTime() + 9000), durationMs: 9000, bytes: 900 }, true),
      index.update(a, { endAt: new Date(start.getTime() + 4000), durationMs: 4000, bytes: 400 }, false),
      index.update(b, { endAt: new Date(start.getTime() + 3000), durationMs: 3000, bytes: 300 }, false),
    ]);
    expect(index.progressStatements - before).toBe(1);
    expect(await index.get(a)).toMatchObject({ durationMs: 4000, bytes: 400, status: 'complete' });
    expect(await index.get(b)).toMatchObject({ durationMs: 3000, bytes: 300, status: 'recording' });
  });

  it('of a later tick of the same shape reuse the built statement with their own values', async () => {
    const index = t.ctx.recording.index;
    const ids = await rows(7, 904);
    const tick = (k: number) =>
      Promise.all(ids.map((id, i) => index.update(id, { endAt: new Date(start.getTime() + k * 100_000 + i), durationMs: k * 1000 + i, bytes: k * 1_000_000 + i }, i === 2)));
    await tick(1);
    const built = index.progressBuilt;
    const statements = index.progressStatements;
    await tick(2);
    await tick(3);
    expect(index.progressStatements - statements).toBe(2);
    expect(index.progressBuilt).toBe(built);
    for (const [i, id] of ids.entries()) {
      const r = await index.get(id);
      expect(r).toMatchObject({ durationMs: 3000 + i, bytes: 3_000_000 + i, status: i === 2 ? 'complete' : 'recording' });
      expect(r!.endAt.getTime()).toBe(start.getTime() + 300_000 + i);
    }
    // Another shape (one more row closed) is built once, then reused too.
    await Promise.all(ids.map((id, i) => index.update(id, { endAt: start, durationMs: 5, bytes: 5 }, i < 2)));
    await Promise.all(ids.map((id, i) => index.update(id, { endAt: start, durationMs: 6 + i, bytes: 6 }, i < 2)));
    expect(index.progressBuilt).toBe(built + 1);
    expect(await index.get(ids[1])).toMatchObject({ durationMs: 7, status: 'complete' });
    expect(await index.get(ids[6])).toMatchObject({ durationMs: 12, status: 'recording' });
  });

  it('of later ticks are written after the earlier ones, in order', async () => {
    const index = t.ctx.recording.index;
    const [a] = await rows(1, 903);
    const first = index.update(a, { endAt: new Date(start.getTime() + 1000), durationMs: 1000, bytes: 10 }, false);
    await new Promise((r) => setImmediate(r));
    const second = index.update(a, { endAt: new Date(start.getTime() + 2000), durationMs: 2000, bytes: 20 }, true);
    await Promise.all([first, second]);
    expect(await index.get(a)).toMatchObject({ durationMs: 2000, bytes: 20, status: 'complete' });
  });
});
