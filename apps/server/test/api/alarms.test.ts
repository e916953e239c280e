/**
 * Protocol alarms: ctx.alarms.record() stores and pushes (events socket, admins only), alarmlist
 * filters and pages, deletealarm and clearalarm; a live channel gets a snapshot at alarm time
 * (the GStreamer RTSP camera as the live stream, ffmpeg decoding the keyframe).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { until } from '../helpers/index.js';
import { startCamera } from '../fixtures/camera.js';
import { GbDevice } from '../fixtures/gb-device.js';
import { useAdminApp } from './admin-app.js';
import { form, makeOperator } from './support.js';

const DEV = '34020000001320000001';
const CH = '34020000001310000001';

const api = useAdminApp({ listen: true });

const list = async (query: Record<string, string | number> = {}, token = api.admin) => {
  const res = await api.t.app.inject({ url: '/api/v1/alarmlist', headers: { token }, query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
  return res;
};

function openEvents(token: string) {
  const ws = new WebSocket(`${api.t.baseUrl!.replace('http', 'ws')}/api/v1/ws/events?token=${token}`);
  const messages: { topic: string; payload: Record<string, unknown> }[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    ws.on('message', (d) => {
      const m = JSON.parse(String(d));
      messages.push(m);
      if (m.topic === 'hello') resolve();
    });
    ws.on('error', reject);
  });
  return { ws, messages, ready };
}

describe('protocol alarms', () => {
  it('records, pushes to admins only, and lists with filters and paging', async () => {
    const adminWs = openEvents(api.admin);
    const op = await makeOperator(api.t, api.admin);
    const opWs = openEvents(op.token);
    await Promise.all([adminWs.ready, opWs.ready]);

    const first = await api.t.ctx.alarms.record({
      deviceId: DEV,
      channelId: CH,
      priority: 1,
      method: 5,
      type: 7,
      time: '2026-03-01T08:00:00.000Z',
      description: 'motion at gate',
      longitude: 116.39,
      latitude: 39.9,
    });
    expect(first).toMatchObject({ DeviceID: DEV, ChannelID: CH, AlarmPriority: 1, AlarmMethod: 5, AlarmType: 7, AlarmTime: '2026-03-01T08:00:00.000Z', AlarmDescription: 'motion at gate', Longitude: 116.39, Latitude: 39.9, Snapshot: '' });
    // 30 more over two devices and types, a minute apart.
    for (let i = 1; i <= 30; i++) {
      await api.t.ctx.alarms.record({ deviceId: i % 2 ? DEV : '34020000001320000002', channelId: CH, type: i % 3 ? 1 : 18, method: 2, time: new Date(Date.UTC(2026, 2, 1, 8, i)) });
    }
    // Out-of-range values are stored as "unknown" instead of refused: the device's alarm is kept.
    const odd = await api.t.ctx.alarms.record({ deviceId: DEV, type: 99, priority: 9, longitude: 500, time: 'garbage' });
    expect(odd).toMatchObject({ AlarmType: 0, AlarmPriority: 0, Longitude: null, ChannelID: '' });

    // The socket delivers asynchronously: wait for the pushes.
    await until(() => adminWs.messages.filter((m) => m.topic === 'alarm').length >= 32, 5000);
    const pushed = adminWs.messages.filter((m) => m.topic === 'alarm');
    expect(pushed).toHaveLength(32);
    expect(pushed[0]!.payload).toMatchObject({ ID: first.ID, AlarmType: 7 });
    expect(opWs.messages.filter((m) => m.topic === 'alarm')).toHaveLength(0);
    adminWs.ws.close();
    opWs.ws.close();

    const all = (await list()).json().EasyDarwin.Body;
    expect(all.Total).toBe(32);
    expect(all.Alarms).toHaveLength(20);
    expect(all.Alarms[0].ID).toBe(odd.ID); // newest alarm time first
    expect((await list({ start: 20, limit: 20 })).json().EasyDarwin.Body.Alarms).toHaveLength(12);
    expect((await list({ type: 7 })).json().EasyDarwin.Body).toMatchObject({ Total: 1, Alarms: [{ ID: first.ID }] });
    expect((await list({ type: 18 })).json().EasyDarwin.Body.Total).toBe(10);
    expect((await list({ type: 0, device: '34020000001320000002' })).json().EasyDarwin.Body.Total).toBe(15);
    // ISO bounds, inclusive.
    expect((await list({ starttime: '2026-03-01T08:10:00Z', endtime: '2026-03-01T08:19:00Z' })).json().EasyDarwin.Body.Total).toBe(10);
    expect((await list({ channel: CH, endtime: '2026-03-01T08:00:00Z' })).json().EasyDarwin.Body.Total).toBe(1);

    const bads: Record<string, string | number>[] = [{ type: 20 }, { type: -1 }, { starttime: 'yesterday' }, { starttime: '20260231000000' }, { limit: 0 }, { device: 'a/b' }];
    for (const bad of bads) {
      const res = await list(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await list({}, op.token)).statusCode).toBe(403);
  });

  it('local YYYYMMDDHHmmss bounds (spec 9), delete by id and clear with and without filters', async () => {
    const local = (y: number, mo: number, d: number, h: number, mi: number) => new Date(y, mo - 1, d, h, mi);
    const a = await api.t.ctx.alarms.record({ deviceId: DEV, type: 1, time: local(2026, 5, 4, 10, 0) });
    const b = await api.t.ctx.alarms.record({ deviceId: DEV, type: 2, time: local(2026, 5, 4, 11, 0) });
    const c = await api.t.ctx.alarms.record({ deviceId: DEV, type: 2, time: local(2026, 5, 5, 9, 0) });
    await api.t.ctx.alarms.record({ deviceId: '34020000001320000009', type: 2, time: local(2026, 5, 5, 9, 30) });
    expect((await list({ starttime: '20260504000000', endtime: '20260504235959' })).json().EasyDarwin.Body.Total).toBe(2);

    const op = await makeOperator(api.t, api.admin);
    expect((await api.t.app.inject({ method: 'POST', url: '/api/v1/deletealarm', ...form({ id: a.ID }, op.token) })).statusCode).toBe(403);
    expect((await api.t.app.inject({ method: 'POST', url: '/api/v1/clearalarm', ...form({}, op.token) })).statusCode).toBe(403);
    expect((await api.t.app.inject({ method: 'POST', url: '/api/v1/deletealarm', ...form({ id: 'x' }, api.admin) })).statusCode).toBe(400);

    const del = await api.t.app.inject({ method: 'POST', url: '/api/v1/deletealarm', ...form({ id: `${a.ID},${b.ID}` }, api.admin) });
    expect(del.json().EasyDarwin.Body).toEqual({ Deleted: 2 });
    const clearOne = await api.t.app.inject({ method: 'POST', url: '/api/v1/clearalarm', ...form({ device: DEV }, api.admin) });
    expect(clearOne.json().EasyDarwin.Body).toEqual({ Deleted: 1 });
    expect((await list()).json().EasyDarwin.Body.Alarms.map((x: { ID: number }) => x.ID)).not.toContain(c.ID);
    const clearAll = await api.t.app.inject({ method: 'POST', url: '/api/v1/clearalarm', ...form({}, api.admin) });
    expect(clearAll.json().EasyDarwin.Body).toEqual({ Deleted: 1 });
    expect((await list()).json().EasyDarwin.Body).toEqual({ Total: 0, Alarms: [] });
  });

  it('snapshots a live channel at alarm time; the file goes with the alarm', async () => {
    const cam = await startCamera();
    try {
      const add = await api.t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token: api.admin }, payload: { DeviceName: 'Gate', DeviceType: 'RTSP', RtspUrl: cam.url } });
      expect(add.statusCode, add.body).toBe(200);
      const dev = add.json().EasyDarwin.Body.DeviceID as string;
      // No stream running yet: no snapshot (an alarm does not open streams).
      const cold = await api.t.ctx.alarms.record({ deviceId: dev, channelId: '1', type: 7 });
      await api.t.ctx.alarms.idle();
      expect((await api.t.ctx.alarms.get(cold.ID)).Snapshot).toBe('');

      const open = await api.t.app.inject({ url: '/api/v1/getchannelstream', headers: { token: api.admin }, query: { device: dev, channel: '1' } });
      const hub = api.t.ctx.streams.get(open.json().EasyDarwin.Body.Stream as string)!;
      await until(() => hub.state === 'live', 15000);
      expect(hub.state).toBe('live');

      const hot = await api.t.ctx.alarms.record({ deviceId: dev, channelId: '1', type: 11, description: 'intrusion' });
      await api.t.ctx.alarms.idle();
      const item = (await list({ type: 11 })).json().EasyDarwin.Body.Alarms[0];
      expect(item).toMatchObject({ ID: hot.ID, DeviceName: 'Gate', ChannelID: '1', Snapshot: `/api/v1/alarm/snapshot/${hot.ID}` });
      expect(item.ChannelName).toBeTruthy();
      const img = await api.t.app.inject({ url: item.Snapshot, headers: { token: api.admin } });
      expect(img.statusCode).toBe(200);
      expect(img.headers['content-type']).toBe('image/jpeg');
      expect([...img.rawPayload.subarray(0, 2)]).toEqual([0xff, 0xd8]);
      const dir = path.join(api.t.settings.dataDir, 'alarms');
      const files = fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.jpg'));
      expect(files).toEqual([expect.stringMatching(new RegExp(`^\\d{8}/${hot.ID}\\.jpg$`))]);

      const op = await makeOperator(api.t, api.admin);
      expect((await api.t.app.inject({ url: item.Snapshot, headers: { token: op.token } })).statusCode).toBe(403);
      expect((await api.t.app.inject({ url: `/api/v1/alarm/snapshot/${cold.ID}`, headers: { token: api.admin } })).statusCode).toBe(404);

      await api.t.app.inject({ method: 'POST', url: '/api/v1/deletealarm', ...form({ id: hot.ID }, api.admin) });
      expect(fs.existsSync(path.join(dir, files[0]!))).toBe(false);
    } finally {
      await cam.stop();
    }
  });

  it('never serves a file outside the alarms folder, whatever a row says', async () => {
    const a = await api.t.ctx.alarms.record({ deviceId: DEV });
    fs.writeFileSync(path.join(api.t.settings.dataDir, 'secret.jpg'), 'x');
    for (const bad of ['../secret.jpg', '/etc/passwd', 'a/../../secret.jpg']) {
      await api.t.db.kysely.updateTable('alarms').set({ snapshot: bad }).where('id', '=', a.ID).execute();
      expect((await api.t.app.inject({ url: `/api/v1/alarm/snapshot/${a.ID}`, headers: { token: api.admin } })).statusCode).toBe(404);
    }
    await api.t.app.inject({ method: 'POST', url: '/api/v1/clearalarm', ...form({}, api.admin) });
    expect(fs.existsSync(path.join(api.t.settings.dataDir, 'secret.jpg'))).toBe(true);
  });

  it('a GB device\'s Alarm MESSAGE is answered, stored with its fields and pushed', async () => {
    await api.t.ctx.config.set('gb', { DevicePassword: 'gbpass123' });
    const dev = await GbDevice.start({ deviceId: DEV, password: 'gbpass123', serverPort: api.t.ctx.gb.port });
    try {
      expect((await dev.register()).status).toBe(200);
      const pushed: unknown[] = [];
      const off = api.t.ctx.events.subscribe((m) => m.topic === 'alarm' && pushed.push(m.payload));
      // As a camera sends it: video alarm (method 5), AlarmType 6 = intrusion, local time, a position.
      const body =
        '<?xml version="1.0" encoding="UTF-8"?>\r\n<Notify>\r\n<CmdType>Alarm</CmdType>\r\n<SN>17</SN>\r\n' +
        `<DeviceID>${CH}</DeviceID>\r\n<AlarmPriority>2</AlarmPriority>\r\n<AlarmMethod>5</AlarmMethod>\r\n` +
        '<AlarmTime>2026-04-02T09:30:15</AlarmTime>\r\n<AlarmDescription>入侵检测 东门</AlarmDescription>\r\n' +
        '<Longitude>121.47</Longitude>\r\n<Latitude>31.23</Latitude>\r\n<Info>\r\n<AlarmType>6</AlarmType>\r\n</Info>\r\n</Notify>\r\n';
      expect((await dev.message(body)).status).toBe(200);
      await until(() => pushed.length > 0, 5000);
      off();
      const item = (await list()).json().EasyDarwin.Body.Alarms[0];
      expect(item).toMatchObject({
        DeviceID: DEV,
        ChannelID: CH,
        AlarmPriority: 2,
        AlarmMethod: 5,
        AlarmType: 11, // spec 3: intrusion
        AlarmTime: new Date(2026, 3, 2, 9, 30, 15).toISOString(), // the device's local time
        AlarmDescription: '入侵检测 东门',
        Longitude: 121.47,
        Latitude: 31.23,
      });
      expect(pushed).toHaveLength(1);
      // The standard's alarm notification response goes back to the device.
      // (Other MESSAGEs, such as the catalog query after registration, may come first.)
      const isAlarmResponse = (r: (typeof dev.requests)[number]) => r.method === 'MESSAGE' && /<Response>[\s\S]*<CmdType>Alarm</.test(new TextDecoder().decode(r.body));
      await until(() => dev.requests.some(isAlarmResponse), 5000);
      const response = dev.requests.find(isAlarmResponse);
      expect(response, 'an alarm response MESSAGE').toBeDefined();
      expect(new TextDecoder().decode(response!.body)).toMatch(/<Response>[\s\S]*<CmdType>Alarm<\/CmdType>[\s\S]*<SN>17<\/SN>[\s\S]*<Result>OK<\/Result>/);
    } finally {
      await dev.close();
    }
  });
});
