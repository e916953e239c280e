/**
 * The record calls' local times (spec 9: YYYYMMDD, YYYYMM, YYYYMMDDHHmmss in the server's zone) where
 * the zone changes its offset: a day of 25 hours and one of 23 (Europe/Berlin), and a day whose
 * midnight does not exist (America/Santiago starts summer time at 00:00: the day begins at 01:00).
 * Dates that do not exist (30 February, 31 November, hour 24) are refused, and years before 1970,
 * which no recording has (two-digit years read as 19xx by Date).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAdminApp } from '../api/admin-app.js';
import { silentCamera } from './support.js';
import { segmentPath } from '../../src/services/recording/paths.js';
import { dayRange, localStamp, monthRange, parseLocalStamp } from '../../src/services/recording/time.js';
import { normaliseSchedule, nextEdge } from '@opencvr/shared';
import { shouldRecord } from '../../src/services/recording/engine.js';

const zoneBefore = process.env.TZ;
/** The process's zone (the server's local time) from here to the end of the test. */
function zone(tz: string) {
  process.env.TZ = tz;
}
afterEach(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

const hours = (r: [Date, Date] | undefined) => r && (r[1].getTime() - r[0].getTime()) / 3600_000;

describe('local days and times', () => {
  it('a day is as long as the zone makes it: 25 and 23 hours at Berlin\'s changes', () => {
    zone('Europe/Berlin');
    expect(hours(dayRange('20261025'))).toBe(25);
    expect(hours(dayRange('20260329'))).toBe(23);
    expect(hours(dayRange('20260401'))).toBe(24);
    // 02:30 happens twice on 25 October; its stamp names the first
    expect(parseLocalStamp('20261025023000')!.toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('a day whose midnight does not exist begins at its first instant (Santiago, 6 September 2026 at 01:00)', () => {
    zone('America/Santiago');
    const day = dayRange('20260906');
    expect(day, 'the day is a date').toBeDefined();
    expect(localStamp(day![0])).toBe('20260906010000');
    expect(day![0].toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(hours(day)).toBe(23);
    // the day before ends where this one begins
    expect(dayRange('20260905')![1].getTime()).toBe(day![0].getTime());
    // a time the clock skips is read as the clock set forward shows it: 00:00 is 01:00, 00:30 is 01:30
    expect(parseLocalStamp('20260906000000')!.getTime()).toBe(day![0].getTime());
    expect(localStamp(parseLocalStamp('20260906003000')!)).toBe('20260906013000');
    expect(monthRange('202609')).toMatchObject({ days: 30 });
  });

  it('refuses dates and times that do not exist, and years before 1970', () => {
    for (const tz of ['UTC', 'Europe/Berlin', 'America/Santiago']) {
      zone(tz);
      for (const bad of ['20261131', '20260229', '20261301', '20260001', '20260100', '00000101', '00991231', '19691231']) expect(dayRange(bad), `${tz} ${bad}`).toBeUndefined();
      for (const bad of ['20261130240000', '20261130236000', '20261130235960', '20260230120000']) expect(parseLocalStamp(bad), `${tz} ${bad}`).toBeUndefined();
      for (const bad of ['000101', '009912', '196912', '202600', '202613']) expect(monthRange(bad), `${tz} ${bad}`).toBeUndefined();
      expect(hours(dayRange('20280229')), tz).toBe(24);
      expect(monthRange('197001'), tz).toMatchObject({ days: 31 });
    }
  });
});

describe('the schedule engine across a change of offset', () => {
  const on = { enable_record: 1, manual: false };
  const records = (schedule: object, iso: string) => shouldRecord(on, [normaliseSchedule(schedule)], new Date(iso));

  it('a slot is wall-clock time: on Berlin\'s 25-hour day 01:00-04:00 records four hours, both passes of 02:00-03:00', () => {
    zone('Europe/Berlin');
    const slot = { Sunday: [{ StartTime: '01:00', EndTime: '04:00' }] };
    expect(records(slot, '2026-10-24T22:59:59Z')).toBe(false); // 00:59:59 summer time
    expect(records(slot, '2026-10-24T23:00:00Z')).toBe(true); // 01:00 summer time
    expect(records(slot, '2026-10-25T00:30:00Z')).toBe(true); // 02:30 summer time
    expect(records(slot, '2026-10-25T01:30:00Z')).toBe(true); // 02:30 winter time
    expect(records(slot, '2026-10-25T02:59:59Z')).toBe(true); // 03:59:59 winter time
    expect(records(slot, '2026-10-25T03:00:00Z')).toBe(false); // 04:00 winter time
    // the end is found from before the change: 04:00 winter time
    expect(nextEdge(normaliseSchedule(slot), new Date('2026-10-25T02:00:00Z'))!.toISOString()).toBe('2026-10-25T03:00:00.000Z');
  });

  it('on the 23-hour day a slot inside the skipped hour never records; one across it records its wall-clock hours that exist', () => {
    zone('Europe/Berlin');
    const skipped = { Sunday: [{ StartTime: '02:00', EndTime: '03:00' }] };
    for (const iso of ['2026-03-29T00:59:59Z', '2026-03-29T01:00:00Z', '2026-03-29T01:30:00Z', '2026-03-29T02:00:00Z']) expect(records(skipped, iso), iso).toBe(false);
    const across = { Sunday: [{ StartTime: '01:00', EndTime: '04:00' }] };
    expect(records(across, '2026-03-29T00:00:00Z')).toBe(true); // 01:00 winter time
    expect(records(across, '2026-03-29T00:59:59Z')).toBe(true); // 01:59:59, then the clock reads 03:00
    expect(records(across, '2026-03-29T01:00:00Z')).toBe(true); // 03:00 summer time
    expect(records(across, '2026-03-29T01:59:59Z')).toBe(true); // 03:59:59
    expect(records(across, '2026-03-29T02:00:00Z')).toBe(false); // 04:00
  });
});

describe('the record calls across a change of offset', () => {
  const api = useAdminApp();
  beforeEach(async () => {
    await api.t.ctx.recording.ready;
  });

  const camera = () => silentCamera(api.t, api.admin);
  async function segment(pk: number, start: Date, seconds: number) {
    const rel = segmentPath(pk, start);
    const file = path.join(api.t.settings.dataDir, 'records', rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'x');
    const end = new Date(start.getTime() + seconds * 1000);
    const row = await api.t.ctx.db
      .insertInto('recordings')
      .values({ channel_pk: pk, root: '', path: rel, start_at: start.toISOString(), end_at: end.toISOString(), duration_ms: seconds * 1000, bytes: 1, important: 0, status: 'complete', created_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, file };
  }

  it('Santiago: the day without a midnight is queried, listed and removed like any other', async () => {
    zone('America/Santiago');
    const { dev, pk } = await camera();
    const a = await segment(pk, new Date('2026-09-06T04:00:00Z'), 60); // 01:00 local, the day's first minute
    const b = await segment(pk, new Date('2026-09-06T14:00:00Z'), 60); // 11:00 local
    const daily = await api.get(`/api/v1/record/querydaily?id=${dev}:1&period=20260906`);
    expect(daily.statusCode, daily.body).toBe(200);
    expect(daily.json().list.map((r: { startAt: string; endAt: string }) => [r.startAt, r.endAt])).toEqual([
      ['20260906010000', '20260906010100'],
      ['20260906110000', '20260906110100'],
    ]);
    expect((await api.get(`/api/v1/record/querymonthly?id=${dev}:1&period=202609`)).body).toBe(`${'0'.repeat(5)}1${'0'.repeat(24)}`);
    expect((await api.body('/api/v1/record/querydevices?period=20260906')).Total).toBe(1);
    const removed = await api.get(`/api/v1/record/removedaily?id=${dev}:1&period=20260906`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().EasyDarwin.Body).toEqual({ Removed: 2, Kept: 0 });
    expect(fs.existsSync(a.file) || fs.existsSync(b.file)).toBe(false);
  });

  it('Berlin: the 25-hour day lists both passes of 02:00-03:00 and its last hour; the 23-hour day ends at its midnight', async () => {
    zone('Europe/Berlin');
    const { dev, pk } = await camera();
    await segment(pk, new Date('2026-10-25T00:30:00Z'), 60); // 02:30 summer time
    await segment(pk, new Date('2026-10-25T01:30:00Z'), 60); // 02:30 winter time, an hour later
    await segment(pk, new Date('2026-10-25T22:59:00Z'), 120); // 23:59 to 00:01 of the 26th
    const list = (await api.get(`/api/v1/record/querydaily?id=${dev}:1&period=20261025`)).json().list as { startAt: string; endAt: string; duration: number }[];
    expect(list.map((r) => [r.startAt, r.endAt, r.duration])).toEqual([
      ['20261025023000', '20261025023100', 60],
      ['20261025023000', '20261025023100', 60],
      // clipped to the day asked for
      ['20261025235900', '20261026000000', 60],
    ]);
    expect((await api.get(`/api/v1/record/querydaily?id=${dev}:1&period=20261026`)).json().list.map((r: { startAt: string }) => r.startAt)).toEqual(['20261026000000']);
    await segment(pk, new Date('2026-03-29T21:59:00Z'), 120); // 23:59 (summer time) to 00:01 of the 30th
    expect((await api.get(`/api/v1/record/querydaily?id=${dev}:1&period=20260329`)).json().list.map((r: { endAt: string; duration: number }) => [r.endAt, r.duration])).toEqual([['20260330000000', 60]]);
  });

  it('refuses a day, month or time that does not exist, changing nothing', async () => {
    const { dev, pk } = await camera();
    const seg = await segment(pk, new Date(Date.now() - 86400_000), 60);
    for (const url of [
      `/api/v1/record/querydaily?id=${dev}:1&period=20261131`,
      `/api/v1/record/querymonthly?id=${dev}:1&period=000101`,
      `/api/v1/record/queryflags?ids=${dev}:1&period=196912`,
      '/api/v1/record/querydevices?period=20260230',
      `/api/v1/record/removedaily?id=${dev}:1&period=00991231`,
      `/api/v1/record/setimportant?device=${dev}&channel=1&starttime=20261131000000&endtime=20261201000000`,
      `/api/v1/devices/record/playback?channel=${dev}:1&stime=20261130240000`,
      `/api/v1/record/recordvideo/download/mp4/${dev}:1/20260229000000/20260301000000`,
    ]) {
      const res = await api.get(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
    }
    expect(fs.existsSync(seg.file)).toBe(true);
    expect(await api.t.ctx.db.selectFrom('recordings').select(['id', 'important']).execute()).toEqual([{ id: seg.id, important: 0 }]);
  });
});
