/**
 * CDN push (EnableCdn, CdnUrl): the channel's stream reaches an RTMP server (ffmpeg listening as
 * one, as a CDN's ingest would) without transcoding, published by the server's own RTMP client (no
 * ffmpeg, so no process has the stream key on its command line); the file that server writes is the
 * camera's H.264 and AAC read back by ffprobe. A CdnUrl that is not rtmp(s):// pushes nothing, and
 * switching the push off stops it. An H.265 camera goes out as enhanced RTMP ('hvc1'), or as the
 * transcoded H.264 variant with CDN_HEVC=h264. A server that closes mid-stream gets the push again
 * after the back-off; the log shows the address without key or password. CDN_HEVC=codec-id-12 sends
 * H.265 in the legacy FLV codec id 12 that many Chinese CDNs and older SRS/nginx-rtmp forks take.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../helpers/index.js';
import { freePort, type CameraOptions } from '../fixtures/camera.js';
import { useAdminApp, type AdminApp } from '../api/admin-app.js';
import { useCdnRig, videoMessages } from './cdn-support.js';

// Before useAdminApp(): the camera stops after the app has closed.
const rig = useCdnRig();

/** An "RTMP server" (ffmpeg listening for one publisher) that keeps 3 s of what it gets in `out`. */
function rtmpServer(port: number, out: string) {
  const server = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-listen', '1', '-f', 'flv', '-i', `rtmp://127.0.0.1:${port}/live/cdn`, '-c', 'copy', '-t', '3', '-y', out], { stdio: 'ignore' });
  rig.children.push(server);
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
  return Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 30_000))]);
}

/** A camera with these options added as a device, and an RTMP server waiting for its push. */
async function cameraAndRtmpServer(api: AdminApp, opts: CameraOptions = {}) {
  const dev = await rig.addCamera(api, opts);
  const port = await freePort();
  const out = path.join(api.t.settings.dataDir, 'cdn.flv');
  const received = rtmpServer(port, out);
  return { port, out, received, dev };
}

/** What the push logs (the service's own logger, read here). */
function pushLog(api: AdminApp): string[] {
  const logged: string[] = [];
  const deps = (api.t.ctx.cdn as unknown as { deps: { log: { info(o: object, m: string): void; warn(o: object, m: string): void } } }).deps;
  const keep = (o: object, m: string) => logged.push(`${m} ${JSON.stringify(o)}`);
  deps.log = { info: keep, warn: keep };
  return logged;
}

