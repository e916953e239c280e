/**
 * Live stream calls (spec 7 "Streams and records"): getchannelstream opens a channel's stream,
 * touchchannelstream keeps an on-demand hub alive past its grace period without a viewer, stopstream
 * stops it (admins only), and a channel outside the user's role is not found.
 * Source: the GStreamer RTSP camera; the hub's grace period is shortened for the test.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_HUB_OPTIONS, type HubOptions } from '../../src/media/hub.js';
import { sleep, until } from '../helpers/index.js';
import { makeOperator } from './support.js';
import { useAdminApp } from './admin-app.js';
import { useCamera } from '../fixtures/use-camera.js';

/** Short enough to watch a stop happen, long enough that a loaded CI machine answers a call within it. */
const GRACE_MS = 2000;
/** For the tests that do not wait for the grace period: the hub must outlive the slowest call. */
const LONG_GRACE_MS = 60_000;
const setGrace = (graceMs: number) => {
  (api.t.ctx.streams as unknown as { hubDefaults: Omit<HubOptions, 'onDemand'> }).hubDefaults = { ...DEFAULT_HUB_OPTIONS, graceMs };
};

const cam = useCamera();
const api = useAdminApp();
beforeEach(async () => {
  // The grace period every new hub gets (the real default is 10 s).
  setGrace(GRACE_MS);
});

async function addCamera() {
  const add = await api.t.app.inject({
    method: 'POST',
    url: '/api/v1/adddevice',
    headers: { token: api.admin },
    payload: { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: cam.url },
  });
  expect(add.statusCode, add.body).toBe(200);
  return add.json().EasyDarwin.Body.DeviceID as string;
}

const call = (path: string, token: string, query: Record<string, string | number>) =>
  api.t.app.inject({ url: path, headers: { token }, query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });

const touch = async (token: string, device: string) => {
  const res = await call('/api/v1/touchchannelstream', token, { device, channel: '1' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body.State as string;
};

describe('getchannelstream, touchchannelstream, stopstream', () => {
  it('opens the stream; touch keeps the on-demand hub past its grace; without touches it stops', async () => {
    const dev = await addCamera();
    const res = await call('/api/v1/getchannelstream', api.admin, { device: dev, channel: '1', protocol: 'WS_FMP4' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().EasyDarwin.Body as { URL: string; URLs: Record<string, string>; Stream: string; State: string };
    expect(body.Stream).toMatch(/^stream_\d+_0$/);
    expect(body.URL).toContain(body.Stream);
    expect(Object.keys(body.URLs)).toEqual(expect.arrayContaining(['WS_FMP4', 'HLS']));
    expect(['connecting', 'live']).toContain(body.State);

    const hub = api.t.ctx.streams.get(body.Stream)!;
    expect(hub).toBeDefined();
    await until(() => hub.state === 'live', 15000);
    expect(await touch(api.admin, dev)).toBe('live');

    // Touched every quarter grace, nobody watching: alive well past three grace periods.
    const end = Date.now() + 3 * GRACE_MS;
    while (Date.now() < end) {
      expect(await touch(api.admin, dev)).toBe('live');
      await sleep(GRACE_MS / 4);
    }
    expect(hub.state).toBe('live');

    // No more touches: stopped after the grace period.
    await until(() => hub.state === 'stopped', GRACE_MS + 3000);
    expect(await touch(api.admin, dev)).toBe('stopped');
  });

  it('stopstream stops the hub; touch then answers stopped; a new open starts it again', async () => {
    setGrace(LONG_GRACE_MS);
    const dev = await addCamera();
    const first = await call('/api/v1/getchannelstream', api.admin, { device: dev, channel: '1' });
    const key = first.json().EasyDarwin.Body.Stream as string;
    const hub = api.t.ctx.streams.get(key)!;
    await until(() => hub.state === 'live', 15000);

    const stop = await call('/api/v1/stopstream', api.admin, { device: dev, channel: '1' });
    expect(stop.statusCode, stop.body).toBe(200);
    expect(hub.state).toBe('stopped');
    expect(api.t.ctx.streams.get(key)?.state ?? 'stopped').toBe('stopped');
    expect(await touch(api.admin, dev)).toBe('stopped');

    const again = await call('/api/v1/getchannelstream', api.admin, { device: dev, channel: '1' });
    expect(again.statusCode).toBe(200);
    const hub2 = api.t.ctx.streams.get(key)!;
    expect(hub2).not.toBe(hub);
    await until(() => hub2.state === 'live', 15000);
    expect(await touch(api.admin, dev)).toBe('live');
  });

  it('a channel given a new address plays from it: its running stream starts again (a rename does not touch it)', async () => {
    setGrace(LONG_GRACE_MS);
    // First a wrong address: the hub retries it.
    const add = await api.t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token: api.admin }, payload: { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:9/wrong' } });
    const dev = add.json().EasyDarwin.Body.DeviceID as string;
    const key = (await call('/api/v1/getchannelstream', api.admin, { device: dev, channel: '1' })).json().EasyDarwin.Body.Stream as string;
    const wrong = api.t.ctx.streams.get(key)!;
    await until(() => wrong.state === 'retrying', 15000);
    const edit = (payload: object) => api.t.app.inject({ method: 'POST', url: '/api/v1/editchannel', headers: { token: api.admin }, payload: { DeviceID: dev, ChannelID: '1', ...payload } });
    expect((await edit({ Name: 'Gate' })).statusCode).toBe(200);
    expect(wrong.state).toBe('retrying');
    // The right address: the old hub stops, the next open plays the camera.
    expect((await edit({ RtspUrl: cam.url })).statusCode).toBe(200);
    expect(wrong.state).toBe('stopped');
    await call('/api/v1/getchannelstream', api.admin, { device: dev, channel: '1' });
    const right = api.t.ctx.streams.get(key)!;
    expect(right).not.toBe(wrong);
    await until(() => right.state === 'live', 15000);
  });

  it('a non-admin gets 403 on stopstream and 404 for a channel outside its role', async () => {
    setGrace(LONG_GRACE_MS);
    const dev = await addCamera();
    const open = await call('/api/v1/getchannelstream', api.admin, { device: dev, channel: '1' });
    const key = open.json().EasyDarwin.Body.Stream as string;
    const op = await makeOperator(api.t, api.admin);

    const stop = await call('/api/v1/stopstream', op.token, { device: dev, channel: '1' });
    expect(stop.statusCode).toBe(403);
    expect(api.t.ctx.streams.get(key)?.state).not.toBe('stopped');

    for (const path of ['/api/v1/getchannelstream', '/api/v1/touchchannelstream']) {
      const res = await call(path, op.token, { device: dev, channel: '1' });
      expect(res.statusCode, path).toBe(404);
    }
    // Unknown channel for the admin: 404 too.
    expect((await call('/api/v1/getchannelstream', api.admin, { device: dev, channel: '99' })).statusCode).toBe(404);
    // No token: 401.
    expect((await api.t.app.inject({ url: `/api/v1/stopstream?device=${dev}&channel=1` })).statusCode).toBe(401);
  });
});
