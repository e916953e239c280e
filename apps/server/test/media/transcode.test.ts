/**
 * H.265 → H.264 on demand: the GStreamer camera in H.265 mode; the channelstream answer offers the
 * transcoded variant (URLs.WS_FMP4_H264) only for an H.265 source, and that variant's WebSocket fMP4 is
 * read back by ffprobe as H.264 at the camera's size. The ffmpeg process ends with its last viewer.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { collectWs } from '../helpers/index.js';
import { startCamera, type Camera } from '../fixtures/camera.js';
import { useAdminApp } from '../api/admin-app.js';
import { openCameraStream } from './open-stream.js';

let cam: Camera | undefined;
// Registered before useAdminApp(): the camera stops after the app has closed.
afterEach(async () => {
  await cam?.stop();
  cam = undefined;
});
const api = useAdminApp({ listen: true });

/** A camera of that codec (each test its own), added and opened over WS fMP4. */
async function setup(codec: 'h264' | 'h265') {
  cam = await startCamera({ codec });
  return { ...(await openCameraStream(api, cam.url, 'ws_m4s')), admin: api.admin };
}

const collect = (url: string, count: number, ms = 30000) => collectWs(url, (binary) => binary.length >= count, ms);

describe('H.265 → H.264 transcoded variant', () => {
  it('offers WS_FMP4_H264 for an H.265 camera and plays it as H.264', async () => {
    const body = await setup('h265');
    expect(body.URL).toMatch(/^\/ws_m4s\/live\/stream_\d+_0\.mp4\?play_token=/);
    expect(body.URLs.WS_FMP4_H264).toMatch(new RegExp(`^/ws_m4s/live/${body.Stream}_h264\\.mp4\\?play_token=`));
    expect(body.URLs.WEBRTC_H264).toMatch(new RegExp(`^/webrtc/whep/${body.Stream}_h264\\?play_token=`));
    // existing fields unchanged
    expect(body.URLs.WS_FMP4).toMatch(new RegExp(`^/ws_m4s/live/${body.Stream}\\.mp4`));
    // the original's token does not open the variant
    const base = api.t.baseUrl!.replace('http', 'ws');
    const originalToken = body.URL.split('play_token=')[1];
    await expect(collect(`${base}/ws_m4s/live/${body.Stream}_h264.mp4?play_token=${originalToken}`, 1, 3000)).rejects.toThrow('HTTP 401');

    const got = await collect(`${base}${body.URLs.WS_FMP4_H264}`, 10);
    const init = got.text.find((m) => m.type === 'init');
    expect(init).toMatchObject({ mime: expect.stringMatching(/^video\/mp4; codecs="avc1\./) });
    expect(got.binary.length).toBeGreaterThanOrEqual(10);
    const file = path.join(api.t.settings.dataDir, 'h264.mp4');
    fs.writeFileSync(file, Buffer.concat(got.binary));
    const probe = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-count_frames', '-of', 'json', file], { encoding: 'utf8' }));
    expect(probe.streams[0]).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
    expect(Number(probe.streams[0].nb_read_frames)).toBeGreaterThan(5);
    execFileSync('ffmpeg', ['-v', 'error', '-xerror', '-i', file, '-f', 'null', '-']);

    // a viewer of the variant counts as a viewer of the camera's stream (streamstat)
    const viewer = new WebSocket(`${base}${body.URLs.WS_FMP4_H264}`);
    const stat = new WebSocket(`${base}/api/v1/ws/streamstat?request_id=r&token=${body.admin}&playerid=p&stream=${body.Stream}`);
    const counted = await new Promise<number>((resolve) => {
      const timer = setTimeout(() => resolve(-1), 10000);
      stat.on('message', (d) => {
        const m = JSON.parse(String(d)) as { type: string; totalViewers?: number; viewers?: Record<string, number> };
        if (m.type === 'streamstat' && (m.totalViewers ?? 0) >= 1) {
          clearTimeout(timer);
          resolve(m.viewers?.WS_FMP4 ?? 0);
        }
      });
    });
    viewer.close();
    stat.close();
    expect(counted).toBeGreaterThanOrEqual(1); // (the viewer closed just before may still count)

    // the original is still H.265 for the viewers that can play it
    const hub = api.t.ctx.streams.get(body.Stream)!;
    expect(hub.tracks[0]).toMatchObject({ kind: 'video', codec: 'h265' });
    const derived = api.t.ctx.streams.get(`${body.Stream}_h264`)!;
    expect(derived.tracks[0]).toMatchObject({ kind: 'video', codec: 'h264', width: 320, height: 240 });
    // the last viewer gone, the derived hub stops (grace period) and takes ffmpeg with it
    derived.stop('test');
    expect(hub.viewers).toBe(0);

    // the channel's "H.265 to H.264" switch: every URL is the H.264 variant's, under the plain names
    const dev = (await api.t.ctx.db.selectFrom('channels').select('parent_device_id').executeTakeFirstOrThrow()).parent_device_id;
    const edit = await api.t.app.inject({ method: 'POST', url: '/api/v1/editchannel', headers: { token: body.admin }, payload: { DeviceID: dev, ChannelID: '1', EnableH265ToH264: 1 } });
    expect(edit.statusCode, edit.body).toBe(200);
    const forced = (await api.t.app.inject({ url: `/api/v1/devices/channelstream?device=${dev}&channel=1&protocol=ws_m4s`, headers: { token: body.admin } })).json().EasyDarwin.Body;
    expect(forced.URL).toMatch(new RegExp(`^/ws_m4s/live/${body.Stream}_h264\\.mp4\\?play_token=`));
    expect(forced.URLs.HLS).toMatch(new RegExp(`^/hls/${body.Stream}_h264/`));
    expect(Object.keys(forced.URLs).some((k) => k.endsWith('_H264'))).toBe(false);
  }, 60000);

  it('a shared link of an H.265 camera offers the H.264 variant too', async () => {
    // The public /share and /players pages play through share/channelstream: without the variant a
    // browser without H.265 showed "cannot decode" where the console's own player page plays.
    const body = await setup('h265');
    const dev = (await api.t.ctx.db.selectFrom('channels').select('parent_device_id').executeTakeFirstOrThrow()).parent_device_id;
    const link = (await api.t.app.inject({ url: `/api/v1/devices/sharelink?device=${dev}&channel=1`, headers: { token: body.admin } })).json().EasyDarwin.Body;
    const playToken = new URL(link.URL, 'http://x').searchParams.get('play_token');
    const shared = await api.t.app.inject({ url: `/api/v1/share/channelstream?device=${dev}&channel=1&protocol=ws_m4s&play_token=${playToken}` });
    expect(shared.statusCode, shared.body).toBe(200);
    const urls = shared.json().EasyDarwin.Body.URLs;
    expect(urls.WS_FMP4_H264).toMatch(new RegExp(`^/ws_m4s/live/${body.Stream}_h264\\.mp4\\?play_token=`));
    expect(urls.WS_FMP4).toMatch(new RegExp(`^/ws_m4s/live/${body.Stream}\\.mp4`));
  }, 60000);

  it('offers no H.264 variant for an H.264 camera', async () => {
    const body = await setup('h264');
    expect(Object.keys(body.URLs).sort()).toEqual(['FLV', 'HLS', 'WEBRTC', 'WS_FLV', 'WS_FMP4']);
  });
});
