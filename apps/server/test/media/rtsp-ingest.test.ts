/**
 * RTSP ingest beyond the TCP default: RTP over UDP from the GStreamer camera (chosen by the channel's
 * Transport), the fall-back to TCP when a camera answers 461 Unsupported Transport, and a camera that
 * sends garbage and broken RTP: the server stays up, that hub goes retrying with a reason, and
 * another camera's stream keeps playing.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isH264Vcl, splitAnnexB, type AccessUnit, type Track } from '@opencvr/codec';
import { H264Packetiser } from '@opencvr/rtp';
import { RtspSource } from '../../src/media/ingest/rtsp-source.js';
import { startTestApp, until } from '../helpers/index.js';
import { initialise } from '../api/support.js';
import { startCamera } from '../fixtures/camera.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

function collector() {
  const got = { tracks: [] as Track[], units: [] as AccessUnit[], failures: [] as string[] };
  return { got, sink: { tracks: (t: Track[]) => (got.tracks = t), unit: (_i: number, u: AccessUnit) => got.units.push(u), failed: (r: string) => got.failures.push(r) } };
}

// x264 baseline 176x144 at 15 fps (packages/codec/test/fixtures, made by its make.sh)
const nalus = splitAnnexB(new Uint8Array(fs.readFileSync(path.join(import.meta.dirname, '../../../../packages/codec/test/fixtures/h264-baseline-176x144.h264'))));
const sps = nalus.find((n) => (n[0] & 0x1f) === 7)!;
const pps = nalus.find((n) => (n[0] & 0x1f) === 8)!;
const pictures: Uint8Array[][] = [];
for (let cur: Uint8Array[] = [], i = 0; i < nalus.length; i++) {
  cur.push(nalus[i]);
  if (isH264Vcl(nalus[i])) {
    pictures.push(cur);
    cur = [];
  }
}

type Mode = 'tcp-only' | 'garbage' | 'malformed' | 'stops';
/**
 * A fake RTSP camera: DESCRIBE with an H.264 SDP, SETUP (461 to UDP), PLAY, then interleaved RTP of the
 * fixture; in 'garbage' mode truncated and garbled RTP first, then bytes that are not RTSP at all; in
 * 'malformed' mode only RTP that does not parse, for ever; in 'stops' mode the fixture's pictures for
 * `sendMs`, then nothing with the connection left open (the media stopped, the camera still answers).
 */
async function fakeCamera(mode: Mode, sendMs = Infinity) {
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => undefined);
    let buf = '';
    let timer: NodeJS.Timeout | undefined;
    sock.on('close', () => clearInterval(timer));
    sock.on('data', (d) => {
      buf += d.toString('latin1');
      for (let end = buf.indexOf('\r\n\r\n'); end >= 0; end = buf.indexOf('\r\n\r\n')) {
        const req = buf.slice(0, end);
        buf = buf.slice(end + 4);
        requests.push(req.split('\r\n')[0] + (/Transport: (.*)/.exec(req)?.[1] ? ` [${/Transport: (.*)/.exec(req)![1]}]` : ''));
        const cseq = /CSeq: (\d+)/i.exec(req)?.[1] ?? '0';
        const method = req.split(' ')[0];
        const reply = (status: string, headers: string[] = [], body = '') =>
          sock.write([`RTSP/1.0 ${status}`, `CSeq: ${cseq}`, ...headers, ...(body ? [`Content-Length: ${Buffer.byteLength(body)}`] : []), '', body].join('\r\n'));
        if (method === 'OPTIONS' || method === 'GET_PARAMETER' || method === 'TEARDOWN') reply('200 OK');
        else if (method === 'DESCRIBE') {
          const sdp = [
            'v=0', 'o=- 1 1 IN IP4 127.0.0.1', 's=fake', 't=0 0', 'm=video 0 RTP/AVP 96', 'a=rtpmap:96 H264/90000',
            `a=fmtp:96 packetization-mode=1;sprop-parameter-sets=${Buffer.from(sps).toString('base64')},${Buffer.from(pps).toString('base64')}`,
            'a=control:track1', '',
          ].join('\r\n');
          reply('200 OK', ['Content-Type: application/sdp', `Content-Base: rtsp://127.0.0.1:${port}/cam/`], sdp);
        } else if (method === 'SETUP') {
          if (/client_port/.test(req)) reply('461 Unsupported Transport');
          else reply('200 OK', ['Session: 12345678;timeout=60', 'Transport: RTP/AVP/TCP;unicast;interleaved=0-1']);
        } else if (method === 'PLAY') {
          reply('200 OK', ['Session: 12345678']);
          const frame = (rtp: Uint8Array, channel = 0) => Buffer.concat([Buffer.from([0x24, channel, rtp.length >> 8, rtp.length & 0xff]), rtp]);
          const pk = new H264Packetiser({ maxPayload: 1000 });
          let i = 0;
          const playedAt = Date.now();
          timer = setInterval(() => {
            if (mode === 'malformed') {
              sock.write(frame(Uint8Array.of(0x80, 0x60, 0, 1)));
              sock.write(frame(Uint8Array.of(0x8f, 0x60, 0, 3, 0, 0, 0, 0, 0, 0, 0, 1)));
              return;
            }
            if (mode === 'stops' && Date.now() - playedAt >= sendMs) {
              stopped = true;
              return;
            }
            if (mode === 'garbage') {
              if (i < 10) {
                // truncated header, bad version, a header with a CSRC count past the end, garbled payloads
                sock.write(frame(Uint8Array.of(0x80, 0x60, 0, 1)));
                sock.write(frame(Uint8Array.of(0x00, 0x60, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0x65)));
                sock.write(frame(Uint8Array.of(0x8f, 0x60, 0, 3, 0, 0, 0, 0, 0, 0, 0, 1)));
                sock.write(frame(Uint8Array.of(0x80, 0x60, 0, 4, 0, 0, 0, 0, 0, 0, 0, 1, 0x00, 0xff)));
                sock.write(frame(Uint8Array.of(0x80, 0x60, 0, 5, 0, 0, 0, 0, 0, 0, 0, 1, 0x7c, 0x05, 1, 2, 3)));
                sock.write(frame(Uint8Array.of(0x80, 0x60, 0, 6, 0, 0, 0, 0, 0, 0, 0, 1, 0x78, 0x00, 0x40, 1)));
                sock.write(frame(Uint8Array.of(1, 2, 3), 7)); // a channel nobody set up
              } else {
                sock.write(Buffer.from('\x00\xff garbage that is neither RTSP nor interleaved data \x13\x37\r\n\r\n'));
              }
              i++;
              return;
            }
            const p = pictures[i++ % pictures.length];
            for (const b of pk.serialize(p, i * 6000)) sock.write(frame(b));
            lastSentAt = Date.now();
          }, 20);
        } else reply('405 Method Not Allowed');
      }
    });
  });
  /**
   * 'stops': when it last sent a picture, once it has stopped. The time of that write, not of the
   * tick that found the sending time over: on a loaded machine that tick came 100 ms late and the
   * watchdog seemed to end the session 401 ms after the media stopped.
   */
  let lastSentAt = 0;
  let stopped = false;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  cleanup.push(
    () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  );
  return { url: `rtsp://127.0.0.1:${port}/cam`, requests, stoppedAt: () => (stopped ? lastSentAt : 0) };
}

