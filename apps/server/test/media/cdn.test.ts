/**
 * CDN push (EnableCdn, CdnUrl): the channel's stream reaches an RTMP server (ffmpeg listening as
 * one, as a CDN's ingest would) without transcoding; the file that server writes is the camera's
 * H.264 read back by ffprobe. A CdnUrl that is not rtmp(s):// pushes nothing, and switching the push
 * off stops it. An H.265 camera goes out as HEVC where the local ffmpeg takes HEVC in FLV, and as the
 * transcoded H.264 variant where it does not (Debian 12's ffmpeg 5.1).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../helpers/index.js';
import { freePort, startCamera, type Camera, type CameraOptions } from '../fixtures/camera.js';
import { useAdminApp } from '../api/admin-app.js';
import { ffmpegHasHevcInFlv } from '../../src/media/ffmpeg/version.js';

let cam: Camera | undefined;
const children: { kill(): void }[] = [];
// Registered before useAdminApp(): the camera stops after the app has closed.
afterEach(async () => {
  await cam?.stop();
  cam = undefined;
});
const api = useAdminApp();
// Registered after it: the RTMP servers go first.
afterEach(() => {
  for (const c of children.splice(0)) c.kill();
});

/** An "RTMP server" (ffmpeg listening for one publisher) that keeps 3 s of what it gets in `out`. */
function rtmpServer(port: number, out: string) {
  const server = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-listen', '1', '-f', 'flv', '-i', `rtmp://127.0.0.1:${port}/live/cdn`, '-c', 'copy', '-t', '3', '-y', out], { stdio: 'ignore' });
  children.push(server);
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
  return Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 30_000))]);
}

/** A camera with these options added as a device, and an RTMP server waiting for its push. */
async function cameraAndRtmpServer(opts: CameraOptions = {}) {
  cam = await startCamera(opts);
  const port = await freePort();
  const out = path.join(api.t.settings.dataDir, 'cdn.flv');
  const received = rtmpServer(port, out);
  const add = await api.post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: cam.url });
  return { port, out, received, dev: add.json().EasyDarwin.Body.DeviceID as string };
}

const probe = (file: string) => JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file], { encoding: 'utf8' }));

describe('CDN push', () => {
  it('pushes an H.265 camera as HEVC only through an ffmpeg that takes HEVC in FLV, else as the H.264 variant', async () => {
    const { port, out, received, dev } = await cameraAndRtmpServer({ codec: 'h265' });
    const edit = await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', EnableCdn: 1, CdnUrl: `rtmp://127.0.0.1:${port}/live/cdn` });
    expect(edit.statusCode).toBe(200);

    expect(await received).toBe(0);
    const copies = await ffmpegHasHevcInFlv();
    expect(probe(out).streams[0]).toMatchObject({ codec_name: copies ? 'hevc' : 'h264', width: 320, height: 240 });
    expect(api.t.ctx.cdn.active()).toMatchObject([{ transcoded: !copies }]);
  }, 60_000);

  it('pushes the channel to an RTMP server as it is, and stops when switched off', async () => {
    const { port, out, received, dev } = await cameraAndRtmpServer();
    const edit = (payload: object) => api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', ...payload });

    // Not an RTMP address: nothing is pushed.
    expect((await edit({ EnableCdn: 1, CdnUrl: 'http://127.0.0.1/x' })).statusCode).toBe(200);
    await api.t.ctx.cdn.reconcile();
    expect(api.t.ctx.cdn.active()).toEqual([]);

    expect((await edit({ CdnUrl: `rtmp://127.0.0.1:${port}/live/cdn` })).statusCode).toBe(200);
    await until(() => api.t.ctx.cdn.active().length === 1, 5000);
    expect(await received).toBe(0);
    const file = probe(out);
    expect(file.streams[0]).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
    expect(Number(file.format.duration)).toBeGreaterThan(2);
    expect(fs.statSync(out).size).toBeGreaterThan(10_000);

    // Switched off: the push ends.
    expect((await edit({ EnableCdn: 0 })).statusCode).toBe(200);
    await until(() => api.t.ctx.cdn.active().length === 0, 5000);
  }, 60_000);

  it('logs neither the stream key nor a password of the CDN address, also when ffmpeg fails on it', async () => {
    cam = await startCamera();
    const add = await api.post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: cam.url });
    const dev = add.json().EasyDarwin.Body.DeviceID as string;
    // What the push logs (the service's own logger, read here).
    const logged: string[] = [];
    const deps = (api.t.ctx.cdn as unknown as { deps: { log: { info(o: object, m: string): void; warn(o: object, m: string): void } } }).deps;
    const keep = (o: object, m: string) => logged.push(`${m} ${JSON.stringify(o)}`);
    deps.log = { info: keep, warn: keep };
    // Nobody listens there: ffmpeg fails with "rtmp://…/live/KEY: Connection refused".
    const closed = await freePort();
    const url = `rtmp://pub:pa55word@127.0.0.1:${closed}/live/S3CRETKEY`;
    expect((await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', EnableCdn: 1, CdnUrl: url })).statusCode).toBe(200);
    await until(() => logged.some((l) => l.startsWith('cdn push: ffmpeg ended')), 30_000, { what: 'a failed push logged' });
    expect(logged.join('\n')).toContain(`rtmp://127.0.0.1:${closed}/live/***`);
    expect(logged.join('\n')).not.toMatch(/S3CRETKEY|pa55word/);
  }, 60_000);
});
