/**
 * ONVIF through the API: probedevice against a responder answering with recordings of real cameras
 * (fixtures/onvif), its errors (wrong password, closed port, silent device, not ONVIF), and one
 * bounded WS-Discovery probe.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/index.js';
import { form, initialise } from '../api/support.js';
import { freePort } from '../fixtures/camera.js';
import { startOnvifResponder, type OnvifResponder } from '../fixtures/onvif-responder.js';

describe('ONVIF', () => {
  let t: TestApp;
  let token: string;
  let device: OnvifResponder;
  beforeAll(async () => {
    t = await startTestApp({ overrides: { channelCheckInterval: 0 } });
    token = await initialise(t);
    device = await startOnvifResponder({ username: 'admin', password: 'onvif-pw' });
  });
  afterAll(async () => {
    await device?.close();
    await t?.close();
  });

  const probe = (query: Record<string, string | number>, lang = 'en-US') =>
    t.app.inject({
      method: 'GET',
      url: '/api/v1/probedevice',
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
      headers: { token, 'accept-language': lang },
    });

  it('reads the device information, profiles and stream URI', async () => {
    const res = await probe({ ip: '127.0.0.1', port: device.port, username: 'admin', password: 'onvif-pw' });
    expect(res.statusCode, res.body).toBe(200);
    const env = res.json().EasyDarwin;
    expect(env.Header.ErrorNum).toBe('200');
    expect(env.Body.DeviceInfo).toEqual({
      Manufacturer: '360Vision',
      Model: 'HD_PREDATOR',
      FirmwareVersion: 'PREDATOR_HD_1_11_03',
      SerialNumber: '00000000',
      HardwareId: 'HD_PREDATOR',
    });
    expect(env.Body.Profiles).toEqual([
      {
        Token: 'main',
        Name: 'main',
        Encoding: 'H264',
        Width: 1920,
        Height: 1080,
        FrameRate: 5,
        StreamUri: 'rtsp://192.168.68.111/h264main',
        SnapshotUri: 'http://192.168.68.111/onvif-cgi/jpg/image.cgi?resolution=800x600&compression=20&camera=1',
      },
    ]);
    // The client went the GetCapabilities way after GetServices was refused, as with old cameras.
    expect(device.actions).toEqual(expect.arrayContaining(['GetSystemDateAndTime', 'GetServices', 'GetCapabilities', 'GetProfiles', 'GetStreamUri']));
  });

  it('accepts the same fields as a form POST', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/probedevice',
      ...form({ ip: '127.0.0.1', port: device.port, username: 'admin', password: 'onvif-pw' }, token),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().EasyDarwin.Body.Profiles[0].StreamUri).toBe('rtsp://192.168.68.111/h264main');
  });

  it('says the password was refused', async () => {
    const res = await probe({ ip: '127.0.0.1', port: device.port, username: 'admin', password: 'wrong' });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(`The device at 127.0.0.1:${device.port} refused the user name or password`);
  });

  it('a closed port fails quickly with a clear message', async () => {
    const port = await freePort();
    const t0 = Date.now();
    const res = await probe({ ip: '127.0.0.1', port });
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(res.statusCode).toBe(502);
    expect(res.json().msg).toBe(`Cannot reach the device at 127.0.0.1:${port}: connection refused`);
    expect(res.json().EasyDarwin.Header.ErrorNum).toBe('502');
    // The cause the platform names itself is in the answer's language too.
    const zh = await probe({ ip: '127.0.0.1', port }, 'zh-CN');
    expect(zh.json().msg).toBe(`无法连接设备 127.0.0.1:${port}: 连接被拒绝`);
  });

  it('a device that never answers times out', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((s) => (sockets.add(s), s.on('error', () => {})));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as net.AddressInfo;
    const t0 = Date.now();
    const res = await probe({ ip: '127.0.0.1', port, timeout: 800 });
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(res.statusCode).toBe(504);
    expect(res.json().msg).toBe(`The device at 127.0.0.1:${port} did not answer within 800 ms`);
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent.close(r));
  });

  it('a web server that is not ONVIF', async () => {
    const web = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>router login</body></html>'));
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    const { port } = web.address() as net.AddressInfo;
    const res = await probe({ ip: '127.0.0.1', port });
    expect(res.statusCode).toBe(502);
    expect(res.json().msg).toMatch(new RegExp(`^The device at 127\\.0\\.0\\.1:${port} is not an ONVIF device: `));
    web.closeAllConnections();
    await new Promise((r) => web.close(r));
  });

  it('validates its input and is for admins only', async () => {
    const bad = await probe({ ip: 'http://x/', port: 80 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toMatch(/ip/);
    const badPort = await probe({ ip: '127.0.0.1', port: 70000 });
    expect(badPort.statusCode).toBe(400);
    const anon = await t.app.inject({ method: 'GET', url: '/api/v1/probedevice', query: { ip: '127.0.0.1' } });
    expect(anon.statusCode).toBe(401);
    const tooShort = await t.app.inject({ method: 'GET', url: '/api/v1/discoverdevices', query: { timeout: '100' }, headers: { token } });
    expect(tooShort.statusCode).toBe(400);
  });

  it('discoverdevices answers within its timeout', async () => {
    const t0 = Date.now();
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/discoverdevices', query: { timeout: '700' }, headers: { token } });
    const took = Date.now() - t0;
    expect(res.statusCode, res.body).toBe(200);
    expect(took).toBeLessThan(700 + 1500);
    const devices = res.json().EasyDarwin.Body.Devices;
    expect(Array.isArray(devices)).toBe(true);
    for (const d of devices) expect(typeof d.Address).toBe('string');
  });
});
