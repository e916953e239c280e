/** The record and record-plan calls on both databases: shapes, validation, role checks. */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, until } from '../helpers/index.js';
import { form, initialise, makeOperator } from '../api/support.js';
import { segmentPath } from '../../src/services/recording/paths.js';
import { localDay, localStamp } from '../../src/services/recording/time.js';
import { useAdminApp } from '../api/admin-app.js';

const api = useAdminApp();
beforeEach(async () => {
  await api.t.ctx.recording.ready;
});

const get = (url: string, token: string) => api.t.app.inject({ url, headers: { token } });
const post = (url: string, payload: object, token: string) => api.t.app.inject({ method: 'POST', url, headers: { token }, payload });

async function camera(n: number) {
  const res = await post('/api/v1/adddevice', { DeviceName: `Cam${n}`, DeviceType: 'RTSP', RtspUrl: `rtsp://127.0.0.1:9/c${n}` }, api.admin);
  const dev = res.json().EasyDarwin.Body.DeviceID as string;
  return { dev, pk: (await api.t.ctx.inventory.channels.require(dev, '1')).id };
}

/** A segment row and its file (a few bytes: these tests do not read it). */
async function segment(pk: number, start: Date, seconds: number, important = 0) {
  const rel = segmentPath(pk, start);
  const file = path.join(api.t.settings.dataDir, 'records', rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'x');
  const row = await api.t.ctx.db
    .insertInto('recordings')
    .values({ channel_pk: pk, root: '', path: rel, start_at: start.toISOString(), end_at: new Date(start.getTime() + seconds * 1000).toISOString(), duration_ms: seconds * 1000, bytes: 1, important, status: 'complete', created_at: new Date().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, file };
}

describe('record plans', () => {
  it('creates, lists, reads, updates and deletes a plan; a slot across midnight is split in the per-day lists and one slot read back; bad schedules are refused by name', async () => {
    const { dev } = await camera(1);
    const schedule = { Monday: [{ StartTime: '08:00:00', EndTime: '18:00:00' }], Friday: [{ StartTime: '22:00', EndTime: '06:00' }] };
    const made = await post('/api/v1/setrecordplan', { name: 'office', schedule: JSON.stringify(schedule), save_days: 7, enable: 1, channels: `${dev}:1` }, api.admin);
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().EasyDarwin.Body.ID as number;
    const info = (await get(`/api/v1/recordplaninfo?id=${id}`, api.admin)).json().EasyDarwin.Body;
    expect(info).toMatchObject({ ID: id, Name: 'office', SaveDays: 7, Enable: 1, Channels: [{ id: `${dev}:1`, DeviceID: dev, ChannelID: '1', DeviceName: 'Cam1', EnableRecord: 0 }] });
    expect(info.Days.Friday).toEqual([{ sTime: '22:00:00', eTime: '24:00:00', enable: 1, number: 0, type: 1 }]);
    expect(info.Days.Saturday).toEqual([{ sTime: '00:00:00', eTime: '06:00:00', enable: 1, number: 0, type: 1 }]);
    expect(info.Schedule.Monday).toEqual([{ StartTime: '08:00:00', EndTime: '18:00:00' }]);
    // The schedule reads back as entered: the slot across midnight is Friday's one slot, not two days' parts.
    expect(info.Schedule.Friday).toEqual([{ StartTime: '22:00:00', EndTime: '06:00:00' }]);
    expect(info.Schedule.Saturday).toEqual([]);

    // form-encoded update
    const upd = await api.t.app.inject({ method: 'POST', url: '/api/v1/setrecordplan', ...form({ id, name: 'office2', schedule: '{"Sunday":[{"StartTime":"01:00","EndTime":"02:00"}]}', save_days: 3, enable: 0, channels: '' }, api.admin) });
    expect(upd.statusCode, upd.body).toBe(200);
    const list = (await get('/api/v1/recordplanlist', api.admin)).json().EasyDarwin.Body;
    expect(list.Total).toBe(1);
    expect(list.Plans[0]).toMatchObject({ ID: id, Name: 'office2', SaveDays: 3, Enable: 0, ChannelCount: 0 });

    // The schedule's reasons (ScheduleError) in the answer's language: Chinese by default, English when asked.
    for (const [bad, zh, en] of [
      ['{"Monday":[{"StartTime":"25:00","EndTime":"26:00"}]}', 'Monday[0].StartTime 须为 HH:mm 或 HH:mm:ss', 'Monday[0].StartTime must be HH:mm or HH:mm:ss'],
      ['{"Monday":[{"StartTime":"08:00","EndTime":"08:00"}]}', 'Monday[0] 的开始时间与结束时间相同', 'Monday[0] starts and ends at the same time'],
      ['not json', '不是合法的JSON', 'not JSON'],
      ['{"Someday":[]}', '未知的星期 Someday', 'unknown day Someday'],
    ]) {
      const res = await post('/api/v1/setrecordplan', { name: 'x', schedule: bad }, api.admin);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().msg).toBe(`参数 schedule 不合法: ${zh}`);
      const check = await post('/api/v1/checkpush?lang=en-US', { schedule: bad }, api.admin);
      expect(check.statusCode).toBe(400);
      expect(check.json().msg).toBe(`Invalid parameter schedule: ${en}`);
    }
    const dup = await post('/api/v1/setrecordplan', { name: 'office2', schedule: '{}' }, api.admin);
    expect(dup.statusCode).toBe(409);
    const unknown = await post('/api/v1/setrecordplan', { name: 'y', schedule: '{}', channels: 'nodev:1' }, api.admin);
    expect(unknown.statusCode).toBe(404);
    const check = await post('/api/v1/checkpush', { schedule }, api.admin);
    expect(check.statusCode).toBe(200);
    expect(check.json().EasyDarwin.Body.Days.Saturday[0]).toMatchObject({ sTime: '00:00:00', eTime: '06:00:00' });

    expect((await get(`/api/v1/delrecordplan?id=${id}`, api.admin)).statusCode).toBe(200);
    expect((await get(`/api/v1/recordplaninfo?id=${id}`, api.admin)).statusCode).toBe(404);
  });

  it('enable_record turns on the recording switch of the plan\'s channels that have it off, and only when asked', async () => {
    const a = await camera(1);
    const b = await camera(2);
    const schedule = JSON.stringify({ Monday: [{ StartTime: '08:00', EndTime: '09:00' }] });
    const switches = async () => (await api.t.ctx.db.selectFrom('channels').select(['id', 'enable_record']).where('id', 'in', [a.pk, b.pk]).orderBy('id').execute()).map((c) => c.enable_record);
    const made = await post('/api/v1/setrecordplan', { name: 'site', schedule, channels: `${a.dev}:1,${b.dev}:1` }, api.admin);
    expect(made.statusCode, made.body).toBe(200);
    expect(await switches()).toEqual([0, 0]);
    const id = made.json().EasyDarwin.Body.ID as number;
    const again = await post('/api/v1/setrecordplan', { id, name: 'site', schedule, channels: `${a.dev}:1,${b.dev}:1`, enable_record: 1 }, api.admin);
    expect(again.statusCode, again.body).toBe(200);
    expect(await switches()).toEqual([1, 1]);
    const info = (await get(`/api/v1/recordplaninfo?id=${id}`, api.admin)).json().EasyDarwin.Body;
    expect(info.Channels.map((c: { EnableRecord: number }) => c.EnableRecord)).toEqual([1, 1]);
  });

  it('record folder: GET shows the default, POST refuses a relative or unwritable folder and sets a new one (old one kept reachable)', async () => {
    const g = (await get('/api/v1/recordpath', api.admin)).json().EasyDarwin.Body;
    expect(g.RecordPath).toBe(path.join(api.t.settings.dataDir, 'records'));
    expect(g.SegmentSeconds).toBe(300);
    const relative = await post('/api/v1/recordpath', { RecordPath: 'relative/dir' }, api.admin);
    expect(relative.statusCode).toBe(400);
    expect(relative.json().msg).toBe('参数 RecordPath 不合法: 须为文件夹的绝对路径');
    // the field and its reason also apart, so the console says the reason at the field (session 26)
    expect(relative.json()).toMatchObject({ field: 'RecordPath', reason: '须为文件夹的绝对路径' });
    const before = await api.t.ctx.config.get('record');
    // the root, kernel file systems, the system's programs and configuration, and a link to one of them
    const link = path.join(api.t.settings.dataDir, 'to-etc');
    fs.symlinkSync('/etc', link);
    for (const folder of ['/proc/forbidden/rec', '/', '/etc', '/etc/rec', '/usr/lib/rec', '/boot', `${link}/rec`]) {
      const system = await post('/api/v1/recordpath?lang=en-US', { RecordPath: folder }, api.admin);
      expect(system.statusCode, folder).toBe(400);
      expect(system.json().msg, folder).toBe('Invalid parameter RecordPath: a system folder cannot hold recordings');
      expect(system.json(), folder).toMatchObject({ field: 'RecordPath', reason: 'a system folder cannot hold recordings' });
    }
    expect(fs.existsSync('/etc/rec')).toBe(false);
    expect(await api.t.ctx.config.get('record')).toEqual(before);
    const blocker = path.join(api.t.settings.dataDir, 'file');
    fs.writeFileSync(blocker, 'x');
    const unwritable = await post('/api/v1/recordpath', { RecordPath: path.join(blocker, 'sub') }, api.admin);
    expect(unwritable.statusCode).toBe(400);
    // The OS's error code is shown as it is, inside the Chinese reason.
    expect(unwritable.json().msg).toBe('参数 RecordPath 不合法: 文件夹不可写（ENOTDIR）');
    expect(unwritable.json()).toMatchObject({ field: 'RecordPath', reason: '文件夹不可写（ENOTDIR）' });
    const next = path.join(api.t.settings.dataDir, 'elsewhere', 'rec');
    const res = await post('/api/v1/recordpath', { RecordPath: next, SegmentSeconds: 60 }, api.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(fs.statSync(next).isDirectory()).toBe(true);
    const cfg = await api.t.ctx.config.get('record');
    expect(cfg).toMatchObject({ RecordPath: next, OldPaths: [''], SegmentSeconds: 60 });
    const roots = await api.t.ctx.recording.roots();
    expect(roots.allowed.get('')).toBe(path.join(api.t.settings.dataDir, 'records'));
  });

  it('the list counts a plan\'s channels and leaves listing them to recordplaninfo (a plan of 2,000 channels)', async () => {
    // A "record everything" plan of a site: the list carried its 2,000 channel rows for a count.
    const now = new Date().toISOString();
    await api.t.ctx.db.insertInto('devices').values({ device_id: 'nvr', device_name: 'NVR', device_type: 'RTSP', online: 1, enable: 1, created_at: now }).execute();
    const refs: string[] = [];
    for (let from = 1; from <= 2000; from += 500) {
      const rows = Array.from({ length: 500 }, (_, i) => ({ channel_id: String(from + i), parent_device_id: 'nvr', name: `Cam ${from + i}`, online: 1, enable: 1, created_at: now }));
      await api.t.ctx.db.insertInto('channels').values(rows).execute();
      refs.push(...rows.map((r) => `nvr:${r.channel_id}`));
    }
    const schedule = JSON.stringify({ Monday: [{ StartTime: '00:00', EndTime: '23:59' }] });
    const made = await post('/api/v1/setrecordplan', { name: 'all', schedule, channels: refs.join(',') }, api.admin);
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().EasyDarwin.Body.ID as number;
    const listed = await get('/api/v1/recordplanlist?start=0&limit=20', api.admin);
    const plan = listed.json().EasyDarwin.Body.Plans.find((p: { ID: number }) => p.ID === id);
    expect(plan).toMatchObject({ ID: id, Name: 'all', ChannelCount: 2000 });
    expect(plan.Channels).toBeUndefined();
    expect(listed.body.length).toBeLessThan(5000);
    const info = (await get(`/api/v1/recordplaninfo?id=${id}`, api.admin)).json().EasyDarwin.Body;
    expect(info.ChannelCount).toBe(2000);
    expect(info.Channels).toHaveLength(2000);
    expect(info.Channels[1999]).toMatchObject({ DeviceID: 'nvr', ChannelID: '2000', Name: 'Cam 2000', DeviceName: 'NVR' });
  });

  it('plans and the record folder are for administrators only', async () => {
    const op = await makeOperator(api.t, api.admin);
    for (const url of ['/api/v1/recordplanlist', '/api/v1/recordplaninfo?id=1', '/api/v1/recordpath']) expect((await get(url, op.token)).statusCode, url).toBe(403);
    for (const url of ['/api/v1/setrecordplan', '/api/v1/checkpush', '/api/v1/recordpath']) expect((await post(url, {}, op.token)).statusCode, url).toBe(403);
  });
});

describe('record queries', () => {
  it('querydaily merges contiguous segments (≤ 2 s apart) and keeps gaps; querymonthly, queryflags and querydevices agree', async () => {
    const { dev, pk } = await camera(1);
    const { dev: dev2 } = await camera(2);
    const day = new Date();
    day.setDate(day.getDate() - 1);
    day.setHours(10, 0, 0, 0);
    const s = (sec: number) => new Date(day.getTime() + sec * 1000);
    const a = await segment(pk, s(0), 300);
    const b = await segment(pk, s(301.5), 300); // 1.5 s gap: merged
    const c = await segment(pk, s(1000), 60); // a real gap
    const res = await get(`/api/v1/record/querydaily?id=${dev}:1&period=${localDay(day)}`, api.admin);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.EasyDarwin).toBeUndefined();
    expect(body.list).toEqual([
      // size: the bytes of the range's files (each segment here has 1), the recording list's size column
      expect.objectContaining({ startAt: localStamp(s(0)), endAt: localStamp(s(601.5)), duration: 602, size: 2, ids: [a.id, b.id], important: 0, snap: '' }),
      expect.objectContaining({ startAt: localStamp(s(1000)), endAt: localStamp(s(1060)), duration: 60, size: 1, ids: [c.id] }),
    ]);
    expect(body.list[0].hls).toBe(`/api/v1/record/recordvideo/play/m3u8/${dev}:1/${localStamp(s(0))}/${localStamp(s(601.5))}`);
    // paging
    expect((await get(`/api/v1/record/querydaily?device=${dev}&channel=1&period=${localDay(day)}&start=1&limit=1`, api.admin)).json()).toMatchObject({ total: 2, list: [{ ids: [c.id] }] });

    const month = localDay(day).slice(0, 6);
    const monthly = await get(`/api/v1/record/querymonthly?id=${dev}:1&period=${month}`, api.admin);
    const expected = Array.from({ length: new Date(day.getFullYear(), day.getMonth() + 1, 0).getDate() }, (_, i) => (i + 1 === day.getDate() ? '1' : '0')).join('');
    expect(monthly.body).toBe(expected);
    const flags = (await get(`/api/v1/record/queryflags?period=${month}&ids=${dev}:1,${dev2}:1`, api.admin)).json().EasyDarwin.Body.Flags;
    expect(flags).toEqual([
      expect.objectContaining({ id: `${dev}:1`, flags: expected }),
      expect.objectContaining({ id: `${dev2}:1`, flags: expected.replace(/1/g, '0') }),
    ]);
    const devices = (await get(`/api/v1/record/querydevices?period=${localDay(day)}`, api.admin)).json().EasyDarwin.Body;
    expect(devices).toMatchObject({ Total: 1, Channels: [{ id: `${dev}:1`, DeviceID: dev, ChannelID: '1' }] });

    for (const bad of ['period=2024', 'period=20241399', 'id=nocolon&period=20240101']) {
      expect((await get(`/api/v1/record/querydaily?id=${dev}:1&${bad}`, api.admin)).statusCode, bad).toBe(400);
    }
  });

  it('an operator sees only channels of its role; setimportant, remove (not an important one) and removedaily', async () => {
    const { dev, pk } = await camera(1);
    const day = new Date(Date.now() - 3 * 86400_000);
    day.setHours(9, 0, 0, 0);
    const a = await segment(pk, day, 60);
    const b = await segment(pk, new Date(day.getTime() + 60_000), 60);
    const c = await segment(pk, new Date(day.getTime() + 120_000), 60);
    const op = await makeOperator(api.t, api.admin);
    const period = localDay(day);
    expect((await get(`/api/v1/record/querydaily?id=${dev}:1&period=${period}`, op.token)).statusCode).toBe(404);
    expect((await get(`/api/v1/record/setimportant?id=${a.id}&important=1`, op.token)).statusCode).toBe(404);
    expect((await get(`/api/v1/realtimerecord/start?id=${dev}:1`, op.token)).statusCode).toBe(404);
    expect((await get(`/api/v1/record/querydevices?period=${period}`, op.token)).json().EasyDarwin.Body.Total).toBe(0);
    await post('/api/v1/role/channels', { roleid: op.roleId, channels: [{ DeviceID: dev, ChannelID: '1' }] }, api.admin);
    expect((await get(`/api/v1/record/querydaily?id=${dev}:1&period=${period}`, op.token)).json().list).toHaveLength(1);
    const imp = await get(`/api/v1/record/setimportant?id=${a.id}&important=1`, op.token);
    expect(imp.statusCode, imp.body).toBe(200);
    expect((await get(`/api/v1/record/querydaily?id=${dev}:1&period=${period}`, op.token)).json().list[0].important).toBe(1);
    // removal is for administrators; an important segment must be unmarked first
    expect((await get(`/api/v1/record/remove?id=${b.id}`, op.token)).statusCode).toBe(403);
    expect((await get(`/api/v1/record/remove?id=${a.id}`, api.admin)).statusCode).toBe(400);
    expect((await post('/api/v1/record/remove', { id: b.id }, api.admin)).statusCode).toBe(200);
    expect(fs.existsSync(b.file)).toBe(false);
    expect((await get(`/api/v1/record/remove?id=${b.id}`, api.admin)).statusCode).toBe(404);
    const rd = await get(`/api/v1/record/removedaily?id=${dev}:1&period=${period}`, api.admin);
    expect(rd.json().EasyDarwin.Body).toEqual({ Removed: 1, Kept: 1 });
    expect(fs.existsSync(c.file)).toBe(false);
    expect(fs.existsSync(a.file)).toBe(true);
  });

  it('removedaily deletes every recording the day lists, also the one begun the evening before', async () => {
    // Session 27 walk: the day's first 30 s, in a segment begun at 23:59:30 the day before, outlived
    // "delete the day" (0 deleted, 0 kept) and the day still listed 00:00:00-00:00:30.
    const { dev, pk } = await camera(1);
    const midnight = new Date(Date.now() - 5 * 86400_000);
    midnight.setHours(0, 0, 0, 0);
    const at = (sec: number) => new Date(midnight.getTime() + sec * 1000);
    const before = await segment(pk, at(-120), 60);
    const across = await segment(pk, at(-30), 60);
    const inside = await segment(pk, at(3600), 60);
    const next = new Date(midnight);
    next.setDate(next.getDate() + 1);
    const after = await segment(pk, new Date(next.getTime() + 60_000), 60);
    const period = localDay(midnight);
    expect((await get(`/api/v1/record/querydaily?id=${dev}:1&period=${period}`, api.admin)).json().list).toHaveLength(2);
    const rd = await get(`/api/v1/record/removedaily?id=${dev}:1&period=${period}`, api.admin);
    expect(rd.json().EasyDarwin.Body).toEqual({ Removed: 2, Kept: 0 });
    expect((await get(`/api/v1/record/querydaily?id=${dev}:1&period=${period}`, api.admin)).json().list).toEqual([]);
    expect([before, across, inside, after].map((s) => fs.existsSync(s.file))).toEqual([true, false, false, true]);
  });

  it('setimportant by time marks only the segments under it, and the day splits where the mark ends', async () => {
    const { dev, pk } = await camera(1);
    const day = new Date(Date.now() - 2 * 86400_000);
    day.setHours(10, 0, 0, 0);
    const s = (sec: number) => new Date(day.getTime() + sec * 1000);
    const a = await segment(pk, s(0), 300);
    const b = await segment(pk, s(300), 300);
    const c = await segment(pk, s(600), 300);
    const period = localDay(day);
    const daily = async () => (await get(`/api/v1/record/querydaily?id=${dev}:1&period=${period}`, api.admin)).json().list as { ids: number[]; important: number }[];
    expect((await daily()).map((r) => r.ids.length)).toEqual([3]);
    // the second under the playhead, in the middle of b
    const mark = await get(`/api/v1/record/setimportant?device=${dev}&channel=1&starttime=${localStamp(s(400))}&endtime=${localStamp(s(401))}&important=1`, api.admin);
    expect(mark.json().EasyDarwin.Body).toEqual({ Count: 1, Important: 1 });
    expect((await daily()).map((r) => [r.ids, r.important])).toEqual([[[a.id], 0], [[b.id], 1], [[c.id], 0]]);
    // a selection across a and b unmarks b (and leaves a as it was)
    const unmark = await post('/api/v1/record/setimportant', { device: dev, channel: '1', starttime: localStamp(s(200)), endtime: localStamp(s(350)), important: 0 }, api.admin);
    expect(unmark.json().EasyDarwin.Body).toEqual({ Count: 2, Important: 0 });
    expect((await daily()).map((r) => r.ids.length)).toEqual([3]);
    // nothing recorded there, a backwards range, nothing named: refused, nothing changed
    expect((await get(`/api/v1/record/setimportant?device=${dev}&channel=1&starttime=${localStamp(s(5000))}&endtime=${localStamp(s(5001))}`, api.admin)).statusCode).toBe(404);
    expect((await get(`/api/v1/record/setimportant?device=${dev}&channel=1&starttime=${localStamp(s(400))}&endtime=${localStamp(s(300))}`, api.admin)).statusCode).toBe(400);
    expect((await get('/api/v1/record/setimportant?important=1', api.admin)).statusCode).toBe(400);
    // another role's channel: as if it did not exist
    const op = await makeOperator(api.t, api.admin);
    expect((await get(`/api/v1/record/setimportant?device=${dev}&channel=1&starttime=${localStamp(s(400))}&endtime=${localStamp(s(401))}`, op.token)).statusCode).toBe(404);
    expect((await daily()).every((r) => r.important === 0)).toBe(true);
  });

  it('realtimerecord start/stop keeps the flag in the database (kill.test.ts shows it resumes after a restart)', async () => {
    const { dev, pk } = await camera(1);
    const res = await get(`/api/v1/realtimerecord/start?id=${dev}:1`, api.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().EasyDarwin.Body).toEqual({ Recording: 1, Manual: 1 });
    expect(await api.t.ctx.db.selectFrom('record_manual').select('channel_pk').execute()).toEqual([{ channel_pk: pk }]);
    // the camera URL leads nowhere, but the recorder is subscribed and holds the hub open
    expect(api.t.ctx.recording.engine.active()).toEqual([pk]);
    expect((await get(`/api/v1/realtimerecord/stop?device=${dev}&channel=1`, api.admin)).json().EasyDarwin.Body).toEqual({ Recording: 0, Manual: 0 });
    expect(await api.t.ctx.db.selectFrom('record_manual').selectAll().execute()).toEqual([]);
  });
});

