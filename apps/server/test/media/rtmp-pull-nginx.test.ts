/**
 * The native RTMP pull source against nginx-rtmp, a real relaying server (fixtures/nginx-rtmp.ts):
 * ffmpeg publishes H.264 + AAC to it, a channel plays it to a WS-fMP4 viewer (ffprobed); the
 * publisher stopping and starting again (nginx tells players NetStream.Play.UnpublishNotify, and the
 * new publisher's times start again from 0) ends the run with streamEnded and the stream comes back;
 * a key nobody publishes is NetStream.Play.StreamNotFound (idle_streams off).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAdminApp } from '../api/admin-app.js';
import { hasNginxRtmp, startNginxRtmp, type NginxRtmp } from '../fixtures/nginx-rtmp.js';
import { freePort } from '../fixtures/camera.js';
import { collectWs, until } from '../helpers/index.js';

const api = useAdminApp({ listen: true });
let dir: string;
let nginx: NginxRtmp;
let publisher: ChildProcess | undefined;

/** ffmpeg publishing the clip (looped, at its pace) to `url`. */
function publish(url: string) {
  publisher = spawn('ffmpeg', ['-v', 'error', '-re', '-stream_loop', '-1', '-i', path.join(dir, 'clip.flv'), '-c', 'copy', '-f', 'flv', url], { stdio: 'ignore' });
}

async function unpublish() {
  const p = publisher;
  publisher = undefined;
  if (!p || p.exitCode !== null || p.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    p.once('exit', () => resolve());
    p.kill('SIGKILL');
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rtmp-nginx-'));
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '4', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '25', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k', path.join(dir, 'clip.flv')]); // prettier-ignore
  if (hasNginxRtmp()) nginx = await startNginxRtmp(await freePort());
});
afterAll(async () => {
  await unpublish();
  await nginx?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A channel with `url`, opened over WS-fMP4: its hub and the viewer's URL. */
async function openChannel(url: string) {
  const add = await api.post('/api/v1/adddevice', { DeviceName: `nginx ${url.slice(-6)}`, DeviceType: 'RTSP', RtspUrl: url });
  expect(add.statusCode, add.body).toBe(200);
  const dev = add.json().EasyDarwin.Body.DeviceID as string;
  const res = await api.get(`/api/v1/devices/channelstream?device=${dev}&channel=1&protocol=ws_m4s`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json().EasyDarwin.Body as { URL: string; Stream: string };
  return { hub: api.t.ctx.streams.get(body.Stream)!, wsUrl: `${api.t.baseUrl!.replace('http', 'ws')}${body.URL}` };
}

/** What ffprobe reads in a WS-fMP4 viewer's first `n` messages: codec names, in order. */
async function probeViewer(wsUrl: string, n: number): Promise<string[]> {
  const got = await collectWs(wsUrl, (b) => b.length > n, 30_000);
  expect(got.binary.length).toBeGreaterThan(n);
  const file = path.join(dir, `view-${Date.now()}.mp4`);
  fs.writeFileSync(file, Buffer.concat(got.binary));
  return execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', file], { encoding: 'utf8' }).trim().split('\n');
}

describe.skipIf(!hasNginxRtmp())('rtmp:// channels from nginx-rtmp', () => {
  it('plays H.264 + AAC; a publisher that stops and starts again ends the run with streamEnded and the stream comes back', async () => {
    publish(nginx.url('cam'));
    const { hub, wsUrl } = await openChannel(nginx.url('cam'));
    // A viewer holds the on-demand stream open while the publisher comes up.
    expect(await probeViewer(wsUrl, 20)).toEqual(['h264', 'aac']);
    expect(hub.tracks.map((t) => `${t.kind}:${t.codec}`)).toEqual(['video:h264', 'audio:aac']);

    await unpublish();
    await until(() => hub.why?.key === 'streamEnded', 15_000, { what: `the end (${hub.reason})` });
    expect(hub.reason).toMatch(/UnpublishNotify|the stream ended/);
    const before = hub.stats.units;
    publish(nginx.url('cam'));
    await until(() => hub.state === 'live' && hub.stats.units > before + 50, 30_000, { what: `live again (${hub.reason})` });
    expect(hub.stats.restarts).toBeGreaterThan(0);
    expect(await probeViewer(wsUrl, 10)).toEqual(['h264', 'aac']);
  }, 90_000);

  it('a key nobody publishes: NetStream.Play.StreamNotFound', async () => {
    const { hub } = await openChannel(nginx.url('nobody'));
    await until(() => hub.why, 15_000);
    expect(hub.why).toEqual({ key: 'statusNoSuchStream', vars: { code: 'NetStream.Play.StreamNotFound' } });
  }, 30_000);
});
