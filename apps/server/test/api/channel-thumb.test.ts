/**
 * GET /api/v1/devices/channelthumb with the GStreamer test camera (320x240 H.264): the stored
 * thumbnail is made from a running stream, served with ETag/Last-Modified (304 when the browser has
 * it), refused outside the role's channels, and the call itself never opens a stream; a channelsnap
 * call makes the thumbnail again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, until, type TestApp } from '../helpers/index.js';
import { startCamera, type Camera } from '../fixtures/camera.js';
import { initialise, makeOperator } from './support.js';

let t: TestApp;
let admin: string;
let cam: Camera;
beforeEach(async () => {
  cam = await startCamera();
  t = await startTestApp();
  admin = await initialise(t);
  // Short pauses; a card-sized width the camera's 320 px is scaled to.
  Object.assign(t.ctx.thumbnails.opts, { gapMs: 20, width: 160 });
});
afterEach(async () => {
  await t.close();
  await cam.stop();
});

async function addCamera(url = cam.url) {
  const add = await t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token: admin }, payload: { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: url } });
  expect(add.statusCode, add.body).toBe(200);
  return add.json().EasyDarwin.Body.DeviceID as string;
}

const thumb = (device: string, token: string, headers: Record<string, string> = {}) =>
  t.app.inject({ url: `/api/v1/devices/channelthumb?device=${device}&channel=1`, headers: { token, ...headers } });

const running = () => t.ctx.streams.hubs.list().filter((h) => h.state !== 'stopped').length;

/** Width and height from a JPEG's SOF marker. */
function jpegSize(b: Buffer) {
  for (let i = 2; i + 9 < b.length; i += 2 + b.readUInt16BE(i + 2)) {
    if (b[i + 1] >= 0xc0 && b[i + 1] <= 0xc3) return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
  }
  return undefined;
}

describe('channelthumb', () => {
  it('none yet: 204 (no body, not cached: a browser logs no error for it) and no stream opened; a running stream gives one, served card-sized with HTTP caching', async () => {
    const dev = await addCamera();
    const none = await thumb(dev, admin);
    expect(none.statusCode, none.body).toBe(204);
    expect(none.rawPayload.length).toBe(0);
    expect(none.headers['cache-control']).toBe('no-store');
    expect(none.headers.etag).toBeUndefined();
    expect(running()).toBe(0);

    // Someone plays the channel: its thumbnail is made from the stream that runs anyway.
    const open = await t.app.inject({ url: `/api/v1/devices/channelstream?device=${dev}&channel=1&protocol=WS_FMP4`, headers: { token: admin } });
    expect(open.statusCode, open.body).toBe(200);
    await until(async () => (await thumb(dev, admin)).statusCode === 200, 20_000);

    const res = await thumb(dev, admin);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe('private, max-age=60');
    expect(jpegSize(res.rawPayload)).toEqual({ width: 160, height: 120 });
    const etag = res.headers.etag as string;
    const modified = res.headers['last-modified'] as string;
    expect(etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
    expect(Date.parse(modified)).toBeGreaterThan(0);

    // The browser's copy is current: 304 without a body, by tag or by date.
    const byTag = await thumb(dev, admin, { 'if-none-match': etag });
    expect(byTag.statusCode).toBe(304);
    expect(byTag.rawPayload.length).toBe(0);
    expect((await thumb(dev, admin, { 'if-modified-since': modified })).statusCode).toBe(304);
    expect((await thumb(dev, admin, { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('the call never opens a stream, for an online channel that has none running either; bad input: 400', async () => {
    const dev = await addCamera();
    for (let i = 0; i < 5; i++) expect((await thumb(dev, admin)).statusCode).toBe(204);
    // Bad input: a clear 400 naming the parameter, nothing read.
    for (const [q, field] of [['device=&channel=1', 'device'], [`device=${dev}&channel=..%2F1`, 'channel'], [`device=${dev}`, 'channel']]) {
      const bad = await t.app.inject({ url: `/api/v1/devices/channelthumb?${q}`, headers: { token: admin } });
      expect(bad.statusCode, q).toBe(400);
      expect(bad.json().msg, q).toContain(field);
    }
    expect(running()).toBe(0);
    expect(t.ctx.thumbnails.stats).toEqual({ made: 0, failed: 0 });
  });

  it("refused outside the role's channels (as channelsnap), served inside; disabled: 400; no token: 401", async () => {
    const dev = await addCamera();
    await t.ctx.thumbnails.store.write((await t.ctx.inventory.channels.require(dev, '1')).id, Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    const op = await makeOperator(t, admin);
    expect((await thumb(dev, op.token)).statusCode).toBe(404);
    const snap = await t.app.inject({ url: `/api/v1/devices/channelsnap?device=${dev}&channel=1`, headers: { token: op.token } });
    expect(snap.statusCode).toBe(404);
    const grant = await t.app.inject({ method: 'POST', url: '/api/v1/role/channels', headers: { token: admin }, payload: { roleid: op.roleId, channels: [{ DeviceID: dev, ChannelID: '1' }] } });
    expect(grant.statusCode, grant.body).toBe(200);
    const seen = await thumb(dev, op.token);
    expect(seen.statusCode).toBe(200);
    expect([...seen.rawPayload]).toEqual([0xff, 0xd8, 0xff, 0xd9]);
    expect((await t.app.inject({ url: `/api/v1/devices/channelthumb?device=${dev}&channel=1` })).statusCode).toBe(401);
    const off = await t.app.inject({ method: 'POST', url: '/api/v1/editchannel', headers: { token: admin }, payload: { DeviceID: dev, ChannelID: '1', Enable: 0 } });
    expect(off.statusCode, off.body).toBe(200);
    expect((await thumb(dev, admin)).statusCode).toBe(400);
    expect(running()).toBe(0);
  });

  it('a channelsnap call makes the thumbnail again even when it is not due', async () => {
    Object.assign(t.ctx.thumbnails.opts, { snapMinAgeMs: 0 });
    const dev = await addCamera();
    const snap = () => t.app.inject({ url: `/api/v1/devices/channelsnap?device=${dev}&channel=1`, headers: { token: admin } });
    expect((await snap()).statusCode).toBe(200);
    await until(() => t.ctx.thumbnails.stats.made === 1, 20_000);
    // Not due for five minutes by the refresh; channelsnap asks for it.
    const before = t.ctx.thumbnails.stats.made;
    expect((await snap()).statusCode).toBe(200);
    await until(() => t.ctx.thumbnails.stats.made === before + 1, 20_000);
    expect((await thumb(dev, admin)).statusCode).toBe(200);
  });
});
