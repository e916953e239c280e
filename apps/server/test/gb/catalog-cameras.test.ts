/**
 * The lists of cameras of a GB device whose cameras sit under folders (a civil-code directory, a
 * business group, a virtual organisation), the device double's catalog stored over SIP: the playback
 * list (/api/v1/channels) and the video square (/api/v1/all/channels) with cameras=1 list every camera
 * whatever folder it is under, 20 a page with the cameras' count; without it the calls answer as
 * before (one level; every channel). One channel by its exact ID (devices/{id}/channels?channel=);
 * the cameras below one folder at every depth (devices/{id}/channels?under=, the picker's folder box).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/index.js';
import { GbDevice } from '../fixtures/gb-device.js';
import { answerQueries, makeFolderCatalog } from '../fixtures/gb-device-answers.js';
import { initialise } from '../api/support.js';

const DEV = '34020000001110000007';
const PW = 'pw123456';
const catalog = makeFolderCatalog(DEV, 30, '园区');

let t: TestApp;
let admin: string;
let dev: GbDevice;

beforeAll(async () => {
  t = await startTestApp();
  admin = await initialise(t);
  await t.ctx.config.set('gb', { DevicePassword: PW, AckTimeout: 3 });
  dev = await GbDevice.start({ deviceId: DEV, password: PW, serverPort: t.ctx.gb.port });
  const answering = answerQueries(dev, { deviceId: DEV, catalog: catalog.items, perPage: 4 });
  expect((await dev.register()).status).toBe(200);
  expect(await t.ctx.gbDevices.catalog.wait(DEV)).toMatchObject({ Outcome: 'complete', Received: 33 });
  await answering.idle();
});
afterAll(async () => {
  await dev?.close();
  await t?.close();
});

interface Page {
  Channels: { ChannelID: string; Parental: number; ParentDeviceID: string }[];
  ChannelCount: number;
}
async function list(url: string, query: Record<string, string>): Promise<Page> {
  const res = await t.app.inject({ url, headers: { token: admin }, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body as Page;
}
const ids = (p: Page) => p.Channels.map((c) => c.ChannelID);

describe('cameras under GB folders', () => {
  it('the device keeps its folders: the top level is the civil code, the business group and two cameras', async () => {
    const top = await list('/api/v1/channels', { device: DEV, start: '0', limit: '20' });
    expect(ids(top).sort()).toEqual([...catalog.folders.slice(0, 2), ...catalog.cameras.slice(-2)].sort());
    expect(top.ChannelCount).toBe(4);
  });

  it('/api/v1/channels?cameras=1 lists every camera of the device, 20 a page, counting cameras only', async () => {
    const p1 = await list('/api/v1/channels', { device: DEV, cameras: '1', start: '0', limit: '20' });
    const p2 = await list('/api/v1/channels', { device: DEV, cameras: '1', start: '20', limit: '20' });
    expect(p1.Channels).toHaveLength(20);
    expect(p2.Channels).toHaveLength(10);
    expect(p1.ChannelCount).toBe(30);
    expect([...p1.Channels, ...p2.Channels].every((c) => c.Parental === 0 && c.ParentDeviceID === DEV)).toBe(true);
    expect([...ids(p1), ...ids(p2)].sort()).toEqual([...catalog.cameras].sort());
  });

  it('/api/v1/all/channels?cameras=1 pages cameras only, searched too (the folders share the names)', async () => {
    const all = await list('/api/v1/all/channels', { cameras: '1', start: '0', limit: '20' });
    expect(all.Channels).toHaveLength(20);
    expect(all.ChannelCount).toBe(30);
    expect(all.Channels.every((c) => c.Parental === 0)).toBe(true);
    const found = await list('/api/v1/all/channels', { cameras: '1', q: '园区', start: '0', limit: '20' });
    expect(found.Channels).toHaveLength(20);
    expect(found.ChannelCount).toBe(30);
    // Without it, as before: every channel, folders included.
    expect((await list('/api/v1/all/channels', { q: '园区', start: '0', limit: '20' })).ChannelCount).toBe(33);
  });

  it('devices/{id}/channels?channel= is that one camera under its folders; a folder is no camera', async () => {
    const deep = catalog.cameras[5];
    const one = await list(`/api/v1/devices/${DEV}/channels`, { channel: deep, start: '0', limit: '1' });
    expect(ids(one)).toEqual([deep]);
    expect(one.ChannelCount).toBe(1);
    expect((await list(`/api/v1/devices/${DEV}/channels`, { channel: catalog.folders[2], start: '0', limit: '1' })).ChannelCount).toBe(0);
  });

  it('devices/{id}/channels?under= is every camera below that folder at every depth, paged, counting them', async () => {
    const [civil, group, org] = catalog.folders as [string, string, string];
    const page = (under: string, start: number) => list(`/api/v1/devices/${DEV}/channels`, { under, start: String(start), limit: '20' });
    // The business group holds no camera itself: its 25 sit in the virtual organisation under it.
    const p1 = await page(group, 0);
    const p2 = await page(group, 20);
    expect(p1.Channels).toHaveLength(20);
    expect(p1.ChannelCount).toBe(25);
    expect(p2.Channels).toHaveLength(5);
    expect([...ids(p1), ...ids(p2)].sort()).toEqual(catalog.cameras.slice(3, 28).sort());
    expect([...p1.Channels, ...p2.Channels].every((c) => c.Parental === 0)).toBe(true);
    expect(ids(await page(org, 0)).sort()).toEqual(catalog.cameras.slice(3, 23).sort());
    expect(ids(await page(civil, 0)).sort()).toEqual(catalog.cameras.slice(0, 3).sort());
    // A camera has nothing under it.
    expect((await page(catalog.cameras[29]!, 0)).ChannelCount).toBe(0);
  });

  it('devices/{id}/channels?under= a folder the device does not have is a 404, a malformed one a 400', async () => {
    const missing = await t.app.inject({ url: `/api/v1/devices/${DEV}/channels`, headers: { token: admin }, query: { under: '34020000002150000999' } });
    expect(missing.statusCode).toBe(404);
    // Another device's folder is not this device's.
    const other = await t.app.inject({ url: '/api/v1/devices/34020000001110000099/channels', headers: { token: admin }, query: { under: catalog.folders[1] } });
    expect(other.statusCode).toBe(404);
    const bad = await t.app.inject({ url: `/api/v1/devices/${DEV}/channels`, headers: { token: admin }, query: { under: 'a/b' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/under/);
  });

  it('bad input is a 400 naming the field', async () => {
    const res = await t.app.inject({ url: '/api/v1/channels', headers: { token: admin }, query: { device: DEV, cameras: 'maybe' } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/cameras/);
    const bad = await t.app.inject({ url: `/api/v1/devices/${DEV}/channels`, headers: { token: admin }, query: { channel: 'a/b' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/channel/);
  });
});
