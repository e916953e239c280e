/**
 * The stream checker's probe of addresses that are not rtsp:// (stream-probe.ts): it asks for the
 * stream, not only its server. HTTP(S) must answer 2xx (with the channel's credentials when it asks)
 * with the stream itself: FLV's signature, an HLS playlist with a variant and segments (a web page or
 * an empty playlist under 200 is offline); RTMP must play (the RTMP server double: the right key
 * online, a wrong one offline with StreamNotFound, an unpublished one without media); rtsp:// still
 * gets the RTSP probe, and a refused or malformed address says why.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeStream } from '../../src/access/stream-probe.js';
import { DEFAULT_HUB_OPTIONS, type HubOptions, type SourceSink } from '../../src/media/hub.js';
import { FfmpegPullSource } from '../../src/media/ingest/ffmpeg-pull-source.js';
import { freePort } from '../fixtures/camera.js';
import { startRtmpServer, type RtmpServerDouble } from '../fixtures/rtmp-server.js';
import { makeTestCerts } from '../fixtures/tls-certs.js';
import { setRtmpsTrust } from '../../src/access/rtmp/tls-connect.js';
import { startTestApp, until } from '../helpers/index.js';
import { StreamChecker, type CheckTarget } from '../../src/services/inventory/stream-checker.js';
import { initialise } from '../api/support.js';

let server: http.Server;
let tcp: net.Server;
let base: string;
let tcpPort: number;
let closedPort: number;
let rtmp: RtmpServerDouble;
/** How often each live playlist was read. */
const liveReads: Record<string, number> = {};
const serverStart = Date.now();

/**
 * Real ffmpeg plays `url` (credentials in it) until it exits: the double sends one video message and
 * then nothing, so ffmpeg ends on its own read timeout (or is killed after 15 s).
 */
function ffmpegPlays(url: string): Promise<void> {
  return new Promise<void>((resolve) => {
    const p = spawn('ffmpeg', ['-v', 'error', '-rw_timeout', '2000000', '-i', url, '-f', 'null', '-'], { stdio: 'ignore' });
    const kill = setTimeout(() => p.kill('SIGKILL'), 15_000);
    p.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
  });
}

