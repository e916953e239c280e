/**
 * When the recording engine (services/recording/engine.ts) passes by itself (issue 4): with nothing
 * to record and no plan it arms no timer at all; with a plan in use, only for the plan's next slot edge
 * (worked out again at most every MAX_EDGE_WAIT_MS), and the slot still starts and ends on its edge in
 * the server's time zone; every tickMs while a recorder runs (a stopped hub is opened again), while a
 * channel has no stream source, and after a pass that failed. Fake timers and clock, a real database;
 * hubs and recorders stood in for (recording itself: record-live.test.ts).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DAY_SECONDS, WEEKDAYS, type NormalSchedule } from '@opencvr/shared';
import type { Db } from '../../src/db/index.js';
import type { StreamHub } from '../../src/media/hub.js';
import type { RecorderOutput } from '../../src/media/outputs/recorder.js';
import { MAX_EDGE_WAIT_MS, RecordEngine } from '../../src/services/recording/engine.js';
import { useSeededDb } from '../helpers/index.js';

let db: Db;
// The engine's timing is the subject, the same on both engines: SQLite also in the pg stage.
useSeededDb((d) => (db = d), { sqlite: true });
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  // Monday 30 November 2026, 10:00 in the server's time zone.
  vi.setSystemTime(new Date(2026, 10, 30, 10, 0, 0));
});

const TICK = 5000;
const now = () => new Date().toISOString();

async function channel(o: { enable_record: number }) {
  await db.kysely.insertInto('devices').values({ device_id: 'rtsp1', device_name: 'rtsp1', device_type: 'RTSP', online: 1, enable: 1, created_at: now() }).execute();
  const { id } = await db.kysely
    .insertInto('channels')
    .values({ channel_id: 'c1', parent_device_id: 'rtsp1', name: 'c1', online: 1, enable: 1, enable_record: o.enable_record, created_at: now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Mondays 12:00-13:00 (seconds of the day). */
function noonHour(): NormalSchedule {
  const s = Object.fromEntries(WEEKDAYS.map((d) => [d, []])) as unknown as NormalSchedule;
  s.Monday = [[12 * 3600, 13 * 3600]];
  expect(13 * 3600).toBeLessThan(DAY_SECONDS);
  return s;
}

function engine(o: { schedules?: Map<number, NormalSchedule[]>; source?: () => boolean; makeFails?: () => boolean } = {}) {
  const opened: number[] = [];
  const hubs: { state: string }[] = [];
  const stopped: number[] = [];
  let passes = 0;
  const e = new RecordEngine(
    {
      db: db.kysely,
      schedulesByChannel: async () => (passes++, o.schedules ?? new Map()),
      open: (_d, c) => {
        if (o.source && !o.source()) return undefined;
        opened.push(c.id);
        const hub = { state: 'live', subscribe: () => () => undefined };
        hubs.push(hub);
        return hub as unknown as StreamHub;
      },
      makeRecorder: async (pk) => {
        if (o.makeFails?.()) throw new Error('disk away');
        return { recorder: { stop: async () => void stopped.push(pk) } as unknown as RecorderOutput, settings: 's' };
      },
      settingsKey: async () => 's',
      log: { info: () => undefined, warn: () => undefined } as never,
      now: () => new Date(),
    },
    TICK,
  );
  return { e, opened, hubs, stopped, passes: () => passes };
}

/** Lets the pass a timer started finish (its queries are real I/O). */
async function settle(e: RecordEngine) {
  for (let i = 0; i < 3; i++) await (e as unknown as { ticking?: Promise<void> }).ticking;
}
async function advance(e: RecordEngine, ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
  await settle(e);
}

describe('the recording engine’s timer', () => {
  it('nothing to record and no plan: after the first pass no timer at all', async () => {
    await channel({ enable_record: 0 });
    const { e, opened, passes } = engine();
    e.start();
    await settle(e);
    expect(passes()).toBe(1);
    expect(e.armed).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    await advance(e, 3600_000);
    expect(passes()).toBe(1);
    // A change (a channel's EnableRecord, through kick) still starts a recorder at once.
    await db.kysely.updateTable('channels').set({ enable_record: 1 }).execute();
    await e.kick();
    expect(opened).toHaveLength(1);
    expect(e.armed).toBe(true);
    await e.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a plan in use: passes only toward its next edge (at most a minute apart); the slot starts and ends on its edges; every tickMs while recording, a stopped hub opened again', async () => {
    const pk = await channel({ enable_record: 1 });
    const { e, opened, hubs, stopped, passes } = engine({ schedules: new Map([[pk, [noonHour()]]]) });
    e.start();
    await settle(e);
    expect(opened).toEqual([]);
    // Two hours to the slot: one pass a minute (MAX_EDGE_WAIT_MS), not one every 5 s.
    await advance(e, 2 * 3600_000 - 1);
    expect(opened).toEqual([]);
    expect(passes()).toBe(1 + (2 * 3600_000) / MAX_EDGE_WAIT_MS - 1);
    expect(vi.getTimerCount()).toBe(1);
    // 12:00 (and the 20 ms the engine adds past an edge): recording.
    await advance(e, 21);
    expect(opened).toEqual([pk]);
    // While it records: a pass every tickMs; its hub stopped (stopstream): opened again at the next one.
    hubs[0].state = 'stopped';
    await advance(e, TICK);
    expect(opened).toEqual([pk, pk]);
    expect(stopped).toEqual([pk]);
    // 13:00: the slot ends on its edge; then no pass every tickMs any more.
    await advance(e, 3600_000 - TICK - 21 - 1);
    expect(stopped).toEqual([pk]);
    await advance(e, 21);
    expect(stopped).toEqual([pk, pk]);
    const after = passes();
    await advance(e, 10 * MAX_EDGE_WAIT_MS);
    expect(passes()).toBe(after + 10);
    await e.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a channel without a stream source and a pass that failed are tried again every tickMs, until they do', async () => {
    await channel({ enable_record: 1 });
    let source = false;
    let fails = false;
    const { e, opened, passes } = engine({ source: () => source, makeFails: () => fails });
    e.start();
    await settle(e);
    expect(opened).toEqual([]);
    expect(e.armed).toBe(true);
    await advance(e, TICK);
    expect(passes()).toBe(2);
    // A source now, but the recorder cannot be made (the pass fails): tried again.
    source = true;
    fails = true;
    await advance(e, TICK);
    expect(opened).toHaveLength(1);
    expect(e.armed).toBe(true);
    fails = false;
    await advance(e, TICK);
    expect(e.isRecording(opened[0])).toBe(true);
    await e.stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});
