/**
 * GB device management against the TS device double on loopback: DeviceInfo/DeviceStatus fill the
 * device row and deviceinfo's GB part; remotedevctrl sends TeleBoot and GuardCmd (with and without the
 * device's Response); catalog NOTIFY ADD/UPDATE/OFF/DEL applied to the tree and the message log;
 * SUBSCRIBE to Catalog/Alarm/MobilePosition from the device's flags, refreshed in its dialog and
 * ended with Expires 0; MobilePosition moves the channel.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeCatalogNotify, encodeMobilePosition } from '@opencvr/manscdp';
import { header } from '@opencvr/sip';
import { sleep, until } from '../helpers/index.js';
import { GbDevice } from '../fixtures/gb-device.js';
import { answerQueries, makeCatalog, type Answering, type DeviceAnswers } from '../fixtures/gb-device-answers.js';
import { useAdminApp } from '../api/admin-app.js';

const DEV = '34020000001320000001';
const PW = 'pw123456';
/** The platform under test (a fresh one per test) and its admin token. */
const server = useAdminApp();
let dev: GbDevice;
let answering: Answering;

async function start(answers: Omit<DeviceAnswers, 'deviceId'>) {
  dev = await GbDevice.start({ deviceId: DEV, password: PW, serverPort: server.t.ctx.gb.port });
  answering = answerQueries(dev, { deviceId: DEV, ...answers });
  expect((await dev.register()).status).toBe(200);
  await server.t.ctx.gbDevices.catalog.wait(DEV);
  await answering.idle();
}

beforeEach(async () => {
  await server.t.ctx.config.set('gb', { DevicePassword: PW, AckTimeout: 2 });
});
// Registered after useAdminApp(), so it runs first: the device leaves before the app closes.
afterEach(async () => {
  await dev?.close();
});

const api = (url: string, query: Record<string, string>) => server.t.app.inject({ url, headers: { token: server.admin }, query });
const body = (res: { json(): { EasyDarwin: { Body: Record<string, unknown> } } }) => res.json().EasyDarwin.Body;

describe('device information', () => {
  it('DeviceInfo after registration fills manufacturer, model, firmware, channel count and the name; deviceinfo?refresh=1 adds DeviceStatus', async () => {
    await start({
      catalog: makeCatalog(DEV, 2),
      deviceInfo: { deviceName: '大门 NVR', manufacturer: 'Hikvision', model: 'DS-7608N', firmware: 'V4.30.085', channel: 8 },
      deviceStatus: { online: true, status: 'OK', encode: true, record: false, deviceTime: '2026-11-22T10:00:00' },
    });
    await until(async () => (await server.t.ctx.inventory.devices.get(DEV))?.firmware === 'V4.30.085');
    expect(await server.t.ctx.inventory.devices.get(DEV)).toMatchObject({ device_name: '大门 NVR', manufacturer: 'Hikvision', model: 'DS-7608N', channel_count: 8 });

    await server.t.ctx.db.updateTable('devices').set({ firmware: '' }).where('device_id', '=', DEV).execute();
    const res = await api('/api/v1/deviceinfo', { device: DEV, refresh: '1' });
    expect(res.statusCode).toBe(200);
    const b = body(res);
    expect(b).toMatchObject({ DeviceID: DEV, Firmware: 'V4.30.085', Manufacturer: 'Hikvision' });
    expect(b.GB).toMatchObject({
      ChannelCount: 8,
      Registered: true,
      SipTransport: 'UDP',
      Status: { Online: true, Result: 'OK', Encode: true, Record: false, DeviceTime: '2026-11-22T10:00:00' },
      Catalog: { Outcome: 'complete', Received: 2 },
    });
    expect((b.GB as Record<string, unknown>).RefreshError).toBeUndefined();
  });

  it('a device that does not answer DeviceInfo: deviceinfo?refresh=1 still answers, naming the cause', async () => {
    await start({ catalog: [] });
    const b = body(await api('/api/v1/deviceinfo', { device: DEV, refresh: '1' }));
    // In the answer's language: Chinese by default, English when asked.
    expect((b.GB as Record<string, string>).RefreshError).toBe('2000毫秒内未收到 DeviceInfo 应答');
    const en = body(await api('/api/v1/deviceinfo', { device: DEV, refresh: '1', lang: 'en-US' }));
    expect((en.GB as Record<string, string>).RefreshError).toBe('no DeviceInfo response within 2000 ms');
  });
});

