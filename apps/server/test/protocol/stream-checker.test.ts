/**
 * The background checker through the API: an RTSP device pointing at a real GStreamer camera goes
 * online, offline when the camera stops (with a reason and an OFF message), and online again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, until, type TestApp } from '../helpers/index.js';
import { initialise } from '../api/support.js';
import { startCamera, type Camera } from '../fixtures/camera.js';

describe('stream checker', () => {
  let t: TestApp | undefined;
  let cam: Camera | undefined;
  afterEach(async () => {
    await t?.close();
    await cam?.stop();
    t = cam = undefined;
  });

  it('follows a camera going away and coming back', async () => {
    cam = await startCamera({ username: 'admin', password: 'cam-pass' });
    t = await startTestApp({ overrides: { channelCheckInterval: 1 } });
    const token = await initialise(t);
    const get = async (url: string, query: Record<string, string> = {}) => {
      const res = await t!.app.inject({ method: 'GET', url, query, headers: { token } });
      expect(res.statusCode).toBe(200);
      return res.json().EasyDarwin.Body;
    };

    const add = await t.app.inject({
      method: 'POST',
      url: '/api/v1/adddevice',
      headers: { token },
      payload: { DeviceName: 'Gate camera', DeviceType: 'RTSP', RtspUrl: cam.url, DeviceUserName: 'admin', DeviceUserPW: 'cam-pass' },
    });
    expect(add.statusCode, add.body).toBe(200);
    const deviceId = add.json().EasyDarwin.Body.DeviceID as string;
    const device = async () => (await get('/api/v1/devicesconfig', { device: deviceId })).Devices[0];
    const channel = async () => (await get('/api/v1/channelsconfig', { device: deviceId })).Channels[0];
    const news = async () => (await get('/api/v1/newslist', { limit: '50' })).list as { Status: string; DeviceID: string }[];

    // Online: the device, its channel, and one ON message.
    await until(async () => (await device()).Online === 1, 15000, { what: 'device online' });
    expect((await channel()).Online).toBe(1);
    expect((await news()).filter((n) => n.DeviceID === deviceId).map((n) => n.Status)).toEqual(['ON']);

    // The camera stops: offline with a reason, one OFF message.
    await cam.stop();
    await until(async () => (await device()).Online === 0, 15000, { what: 'device offline' });
    const off = await channel();
    expect(off.Online).toBe(0);
    // in the answer's language (Chinese by default; the database keeps the probe's words)
    expect(off.StatusReason).toMatch(/^(连接被拒绝|连接被重置|摄像机关闭了连接)$/);
    await until(async () => (await news())[0]?.Status === 'OFF', 15000, { what: 'OFF message' });

    // Stays offline for a few checks: no more messages.
    const before = (await news()).length;
    await new Promise((r) => setTimeout(r, 2500));
    expect((await news()).length).toBe(before);

    // Back on the same port: online again.
    cam = await startCamera({ port: cam.port, username: 'admin', password: 'cam-pass' });
    await until(async () => (await device()).Online === 1, 15000, { what: 'device online again' });
    expect((await news()).filter((n) => n.DeviceID === deviceId).map((n) => n.Status)).toEqual(['ON', 'OFF', 'ON']);
  });

  it('a channel with wrong credentials stays offline with 401 as the reason', async () => {
    cam = await startCamera({ username: 'admin', password: 'right' });
    t = await startTestApp({ overrides: { channelCheckInterval: 1 } });
    const token = await initialise(t);
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/v1/adddevice',
      headers: { token },
      payload: { DeviceName: 'Wrong pw', DeviceType: 'RTSP', RtspUrl: cam.url, DeviceUserName: 'admin', DeviceUserPW: 'wrong' },
    });
    const deviceId = add.json().EasyDarwin.Body.DeviceID as string;
    const ch = await until(async () => {
      const res = await t!.app.inject({ method: 'GET', url: '/api/v1/channelsconfig', query: { device: deviceId }, headers: { token } });
      const c = res.json().EasyDarwin.Body.Channels[0];
      return c?.StatusReason ? c : undefined;
    }, 15000, { what: 'a checked channel' });
    expect(ch).toMatchObject({ Online: 0, StatusReason: '摄像机拒绝了用户名或密码（401 Unauthorized）' });
  });

  it('stops cleanly: no probe, timer or socket left after close', async () => {
    t = await startTestApp({ overrides: { channelCheckInterval: 1 } });
    expect(t.ctx.streamChecker.enabled).toBe(true);
    const token = await initialise(t);
    // A camera that never answers (a TEST-NET address): the probe is in flight when the app closes.
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/adddevice',
      headers: { token },
      payload: { DeviceName: 'Far away', DeviceType: 'RTSP', RtspUrl: 'rtsp://192.0.2.1:554/cam' },
    });
    const t0 = Date.now();
    await t.close();
    expect(Date.now() - t0).toBeLessThan(2000);
    t = undefined;
  });
});
