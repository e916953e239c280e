/**
 * A request to a device that cannot be put on the wire says why in the asker's language: a device
 * registered over TCP whose connection is gone (it registers again when it reconnects) was answered
 * "无法发送: no TCP connection from 127.0.0.1:…" — the transport's English inside a Chinese reason.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, until, type TestApp } from '../helpers/index.js';
import { initialise } from '../api/support.js';
import { GbDevice } from '../fixtures/gb-device.js';
import { answerQueries, makeCatalog } from '../fixtures/gb-device-answers.js';

const DEV = '34020000001320000001';
const PW = 'pw123456';
let t: TestApp;
let admin: string;
let dev: GbDevice;

beforeEach(async () => {
  t = await startTestApp({ listen: true });
  admin = await initialise(t);
  await t.ctx.config.set('gb', { DevicePassword: PW, AckTimeout: 3 });
  dev = await GbDevice.start({ deviceId: DEV, password: PW, serverPort: t.ctx.gb.port, transport: 'TCP' });
  const answering = answerQueries(dev, { deviceId: DEV, catalog: makeCatalog(DEV, 1) });
  expect((await dev.register()).status).toBe(200);
  await t.ctx.gbDevices.catalog.wait(DEV);
  await answering.idle();
});
afterEach(async () => {
  await dev?.close();
  await t?.close();
});

describe('a device whose TCP connection is gone', () => {
  it("is still registered; a request to it fails at once, why in the asker's language (the address as written)", async () => {
    await dev.close();
    // The platform sees the connection close; the registration stands until it expires.
    await until(async () => {
      const res = await t.app.inject({ url: `/api/v1/deviceinfo?device=${DEV}&refresh=1`, headers: { token: admin } });
      return /TCP/.test(res.json().EasyDarwin.Body.GB?.RefreshError ?? '') ? res : undefined;
    }, 10000, { what: 'a refresh that fails on the missing connection' });
    const info = async (lang = '') =>
      (await t.app.inject({ url: `/api/v1/deviceinfo?device=${DEV}&refresh=1${lang}`, headers: { token: admin } })).json().EasyDarwin.Body.GB.RefreshError as string;
    expect(await info()).toMatch(/^设备的TCP连接（127\.0\.0\.1:\d+）已断开，请等待设备重新连接并注册$/);
    expect(await info('&lang=en-US')).toMatch(/^the device's TCP connection \(127\.0\.0\.1:\d+\) is gone: wait for it to reconnect and register$/);
  });
});