describe('RTSP over UDP', () => {
  it('the GStreamer camera over UDP: client_port SETUP, pictures from the camera\'s address, keyframes', async () => {
    const cam = await startCamera();
    cleanup.push(() => cam.stop());
    // A short no-media timeout: the datagrams keep the watchdog pushed back (from the reorder buffer's drain).
    const src = new RtspSource(cam.url, { transport: 'udp', udpPorts: { min: 41000, max: 41999 }, mediaTimeoutMs: 500 });
    cleanup.push(() => src.stop());
    const { got, sink } = collector();
    src.start(sink);
    await until(() => got.units.filter((u) => u.kind === 'video' && u.keyframe).length >= 2, 15000);
    expect(src.transport).toBe('udp');
    expect(src.stats.udpPackets).toBeGreaterThan(10);
    expect(src.stats.badPackets).toBe(0);
    expect(got.tracks[0]).toMatchObject({ kind: 'video', codec: 'h264', width: 320, height: 240 });
    const video = got.units.filter((u) => u.kind === 'video');
    expect(video.some((u) => u.kind === 'video' && u.damaged)).toBe(false);
    // in order, 1/15 s apart
    expect(video.slice(1, 10).every((u, i) => u.pts - video[i].pts === 6000)).toBe(true);
    expect(got.failures).toEqual([]);
  });

  it('audio switched off (the channel\'s EnableAudio): only the video track is set up', async () => {
    const cam = await startCamera({ audio: 'aac' });
    cleanup.push(() => cam.stop());
    for (const audio of [true, false]) {
      const src = new RtspSource(cam.url, { audio });
      cleanup.push(() => src.stop());
      const { got, sink } = collector();
      src.start(sink);
      await until(() => got.units.filter((u) => u.kind === 'video').length >= 5 && (!audio || got.units.some((u) => u.kind === 'audio')), 15000);
      expect(got.tracks.map((x) => x.kind), `audio ${audio}`).toEqual(audio ? ['video', 'audio'] : ['video']);
      if (!audio) expect(got.units.some((u) => u.kind === 'audio')).toBe(false);
      src.stop();
    }
  });

  it('a channel with Transport UDP plays through the hub over UDP', async () => {
    const cam = await startCamera();
    cleanup.push(() => cam.stop());
    const t = await startTestApp();
    cleanup.push(() => t.close());
    const admin = await initialise(t);
    const add = await t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token: admin }, payload: { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: cam.url } });
    const dev = add.json().EasyDarwin.Body.DeviceID as string;
    const edit = await t.app.inject({ method: 'POST', url: '/api/v1/editchannel', headers: { token: admin }, payload: { DeviceID: dev, ChannelID: '1', Transport: 'UDP' } });
    expect(edit.statusCode, edit.body).toBe(200);
    const body = (await t.app.inject({ url: `/api/v1/devices/channelstream?device=${dev}&channel=1`, headers: { token: admin } })).json().EasyDarwin.Body;
    const hub = t.ctx.streams.get(body.Stream)!;
    let units = 0;
    const off = hub.subscribe({ tracks: () => undefined, unit: () => units++ });
    cleanup.push(off);
    await until(() => units >= 20, 15000);
    expect(hub.state).toBe('live');
  });

  it('falls back to TCP when the camera answers 461 Unsupported Transport', async () => {
    const fake = await fakeCamera('tcp-only');
    const src = new RtspSource(fake.url, { transport: 'udp', udpPorts: { min: 42000, max: 42999 } });
    cleanup.push(() => src.stop());
    const { got, sink } = collector();
    src.start(sink);
    await until(() => got.units.length >= 20, 10000);
    expect(src.transport).toBe('tcp');
    const setups = fake.requests.filter((r) => r.startsWith('SETUP'));
    expect(setups[0]).toMatch(/RTP\/AVP;unicast;client_port=42\d\d\d-42\d\d\d/);
    expect(setups[1]).toMatch(/RTP\/AVP\/TCP;unicast;interleaved=0-1/);
    expect(got.tracks[0]).toMatchObject({ codec: 'h264', width: 176, height: 144 });
    expect(got.units.filter((u) => u.kind === 'video' && u.keyframe).length).toBeGreaterThanOrEqual(1);
    expect(got.failures).toEqual([]);
  });
});

