/**
 * The subscriptions' flag sweep (gb/subscriptions.ts) runs only while a GB device is online (issue 4):
 * fake timers, a real database, the GB service and the MANSCDP client stood in for (a SUBSCRIBE is
 * answered 200 with a tag). Nothing armed at start; a registration subscribes at once and wakes the
 * sweep, which picks up a flag edited meanwhile; the device offline, the sweep sleeps after its next
 * run. The SIP exchange itself: device-management.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import type { SipResponse } from '@opencvr/sip';
import type { Db } from '../../src/db/index.js';
import type { GbApi, ManscdpClient } from '../../src/gb/manscdp-client.js';
import type { DeviceSession } from '../../src/gb/registry.js';
import type { DeviceStatusEvent } from '../../src/gb/service.js';
import { GbSubscriptions } from '../../src/gb/subscriptions.js';
import { useSeededDb } from '../helpers/index.js';

let db: Db;
useSeededDb((d) => (db = d));

const DEV = '34020000001320000001';
const SWEEP = 30_000;
/** What follows a timer's callback (the sweep's queries, then its re-arming) has run. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

describe('GB subscriptions: the flag sweep', () => {
  it('sleeps with no device online; a registration subscribes and wakes it; a flag edited meanwhile is picked up; offline, it sleeps again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    await db.kysely
      .insertInto('devices')
      .values({ device_id: DEV, device_name: 'gb', device_type: 'GB28181', online: 1, enable: 1, catalog_subscribe: 1, created_at: new Date().toISOString() })
      .execute();
    let registered: ((s: DeviceSession, info: { first: boolean }) => void) | undefined;
    let status: ((e: DeviceStatusEvent) => void) | undefined;
    let online = false;
    const sent: string[] = [];
    const gb = {
      onRegistered: (fn: typeof registered) => ((registered = fn), () => undefined),
      onDeviceStatus: (fn: typeof status) => ((status = fn), () => undefined),
      session: () => ({ online }),
      sendRequest: async (_id: string, o: { body: Uint8Array }) => {
        sent.push(/<CmdType>(\w+)<\/CmdType>/.exec(new TextDecoder().decode(o.body))![1]);
        return { response: { status: 200, reason: 'OK', headers: [{ name: 'To', value: `<sip:${DEV}@x>;tag=t1` }, { name: 'Expires', value: '3600' }] } as unknown as SipResponse };
      },
    } as unknown as GbApi;
    const client = { nextSn: () => 1, encodingOf: () => 'utf-8' } as unknown as ManscdpClient;
    const subs = new GbSubscriptions(gb, client, db.kysely, { info: () => undefined, warn: () => undefined } as never, { sweepMs: SWEEP });
    subs.start();
    expect(subs.armed).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(5 * SWEEP);
    expect(sent).toEqual([]);

    // The device registers: its catalog subscription at once, and the sweep armed.
    online = true;
    registered!({ deviceId: DEV } as DeviceSession, { first: true });
    await settle();
    expect(sent).toEqual(['Catalog']);
    expect(subs.armed).toBe(true);

    // An edit of the device's flags (no SIP event): the next sweep subscribes to its alarms.
    await db.kysely.updateTable('devices').set({ alarm_subscribe: 1 }).where('device_id', '=', DEV).execute();
    vi.advanceTimersByTime(SWEEP - 1);
    await settle();
    expect(sent).toEqual(['Catalog']);
    vi.advanceTimersByTime(1);
    await settle();
    expect(sent).toEqual(['Catalog', 'Alarm']);
    expect(subs.armed).toBe(true);

    // Offline: the sweep already armed runs once more, finds none online and sleeps.
    online = false;
    status!({ deviceId: DEV, online: false, reason: 'keepalive timeout' });
    vi.advanceTimersByTime(SWEEP);
    await settle();
    expect(subs.armed).toBe(false);
    expect(vi.getTimerCount()).toBe(0);

    // Online again (a status event): awake.
    online = true;
    status!({ deviceId: DEV, online: true, reason: '' });
    expect(subs.armed).toBe(true);
    subs.stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});
