/**
 * The HLS, FLV, stream-status and snapshot outputs end to end: the GStreamer RTSP camera (320x240
 * H.264, 15 fps, GOP 2 s) → RTSP client → hub → each output, read back by ffmpeg/ffprobe over HTTP
 * from the running test server, or by the ws package.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readFlv } from '@opencvr/flv';
import { until } from '../helpers/index.js';
import { useAdminApp } from '../api/admin-app.js';
import { useCamera } from '../fixtures/use-camera.js';
import { openCameraStream } from './open-stream.js';

const cam = useCamera();
const api = useAdminApp({ listen: true });

const openStream = (protocol: string) => openCameraStream(api, cam.url, protocol);

/** Runs a program to its end (or kills it at the deadline); stdout, stderr and exit code. */
function run(cmd: string, args: string[], timeoutMs = 30000) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('HLS', () => {
  it("ffmpeg plays the playlist over HTTP and decodes frames at the camera's size; URIs carry the token", async () => {
    const s = await openStream('HLS');
    expect(s.URL).toMatch(/^\/hls\/stream_\d+_0\/playlist\.m3u8\?play_token=/);
    const url = `${api.t.baseUrl}${s.URL}`;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/vnd.apple.mpegurl');
    const text = await res.text();
    const token = s.URL.split('play_token=')[1];
    expect(text).toMatch(/^#EXTM3U\n#EXT-X-VERSION:9\n/);
    expect(text).toContain(`#EXT-X-MAP:URI="init.mp4?play_token=${token}"`);
    expect(text).toMatch(new RegExp(`\\nseg_\\d+\\.m4s\\?play_token=${token}\\n`));
    expect(text).toMatch(/#EXT-X-PRELOAD-HINT:TYPE=PART,URI="part_\d+_\d+\.m4s\?play_token=/);
    // without the token: refused
    expect((await fetch(url.split('?')[0])).status).toBe(401);
    expect((await fetch(`${api.t.baseUrl}/hls/${s.Stream}/init.mp4`)).status).toBe(401);

    // Two players of the playlist at once (each reads it on its own), not one after the other.
    const [probe, stat] = await Promise.all([
      run('ffmpeg', ['-v', 'error', '-i', url, '-t', '3', '-f', 'framemd5', '-']),
      run('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', url]),
    ]);
    expect(probe.code, probe.stderr).toBe(0);
    const frames = probe.stdout.split('\n').filter((l) => /^0,/.test(l));
    expect(frames.length).toBeGreaterThanOrEqual(30); // 3 s at 15 fps
    expect(probe.stdout).toContain('#dimensions 0: 320x240');

    expect(JSON.parse(stat.stdout).streams[0]).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
  });

  it('a blocking reload waits for the asked part, and a hinted part is served once it exists', async () => {
    const s = await openStream('HLS');
    const url = `${api.t.baseUrl}${s.URL}`;
    const first = await (await fetch(url)).text();
    const hint = /#EXT-X-PRELOAD-HINT:TYPE=PART,URI="part_(\d+)_(\d+)\.m4s\?([^"]+)"/.exec(first)!;
    const [msn, part] = [Number(hint[1]), Number(hint[2])];
    const started = Date.now();
    const [pl, partRes] = await Promise.all([
      fetch(`${url}&_HLS_msn=${msn}&_HLS_part=${part}`).then((r) => r.text()),
      fetch(`${api.t.baseUrl}/hls/${s.Stream}/part_${msn}_${part}.m4s?${hint[3]}`),
    ]);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(pl).toContain(`URI="part_${msn}_${part}.m4s?`);
    expect(partRes.status).toBe(200);
    const body = Buffer.from(await partRes.arrayBuffer());
    expect(body.subarray(4, 8).toString()).toBe('moof');
    expect((await fetch(`${url}&_HLS_msn=${msn + 50}`)).status).toBe(400);
  });
});

describe('FLV', () => {
  it("ffprobe decodes the HTTP-FLV URL at the camera's size", async () => {
    const s = await openStream('FLV');
    expect(s.URL).toMatch(/^\/flv\/live\/stream_\d+_0\.flv\?play_token=/);
    const url = `${api.t.baseUrl}${s.URL}`;
    // Two viewers of the URL at once (each its own HTTP-FLV response), not one after the other.
    const [r, dec] = await Promise.all([
      run('ffprobe', ['-v', 'error', '-read_intervals', '%+3', '-show_streams', '-count_frames', '-of', 'json', url]),
      run('ffmpeg', ['-v', 'error', '-xerror', '-i', url, '-t', '2', '-f', 'null', '-']),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const v = JSON.parse(r.stdout).streams.find((x: { codec_type: string }) => x.codec_type === 'video');
    expect(v).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
    expect(Number(v.nb_read_frames)).toBeGreaterThan(10);
    expect(dec.code, dec.stderr).toBe(0);
    expect((await fetch(`${api.t.baseUrl}${s.URL.split('?')[0]}`)).status).toBe(401);
    // the viewer left: no FLV viewer is counted any more
    const { outputViewers } = await import('../../src/media/stats.js');
    await until(() => !outputViewers(api.t.ctx.streams).of(s.Stream).FLV, 5000);
  });

  it('WS-FLV: header, metadata, AVC sequence header, then a keyframe first; tag chain well formed', async () => {
    const s = await openStream('WS_FLV');
    expect(s.URL).toMatch(/^\/ws_flv\/live\/stream_\d+_0\.flv\?play_token=/);
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(`${api.t.baseUrl!.replace('http', 'ws')}${s.URL}`);
      const timer = setTimeout(() => (ws.close(), resolve()), 15000);
      ws.on('message', (d: Buffer) => {
        chunks.push(d);
        if (chunks.length >= 25) {
          clearTimeout(timer);
          ws.close();
          resolve();
        }
      });
      ws.on('error', (e) => (clearTimeout(timer), reject(e)));
    });
    const f = readFlv(Buffer.concat(chunks));
    expect(f.hasVideo).toBe(true);
    expect(f.tags[0].type).toBe(18);
    expect([...f.tags[1].data.subarray(0, 2)]).toEqual([0x17, 0x00]); // AVC sequence header
    expect(f.tags[2].data[0]).toBe(0x17); // first frame: AVC keyframe
    expect(f.tags.length).toBeGreaterThanOrEqual(20);
  });

  /**
   * A WS-FLV viewer of `url`, asking for state messages (`?state=1`, as the console does) unless
   * `states` is false: its text messages, its FLV bytes with the text count when each arrived, and
   * its close once it comes.
   */
  async function flvViewer(url: string, states = true) {
    const ws = new WebSocket(`${api.t.baseUrl!.replace('http', 'ws')}${url}${states ? '&state=1' : ''}`);
    const texts: { type: string; state: string; reason: string; code?: string; vars?: unknown }[] = [];
    const binary: { bytes: Buffer; afterTexts: number }[] = [];
    ws.on('message', (d: Buffer, isBinary) => {
      if (!isBinary) texts.push(JSON.parse(String(d)));
      else binary.push({ bytes: d, afterTexts: texts.length });
    });
    const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    await new Promise<void>((resolve, reject) => {
      ws.once('message', () => resolve());
      ws.on('error', reject);
    });
    return { ws, texts, binary, closed };
  }

  it("WS-FLV: a stopped stream closes the socket with the stop's catalogue reason, its state message just before", async () => {
    const s = await openStream('WS_FLV');
    const viewer = await flvViewer(s.URL);
    const stop = await api.get(`/api/v1/stopstream?device=${s.dev}&channel=1&stream=0`);
    expect(stop.statusCode, stop.body).toBe(200);
    expect(await viewer.closed).toEqual({ code: 1000, reason: 'stream stopped (streamStoppedByRequest)' });
    // The hub's state at the start (connecting or live), then the stop.
    expect(viewer.texts.slice(0, -1).every((m) => m.state === 'connecting' || m.state === 'live'), JSON.stringify(viewer.texts)).toBe(true);
    expect(viewer.texts.at(-1)).toEqual({ type: 'state', state: 'stopped', reason: 'stream stopped (streamStoppedByRequest)', code: 'streamStoppedByRequest' });
  });

  it('WS-FLV without ?state=1 (mpegts.js or flv.js used directly): FLV bytes only, a stop told by the close reason alone', async () => {
    const s = await openStream('WS_FLV');
    const viewer = await flvViewer(s.URL, false);
    const stop = await api.get(`/api/v1/stopstream?device=${s.dev}&channel=1&stream=0`);
    expect(stop.statusCode, stop.body).toBe(200);
    expect(await viewer.closed).toEqual({ code: 1000, reason: 'stream stopped (streamStoppedByRequest)' });
    expect(viewer.texts).toEqual([]);
    expect(viewer.binary.length).toBeGreaterThan(0);
  });

  it("WS-FLV with ?state=1: a camera that stops and returns is told as retrying with the camera's reason, then live, and the FLV goes on on the same socket", async () => {
    const s = await openStream('WS_FLV');
    const viewer = await flvViewer(s.URL);
    const plain = await flvViewer(s.URL, false);
    await until(() => viewer.binary.length > 10, 10_000);
    const port = cam.port;
    await cam.stop();
    await until(() => viewer.texts.some((m) => m.state === 'retrying'), 20_000);
    const retrying = viewer.texts.find((m) => m.state === 'retrying')!;
    expect(retrying.reason).not.toBe('');
    expect(retrying.code, JSON.stringify(retrying)).toMatch(/^[a-zA-Z0-9]+$/);
    await cam.start({ port });
    await until(() => viewer.texts.at(-1)?.state === 'live' && viewer.binary.at(-1)!.afterTexts === viewer.texts.length && plain.binary.length > 0, 30_000);
    const back = viewer.texts.length;
    await until(() => viewer.binary.filter((b) => b.afterTexts === back).length > 20, 10_000);
    expect(viewer.ws.readyState).toBe(WebSocket.OPEN);
    // One FLV stream across the outage: a header once, then a tag chain whose video times never go back.
    const f = readFlv(Buffer.concat(viewer.binary.map((b) => b.bytes)));
    const times = f.tags.filter((t) => t.type === 9).map((t) => t.timestamp);
    expect(times.length).toBeGreaterThan(30);
    expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);
    // The viewer that did not ask saw the same outage without a text frame.
    expect(plain.texts).toEqual([]);
    expect(plain.ws.readyState).toBe(WebSocket.OPEN);
    viewer.ws.close();
    plain.ws.close();
  }, 60_000);

  it('WS-FLV: a stop whose reason has vars sends them whole in the state message (a close reason holds 123 bytes)', async () => {
    const s = await openStream('WS_FLV');
    const viewer = await flvViewer(s.URL);
    const host = `a-camera-with-a-long-name.${'sub.'.repeat(30)}example`;
    api.t.ctx.streams.get(s.Stream)!.stop('lookup failed', { key: 'tlsCertWrongHost', vars: { host, names: '摄像机.example' } });
    const closed = await viewer.closed;
    expect(closed).toEqual({ code: 1000, reason: 'stream stopped' });
    expect(viewer.texts.at(-1)).toEqual({ type: 'state', state: 'stopped', reason: 'stream stopped', code: 'tlsCertWrongHost', vars: { host, names: '摄像机.example' } });
    expect(Buffer.byteLength(JSON.stringify(viewer.texts.at(-1)))).toBeGreaterThan(123);
  });
});