describe('the no-media watchdog', () => {
  it('a session whose media flows for several mediaTimeoutMs is kept; once the media stops it ends after mediaTimeoutMs', async () => {
    const fake = await fakeCamera('stops', 2000);
    const src = new RtspSource(fake.url, { mediaTimeoutMs: 500 });
    cleanup.push(() => src.stop());
    const { got, sink } = collector();
    src.start(sink);
    await until(() => got.failures.length, 10000);
    const endedAt = Date.now();
    expect(got.failures).toEqual(['no media for 1 s']);
    // Not before the camera went quiet, nor before mediaTimeoutMs after it.
    expect(fake.stoppedAt()).toBeGreaterThan(0);
    expect(endedAt - fake.stoppedAt()).toBeGreaterThanOrEqual(500 - 20);
    // 2 s of the camera's 50 pictures a second were taken in.
    expect(got.units.length).toBeGreaterThan(50);
  });

  it('RTP that never parses is no media: the session ends', async () => {
    const fake = await fakeCamera('malformed');
    const src = new RtspSource(fake.url, { mediaTimeoutMs: 500 });
    cleanup.push(() => src.stop());
    const { got, sink } = collector();
    src.start(sink);
    await until(() => got.failures.length, 10000);
    expect(got.failures).toEqual(['no media for 1 s']);
    expect(got.units).toEqual([]);
    expect(src.stats.badPackets).toBeGreaterThan(0);
  });
});

describe('a camera sending malformed RTP', () => {
  it('the server stays up, that hub retries with a reason, another camera keeps playing', async () => {
    const fake = await fakeCamera('garbage');
    const cam = await startCamera();
    cleanup.push(() => cam.stop());
    const t = await startTestApp();
    cleanup.push(() => t.close());
    const admin = await initialise(t);
    const open = async (url: string) => {
      const add = await t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token: admin }, payload: { DeviceName: url.slice(-12), DeviceType: 'RTSP', RtspUrl: url } });
      const dev = add.json().EasyDarwin.Body.DeviceID as string;
      const res = await t.app.inject({ url: `/api/v1/devices/channelstream?device=${dev}&channel=1`, headers: { token: admin } });
      return t.ctx.streams.get(res.json().EasyDarwin.Body.Stream)!;
    };
    const good = await open(cam.url);
    const bad = await open(fake.url);
    let goodUnits = 0;
    cleanup.push(good.subscribe({ tracks: () => undefined, unit: () => goodUnits++ }));
    const states: string[] = [];
    cleanup.push(bad.subscribe({ tracks: () => undefined, unit: () => undefined, state: (s, r) => states.push(`${s}:${r}`) }));

    await until(() => bad.state === 'retrying', 10000);
    expect(bad.reason).toMatch(/^bad data from the camera: /);
    expect(bad.stats.units).toBe(0);
    expect(states.some((s) => s.startsWith('retrying:bad data'))).toBe(true);
    // the good camera plays on, and keeps playing while the bad one is retried
    await until(() => goodUnits >= 10 && good.state === 'live', 15000);
    const before = goodUnits;
    await until(() => fake.requests.filter((r) => r.startsWith('DESCRIBE')).length >= 2, 10000);
    await until(() => goodUnits > before + 5, 5000);
    expect(good.state).toBe('live');
    // the server answers
    expect((await t.app.inject({ url: '/api/v1/getserverinfo', headers: { token: admin } })).statusCode).toBeLessThan(500);
  }, 60000);
});
