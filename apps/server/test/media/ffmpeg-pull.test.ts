/**
 * Channels whose address is HTTP(S) play through the ffmpeg pull source (ffmpeg-pull-source.ts;
 * rtmp:// and rtsps:// channels have native clients: rtmp-pull.test.ts, rtsps-pull.test.ts), and the source itself is driven here
 * with RTMP too: ffmpeg serves a clip over RTMP (`-listen 1`), the test serves an HLS folder and FLV
 * files over HTTP, and a channel with that address goes live with the clip's codecs while a WS-fMP4
 * viewer gets fragments. Channel credentials reach an HTTP server that asks for them (never on
 * ffmpeg's command line); G.711 audio becomes AAC; H.265 in FLV with an ffmpeg older than 6.1 says why it cannot play; addresses that are
 * not a pull URL are refused before anything runs. The stream checker's probe finds those same
 * sources online (an RTMP play of ffmpeg's server, the HLS playlist, the FLV file) and a wrong HLS
 * address offline with its status; a wrong RTMP key needs a server that checks keys, which ffmpeg's
 * does not (stream-probe.test.ts, with the RTMP server double).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FlvMuxer } from '@opencvr/flv';
import { Fmp4StreamReader } from '@opencvr/fmp4';
import { reason } from '@opencvr/shared';
import { readFragments } from '../../../../packages/fmp4/test/helpers/boxes.js';
import { ffmpegHasHevcInFlv } from '../../src/media/ffmpeg/version.js';
import { DEFAULT_HUB_OPTIONS, type HubOptions, type SourceSink, type StreamHub } from '../../src/media/hub.js';
import { FfmpegPullSource } from '../../src/media/ingest/ffmpeg-pull-source.js';
import { probeStream } from '../../src/access/stream-probe.js';
import { useAdminApp } from '../api/admin-app.js';
import { freePort } from '../fixtures/camera.js';
import { ffmpegRtmpListen } from '../fixtures/ffmpeg-rtmp-listen.js';
import { collectWs, until } from '../helpers/index.js';
import { addPulledDevice, playWsFmp4 } from './open-stream.js';

const api = useAdminApp({ listen: true });
let dir: string;
let httpServer: http.Server;
let httpBase: string;
const rtmpServers: { stop(): Promise<void> }[] = [];

const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pull-'));
  const lavfi = ['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'];
  // H.264 + AAC in FLV (what an RTMP encoder sends), keyframe every second.
  ffmpeg(...lavfi, '-t', '4', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '25', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k', path.join(dir, 'clip.flv'));
  // The same with G.711 A-law audio (FLV holds it; the mp4 muxer does not).
  ffmpeg('-i', path.join(dir, 'clip.flv'), '-c:v', 'copy', '-c:a', 'pcm_alaw', '-ar', '8000', '-ac', '1', path.join(dir, 'alaw.flv'));
  // H.265 + AAC as HLS (MPEG-TS segments of 1 s).
  fs.mkdirSync(path.join(dir, 'hls'));
  ffmpeg(
    ...lavfi,
    '-t', '6',
    '-c:v', 'libx265', '-preset', 'veryfast', '-x265-params', 'keyint=25:log-level=error', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '64k',
    '-f', 'hls', '-hls_time', '1', '-hls_list_size', '0', path.join(dir, 'hls', 'index.m3u8'),
  ); // prettier-ignore
  // H.265 in enhanced FLV (what the hub's own FLV output writes): from the fmp4 fixture's units.
  const events = new Fmp4StreamReader().push(fs.readFileSync(new URL('../../../../packages/fmp4/test/fixtures/live-h265.mp4', import.meta.url)));
  const init = events[0];
  if (init.type !== 'init') throw new Error('fixture without init');
  const mux = new FlvMuxer([init.tracks[0].track]);
  const tags = [mux.header()];
  for (const e of events) if (e.type === 'unit') tags.push(...mux.push(e.unit, 0));
  fs.writeFileSync(path.join(dir, 'hevc.flv'), Buffer.concat(tags));

  // The HTTP side: the folder, and /private/* only with Basic cam:s3cret!
  httpServer = http.createServer((req, res) => {
    let name = decodeURIComponent((req.url ?? '/').split('?')[0]);
    if (name.startsWith('/private/')) {
      if (req.headers.authorization !== `Basic ${Buffer.from('cam:s3cret!').toString('base64')}`) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="cam"' }).end();
        return;
      }
      name = name.slice('/private'.length);
    }
    const file = path.join(dir, path.normalize(name));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': file.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
  httpBase = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise((r) => httpServer?.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  // Quick retries, so a test sees the stream come back within seconds.
  (api.t.ctx.streams as unknown as { hubDefaults: Omit<HubOptions, 'onDemand'> }).hubDefaults = { ...DEFAULT_HUB_OPTIONS, graceMs: 60_000, retryMinMs: 300, retryMaxMs: 1000 };
});

afterEach(async () => {
  for (const p of rtmpServers.splice(0)) await p.stop();
});

/** ffmpeg as an RTMP server of a clip of `dir` (fixtures/ffmpeg-rtmp-listen.ts), stopped after the test. */
function rtmpServer(clip: string, port: number) {
  const server = ffmpegRtmpListen(path.join(dir, clip), port);
  rtmpServers.push(server);
  return server;
}

