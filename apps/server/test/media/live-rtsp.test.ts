/**
 * Live video end to end on the server: a real RTSP camera (GStreamer) → RTSP client → hub →
 * WebSocket fMP4, read back by ffprobe; play tokens; a camera that stops and returns.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectWs, until } from '../helpers/index.js';
import { useAdminApp } from '../api/admin-app.js';
import { useCamera } from '../fixtures/use-camera.js';

const cam = useCamera();
const api = useAdminApp({ listen: true });

async function addCamera(url: string) {
  const res = await api.t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token: api.admin }, payload: { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: url } });
  return res.json().EasyDarwin.Body.DeviceID as string;
}

describe('live over WebSocket fMP4', () => {
  it('plays a camera: init segment then fragments that ffprobe decodes at the camera\'s size', async () => {
    const dev = await addCamera(cam.url);
    const res = await api.t.app.inject({ url: `/api/v1/devices/channelstream?device=${dev}&channel=1&protocol=ws_m4s`, headers: { token: api.admin } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().EasyDarwin.Body;
    expect(body.URL).toMatch(/^\/ws_m4s\/live\/stream_\d+_0\.mp4\?play_token=/);
    expect(body.URLs.HLS).toContain('/hls/');
    const got = await collectWs(`${api.t.baseUrl!.replace('http', 'ws')}${body.URL}`, (b) => b.length >= 8);
    const init = got.text.find((m) => m.type === 'init');
    expect(init).toMatchObject({ type: 'init', mime: expect.stringMatching(/^video\/mp4; codecs="avc1\./) });
    expect(got.binary.length).toBeGreaterThanOrEqual(8);
    const file = path.join(api.t.settings.dataDir, 'live.mp4');
    fs.writeFileSync(file, Buffer.concat(got.binary));
    const probe = JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-count_frames', '-of', 'json', file], { encoding: 'utf8' }),
    );
    expect(probe.streams[0]).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
    expect(Number(probe.streams[0].nb_read_frames)).toBeGreaterThan(3);
    // decodes without errors
    execFileSync('ffmpeg', ['-v', 'error', '-xerror', '-i', file, '-f', 'null', '-']);
  });

  it('refuses the media URL without a token, with another stream\'s token, and gives a second viewer the same hub', async () => {
    const dev = await addCamera(cam.url);
    const body = (await api.t.app.inject({ url: `/api/v1/devices/channelstream?device=${dev}&channel=1`, headers: { token: api.admin } })).json().EasyDarwin.Body;
    const base = api.t.baseUrl!.replace('http', 'ws');
    const bare = body.URL.split('?')[0];
    await expect(collectWs(`${base}${bare}`, () => true, 3000)).rejects.toThrow('HTTP 401');
    const token = body.URL.split('play_token=')[1];
    await expect(collectWs(`${base}/ws_m4s/live/stream_999_0.mp4?play_token=${token}`, () => true, 3000)).rejects.toThrow('HTTP 401');
    // a logged-in user's token also opens it
    const a = collectWs(`${base}${bare}?token=${api.admin}`, (b) => b.length >= 3);
    const b = collectWs(`${base}${body.URL}`, (bin) => bin.length >= 3);
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra.binary.length).toBeGreaterThanOrEqual(3);
    expect(rb.binary.length).toBeGreaterThanOrEqual(3);
    expect(api.t.ctx.streams.hubs.list()).toHaveLength(1);
  });

  it('a camera that stops is retried and the stream resumes by itself', async () => {
    const dev = await addCamera(cam.url);
    const body = (await api.t.app.inject({ url: `/api/v1/devices/channelstream?device=${dev}&channel=1`, headers: { token: api.admin } })).json().EasyDarwin.Body;
    const hub = api.t.ctx.streams.get(body.Stream)!;
    const keep = hub.subscribe({ tracks: () => undefined, unit: () => undefined });
    await until(() => hub.state === 'live', 15000);
    const port = cam.port;
    await cam.stop();
    await until(() => hub.state === 'retrying', 15000);
    await cam.start({ port });
    await until(() => hub.state === 'live', 30000);
    keep();
  });
});

describe('a media URL outlives its hub', () => {
  it('reopens a stopped stream for a viewer with a valid token instead of answering 404', async () => {
    const dev = await addCamera(cam.url);
    const body = (await api.t.app.inject({ url: `/api/v1/devices/channelstream?device=${dev}&channel=1`, headers: { token: api.admin } })).json().EasyDarwin.Body;
    // the on-demand grace ran out before the player connected (a loaded machine, a slow network)
    api.t.ctx.streams.get(body.Stream)!.stop('grace over');
    expect(api.t.ctx.streams.get(body.Stream)).toBeUndefined();
    const got = await collectWs(`${api.t.baseUrl!.replace('http', 'ws')}${body.URL}`, (b) => b.length >= 3);
    expect(got.binary.length).toBeGreaterThanOrEqual(3);
  });
});