describe('stream status and snapshots', () => {
  it('streamstat pushes the asked stream every second with playerid, viewers per output, bitrate, fps, size', async () => {
    const s = await openStream('WS_FLV');
    const viewer = new WebSocket(`${api.t.baseUrl!.replace('http', 'ws')}${s.URL}`);
    viewer.on('message', () => undefined);
    const got: Record<string, unknown>[] = [];
    const ws = new WebSocket(`${api.t.baseUrl!.replace('http', 'ws')}/api/v1/ws/streamstat?token=${api.admin}&request_id=r1`);
    ws.on('open', () => ws.send(JSON.stringify({ playerid: 'p1', stream: s.Stream })));
    ws.on('message', (d) => got.push(JSON.parse(String(d))));
    await until(
      () => got.some((m) => m.playerid === 'p1' && m.state === 'live' && (m.bitrateKbps as number) > 0 && (m.fps as number) > 5),
      15000,
      { what: () => `a live streamstat of p1 (last two: ${JSON.stringify(got.slice(-2))})` },
    );
    const last = got.filter((m) => m.state === 'live').pop()!;
    expect(last).toMatchObject({
      type: 'streamstat',
      request_id: 'r1',
      playerid: 'p1',
      stream: s.Stream,
      width: 320,
      height: 240,
      videoCodec: 'h264',
      viewers: { WS_FLV: 1 },
    });
    expect(last.fps as number).toBeGreaterThan(10);
    expect(last.fps as number).toBeLessThan(20);
    // about one message a second
    const n = got.length;
    await until(() => got.length >= n + 2, 5000);
    expect(got.length).toBeGreaterThanOrEqual(n + 2);
    // a stream the user may not see / does not exist: an error with the playerid
    ws.send(JSON.stringify({ playerid: 'p2', stream: 'stream_999_0' }));
    await until(() => got.some((m) => m.type === 'error' && m.playerid === 'p2'), 5000);
    ws.close();
    viewer.close();
    // without a token: refused
    await expect(
      new Promise((resolve, reject) => {
        const bad = new WebSocket(`${api.t.baseUrl!.replace('http', 'ws')}/api/v1/ws/streamstat?request_id=x`);
        bad.on('unexpected-response', (_q, res) => reject(new Error(`HTTP ${res.statusCode}`)));
        bad.on('open', () => (bad.close(), resolve('open')));
      }),
    ).rejects.toThrow('HTTP 401');
  });

  it('channelsnap answers a JPEG of the camera (320x240), the second one from the cache', async () => {
    const add = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/adddevice',
      headers: { token: api.admin },
      payload: { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: cam.url },
    });
    const dev = add.json().EasyDarwin.Body.DeviceID as string;
    // the stream is not open yet: the snapshot opens it and waits for a keyframe
    const res = await fetch(`${api.t.baseUrl}/api/v1/devices/channelsnap?device=${dev}&channel=1`, {
      headers: { token: api.admin },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const jpeg = Buffer.from(await res.arrayBuffer());
    expect([...jpeg.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    const fs = await import('node:fs');
    const file = `${api.t.settings.dataDir}/snap.jpg`;
    fs.writeFileSync(file, jpeg);
    const probe = await run('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', file]);
    expect(JSON.parse(probe.stdout).streams[0]).toMatchObject({ codec_name: 'mjpeg', width: 320, height: 240 });
    const again = await fetch(`${api.t.baseUrl}/api/v1/devices/channelsnap?device=${dev}&channel=1`, {
      headers: { token: api.admin },
    });
    expect(Buffer.from(await again.arrayBuffer()).equals(jpeg)).toBe(true);
    expect((await fetch(`${api.t.baseUrl}/api/v1/devices/channelsnap?device=${dev}&channel=1`)).status).toBe(401);
  });
});

describe('audio and changes of tracks', () => {
  for (const audio of ['aac', 'pcma'] as const) {
    it(`HTTP-FLV of a camera with ${audio} audio: ffprobe reads H.264 and ${audio}`, async () => {
      await cam.stop();
      await cam.start({ audio });
      const s = await openStream('FLV');
      const r = await run('ffprobe', [
        '-v',
        'error',
        '-read_intervals',
        '%+2',
        '-show_streams',
        '-of',
        'json',
        `${api.t.baseUrl}${s.URL}`,
      ]);
      expect(r.code, r.stderr).toBe(0);
      const names = JSON.parse(r.stdout)
        .streams.map((x: { codec_name: string }) => x.codec_name)
        .sort();
      expect(names).toEqual(audio === 'aac' ? ['aac', 'h264'] : ['h264', 'pcm_alaw']);
    });
  }

  it('the camera comes back at another size: WS-FLV sends new metadata, HLS a discontinuity and init_1.mp4', async () => {
    const s = await openStream('WS_FLV');
    const hub = api.t.ctx.streams.get(s.Stream)!;
    const chunks: Buffer[] = [];
    const ws = new WebSocket(`${api.t.baseUrl!.replace('http', 'ws')}${s.URL}`);
    ws.on('message', (d: Buffer) => chunks.push(d));
    const hls = `${api.t.baseUrl}${s.URLs.HLS}`;
    expect((await fetch(hls)).status).toBe(200);
    await until(() => hub.state === 'live' && chunks.length > 5, 15000);
    const port = cam.port;
    await cam.stop();
    await until(() => hub.state === 'retrying', 15000);
    await cam.start({ port, width: 480, height: 272 });
    const widths = () =>
      readFlv(Buffer.concat(chunks))
        .tags.filter((x) => x.type === 18)
        .map((x) => (String.fromCharCode(...x.data).includes('width') ? x.data : undefined))
        .filter(Boolean).length;
    await until(() => widths() >= 2, 30000);
    // the second metadata says 480
    const { decodeAmf0 } = await import('@opencvr/flv');
    const metas = readFlv(Buffer.concat(chunks)).tags.filter((x) => x.type === 18);
    const last = decodeAmf0(metas[metas.length - 1].data)[1] as { entries: Record<string, unknown> };
    expect(last.entries).toMatchObject({ width: 480, height: 272, videocodecid: 7 });
    ws.close();
    const playlist = await until(async () => {
      const text = await (await fetch(hls)).text();
      return /#EXT-X-DISCONTINUITY\n#EXT-X-MAP:URI="init_1\.mp4\?play_token=[^"]+"\n/.test(text) &&
        /init_1\.mp4[\s\S]*#EXTINF/.test(text)
        ? text
        : '';
    }, 20000);
    expect(playlist).toBeTruthy();
    const init1 = await fetch(`${api.t.baseUrl}/hls/${s.Stream}/init_1.mp4?${s.URLs.HLS.split('?')[1]}`);
    expect(init1.status).toBe(200);
    // ffmpeg reads the stream after the change at the new size
    // ffmpeg, started on the last segment (after the change), reads the new size
    const probe = await run('ffmpeg', [
      '-v',
      'error',
      '-live_start_index',
      '-1',
      '-i',
      hls,
      '-t',
      '1',
      '-f',
      'framemd5',
      '-',
    ]);
    expect(
      probe.stdout.split('\n').find((l) => l.startsWith('#dimensions')),
      probe.stderr,
    ).toBe('#dimensions 0: 480x272');
  });
});

describe('H.265 camera', () => {
  it('HLS decodes at the camera size; WS-FLV writes enhanced FLV hvc1, or codec id 12 with ?hevc=12', async () => {
    await cam.stop();
    await cam.start({ codec: 'h265' });
    const s = await openStream('HLS');
    const [probe, stat] = await Promise.all([
      run('ffmpeg', ['-v', 'error', '-i', `${api.t.baseUrl}${s.URL}`, '-t', '1', '-f', 'framemd5', '-']),
      run('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', `${api.t.baseUrl}${s.URL}`]),
    ]);
    expect(probe.code, probe.stderr).toBe(0);
    expect(probe.stdout).toContain('#dimensions 0: 320x240');
    expect(JSON.parse(stat.stdout).streams[0]).toMatchObject({ codec_name: 'hevc', width: 320, height: 240 });
    const firstTags = async (url: string) => {
      const chunks: Buffer[] = [];
      await new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(url);
        const timer = setTimeout(() => (ws.close(), resolve()), 15000);
        ws.on('message', (d: Buffer) => {
          chunks.push(d);
          if (chunks.length >= 4) {
            clearTimeout(timer);
            ws.close();
            resolve();
          }
        });
        ws.on('error', (e) => (clearTimeout(timer), reject(e)));
      });
      return readFlv(Buffer.concat(chunks)).tags;
    };
    const wsUrl = `${api.t.baseUrl!.replace('http', 'ws')}${s.URLs.WS_FLV}`;
    const [enhanced, legacy] = await Promise.all([firstTags(wsUrl), firstTags(`${wsUrl}&hevc=12`)]);
    expect(Buffer.from(enhanced[1].data.subarray(0, 5)).toString('hex')).toBe('9068766331'); // SequenceStart 'hvc1'
    expect(Buffer.from(enhanced[2].data.subarray(0, 5)).toString('hex')).toBe('9168766331'); // key CodedFrames
    expect(Buffer.from(legacy[1].data.subarray(0, 2)).toString('hex')).toBe('1c00');
    expect(Buffer.from(legacy[2].data.subarray(0, 2)).toString('hex')).toBe('1c01');
  });
});