describe('remotedevctrl', () => {
  it('reboot sends TeleBoot; setguard/resetguard send GuardCmd and report the device’s Result', async () => {
    await start({ catalog: [], controlResult: 'OK' });
    const reboot = await api('/api/v1/remotedevctrl', { device: DEV });
    expect(reboot.statusCode).toBe(200);
    expect(body(reboot)).toMatchObject({ Command: 'reboot', Answered: true });
    expect(answering.controls.at(-1)).toMatchObject({ teleBoot: true, deviceId: DEV });

    const guard = await api('/api/v1/remotedevctrl', { device: DEV, command: 'setguard' });
    expect(body(guard)).toMatchObject({ Command: 'setguard', Result: 'OK', Answered: true });
    expect(answering.controls.at(-1)).toMatchObject({ guardCmd: 'SetGuard' });
    await api('/api/v1/remotedevctrl', { device: DEV, command: 'resetguard' });
    expect(answering.controls.at(-1)).toMatchObject({ guardCmd: 'ResetGuard' });
    expect((await api('/api/v1/remotedevctrl', { device: DEV, command: 'format-disk' })).statusCode).toBe(400);
  });

  it('a control without a Response is reported as not answered; Result ERROR is a 502; an offline device is 409', async () => {
    await start({ catalog: [], controlResult: 'none' });
    expect(body(await api('/api/v1/remotedevctrl', { device: DEV, command: 'resetalarm' }))).toMatchObject({ Answered: false });
    answering.stop();
    answering = answerQueries(dev, { deviceId: DEV, controlResult: 'ERROR' });
    const refused = await api('/api/v1/remotedevctrl', { device: DEV, command: 'setguard' });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().msg).toBe(`设备 ${DEV} 拒绝了命令: 设备回应 Result ERROR`);
    await dev.unregister();
    const off = await api('/api/v1/remotedevctrl', { device: DEV });
    expect(off.statusCode).toBe(409);
    expect(off.json().msg).toMatch(/未注册|not registered/);
  });
});

describe('catalog NOTIFY', () => {
  it('ADD, UPDATE, OFF and DEL change the tree and the message log', async () => {
    const items = makeCatalog(DEV, 4, { dirs: 2 });
    await start({ catalog: items });
    const [dir1, dir2, cam1, cam2, cam3] = items.map((i) => i.deviceId);
    const fresh = '34020000001310000077';
    const notify = encodeCatalogNotify({
      sn: 500,
      deviceId: DEV,
      items: [
        { deviceId: fresh, name: '新摄像机', parentId: dir2, event: 'ADD', status: 'ON' },
        { deviceId: cam1, name: 'renamed', parentId: dir2, event: 'UPDATE', status: 'ON' },
        { deviceId: cam2, event: 'OFF' },
        { deviceId: cam3, event: 'DEL' },
      ],
    });
    expect((await dev.send('NOTIFY', notify.bytes)).status).toBe(200);
    const rows = async () => server.t.ctx.db.selectFrom('channels').selectAll().where('parent_device_id', '=', DEV).execute();
    await until(async () => (await rows()).some((r) => r.channel_id === fresh) && !(await rows()).some((r) => r.channel_id === cam3));
    await until(async () => (await rows()).find((r) => r.channel_id === cam2)?.online === 0);
    const byId = new Map((await rows()).map((r) => [r.channel_id, r]));
    expect(byId.get(fresh)).toMatchObject({ name: '新摄像机', parent_id: dir2, parental: 0, online: 1, from_catalog: 1 });
    expect(byId.get(cam1)).toMatchObject({ name: 'renamed', parent_id: dir2 });
    expect(byId.get(cam2)).toMatchObject({ online: 0, status: 'OFF', status_reason: 'statusCatalogOff' });
    expect(byId.get(dir1)).toMatchObject({ parental: 1 });
    const news = await server.t.ctx.db.selectFrom('news').selectAll().where('channel_id', '=', cam2).execute();
    expect(news.map((n) => n.status)).toEqual(['OFF']);
    // The same as a MESSAGE (devices do both): ON brings it back.
    expect((await dev.send('MESSAGE', encodeCatalogNotify({ sn: 501, deviceId: DEV, items: [{ deviceId: cam2, event: 'ON' }] }).bytes)).status).toBe(200);
    await until(async () => (await rows()).find((r) => r.channel_id === cam2)?.online === 1);
  });
});