/** What the HTTP side serves besides /live.flv and /private.flv: path → [status, content type, body]. */
const FILES: Record<string, [number, string, string]> = {
  '/hls/master.m3u8': [200, 'application/vnd.apple.mpegurl', '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nlow/index.m3u8\n'],
  // A live source that stopped: its last playlist still served, never a new segment.
  '/hls/stale.m3u8': [200, 'application/vnd.apple.mpegurl', '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:7\n#EXTINF:1.0,\ns7.ts\n'],
  '/hls/vod.m3u8': [200, 'application/vnd.apple.mpegurl', '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\ns0.ts\n#EXT-X-ENDLIST\n'],
  '/hls/broken.m3u8': [200, 'application/vnd.apple.mpegurl', '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nmissing/index.m3u8\n'],
  '/hls/novariant.m3u8': [200, 'application/vnd.apple.mpegurl', '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\n'],
  '/hls/empty.m3u8': [200, 'application/vnd.apple.mpegurl', '#EXTM3U\n#EXT-X-TARGETDURATION:1\n'],
  // What some servers answer for a stream name they do not have: 200 and a page.
  '/live/wrong.flv': [200, 'text/html', '<html><body>stream not found</body></html>'],
  '/live/page': [200, 'text/html; charset=utf-8', '<!doctype html><title>Login</title>'],
  '/live/nothing.flv': [200, 'video/x-flv', ''],
  '/live/ts': [200, 'video/mp2t', '\x47\x40\x00\x10'],
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/live.flv') {
      // An HTTP-FLV answer never ends: the probe must not wait for it.
      res.writeHead(200, { 'Content-Type': 'video/x-flv' });
      res.write('FLV');
      return;
    }
    if (req.url === '/private.flv') {
      if (req.headers.authorization === `Basic ${Buffer.from('cam:pa:ss').toString('base64')}`) res.writeHead(200).end('FLV\x01\x05');
      else res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="x"' }).end();
      return;
    }
    if (req.url === '/hls/low/index.m3u8' || req.url === '/hls/live.m3u8') {
      // A live playlist: each read finds the window slid by a segment (a source cutting them as fast as it is asked).
      const n = (liveReads[req.url] = (liveReads[req.url] ?? 0) + 1);
      res.writeHead(200, { 'Content-Type': 'application/vnd.apple.mpegurl' }).end(`#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:${n}\n#EXTINF:1.0,\ns${n}.ts\n#EXTINF:1.0,\ns${n + 1}.ts\n`);
      return;
    }
    const timed = /^\/hls\/(frozen|clock|dated)\/\w+\.m3u8\?t=(\d+)$/.exec(req.url ?? '');
    if (timed) {
      // Target duration t: frozen never changes (a stopped source); clock gets a segment every t seconds
      // from the server's start; dated is frozen but says by EXT-X-PROGRAM-DATE-TIME that its newest just ended.
      liveReads[req.url!] = (liveReads[req.url!] ?? 0) + 1;
      const t = Number(timed[2]);
      const n = timed[1] === 'clock' ? Math.floor((Date.now() - serverStart) / (t * 1000)) : 7;
      const date = timed[1] === 'dated' ? `#EXT-X-PROGRAM-DATE-TIME:${new Date(Date.now() - t * 1000).toISOString()}\n` : '';
      res.writeHead(200, { 'Content-Type': 'application/vnd.apple.mpegurl' }).end(`#EXTM3U\n#EXT-X-TARGETDURATION:${t}\n#EXT-X-MEDIA-SEQUENCE:${n}\n${date}#EXTINF:${t}.0,\ns${n}.ts\n`);
      return;
    }
    if (req.url === '/moved.flv') {
      res.writeHead(302, { Location: '/live.flv' }).end();
      return;
    }
    const file = FILES[req.url ?? ''];
    if (file) {
      res.writeHead(file[0], { 'Content-Type': file[1] }).end(Buffer.from(file[2], 'latin1'));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tcp = net.createServer((s) => s.destroy());
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  tcpPort = (tcp.address() as AddressInfo).port;
  const gone = net.createServer();
  await new Promise<void>((r) => gone.listen(0, '127.0.0.1', r));
  closedPort = (gone.address() as AddressInfo).port;
  await new Promise((r) => gone.close(r));
  rtmp = await startRtmpServer({ app: 'live', published: ['cam1', 'cam2?token=abc'], idle: ['unpublished'] });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await new Promise((r) => tcp.close(r));
  await rtmp.close();
});

