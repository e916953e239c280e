/**
 * The CDN push through the whole server against nginx-rtmp, a real relaying ingest
 * (fixtures/nginx-rtmp.ts), not ffmpeg's one-shot listener: nginx acknowledges, sets its own chunk
 * size, answers publish with onStatus, and relays what it took to every player. A player (ffmpeg)
 * reads the pushed stream from nginx and decodes it without an error, and a second channel of the
 * same server pulls it back natively to a WS-fMP4 viewer (round trip). nginx restarted under a push:
 * the push retries and publishes again by itself. A second push to a key nginx takes already is
 * refused with BadName until the first stops. A key nginx's on_publish refuses (its HTTP callback
 * answers 403: nginx drops the connection, no onStatus) says so to the administrator. An H.265
 * camera goes through nginx as its H.264 variant (CDN_HEVC=h264): nginx relays neither codec id 12
 * nor enhanced RTMP's hvc1 to a player (docs/architecture.md, CDN push).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelRow } from '@opencvr/shared';
import { collectWs, until } from '../helpers/index.js';
import { freePort, startCamera, type CameraOptions } from '../fixtures/camera.js';
import { hasNginxRtmp, startNginxRtmp, type NginxRtmp, type NginxRtmpOptions } from '../fixtures/nginx-rtmp.js';
import { useAdminApp, type AdminApp } from '../api/admin-app.js';
import { useCdnRig } from './cdn-support.js';
import { addPulledDevice, playWsFmp4 } from './open-stream.js';

const run = promisify(execFile);
// Before useAdminApp(): the camera stops after the app has closed.
const rig = useCdnRig();

let nginx: NginxRtmp | undefined;
let nginxPort = 0;
async function startNginx(opts: NginxRtmpOptions = {}, port?: number) {
  nginxPort = port ?? (await freePort());
  nginx = await startNginxRtmp(nginxPort, opts);
  return nginx;
}
async function stopNginx() {
  await nginx?.stop();
  nginx = undefined;
}

/** A camera added as a device, its channel pushed to `url`: its DeviceID. */
async function pushCamera(api: AdminApp, url: string, opts: CameraOptions = {}) {
  const dev = await rig.addCamera(api, opts);
  expect((await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', EnableCdn: 1, CdnUrl: url })).statusCode).toBe(200);
  return dev;
}

const pushState = (api: AdminApp, dev: string) => api.t.ctx.cdn.snapshot(dev, '1')?.state;
const waitPushing = (api: AdminApp, dev: string, ms = 20_000) =>
  until(() => pushState(api, dev) === 'pushing', ms, { what: `the push publishing (${api.t.ctx.cdn.active()[0]?.lastReason})` });

/**
 * A player reading `url` from nginx for 3 s, decoding to nothing: its streams' codecs and every error it
 * printed. The probe and the decoding player are two players of nginx at once (nginx relays to any
 * number), so each waits for its keyframe beside the other rather than after it.
 */
async function play(url: string) {
  const [probe, decoded] = await Promise.all([
    run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', url], { timeout: 20_000 }),
    run('ffmpeg', ['-hide_banner', '-v', 'error', '-i', url, '-t', '3', '-f', 'null', '-'], { timeout: 20_000 }),
  ]);
  return { codecs: probe.stdout.trim().split('\n').sort(), errors: decoded.stderr.trim() };
}

const isInit = (b: Uint8Array) => Buffer.from(b.subarray(4, 8)).toString('latin1') === 'ftyp';

/**
 * A second channel pulling `url` natively, to a WS-fMP4 viewer: the codecs ffprobe reads in `n`
 * messages after the viewer's last initialisation segment. nginx gives a player joining mid-GOP the
 * audio at once and the video from the next keyframe (up to a GOP later); the pull waits for the video
 * its metadata names (rtmp-media.ts announcedWaitMs), and the last init is read in case it came later.
 */
async function roundTrip(api: AdminApp, url: string, n = 20, tracks = 2): Promise<string[]> {
  const { hub, wsUrl } = await playWsFmp4(api, await addPulledDevice(api, 'from nginx', url));
  const fromLastInit = (b: Uint8Array[]) => b.slice(b.length - 1 - [...b].reverse().findIndex(isInit));
  // Once the hub has both tracks, the last init is theirs.
  const got = await collectWs(wsUrl, (b) => hub.tracks.length === tracks && b.some(isInit) && fromLastInit(b).length > n, 30_000);
  const file = path.join(api.t.settings.dataDir, `round-trip-${Date.now()}.mp4`);
  fs.writeFileSync(file, Buffer.concat(fromLastInit(got.binary)));
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', file]);
  return stdout.trim().split('\n');
}

async function channelRow(api: AdminApp, dev: string, lang: string): Promise<ChannelRow> {
  const res = await api.t.app.inject({ url: `/api/v1/channelsconfig?device=${dev}&start=0&limit=10`, headers: { token: api.admin, 'accept-language': lang } });
  return res.json().EasyDarwin.Body.Channels[0] as ChannelRow;
}

describe.skipIf(!hasNginxRtmp())('CDN push to nginx-rtmp', () => {
  const api = useAdminApp({ listen: true });
  afterEach(async () => {
    await rig.stopServers();
    await stopNginx();
  });

  it('an H.264 + AAC channel: a player decodes it from nginx without an error, and a channel pulling it back plays', async () => {
    const ng = await startNginx();
    const dev = await pushCamera(api, ng.url('cam1'), { audio: 'aac' });
    await waitPushing(api, dev);
    // The player and the pulling channel are two readers of nginx at the same time.
    const [played, pulled] = await Promise.all([play(ng.url('cam1')), roundTrip(api, ng.url('cam1'))]);
    expect(played).toEqual({ codecs: ['aac', 'h264'], errors: '' });
    expect(pulled).toEqual(['h264', 'aac']);
    expect(pushState(api, dev)).toBe('pushing');
    expect(api.t.ctx.cdn.active()).toMatchObject([{ runs: 1 }]);
  }, 90_000);

  it('nginx restarted under the push: the push retries, publishes again by itself, and the stream plays from nginx again', async () => {
    const ng = await startNginx();
    const dev = await pushCamera(api, ng.url('cam2'), { audio: 'aac' });
    await waitPushing(api, dev);
    await stopNginx();
    await until(() => pushState(api, dev) === 'retrying', 15_000, { what: 'the push retrying' });
    // nginx going away closes the connection (FIN); when our write meets it first the kernel says
    // reset or broken pipe instead (seen with three test files at once): both are true reasons.
    const why = api.t.ctx.cdn.snapshot(dev, '1')?.why;
    if (why?.key === 'cdnSocketError') expect(why.vars?.code).toMatch(/^(ECONNRESET|EPIPE)$/);
    else expect(why).toEqual({ key: 'cdnClosedByServer' });
    const again = await startNginx({}, nginxPort);
    // Back-offs of 1, 2, 4 s at most while nginx was away (a few hundred ms).
    await waitPushing(api, dev, 20_000);
    expect(api.t.ctx.cdn.active()[0]!.runs).toBeGreaterThanOrEqual(2);
    expect((await play(again.url('cam2'))).codecs).toEqual(['aac', 'h264']);
  }, 90_000);

  it('a second push to a key nginx is already taking is refused with BadName and retries; it takes over once the first stops', async () => {
    const ng = await startNginx();
    const first = await pushCamera(api, ng.url('same'));
    await waitPushing(api, first);
    const other = await startCamera();
    try {
      const add = await api.post('/api/v1/adddevice', { DeviceName: 'Cam 2', DeviceType: 'RTSP', RtspUrl: other.url });
      const second = add.json().EasyDarwin.Body.DeviceID as string;
      expect((await api.post('/api/v1/editchannel', { DeviceID: second, ChannelID: '1', EnableCdn: 1, CdnUrl: ng.url('same') })).statusCode).toBe(200);
      const row = await until(async () => {
        const r = await channelRow(api, second, 'en-US');
        return r.CdnPush?.State === 'retrying' && r;
      }, 20_000, { what: 'the second push refused' });
      expect(row.CdnPush).toMatchObject({ ReasonCode: 'cdnRefused', Reason: 'the CDN server refused publish (NetStream.Publish.BadName)' });
      expect(pushState(api, first)).toBe('pushing');

      expect((await api.post('/api/v1/editchannel', { DeviceID: first, ChannelID: '1', EnableCdn: 0 })).statusCode).toBe(200);
      await waitPushing(api, second);
      expect((await play(ng.url('same'))).codecs).toEqual(['h264']);
    } finally {
      await other.stop();
    }
  }, 90_000);

  it('a key refused by on_publish (its callback answers 403): CdnPush says why in zh-CN and en-US, and backs off as for a refused publish', async () => {
    const asked: string[] = [];
    const callback = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d));
      req.on('end', () => {
        const name = new URLSearchParams(body).get('name') ?? '';
        asked.push(name);
        res.writeHead(name === 'good' ? 200 : 403).end();
      });
    });
    await new Promise<void>((r) => callback.listen(0, '127.0.0.1', r));
    rig.children.push({ kill: () => callback.close() });
    const ng = await startNginx({ onPublish: `http://127.0.0.1:${(callback.address() as AddressInfo).port}/publish` });

    const dev = await pushCamera(api, ng.url('wrong'));
    const row = await until(async () => {
      const r = await channelRow(api, dev, 'en-US');
      return r.CdnPush?.State === 'retrying' && r;
    }, 20_000, { what: 'the push retrying' });
    expect(asked).toContain('wrong');
    expect(row.CdnPush).toMatchObject({ Url: `rtmp://127.0.0.1:${nginxPort}/live/***`, ReasonCode: 'cdnPublishDropped' });
    expect(row.CdnPush?.Reason).toBe('the CDN server closed the connection on publish: the stream key (or the address) was refused');
    expect((await channelRow(api, dev, 'zh-CN')).CdnPush?.Reason).toBe('CDN 服务器在发布时关闭了连接：推流密钥（或地址）被拒绝');
    expect(api.t.ctx.cdn.active()[0]!.lastReason).toBe('connection closed by the server on publish (the stream key refused?)');
    // The back-off of a refused publish (1 s, then 2 s), not a refused login's 30 s at once: nginx is asked again.
    expect(api.t.ctx.cdn.snapshot(dev, '1')!.nextTryAt! - Date.now()).toBeLessThanOrEqual(2000);
    await until(() => asked.filter((k) => k === 'wrong').length >= 3, 10_000, { what: 'the third try' });
    expect(pushState(api, dev)).not.toBe('loginRefused');

    // The right key publishes.
    expect((await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', CdnUrl: ng.url('good') })).statusCode).toBe(200);
    await waitPushing(api, dev);
    expect((await play(ng.url('good'))).codecs).toEqual(['h264']);
  }, 90_000);
});

describe.skipIf(!hasNginxRtmp())('CDN push of an H.265 camera to nginx-rtmp with CDN_HEVC=h264', () => {
  const api = useAdminApp({ listen: true, overrides: { cdnHevc: 'h264' } });
  afterEach(async () => {
    await rig.stopServers();
    await stopNginx();
  });

  // nginx-rtmp relays neither H.265 form to a player (docs/architecture.md, CDN push): H.264 is the way through it.
  it('goes as its H.264 variant: a player decodes it from nginx without an error, and a channel pulling it back plays', async () => {
    const ng = await startNginx();
    const dev = await pushCamera(api, ng.url('hevc'), { codec: 'h265' });
    await waitPushing(api, dev);
    expect(api.t.ctx.cdn.active()).toMatchObject([{ transcoded: true }]);
    const [played, pulled] = await Promise.all([play(ng.url('hevc')), roundTrip(api, ng.url('hevc'), 20, 1)]);
    expect(played).toEqual({ codecs: ['h264'], errors: '' });
    expect(pulled).toEqual(['h264']);
  }, 90_000);
});