describe('the player sees manual recording', () => {
  it('streamstat says whether the channel records and whether by realtimerecord/start', async () => {
    const app = await startTestApp({ listen: true });
    try {
      const token = await initialise(app);
      await app.ctx.recording.ready;
      const add = await app.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token }, payload: { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:9/c' } });
      const dev = add.json().EasyDarwin.Body.DeviceID as string;
      const ws = new WebSocket(`${app.baseUrl!.replace('http', 'ws')}/api/v1/ws/streamstat?request_id=r&token=${token}&playerid=p&device=${dev}&channel=1`);
      const got: { recording?: boolean; manualRecording?: boolean }[] = [];
      ws.on('message', (d) => got.push(JSON.parse(String(d))));
      const seen = (want: { recording: boolean; manualRecording: boolean }) =>
        until(
          () => {
            const last = got.at(-1);
            return last?.recording === want.recording && last.manualRecording === want.manualRecording;
          },
          5000,
          { what: () => `streamstat ${JSON.stringify(want)} (last: ${JSON.stringify(got.at(-1))})` },
        );
      await seen({ recording: false, manualRecording: false });
      await app.app.inject({ url: `/api/v1/realtimerecord/start?device=${dev}&channel=1`, headers: { token } });
      await seen({ recording: true, manualRecording: true });
      await app.app.inject({ url: `/api/v1/realtimerecord/stop?device=${dev}&channel=1`, headers: { token } });
      await seen({ recording: false, manualRecording: false });
      ws.close();
    } finally {
      await app.close();
    }
  });
});