describe('probeStream', () => {
  it('HTTP-FLV: an answer starting with the FLV signature is online (it never ends: not waited for); other statuses say which', async () => {
    expect(await probeStream(`${base}/live.flv`)).toMatchObject({ ok: true, status: 200 });
    expect(await probeStream(`${base}/x.m3u8`)).toMatchObject({ ok: false, status: 404, reason: '404 Not Found', why: { key: 'statusAnswered', vars: { status: 404, phrase: 'Not Found' } } });
    expect(await probeStream(`${base}/moved.flv`)).toMatchObject({ ok: true, status: 200 });
  });

  it('HTTP: a 200 that is not the stream is offline with what it was', async () => {
    expect(await probeStream(`${base}/live/wrong.flv`)).toMatchObject({ ok: false, status: 200, reason: 'not an FLV stream', why: { key: 'statusNotFlv' } });
    expect(await probeStream(`${base}/live/page`)).toMatchObject({ ok: false, status: 200, reason: 'a web page, not a stream', why: { key: 'statusWebPage' } });
    expect(await probeStream(`${base}/live/nothing.flv`)).toMatchObject({ ok: false, status: 200, reason: 'the server sent an empty answer', why: { key: 'statusEmptyAnswer' } });
    // Left to ffmpeg: MPEG-TS over HTTP.
    expect(await probeStream(`${base}/live/ts`)).toMatchObject({ ok: true, status: 200 });
  });

  it('HLS: a master playlist’s variant must list a segment', async () => {
    expect(await probeStream(`${base}/hls/master.m3u8`)).toMatchObject({ ok: true, status: 200 });
    expect(await probeStream(`${base}/hls/low/index.m3u8`)).toMatchObject({ ok: true, status: 200 });
    expect(await probeStream(`${base}/hls/broken.m3u8`)).toMatchObject({ ok: false, status: 404, reason: '404 Not Found', why: { key: 'statusAnswered', vars: { status: 404, phrase: 'Not Found' } } });
    expect(await probeStream(`${base}/hls/novariant.m3u8`)).toMatchObject({ ok: false, reason: 'the HLS playlist lists no variant', why: { key: 'statusHlsNoVariant' } });
    expect(await probeStream(`${base}/hls/empty.m3u8`)).toMatchObject({ ok: false, reason: 'the HLS playlist lists no segment', why: { key: 'statusHlsNoSegment' } });
  });

  it('HLS: a live playlist must get a new segment within 1.5 target durations; a stale one (the source stopped) and a recording are offline', async () => {
    const before = liveReads['/hls/live.m3u8'] ?? 0;
    expect(await probeStream(`${base}/hls/live.m3u8`)).toMatchObject({ ok: true, status: 200 });
    // Read twice: the second read found the newer segment.
    expect(liveReads['/hls/live.m3u8']).toBe(before + 2);
    // Watched for 1.5 s (its target duration is 1 s), past the probe's 1 s timeout: the watch has its own time.
    expect(await probeStream(`${base}/hls/stale.m3u8`, { timeoutMs: 1000 })).toMatchObject({
      ok: false,
      status: 200,
      reason: 'the HLS playlist did not change within 1.5 s',
      why: { key: 'statusHlsStale', vars: { seconds: 1.5 } },
    });
    expect(await probeStream(`${base}/hls/vod.m3u8`)).toMatchObject({ ok: false, status: 200, why: { key: 'statusHlsEnded' } });
  });

  it('HLS: a second probe decides from the first one’s look without waiting: a playlist that moved since is live, one that did not for 1.5 target durations stale', async () => {
    const clock = `${base}/hls/clock/a.m3u8?t=2`;
    // First look: nothing known, so it reads until the next segment (2 s segments: within 2.5 s).
    expect(await probeStream(clock, { timeoutMs: 1000 })).toMatchObject({ ok: true });
    await new Promise((r) => setTimeout(r, 2500));
    const reads = liveReads['/hls/clock/a.m3u8?t=2'];
    const second = await probeStream(clock, { timeoutMs: 1000 });
    expect(second).toMatchObject({ ok: true });
    // One read, no wait (it waited half a target duration at least before).
    expect(liveReads['/hls/clock/a.m3u8?t=2']).toBe(reads + 1);
    expect(second.latencyMs).toBeLessThan(500);

    const frozen = `${base}/hls/frozen/a.m3u8?t=1`;
    expect(await probeStream(frozen, { timeoutMs: 1000 })).toMatchObject({ ok: false, why: { key: 'statusHlsStale', vars: { seconds: 1.5 } } });
    await new Promise((r) => setTimeout(r, 1000));
    const again = await probeStream(frozen, { timeoutMs: 1000 });
    // Stale at once, for how long it has not changed at least.
    expect(again).toMatchObject({ ok: false, why: { key: 'statusHlsStale' } });
    expect(Number(again.why?.vars?.seconds)).toBeGreaterThanOrEqual(2.5);
    expect(again.latencyMs).toBeLessThan(500);
  });

  it('HLS: EXT-X-PROGRAM-DATE-TIME saying the newest segment just ended is live at a first look, without waiting', async () => {
    const r = await probeStream(`${base}/hls/dated/a.m3u8?t=4`, { timeoutMs: 1000 });
    expect(r).toMatchObject({ ok: true });
    expect(liveReads['/hls/dated/a.m3u8?t=4']).toBe(1);
    expect(r.latencyMs).toBeLessThan(500);
  });

  it('HTTP: the channel’s credentials are sent when given', async () => {
    expect(await probeStream(`${base}/private.flv`)).toMatchObject({ ok: false, status: 401, why: { key: 'statusUnauthorized', vars: { status: 401 } } });
    expect(await probeStream(`${base}/private.flv`, { username: 'cam', password: 'pa:ss' })).toMatchObject({ ok: true, status: 200 });
  });

  it('RTMP: the right stream key plays; a wrong one, an unpublished one and a wrong app are offline with why', async () => {
    expect(await probeStream(rtmp.url('live/cam1'))).toMatchObject({ ok: true, answered: true });
    expect(await probeStream(rtmp.url('live/cam2?token=abc'))).toMatchObject({ ok: true });
    expect(rtmp.plays.slice(0, 2)).toEqual(['cam1', 'cam2?token=abc']);
    expect(await probeStream(rtmp.url('live/wrong'))).toMatchObject({ ok: false, answered: true, reason: 'no such stream: NetStream.Play.StreamNotFound', why: { key: 'statusNoSuchStream', vars: { code: 'NetStream.Play.StreamNotFound' } } });
    expect(await probeStream(rtmp.url('live/unpublished'), { timeoutMs: 500 })).toMatchObject({ ok: false, answered: true, reason: 'no media within 500 ms', why: { key: 'statusNoMediaWithin', vars: { ms: 500 } } });
    expect(await probeStream(rtmp.url('vod/cam1'))).toMatchObject({ ok: false, answered: true, reason: 'RTMP connect refused: NetConnection.Connect.Rejected', why: { key: 'statusRtmpConnectRefused', vars: { code: 'NetConnection.Connect.Rejected' } } });
  });

  it('RTMP with Adobe authentication: the login is done with the channel’s credentials; none, a wrong one, or a method nobody does is offline as a login’s failure', async () => {
    const guarded = await startRtmpServer({ app: 'live', published: ['cam1'], adobeAuth: { user: 'pub', password: 'S3cret+pw' } });
    const other = await startRtmpServer({ app: 'live', published: ['cam1'], authmod: 'pwd' });
    try {
      expect(await probeStream(guarded.url('live/cam1'))).toMatchObject({
        ok: false,
        answered: true,
        reason: 'RTMP authentication required (authmod=adobe)',
        why: { key: 'statusRtmpAuthRequired', vars: { method: 'adobe' } },
      });
      guarded.connects.length = 0;
      expect(await probeStream(guarded.url('live/cam1'), { username: 'pub', password: 'S3cret+pw' })).toMatchObject({ ok: true, answered: true });
      // Three connections: the app, the user (the challenge comes back), the response.
      expect(guarded.connects).toEqual([
        'live',
        'live?authmod=adobe&user=pub',
        expect.stringMatching(/^live\?authmod=adobe&user=pub&challenge=[0-9a-f]{8}&response=[A-Za-z0-9+/]{22}==&opaque=b3BhcXVl\/x==$/),
      ]);
      expect(guarded.plays).toEqual(['cam1']);
      // Credentials in the address itself do the same.
      expect(await probeStream(guarded.url('live/cam1').replace('rtmp://', 'rtmp://pub:S3cret%2Bpw@'))).toMatchObject({ ok: true });
      expect(await probeStream(guarded.url('live/cam1'), { username: 'pub', password: 'wrong' })).toMatchObject({ ok: false, answered: true, why: { key: 'statusRtmpAuthFailed', vars: { method: 'adobe' } } });
      expect(await probeStream(guarded.url('live/cam1'), { username: 'nobody', password: 'S3cret+pw' })).toMatchObject({ ok: false, why: { key: 'statusRtmpAuthFailed' } });
      expect(await probeStream(other.url('live/cam1'))).toMatchObject({ ok: false, why: { key: 'statusRtmpAuthRequired', vars: { method: 'pwd' } } });
      expect(await probeStream(other.url('live/cam1'), { username: 'pub', password: 'pw' })).toMatchObject({
        ok: false,
        reason: 'RTMP authentication not supported (authmod=pwd)',
        why: { key: 'statusRtmpAuthUnsupported', vars: { method: 'pwd' } },
      });
    } finally {
      await guarded.close();
      await other.close();
    }
  });

  it('RTMP with Limelight authentication (llnw): the probe and ffmpeg log in alike; none or a wrong password is offline', async () => {
    const guarded = await startRtmpServer({ app: 'live', published: ['cam1'], llnwAuth: { user: 'pub', password: 'S3cret-pw' } });
    try {
      expect(await probeStream(guarded.url('live/cam1'))).toMatchObject({ ok: false, why: { key: 'statusRtmpAuthRequired', vars: { method: 'llnw' } } });
      expect(await probeStream(guarded.url('live/cam1'), { username: 'pub', password: 'wrong' })).toMatchObject({ ok: false, why: { key: 'statusRtmpAuthFailed', vars: { method: 'llnw' } } });
      guarded.connects.length = 0;
      expect(await probeStream(guarded.url('live/cam1'), { username: 'pub', password: 'S3cret-pw' })).toMatchObject({ ok: true });
      expect(guarded.connects[2]).toMatch(/^live\?authmod=llnw&user=pub&nonce=MTIzNDU2Nzg5&cnonce=[0-9a-f]{8}&nc=00000001&response=[0-9a-f]{32}$/);
      guarded.plays.length = 0;
      await ffmpegPlays(guarded.url('live/cam1').replace('rtmp://', 'rtmp://pub:S3cret-pw@'));
      // Played: the double took ffmpeg's response, computed as the probe's.
      expect(guarded.plays).toEqual(['cam1']);
    } finally {
      await guarded.close();
    }
  }, 30_000);

  it('RTMP with Adobe authentication: ffmpeg, which plays the channel, logs in to the same double (the response is computed alike)', async () => {
    const guarded = await startRtmpServer({ app: 'live', published: ['cam1'], adobeAuth: { user: 'pub', password: 'S3cret-pw' } });
    try {
      await ffmpegPlays(guarded.url('live/cam1').replace('rtmp://', 'rtmp://pub:S3cret-pw@'));
      expect(guarded.connects.map((c) => c.replace(/challenge=[^&]+&response=[^&]+/, 'challenge=C&response=R'))).toEqual([
        'live',
        'live?authmod=adobe&user=pub',
        'live?authmod=adobe&user=pub&challenge=C&response=R&opaque=b3BhcXVl/x==',
      ]);
      // Played: the double took ffmpeg's response.
      expect(guarded.plays).toEqual(['cam1']);
    } finally {
      await guarded.close();
    }
  }, 30_000);

  it('RTMP with Adobe authentication: the pull source’s ffmpeg logs in with the channel’s password, one a URL escapes ("+", "@") too', async () => {
    const guarded = await startRtmpServer({ app: 'live', published: ['cam1'], adobeAuth: { user: 'pub', password: 'S3cret+p@ss' } });
    const source = new FfmpegPullSource(guarded.url('live/cam1'), { username: 'pub', password: 'S3cret+p@ss', hevcInFlv: async () => true });
    try {
      source.start({ tracks: () => undefined, unit: () => undefined, failed: () => undefined } as SourceSink);
      // Played: the double took ffmpeg's login (ffmpeg 5.1 hashes the password as written in the URL).
      await until(() => guarded.plays.includes('cam1'), 15_000, { what: 'ffmpeg logged in and played' });
      expect(guarded.connects.slice(0, 2)).toEqual(['live', 'live?authmod=adobe&user=pub']);
      // And so does the probe, with the same address.
      expect(await probeStream(guarded.url('live/cam1'), { username: 'pub', password: 'S3cret+p@ss' })).toMatchObject({ ok: true });
    } finally {
      source.stop();
      await guarded.close();
    }
  }, 30_000);

  it('RTMP: a server that holds S2 until it has C2 is played too (C2 goes as soon as S1 is in)', async () => {
    const strict = await startRtmpServer({ app: 'live', published: ['cam1'], s2AfterC2: true });
    try {
      expect(await probeStream(strict.url('live/cam1'), { timeoutMs: 2000 })).toMatchObject({ ok: true, answered: true });
    } finally {
      await strict.close();
    }
  });

  it('RTMPS: the same play inside TLS (a certificate of a CA trusted with RTMPS_CA_FILE; refusals: rtmps-trust.test.ts)', async () => {
    const certs = makeTestCerts();
    setRtmpsTrust({ caFile: certs.caFile });
    const secure = await startRtmpServer({ app: 'live', published: ['cam1'], tls: certs.leaf });
    try {
      expect(await probeStream(secure.url('live/cam1'))).toMatchObject({ ok: true, answered: true });
      expect(await probeStream(secure.url('live/cam9'))).toMatchObject({ ok: false, reason: 'no such stream: NetStream.Play.StreamNotFound', why: { key: 'statusNoSuchStream', vars: { code: 'NetStream.Play.StreamNotFound' } } });
      expect(secure.plays).toEqual(['cam1', 'cam9']);
    } finally {
      await secure.close();
      setRtmpsTrust({});
      certs.remove();
    }
  });

  it('RTMP: a TCP connection alone is not online, nor a refused one (no server answered), nor a server of another protocol', async () => {
    expect(await probeStream(`rtmp://127.0.0.1:${tcpPort}/live/x`)).toMatchObject({ ok: false, answered: false, reason: 'connection closed by the camera', why: { key: 'statusClosedByCamera' } });
    expect(await probeStream(`rtmp://127.0.0.1:${closedPort}/live/x`)).toMatchObject({ ok: false, answered: false, reason: 'connection refused', why: { key: 'connectionRefused' } });
    // A server of another protocol answers, but not RTMP.
    const held = new Set<net.Socket>();
    const banner = net.createServer((c) => {
      held.add(c);
      c.on('error', () => undefined);
      c.write('SSH-2.0-OpenSSH_9.2\r\n');
    });
    await new Promise<void>((r) => banner.listen(0, '127.0.0.1', r));
    try {
      const port = (banner.address() as AddressInfo).port;
      expect(await probeStream(`rtmp://127.0.0.1:${port}/live/x`)).toMatchObject({ ok: false, answered: true, reason: 'not an RTMP server (handshake)', why: { key: 'statusNotRtmp' } });
    } finally {
      for (const c of held) c.destroy();
      await new Promise((r) => banner.close(r));
    }
  });

  it('rtsp:// still goes to the RTSP probe; a malformed pull address is refused without a connection', async () => {
    expect(await probeStream(`rtsp://127.0.0.1:${closedPort}/s`)).toMatchObject({ ok: false, reason: 'connection refused', why: { key: 'connectionRefused' } });
    expect(await probeStream('rtmp://127.0.0.1/a b')).toMatchObject({ ok: false, reason: expect.stringMatching(/spaces or control characters/), why: { key: 'statusBadUrl' } });
  });
});

