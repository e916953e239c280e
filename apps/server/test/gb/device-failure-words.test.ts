/**
 * A failure on the platform's side while asking a GB28181 device is answered with a catalogue reason
 * in the request's language; the error's English goes to the log only: every RTP port of the range
 * taken, so a download cannot bind its receiver (whole server against the TS device double,
 * records-support.ts), and any error without a catalogue reason (deviceFailure's fallback).
 */
import dgram from 'node:dgram';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/index.js';
import type { GbDevice } from '../fixtures/gb-device.js';
import { freePort } from '../fixtures/camera.js';
import { CHN, DEV, startRecordsRig } from './records-support.js';
import { localStamp } from '../../src/services/recording/time.js';
import { deviceFailure } from '../../src/routes/api/gb-records.js';
import { ApiError } from '../../src/http/errors.js';

let t: TestApp;
let admin: string;
let dev: GbDevice;
const held: dgram.Socket[] = [];

/** Binds UDP `port` so the platform cannot. */
function hold(port: number): Promise<void> {
  const s = dgram.createSocket('udp4');
  held.push(s);
  return new Promise((resolve, reject) => {
    s.once('error', reject);
    s.bind(port, '0.0.0.0', () => resolve());
  });
}

describe('deviceFailure', () => {
  it('an error without a catalogue reason: gbRequestFailed in both languages, its words logged', () => {
    const logged: { obj: { err?: Error }; msg: string }[] = [];
    const err = deviceFailure(new Error('session already has a socket'), DEV, { warn: (obj, msg) => logged.push({ obj, msg }) });
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(502);
    expect((err as ApiError).text('zh-CN')).toBe(`设备 ${DEV} 无应答: 服务器未能完成对设备的请求（详情见服务器日志）`);
    expect((err as ApiError).text('en-US')).toBe(`Device ${DEV} did not answer: the server could not complete the request to the device (details in the server log)`);
    expect(logged.map((l) => l.obj.err?.message)).toEqual(['session already has a socket']);
  });
});

describe('a download whose receiver cannot be bound (every RTP port taken)', () => {
  beforeEach(async () => {
    ({ t, admin, dev } = await startRecordsRig());
  });
  afterEach(async () => {
    for (const s of held.splice(0)) s.close();
    await dev?.close();
    await t?.close();
  });

  it('is answered with gbMediaFailed in the request’s language, not the port pool’s English', async () => {
    const port = await freePort();
    await hold(port);
    await hold(port + 1);
    const gb = await t.ctx.config.get('gb');
    await t.ctx.config.set('gb', { ...gb, RtpPortMin: port, RtpPortMax: port + 1 });
    const url = `/api/v1/downloaddevicerecord/${DEV}:${CHN}/${localStamp(new Date(2026, 2, 14, 8, 0, 0))}/10`;

    const zh = await t.app.inject({ url, headers: { token: admin } });
    expect(zh.statusCode, zh.body).toBe(502);
    expect(zh.json().msg).toBe(`设备 ${DEV} 无应答: 接收设备媒体失败（详情见服务器日志）`);

    const en = await t.app.inject({ url, headers: { token: admin, 'accept-language': 'en-US' } });
    expect(en.statusCode, en.body).toBe(502);
    expect(en.json().msg).toBe(`Device ${DEV} did not answer: receiving the device media failed (details in the server log)`);
  });
});
