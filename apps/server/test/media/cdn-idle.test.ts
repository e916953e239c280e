/**
 * The CDN pushes' regular pass (services/media/cdn.ts) sleeps while no push runs (issue 4): against a
 * real database, with streams that cannot be opened (each push's run fails and waits its own
 * back-off, which is not the pass). The pushes themselves: cdn.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../../src/db/index.js';
import { CdnPushes } from '../../src/services/media/cdn.js';
import { useSeededDb } from '../helpers/index.js';

let db: Db;
useSeededDb((d) => (db = d));

const now = new Date().toISOString();
const TICK = 60_000;

describe('CDN pushes: the regular pass', () => {
  it('no push: no timer; while a channel pushes the pass comes every tickMs; switched off, asleep again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    await db.kysely.insertInto('devices').values({ device_id: 'rtsp1', device_name: 'rtsp1', device_type: 'RTSP', online: 1, enable: 1, created_at: now }).execute();
    const { id } = await db.kysely
      .insertInto('channels')
      .values({ channel_id: 'c1', parent_device_id: 'rtsp1', name: 'c1', online: 1, enable: 1, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const opens: number[] = [];
    const cdn = new CdnPushes(
      {
        db: db.kysely,
        open: (_d, c) => void opens.push(c.id),
        log: { info: () => undefined, warn: () => undefined },
        restartMinMs: 10 * TICK,
        restartMaxMs: 10 * TICK,
      },
      TICK,
    );
    await cdn.start();
    expect(cdn.armed).toBe(false);
    expect(vi.getTimerCount()).toBe(0);

    await db.kysely.updateTable('channels').set({ enable_cdn: 1, cdn_url: 'rtmp://127.0.0.1:9/live/key' }).where('id', '=', id).execute();
    await cdn.reconcile();
    expect(cdn.active().map((p) => p.channelPk)).toEqual([id]);
    expect(cdn.armed).toBe(true);
    expect(opens).toEqual([id]);
    // The regular pass comes tickMs later and is armed again (the push's own retry is 10 ticks away).
    vi.advanceTimersByTime(TICK);
    await (cdn as unknown as { passes: { idle(): Promise<void> } }).passes.idle();
    expect(cdn.armed).toBe(true);
    expect(cdn.active().map((p) => p.channelPk)).toEqual([id]);

    await db.kysely.updateTable('channels').set({ enable_cdn: 0 }).where('id', '=', id).execute();
    await cdn.reconcile();
    expect(cdn.active()).toEqual([]);
    expect(cdn.armed).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    await cdn.stop();
  });

  it('a pass that fails is tried again tickMs later; stop() disarms it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    let fail = true;
    const cdn = new CdnPushes(
      {
        db: new Proxy(db.kysely, {
          get: (t, k) => {
            if (k === 'selectFrom' && fail) throw new Error('database away');
            const v: unknown = Reflect.get(t, k);
            return typeof v === 'function' ? v.bind(t) : v;
          },
        }),
        open: () => undefined,
        log: { info: () => undefined, warn: () => undefined },
      },
      TICK,
    );
    await cdn.start();
    expect(cdn.armed).toBe(true);
    fail = false;
    vi.advanceTimersByTime(TICK);
    await (cdn as unknown as { passes: { idle(): Promise<void> } }).passes.idle();
    expect(cdn.armed).toBe(false);
    await cdn.stop();
  });
});