describe('the stream checker with pulled addresses', () => {
  it('marks HTTP-FLV and RTMP channels online, and one whose server refuses, a wrong RTMP key and a missing HLS variant offline with the reason', async () => {
    const t = await startTestApp({ overrides: { channelCheckInterval: 1 } });
    try {
      const token = await initialise(t);
      const add = async (name: string, url: string) => {
        const res = await t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token }, payload: { DeviceName: name, DeviceType: 'RTSP', RtspUrl: url } });
        expect(res.statusCode, res.body).toBe(200);
        return res.json().EasyDarwin.Body.DeviceID as string;
      };
      const channel = async (device: string) =>
        (await t.app.inject({ url: '/api/v1/channelsconfig', query: { device }, headers: { token } })).json().EasyDarwin.Body.Channels[0] as { Online: number; StatusReason: string };
      const up = await add('FLV', `${base}/live.flv`);
      const down = await add('RTMP gone', `rtmp://127.0.0.1:${closedPort}/live/x`);
      const rtmpUp = await add('RTMP', rtmp.url('live/cam1'));
      const wrongKey = await add('RTMP wrong key', rtmp.url('live/cam9'));
      const wrongHls = await add('HLS wrong variant', `${base}/hls/broken.m3u8`);
      await until(async () => (await channel(up)).Online === 1, 15_000, { what: 'the HTTP-FLV channel online' });
      await until(async () => (await channel(rtmpUp)).Online === 1, 15_000, { what: 'the RTMP channel online' });
      for (const d of [down, wrongKey, wrongHls]) await until(async () => (await channel(d)).StatusReason, 15_000, { what: `channel ${d} checked` });
      // The probe's reason, in the answer's language.
      expect(await channel(down)).toMatchObject({ Online: 0, StatusReason: '连接被拒绝' });
      expect(await channel(wrongKey)).toMatchObject({ Online: 0, StatusReason: '服务器上没有这路流（NetStream.Play.StreamNotFound）' });
      expect(await channel(wrongHls)).toMatchObject({ Online: 0, StatusReason: '摄像机回应 404 Not Found' });
    } finally {
      await t.close();
    }
  }, 40_000);

  it('HLS probes that wait for a playlist’s next segment do not hold up the round: with one probe at a time, an FLV channel behind three of them is checked at once', async () => {
    // 2 s segments: each first look at a frozen playlist waits 3 s for a segment that never comes, so
    // an FLV turn held up behind even one of them would come 3.75 s into the round at the earliest.
    const urls = ['a', 'b', 'c'].map((n) => `${base}/hls/frozen/round${n}.m3u8?t=2`).concat(`${base}/live.flv`);
    const targets: CheckTarget[] = urls.map((url, i) => ({ pk: i + 1, deviceId: `d${i + 1}`, channelId: '1', url, username: '', password: '' }));
    const results: { pk: number; ok: boolean; key?: string; at: number }[] = [];
    const checker = new StreamChecker(
      {
        listTargets: async () => targets,
        setOnline: async (pk, ok, why) => (results.push({ pk, ok, key: why?.key, at: Date.now() }), false),
        subscribe: () => () => {},
        probe: probeStream,
        log: { info: () => {}, warn: () => {} },
      },
      { intervalSeconds: 1, concurrency: 1 },
    );
    const started = Date.now();
    checker.start();
    try {
      await until(() => results.some((r) => r.pk === 4), 5000, { what: 'the FLV channel checked' });
      expect(results.find((r) => r.pk === 4)).toMatchObject({ ok: true });
      // Its turn is 750 ms into the round; it waited for no HLS probe (those end 3 s after their start).
      expect(results.find((r) => r.pk === 4)!.at - started).toBeLessThan(2500);
      expect(results.filter((r) => r.pk < 4)).toEqual([]);
      // The HLS ones still end with the right answer.
      await until(() => [1, 2, 3].every((pk) => results.some((r) => r.pk === pk)), 15_000, { what: 'the HLS channels checked' });
      for (const pk of [1, 2, 3]) expect(results.find((r) => r.pk === pk)).toMatchObject({ ok: false, key: 'statusHlsStale' });
    } finally {
      await checker.stop();
    }
  }, 30_000);

  it('a channel whose stream is live is not probed: a source serving one client at a time stays online while it plays', async () => {
    // ffmpeg as an RTMP server takes one client: a probe beside the playing stream was refused, and the
    // channel read offline ("connection refused") while it played.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'one-client-'));
    const clip = path.join(dir, 'clip.flv');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25', '-t', '2', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '25', '-pix_fmt', 'yuv420p', clip]);
    const port = await freePort();
    let ffmpeg: ChildProcess | undefined;
    let stopped = false;
    const serve = () => {
      ffmpeg = spawn('ffmpeg', ['-v', 'error', '-re', '-stream_loop', '-1', '-i', clip, '-c', 'copy', '-f', 'flv', '-listen', '1', `rtmp://127.0.0.1:${port}/live/x`], { stdio: 'ignore' });
      ffmpeg.once('exit', () => {
        if (!stopped) serve();
      });
    };
    serve();
    const t = await startTestApp({ overrides: { channelCheckInterval: 1 } });
    try {
      (t.ctx.streams as unknown as { hubDefaults: Omit<HubOptions, 'onDemand'> }).hubDefaults = { ...DEFAULT_HUB_OPTIONS, graceMs: 60_000, retryMinMs: 300, retryMaxMs: 1000 };
      const token = await initialise(t);
      const add = await t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token }, payload: { DeviceName: 'One client', DeviceType: 'RTSP', RtspUrl: `rtmp://127.0.0.1:${port}/live/x` } });
      expect(add.statusCode, add.body).toBe(200);
      const deviceId = add.json().EasyDarwin.Body.DeviceID as string;
      const device = await t.ctx.db.selectFrom('devices').selectAll().where('device_id', '=', deviceId).executeTakeFirstOrThrow();
      const row = await t.ctx.db.selectFrom('channels').selectAll().where('parent_device_id', '=', deviceId).executeTakeFirstOrThrow();
      const hub = t.ctx.streams.open(device, row, 0)!;
      await until(() => hub.state === 'live', 30_000, { what: 'the stream live' });
      const online = async () =>
        ((await t.app.inject({ url: '/api/v1/channelsconfig', query: { device: deviceId }, headers: { token } })).json().EasyDarwin.Body.Channels[0] as { Online: number }).Online;
      await until(async () => (await online()) === 1, 10_000, { what: 'the channel online' });
      // Several checker rounds while it plays: online throughout.
      const seen = new Set<number>();
      for (let i = 0; i < 20; i++) {
        seen.add(await online());
        await new Promise((r) => setTimeout(r, 150));
      }
      expect(hub.state).toBe('live');
      expect([...seen]).toEqual([1]);
    } finally {
      await t.close();
      stopped = true;
      ffmpeg?.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
