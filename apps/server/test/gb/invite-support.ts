/**
 * Shared steps of the INVITE and PTZ tests: an app listening on real ports with a GB device double
 * registered (catalog of one camera answered, INVITE answered with PS over RTP), a WebSocket fMP4
 * viewer, and polling for hub states.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import WebSocket from 'ws';
import { DEFAULT_HUB_OPTIONS, type HubOptions } from '../../src/media/hub.js';
import { collectWs, startTestApp, type TestApp } from '../helpers/index.js';
import { initialise } from '../api/support.js';
import { freePort } from '../fixtures/camera.js';
import { GbDevice } from '../fixtures/gb-device.js';
import { answerQueries, type Answering } from '../fixtures/gb-device-answers.js';
import { answerInvites, type InviteAnswerOptions, type MediaAnswering } from '../fixtures/gb-device-media.js';

export const DEV = '34020000001320000001';
export const CH = '34020000001310000001';
export const PW = 'pw123456';

export interface GbRig {
  t: TestApp;
  admin: string;
  dev: GbDevice;
  answers: Answering;
  media: MediaAnswering;
  close(): Promise<void>;
}

/** The device's nth camera (0: CH). */
export const cameraId = (n: number) => `3402000000131${String(n + 1).padStart(7, '0')}`;

/** App + registered device whose catalog (one camera, or `cameras` of them: CH first) is stored. */
export async function startRig(
  o: { sip?: 'UDP' | 'TCP'; media?: InviteAnswerOptions; gb?: Record<string, unknown>; graceMs?: number; cameras?: number } = {},
): Promise<GbRig> {
  const t = await startTestApp({ listen: true });
  const admin = await initialise(t);
  const base = await freePort();
  await t.ctx.config.set('gb', {
    DevicePassword: PW,
    RtpPortMin: base,
    RtpPortMax: base + 20 + (o.cameras ?? 1),
    MediaIP: '127.0.0.1',
    AckTimeout: 5,
    ...o.gb,
  });
  // A short grace period so "the last viewer left" is seen quickly (longer than channelstream's wait
  // for the tracks, or the hub would stop before the viewer arrives).
  (t.ctx.streams as unknown as { hubDefaults: Omit<HubOptions, 'onDemand'> }).hubDefaults = {
    ...DEFAULT_HUB_OPTIONS,
    graceMs: o.graceMs ?? 5000,
  };
  const dev = await GbDevice.start({ deviceId: DEV, password: PW, serverPort: t.ctx.gb.port, transport: o.sip ?? 'UDP' });
  const answers = answerQueries(dev, {
    deviceId: DEV,
    catalog: Array.from({ length: o.cameras ?? 1 }, (_, n) => ({
      deviceId: cameraId(n),
      name: n ? `GB camera ${n + 1}` : 'GB camera',
      parental: 0,
      parentId: DEV,
      status: 'ON',
      manufacturer: 'Test',
      model: 'PTZ dome',
    })),
  });
  const media = answerInvites(dev, o.media);
  expect((await dev.register()).status).toBe(200);
  const p = await t.ctx.gbDevices.catalog.wait(DEV);
  expect(p).toMatchObject({ Outcome: 'complete', Received: o.cameras ?? 1 });
  await answers.idle();
  return {
    t,
    admin,
    dev,
    answers,
    media,
    async close() {
      await t.close();
      await media.stop();
      answers.stop();
      await dev.close();
    },
  };
}

export async function channelStream(r: GbRig, protocol = 'ws_m4s') {
  const res = await r.t.app.inject({
    url: `/api/v1/devices/channelstream?device=${DEV}&channel=${CH}&protocol=${protocol}`,
    headers: { token: r.admin },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body as { URL: string; Stream: string };
}

/** A WebSocket fMP4 viewer: collects until `fragments` binary messages came (or ms passed), then leaves. */
export const view = (r: GbRig, url: string, fragments = 6, ms = 20000) =>
  collectWs(`${r.t.baseUrl!.replace('http', 'ws')}${url}`, (binary) => binary.length >= fragments, ms);

/** The first /api/v1/ws/streamstat message about a stream. */
export function streamstatOnce(r: GbRig, stream: string) {
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    const ws = new WebSocket(`${r.t.baseUrl!.replace('http', 'ws')}/api/v1/ws/streamstat?request_id=t1&playerid=p1&stream=${stream}&token=${r.admin}`);
    const timer = setTimeout(() => {
      ws.close();
      reject(new Error('no streamstat message'));
    }, 5000);
    ws.on('message', (data) => {
      clearTimeout(timer);
      ws.close();
      resolve(JSON.parse(String(data)));
    });
    ws.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/** ffprobe of the fragments a viewer got: the first stream and its decoded frame count. */
export function probe(r: GbRig, name: string, binary: Buffer[]) {
  const file = path.join(r.t.settings.dataDir, `${name}.mp4`);
  fs.writeFileSync(file, Buffer.concat(binary));
  const out = JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-count_frames', '-of', 'json', file], { encoding: 'utf8' }),
  );
  return out.streams[0] as { codec_name: string; width: number; height: number; nb_read_frames: string };
}