/** A process's command line as every local user can read it (Linux /proc), or undefined once it is gone. */
function commandLine(pid: number): string | undefined {
  try {
    // A zombie (exited, not yet reaped) has an empty one.
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The process id of the ffmpeg a hub's pull source runs (the hub keeps its source to itself). */
const pullPid = (hub: StreamHub) => (hub as unknown as { source?: FfmpegPullSource }).source?.pid;

let added = 0;
/** A channel with `url` (and credentials), opened over WS-fMP4: its hub and the viewer's URL. */
async function openChannel(url: string, extra: Record<string, string> = {}) {
  const dev = await addPulledDevice(api, `Pulled ${++added}`, url, extra);
  return { dev, ...(await playWsFmp4(api, dev)) };
}

/** A WS-fMP4 viewer until it had the init and `n` media fragments: the tracks ids seen in them. */
async function view(wsUrl: string, n = 20) {
  const got = await collectWs(wsUrl, (b) => b.length > n, 20_000);
  expect(got.binary.length).toBeGreaterThan(n);
  const [init, ...media] = got.binary;
  expect(init.subarray(4, 8).toString()).toBe('ftyp');
  return new Set(media.flatMap((m) => readFragments(m).flatMap((f) => f.trafs.map((t) => t.trackId))));
}

describe('pulling RTMP, HTTP-FLV and HLS through ffmpeg', () => {
  it('HLS of H.265 + AAC over HTTP plays as H.265', async () => {
    const { hub, wsUrl } = await openChannel(`${httpBase}/hls/index.m3u8`);
    await until(() => hub.tracks.length > 0, 20_000, { what: 'the HLS tracks' });
    expect(hub.tracks.map((t) => `${t.kind}:${t.codec}`)).toEqual(['video:h265', 'audio:aac']);
    expect((await view(wsUrl, 10)).has(1)).toBe(true);
  }, 60_000);

  it('HTTP-FLV behind Basic authentication plays with the channel’s Username/Password, which no reason or log shows', async () => {
    // What the app logs of a failing source (app.ts: the hub's onFailure).
    const logged: string[] = [];
    const log = api.t.ctx.streams.hubs.onFailure;
    api.t.ctx.streams.hubs.onFailure = (h, words, why) => {
      logged.push(words);
      log?.(h, words, why);
    };
    const { hub, wsUrl } = await openChannel(`${httpBase}/private/clip.flv`, { DeviceUserName: 'cam', DeviceUserPW: 's3cret!' });
    await until(() => hub.tracks.length > 0, 20_000, { what: 'the HTTP-FLV tracks' });
    expect(hub.tracks.map((t) => t.codec)).toEqual(['h264', 'aac']);
    expect((await view(wsUrl, 10)).has(1)).toBe(true);
    // Its ffmpeg's command line, which any local user may read (ps, /proc): neither the password nor the address.
    // Read while one runs: the file is short and ffmpeg reads it faster than real time, then the hub starts the next.
    const cmd = await until(() => {
      const pid = pullPid(hub);
      return pid === undefined ? undefined : commandLine(pid);
    }, 20_000, { what: 'a running pulling ffmpeg' });
    expect(cmd).toMatch(/^ffmpeg .* -i pipe:0 /);
    expect(cmd).not.toMatch(/s3cret|cam:|private/);

    // Without them the server refuses, and the reason says so without any password in it.
    const bad = await openChannel(`${httpBase}/private/clip.flv`, { DeviceUserName: 'cam', DeviceUserPW: 'wrong-pass' });
    await until(() => bad.hub.state === 'retrying' && bad.hub.reason, 20_000, { what: 'a refused login' });
    expect(bad.hub.reason).toMatch(/401|Unauthorized/);
    expect(bad.hub.reason).not.toContain('wrong-pass');
    expect(logged.join('\n')).toMatch(/401|Unauthorized/);
    expect(logged.join('\n')).not.toMatch(/wrong-pass|s3cret/);
    // ffmpeg's words are the log's; the user reads the catalogue's.
    expect(bad.hub.why).toEqual({ key: 'streamPullFailed' });

    // The stream stopped (stopstream, last viewer gone, channel edited): its ffmpeg goes with it.
    const running = pullPid(hub);
    hub.stop();
    if (running) await until(() => commandLine(running) === undefined, 15_000, { what: 'the pulling ffmpeg gone' });
  }, 60_000);

  it('G.711 audio from HTTP-FLV is encoded to AAC; the video is copied', async () => {
    const { hub } = await openChannel(`${httpBase}/alaw.flv`);
    await until(() => hub.state === 'live' && hub.tracks.length === 2, 30_000, { what: 'the RTMP stream live with audio' });
    expect(hub.tracks.map((t) => `${t.kind}:${t.codec}`)).toEqual(['video:h264', 'audio:aac']);
    expect(hub.tracks[1]).toMatchObject({ sampleRate: 8000, channels: 1 });

    // The next source of that address (a retry, the next viewer) encodes at once: one run, AAC.
    hub.stop();
    const attempt = async () => {
      const again = new FfmpegPullSource(`${httpBase}/alaw.flv`);
      const tracks = await new Promise<string[]>((resolve) =>
        again.start({ tracks: (t) => resolve(t.map((x) => x.codec)), unit: () => undefined, failed: (r) => resolve([r]) } as SourceSink),
      );
      again.stop();
      return { tracks, runs: again.stats.runs };
    };
    const next = await until(async () => {
      const a = await attempt();
      return a.tracks[0] === 'h264' ? a : undefined;
    }, 20_000, { what: 'a second source' });
    expect(next).toEqual({ tracks: ['h264', 'aac'], runs: 1 });
  }, 60_000);

  it('H.265 in FLV: plays where ffmpeg reads it (6.1+), else the reason says the server’s ffmpeg is too old', async () => {
    const { hub } = await openChannel(`${httpBase}/hevc.flv`);
    if (await ffmpegHasHevcInFlv()) {
      await until(() => hub.tracks.length > 0, 20_000);
      expect(hub.tracks[0]).toMatchObject({ codec: 'h265' });
    } else {
      await until(() => hub.state === 'retrying' && hub.reason, 20_000, { what: 'the HEVC-in-FLV reason' });
      expect(hub.reason).toBe(reason('pullHevcFlvNeedsFfmpeg61', 'en-US'));
      expect(hub.why).toEqual({ key: 'pullHevcFlvNeedsFfmpeg61' });
    }
  }, 60_000);
});

describe('the stream checker’s probe of the same sources', () => {
  it('an RTMP play of ffmpeg’s server and the FLV file are online; the ended HLS playlist and a missing one are offline with why', async () => {
    const port = await freePort();
    rtmpServer('clip.flv', port);
    const played = await until(async () => {
      const r = await probeStream(`rtmp://127.0.0.1:${port}/live/x`, { timeoutMs: 3000 });
      return r.ok ? r : undefined;
    }, 20_000, { what: 'the RTMP probe online' });
    expect(played).toMatchObject({ ok: true, answered: true });
    // ffmpeg wrote the whole HLS and ended it (EXT-X-ENDLIST): played above, but a recording, not a live camera.
    expect(await probeStream(`${httpBase}/hls/index.m3u8`)).toMatchObject({ ok: false, status: 200, why: { key: 'statusHlsEnded' } });
    expect(await probeStream(`${httpBase}/clip.flv`)).toMatchObject({ ok: true, status: 200 });
    expect(await probeStream(`${httpBase}/private/clip.flv`, { username: 'cam', password: 's3cret!' })).toMatchObject({ ok: true, status: 200 });
    expect(await probeStream(`${httpBase}/hls/other.m3u8`)).toMatchObject({ ok: false, status: 404, reason: '404 Not Found' });
  }, 40_000);
});

describe('why a pulled stream is not live', () => {
  /** The reason the source fails with (at most one ffmpeg run). */
  const failure = (url: string, opts: ConstructorParameters<typeof FfmpegPullSource>[1] = {}) =>
    new Promise<string>((resolve) => new FfmpegPullSource(url, opts).start({ tracks: () => undefined, unit: () => undefined, failed: resolve } as SourceSink));

  it('names what went wrong in ffmpeg’s words, without the address, its log prefixes or the password', async () => {
    const creds = { username: 'admin', password: 'hunter22' };
    expect(await failure(`${httpBase}/nothing.flv`, creds)).toBe('ffmpeg: Server returned 404 Not Found');
    const port = await freePort();
    expect(await failure(`rtmp://127.0.0.1:${port}/live/x`, creds)).toBe('connection refused');
    // ffmpeg reaches http(s):// servers through the pull gateway (pull-gateway.ts), whose own error says what it was.
    const dns = await failure('http://no-such-host.invalid/x.flv', creds);
    expect(dns).toMatch(/^failed to resolve hostname no-such-host\.invalid\b/);
    expect(dns).not.toMatch(/hunter22|admin|@ 0x/);
  }, 40_000);

  it('a server that takes the connection and sends nothing ends the run after mediaTimeoutMs', async () => {
    const silent = net.createServer(() => undefined);
    const held = new Set<net.Socket>();
    silent.on('connection', (c) => held.add(c));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const port = (silent.address() as AddressInfo).port;
      // ffmpeg's own -rw_timeout is 10 s: the source's watchdog speaks first.
      const source = new FfmpegPullSource(`rtmp://127.0.0.1:${port}/live/x`, { mediaTimeoutMs: 2000 });
      const words = new Promise<string>((resolve) => source.start({ tracks: () => undefined, unit: () => undefined, failed: resolve } as SourceSink));
      const pid = source.pid!;
      expect(await words).toBe('no media for 2 s');
      // The failed source's ffmpeg is gone (killed on stop, not left to its own timeout).
      await until(() => commandLine(pid) === undefined, 10_000, { what: 'the ffmpeg gone' });
    } finally {
      for (const c of held) c.destroy();
      await new Promise((r) => silent.close(r));
    }
  }, 30_000);
});

describe('addresses the pull source refuses', () => {
  it('a channel address that is not an rtsp(s)/rtmp(s)/http(s) URL is refused with the reason, and nothing is added', async () => {
    const before = (await api.body('/api/v1/devices?start=0&limit=50')).TotalCount as number;
    for (const url of ['file:///etc/passwd', 'concat:rtmp://a/x|rtmp://b/y', '-i', 'rtmp:///live/x', 'rtmp://-f/live', 'udp://127.0.0.1:1234', 'http://host/a b']) {
      const res = await api.post('/api/v1/adddevice', { DeviceName: 'Bad', DeviceType: 'RTSP', RtspUrl: url });
      expect(res.statusCode, url).toBe(400);
      expect(res.body, url).toMatch(/rtsp\(s\):\/\/|rtmp\(s\)/);
    }
    expect((await api.body('/api/v1/devices?start=0&limit=50')).TotalCount).toBe(before);
  });

  it('the source itself fails a bad address with its reason and starts no ffmpeg', async () => {
    for (const [url, why] of [
      ['file:///etc/passwd', /file:\/\/ is not pulled/],
      ['concat:rtmp://a/x', /not a URL|is not pulled/],
      ['rtmp://host/a\nb', /spaces or control characters/],
    ] as const) {
      const source = new FfmpegPullSource(url, { ffmpeg: '/nonexistent/ffmpeg' });
      const failed = new Promise<string>((resolve) => source.start({ tracks: () => undefined, unit: () => undefined, failed: resolve } as SourceSink));
      expect(await failed).toMatch(why);
      expect(source.stats.runs).toBe(0);
    }
  });
});