describe('subscriptions and MobilePosition', () => {
  it('SUBSCRIBEs for the flags that are on, refreshes in the same dialog, ends with Expires 0 when a flag goes off', async () => {
    await start({ catalog: makeCatalog(DEV, 1) });
    server.t.ctx.gbDevices.subscriptions.configure({ expires: 2 });
    await server.t.ctx.db.updateTable('devices').set({ alarm_subscribe: 1, catalog_subscribe: 1, position_subscribe: 1 }).where('device_id', '=', DEV).execute();
    await server.t.ctx.gbDevices.subscriptions.reconcile(DEV);
    expect(answering.subscribes).toHaveLength(3);
    const events = answering.subscribes.map((r) => header(r, 'Event'));
    expect(events[0]).toMatch(/^Catalog;id=\d+$/);
    expect(events.slice(1)).toEqual(['presence', 'presence']);
    expect(answering.subscribes.map((r) => new TextDecoder().decode(r.body).match(/<CmdType>(\w+)<\/CmdType>/)![1])).toEqual(['Catalog', 'Alarm', 'MobilePosition']);
    expect(answering.subscribes.every((r) => header(r, 'Expires') === '2')).toBe(true);
    expect(server.t.ctx.gbDevices.subscriptions.state(DEV).every((s) => !!s.toTag)).toBe(true);

    // Refresh when a fifth of the lifetime is left: same Call-ID and tags, next CSeq.
    await sleep(1700);
    await server.t.ctx.gbDevices.subscriptions.reconcile(DEV);
    expect(answering.subscribes).toHaveLength(6);
    const [first, refresh] = [answering.subscribes[0], answering.subscribes[3]];
    expect(header(refresh, 'Call-ID')).toBe(header(first, 'Call-ID'));
    expect(header(refresh, 'To')).toMatch(/tag=/);
    expect(header(refresh, 'CSeq')).toBe('2 SUBSCRIBE');
    expect(header(refresh, 'Event')).toBe(header(first, 'Event'));

    await server.t.ctx.db.updateTable('devices').set({ position_subscribe: 0 }).where('device_id', '=', DEV).execute();
    await server.t.ctx.gbDevices.subscriptions.reconcile(DEV);
    const last = answering.subscribes.at(-1)!;
    expect(header(last, 'Expires')).toBe('0');
    expect(new TextDecoder().decode(last.body)).toMatch(/MobilePosition/);
    expect(server.t.ctx.gbDevices.subscriptions.state(DEV).map((s) => s.kind).sort()).toEqual(['alarm', 'catalog']);
  });

  it('MobilePosition NOTIFY moves the channel it names (the device itself: all its cameras)', async () => {
    const items = makeCatalog(DEV, 2);
    await start({ catalog: items });
    const cam = items[0].deviceId;
    const pos = encodeMobilePosition({ sn: 9, deviceId: cam, time: '2026-11-22T08:30:00', longitude: 116.397, latitude: 39.909, speed: 42.5, direction: 90, altitude: 50 });
    expect((await dev.send('NOTIFY', pos.bytes)).status).toBe(200);
    const get = (id: string) => server.t.ctx.db.selectFrom('channels').selectAll().where('channel_id', '=', id).executeTakeFirstOrThrow();
    await until(async () => (await get(cam)).gps_longitude === 116.397);
    expect(await get(cam)).toMatchObject({ gps_latitude: 39.909, gps_speed: 42.5, gps_direction: 90, gps_altitude: 50 });
    expect((await get(cam)).gps_time).toBe(new Date('2026-11-22T08:30:00').toISOString());
    expect((await get(items[1].deviceId)).gps_longitude).toBeNull();
    await dev.send('MESSAGE', encodeMobilePosition({ sn: 10, deviceId: DEV, time: '2026-11-22T08:31:00', longitude: 100.5, latitude: 20.25 }).bytes);
    await until(async () => (await get(items[1].deviceId)).gps_longitude === 100.5);
    expect((await get(cam)).gps_longitude).toBe(100.5);
  });
});