/** Every process's command line on this host, as any local user reads them. */
function commandLines(): string[] {
  const out: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      out.push(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const probe = (file: string) =>
  JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-count_packets', '-show_streams', '-show_format', '-of', 'json', file], { encoding: 'utf8' }));

describe('CDN push', () => {
  const api = useAdminApp();
  // Registered after it: the RTMP servers go first.
  afterEach(() => rig.stopServers());

  it('pushes an H.264 + AAC channel to an RTMP server as it is, with no process holding the key, and stops when switched off', async () => {
    const { port, out, received, dev } = await cameraAndRtmpServer(api, { audio: 'aac' });
    const edit = (payload: object) => api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', ...payload });

    // Not an RTMP address: nothing is pushed.
    expect((await edit({ EnableCdn: 1, CdnUrl: 'http://127.0.0.1/x' })).statusCode).toBe(200);
    await api.t.ctx.cdn.reconcile();
    expect(api.t.ctx.cdn.active()).toEqual([]);

    expect((await edit({ CdnUrl: `rtmp://127.0.0.1:${port}/live/cdn` })).statusCode).toBe(200);
    await until(() => api.t.ctx.cdn.active().length === 1, 5000);
    // The only command line naming the key is the test's own ffmpeg server's.
    expect(commandLines().filter((c) => c.includes('/live/cdn') && !c.includes('-listen'))).toEqual([]);
    expect(await received).toBe(0);
    const file = probe(out);
    const video = file.streams.find((s: { codec_type: string }) => s.codec_type === 'video');
    const audio = file.streams.find((s: { codec_type: string }) => s.codec_type === 'audio');
    expect(video).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
    expect(audio).toMatchObject({ codec_name: 'aac' });
    expect(Number(video.nb_read_packets)).toBeGreaterThanOrEqual(40); // 3 s of the camera's 15 fps
    expect(Number(audio.nb_read_packets)).toBeGreaterThan(100); // 3 s of 44.1 kHz AAC frames (1024 samples)
    expect(Number(file.format.duration)).toBeGreaterThan(2);
    expect(fs.statSync(out).size).toBeGreaterThan(10_000);

    // Switched off: the push ends.
    expect((await edit({ EnableCdn: 0 })).statusCode).toBe(200);
    await until(() => api.t.ctx.cdn.active().length === 0, 5000);
  }, 60_000);

  it('pushes an H.265 camera as enhanced RTMP (hvc1), not transcoded', async () => {
    const dev = await rig.addCamera(api, { codec: 'h265' });
    const double = await rig.startDouble({ app: 'live', published: [] });
    expect((await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', EnableCdn: 1, CdnUrl: double.url('live/KEY') })).statusCode).toBe(200);
    const video = await videoMessages(double);
    expect([...video[0].payload.subarray(0, 5)]).toEqual([0x90, 0x68, 0x76, 0x63, 0x31]); // keyframe SequenceStart 'hvc1'
    expect(api.t.ctx.cdn.active()).toMatchObject([{ transcoded: false }]);
  }, 60_000);

  it('a server that closes mid-stream gets the push again after the back-off, the reason logged without key or password', async () => {
    const dev = await rig.addCamera(api);
    const logged = pushLog(api);
    const double = await rig.startDouble({ app: 'live', published: [], closeOnceAfterMedia: 30, adobeAuth: { user: 'pub', password: 'pa55/w?rd' } });
    const url = double.url('live/S3CRETKEY').replace('rtmp://', `rtmp://pub:${encodeURIComponent('pa55/w?rd')}@`);
    expect((await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', EnableCdn: 1, CdnUrl: url })).statusCode).toBe(200);
    await until(() => double.publishes.length === 2, 20_000, { what: 'a second publish' });
    const restart = logged.find((l) => l.startsWith('cdn push: ended, restarting'));
    expect(restart).toMatch(/"restartInMs":1000/);
    expect(restart).toMatch(/ECONNRESET|EPIPE|closed by the server/);
    expect(api.t.ctx.cdn.active()).toMatchObject([{ runs: 2 }]);
    const before = double.received.length;
    await until(() => double.received.length > before + 20, 10_000, { what: 'media after the resume' });
    expect(logged.join('\n')).not.toMatch(/S3CRETKEY|pa55/);
  }, 60_000);

  it('a refused login waits the longest back-off (30 s) before the next try', async () => {
    const dev = await rig.addCamera(api);
    const logged = pushLog(api);
    const double = await rig.startDouble({ app: 'live', published: [], llnwAuth: { user: 'pub', password: 'right' } });
    const url = double.url('live/KEY').replace('rtmp://', 'rtmp://pub:wrong@');
    expect((await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', EnableCdn: 1, CdnUrl: url })).statusCode).toBe(200);
    const ended = await until(() => logged.find((l) => l.startsWith('cdn push: ended')), 20_000, { what: 'the refused push logged' });
    expect(ended).toContain('RTMP authentication failed (authmod=llnw)');
    expect(ended).toContain('"restartInMs":30000');
    expect(double.publishes).toEqual([]);
  }, 60_000);

  it('logs neither the stream key nor a password of the CDN address when the push fails', async () => {
    const dev = await rig.addCamera(api);
    const logged = pushLog(api);
    // Nobody listens there: "ECONNREFUSED connect ECONNREFUSED 127.0.0.1:PORT".
    const closed = await freePort();
    const url = `rtmp://pub:pa55word@127.0.0.1:${closed}/live/S3CRETKEY`;
    expect((await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', EnableCdn: 1, CdnUrl: url })).statusCode).toBe(200);
    await until(() => logged.some((l) => l.startsWith('cdn push: ended')), 30_000, { what: 'a failed push logged' });
    expect(logged.join('\n')).toContain(`rtmp://127.0.0.1:${closed}/live/***`);
    expect(logged.join('\n')).toContain('ECONNREFUSED');
    expect(logged.join('\n')).not.toMatch(/S3CRETKEY|pa55word/);
  }, 60_000);
});

describe('CDN push with CDN_HEVC=h264', () => {
  const api = useAdminApp({ overrides: { cdnHevc: 'h264' } });
  afterEach(() => rig.stopServers());

  it('pushes an H.265 camera as its transcoded H.264 variant', async () => {
    const { port, out, received, dev } = await cameraAndRtmpServer(api, { codec: 'h265' });
    const edit = await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', EnableCdn: 1, CdnUrl: `rtmp://127.0.0.1:${port}/live/cdn` });
    expect(edit.statusCode).toBe(200);
    expect(await received).toBe(0);
    expect(probe(out).streams[0]).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
    expect(api.t.ctx.cdn.active()).toMatchObject([{ transcoded: true }]);
  }, 60_000);
});

describe('CDN push with CDN_HEVC=codec-id-12', () => {
  const api = useAdminApp({ overrides: { cdnHevc: 'codec-id-12' } });
  afterEach(() => rig.stopServers());

  it('pushes an H.265 camera in the legacy FLV codec id 12', async () => {
    const dev = await rig.addCamera(api, { codec: 'h265' });
    const double = await rig.startDouble({ app: 'live', published: [] });
    expect((await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', EnableCdn: 1, CdnUrl: double.url('live/KEY') })).statusCode).toBe(200);
    const video = await videoMessages(double);
    // keyframe (1) << 4 | codec id 12, AVCPacketType 0 (sequence header), then the hvcC record (version 1).
    expect([...video[0].payload.subarray(0, 2)]).toEqual([0x1c, 0x00]);
    expect(video[0].payload[5]).toBe(1);
    // Every picture after it: codec id 12, AVCPacketType 1 (NALUs).
    for (const m of video.slice(1)) {
      expect(m.payload[0] & 0x0f).toBe(12);
      expect(m.payload[1]).toBe(1);
    }
    expect(api.t.ctx.cdn.active()).toMatchObject([{ transcoded: false }]);
  }, 60_000);
});
