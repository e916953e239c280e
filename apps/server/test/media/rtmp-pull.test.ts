/**
 * rtmp:// channels play through the server's own RTMP client (rtmp-source.ts), against real peers on
 * loopback: ffmpeg as the RTMP server (`-listen 1`, H.264 + AAC) and the RTMP server double
 * (fixtures/rtmp-server.ts) for what ffmpeg's server does not do: logins (Adobe, Limelight), keys it
 * does not have, H.265 (ffmpeg 5.1 cannot send it over RTMP; the double sends the hub's own FLV
 * muxer's enhanced and codec-id-12 tags) and messages that cannot be read. A WS-fMP4 viewer gets the
 * stream, which ffprobe reads; no ffmpeg runs for the channel; the server going away puts the stream
 * in `retrying` with a reason, and it comes back with the server. Audio the hub does not carry (MP3...):
 * rtmp-pull-audio.test.ts.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FlvMuxer, readFlv, type FlvTagView, type HevcMode } from '@opencvr/flv';
import { Fmp4StreamReader } from '@opencvr/fmp4';
import type { StreamHub } from '../../src/media/hub.js';
import { RtmpPullSource } from '../../src/media/ingest/rtmp-source.js';
import { useAdminApp } from '../api/admin-app.js';
import { setRtmpsTrust } from '../../src/access/rtmp/tls-connect.js';
import { startRtmpServer, type RtmpServerDouble } from '../fixtures/rtmp-server.js';
import { makeTestCerts } from '../fixtures/tls-certs.js';
import { freePort } from '../fixtures/camera.js';
import { ffmpegRtmpListen } from '../fixtures/ffmpeg-rtmp-listen.js';
import { collectWs, until } from '../helpers/index.js';
import { addPulledDevice, playWsFmp4 } from './open-stream.js';

const api = useAdminApp({ listen: true });
let dir: string;
const stops: (() => Promise<unknown>)[] = [];
const FIXTURE = new URL('../fixtures/rtmp/h264-aac.flv', import.meta.url);
/** The fixture's tags (onMetaData, sequence headers, 1 s of H.264 + AAC). */
const fixtureTags = () => readFlv(new Uint8Array(fs.readFileSync(FIXTURE))).tags;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rtmp-pull-'));
  // 4 s of H.264 + AAC, keyframe every second, for ffmpeg to serve in a loop.
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '4', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '25', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k', path.join(dir, 'clip.flv')]); // prettier-ignore
});
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** ffmpeg as an RTMP server of a clip of `dir` (fixtures/ffmpeg-rtmp-listen.ts), stopped after the test. */
function ffmpegServer(port: number) {
  const server = ffmpegRtmpListen(path.join(dir, 'clip.flv'), port);
  stops.push(server.stop);
  return server;
}

async function double(o: Parameters<typeof startRtmpServer>[0]): Promise<RtmpServerDouble> {
  const d = await startRtmpServer(o);
  stops.push(() => d.close());
  return d;
}

let added = 0;
/** A channel with `url` (and credentials), opened over WS-fMP4: its hub and the viewer's URL. */
async function openChannel(url: string, extra: Record<string, string> = {}) {
  const played = await playWsFmp4(api, await addPulledDevice(api, `RTMP ${++added}`, url, extra));
  stops.push(async () => played.hub.stop());
  return played;
}

const sourceOf = (hub: StreamHub) => (hub as unknown as { source?: unknown }).source;

/** What ffprobe reads in a WS-fMP4 viewer's first `n` messages: codec names, in order. */
async function probeViewer(wsUrl: string, n: number): Promise<string[]> {
  const got = await collectWs(wsUrl, (b) => b.length > n, 40_000);
  expect(got.binary.length).toBeGreaterThan(n);
  const file = path.join(dir, `view-${Date.now()}.mp4`);
  fs.writeFileSync(file, Buffer.concat(got.binary));
  const out = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', file], { encoding: 'utf8' });
  return out.trim().split('\n');
}

/** ffmpeg processes started by this test process that pull (their input is the pull source's pipe). */
function pullingFfmpegs(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === process.pid && fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('pipe:0');
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The H.265 fixture's units as FLV tags in one of the two H.265 layouts. */
function hevcTags(mode: HevcMode): FlvTagView[] {
  const events = new Fmp4StreamReader().push(fs.readFileSync(new URL('../../../../packages/fmp4/test/fixtures/live-h265.mp4', import.meta.url)));
  const init = events[0];
  if (init.type !== 'init') throw new Error('fixture without init');
  const mux = new FlvMuxer([init.tracks[0].track], { hevc: mode });
  return readFlv(Buffer.concat([mux.header(), ...events.flatMap((e) => (e.type === 'unit' ? mux.push(e.unit, 0) : []))])).tags;
}

describe('rtmp:// channels through the native RTMP client', () => {
  it('H.264 + AAC from ffmpeg’s RTMP server plays to a WS-fMP4 viewer without an ffmpeg of ours; the server going and coming back is followed', async () => {
    const port = await freePort();
    const server = ffmpegServer(port);
    const { hub, wsUrl } = await openChannel(`rtmp://127.0.0.1:${port}/live/x`);
    await until(() => hub.state === 'live', 20_000, { what: 'the RTMP stream live' });
    expect(sourceOf(hub)).toBeInstanceOf(RtmpPullSource);
    expect((sourceOf(hub) as RtmpPullSource).audioEncoderPid).toBeUndefined();
    expect(hub.tracks.map((t) => `${t.kind}:${t.codec}`)).toEqual(['video:h264', 'audio:aac']);
    expect(hub.tracks[0]).toMatchObject({ width: 320, height: 240 });
    expect(hub.tracks[1]).toMatchObject({ sampleRate: 48000 });
    expect(await probeViewer(wsUrl, 20)).toEqual(['h264', 'aac']);
    expect(pullingFfmpegs()).toEqual([]);

    // The server goes: the hub says why, and retries.
    await server.stop();
    await until(() => hub.state === 'retrying' && hub.why, 20_000, { what: 'the hub retrying' });
    expect(['streamEnded', 'streamClosed', 'streamRefused']).toContain(hub.why!.key);
    await until(() => hub.why?.key === 'streamRefused', 20_000, { what: 'a refused reconnect' });
    expect(hub.reason).toBe('connection refused');

    // It comes back: so does the stream.
    ffmpegServer(port);
    await until(() => hub.state === 'live', 30_000, { what: 'the RTMP stream live again' });
    expect(hub.stats.restarts).toBeGreaterThan(0);
    expect(await probeViewer(wsUrl, 10)).toContain('h264');
    expect(pullingFfmpegs()).toEqual([]);
  }, 120_000);

  it.each([
    ['adobe', 'adobeAuth'],
    ['llnw', 'llnwAuth'],
  ] as const)('a password with slash, question mark, hash, percent, plus and space logs in (%s), from the channel’s fields and from the address', async (_method, option) => {
    const password = 'p/a?s#s%w+o rd';
    const server = await double({ app: 'live', published: ['cam'], [option]: { user: 'viewer', password }, stream: fixtureTags() });
    const fields = await openChannel(server.url('live/cam'), { DeviceUserName: 'viewer', DeviceUserPW: password });
    await until(() => fields.hub.tracks.length === 2, 15_000, { what: `live with the channel's credentials (${fields.hub.reason})` });
    expect(server.connects.at(-1)).toMatch(/&response=/);
    expect(server.plays).toContain('cam');
    // The same password percent-encoded in the address.
    const inUrl = server.url('live/cam').replace('rtmp://', `rtmp://viewer:${encodeURIComponent(password)}@`);
    const address = await openChannel(inUrl);
    await until(() => address.hub.tracks.length === 2, 15_000, { what: `live with the address's credentials (${address.hub.reason})` });
    // Nothing secret in what the hub says (its reasons are shown to users and logged).
    expect(JSON.stringify([fields.hub.reason, address.hub.reason])).not.toMatch(/p\/a|s%w|o rd/);
  }, 60_000);

  it('a wrong password, no credentials and a wrong key each fail with their reason', async () => {
    const server = await double({ app: 'live', published: ['cam'], adobeAuth: { user: 'viewer', password: 'right' }, stream: fixtureTags() });
    const wrong = await openChannel(server.url('live/cam'), { DeviceUserName: 'viewer', DeviceUserPW: 'wrong' });
    await until(() => wrong.hub.why, 15_000);
    expect(wrong.hub.why).toEqual({ key: 'statusRtmpAuthFailed', vars: { method: 'adobe' } });
    expect(wrong.hub.reason).not.toMatch(/wrong/);
    const none = await openChannel(server.url('live/cam'));
    await until(() => none.hub.why, 15_000);
    expect(none.hub.why).toEqual({ key: 'statusRtmpAuthRequired', vars: { method: 'adobe' } });

    const open = await double({ app: 'live', published: ['cam'], stream: fixtureTags() });
    const key = await openChannel(open.url('live/other'));
    await until(() => key.hub.why, 15_000);
    expect(key.hub.why).toEqual({ key: 'statusNoSuchStream', vars: { code: 'NetStream.Play.StreamNotFound' } });
    expect(key.hub.state).toBe('retrying');
  }, 60_000);

  it.each(['enhanced', 'codec-id-12'] as const)('H.265 sent as %s RTMP plays as H.265 to a WS-fMP4 viewer', async (mode) => {
    const server = await double({ app: 'live', published: ['hevc'], stream: hevcTags(mode) });
    const { hub, wsUrl } = await openChannel(server.url('live/hevc'));
    await until(() => hub.tracks.length > 0, 15_000, { what: `H.265 tracks (${hub.reason})` });
    expect(hub.tracks[0]).toMatchObject({ codec: 'h265', width: 160, height: 120 });
    // The double sends its 25 pictures once, at once: a viewer gets them from the hub's GOP (init and one fragment).
    expect(await probeViewer(wsUrl, 1)).toEqual(['hevc']);
  }, 60_000);

  it('messages that cannot be read are dropped: the server does not fall over and the readable stream around them plays', async () => {
    const tags = fixtureTags();
    const junk = (timestamp: number, type: number, data: number[]) => ({ type, timestamp, offset: 0, previousTagSize: 0, data: Uint8Array.from(data) });
    const stream = [
      junk(0, 9, [0x17, 0, 0, 0, 0, 1, 0x64]), // a sequence header cut inside its record
      ...tags.slice(0, 4),
      junk(0, 9, [0x27, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 1]), // a NAL length past the end
      junk(0, 8, [0xaf]), // AAC without its packet type
      junk(0, 18, [0x02, 0x00, 0xff]), // a data message that is not AMF0
      ...tags.slice(4),
    ];
    const server = await double({ app: 'live', published: ['cam'], stream });
    const { hub } = await openChannel(server.url('live/cam'));
    await until(() => hub.tracks.length === 2, 15_000, { what: `tracks (${hub.reason})` });
    await until(() => hub.stats.units > 40, 15_000, { what: 'the units' });
    const source = sourceOf(hub) as RtmpPullSource;
    expect(source.stats.malformed).toBe(4);
    expect(hub.state).toBe('live');
  }, 60_000);

  it('a stream that ends (NetStream.Play.UnpublishNotify) fails the source with streamEnded, and the hub plays it again', async () => {
    const server = await double({ app: 'live', published: ['cam'], stream: fixtureTags(), streamEnd: 'NetStream.Play.UnpublishNotify' });
    const { hub } = await openChannel(server.url('live/cam'));
    await until(() => hub.why?.key === 'streamEnded', 15_000, { what: `the end (${hub.reason})` });
    expect(hub.reason).toBe('the stream ended (NetStream.Play.UnpublishNotify)');
    await until(() => server.plays.length >= 2, 15_000, { what: 'the hub playing it again' });
  }, 60_000);

  it('a key that is played but sends nothing fails after mediaTimeoutMs with streamNoMedia', async () => {
    const server = await double({ app: 'live', published: [], idle: ['quiet'] });
    const source = new RtmpPullSource(server.url('live/quiet'), { mediaTimeoutMs: 1500 });
    stops.push(async () => source.stop());
    const failed = await new Promise<{ words: string; key?: string }>((resolve) =>
      source.start({ tracks: () => undefined, unit: () => undefined, failed: (words, why) => resolve({ words, key: why?.key }) }),
    );
    expect(failed).toEqual({ words: 'no media for 2 s', key: 'streamNoMedia' });
  }, 30_000);

  it('a publisher restarting behind the server (times back to 0 on the same play) and a 32-bit wrap: every unit comes, each track’s times only go forward', async () => {
    const tags = fixtureTags();
    const media = tags.filter((t) => t.type !== 18);
    // The clip, the clip again from 0 (a restarted publisher: sequence headers and times anew), then near 2^32 and wrapping.
    const wrapAt = 0xffffffff - 500;
    const stream = [...tags, ...media, ...media.map((t) => ({ ...t, timestamp: (wrapAt + t.timestamp) >>> 0 }))];
    const server = await double({ app: 'live', published: ['cam'], stream });
    const source = new RtmpPullSource(server.url('live/cam'));
    stops.push(async () => source.stop());
    const units: { track: number; time: number }[] = [];
    const expected = media.filter((t) => t.data[1] === 1).length * 3;
    await new Promise<void>((resolve, reject) => {
      source.start({
        tracks: () => undefined,
        unit: (track, u) => {
          units.push({ track, time: u.kind === 'video' ? u.dts : u.pts });
          if (units.length === expected) resolve();
        },
        failed: (words) => reject(new Error(words)),
      });
    });
    for (const track of [0, 1]) {
      const times = units.filter((u) => u.track === track).map((u) => u.time);
      expect(times.length).toBeGreaterThan(20);
      expect(times.slice(1).every((t, i) => t > times[i])).toBe(true);
    }
    expect(source.stats.malformed).toBe(0);
  }, 30_000);

  it('rtmps:// plays from a server whose certificate is trusted (RTMPS_CA_FILE); a self-signed one is refused with its reason', async () => {
    const certs = makeTestCerts();
    stops.push(async () => {
      setRtmpsTrust({});
      certs.remove();
    });
    setRtmpsTrust({ caFile: certs.caFile });
    const run = (url: string) => {
      const source = new RtmpPullSource(url);
      stops.push(async () => source.stop());
      return new Promise<string>((resolve) =>
        source.start({ tracks: (t) => resolve(t.map((x) => x.codec).join('+')), unit: () => undefined, failed: (words, why) => resolve(`failed: ${why?.key}`) }),
      );
    };
    const trusted = await double({ app: 'live', published: ['cam'], tls: certs.leaf, stream: fixtureTags() });
    expect(await run(trusted.url('live/cam'))).toBe('h264+aac');
    const selfSigned = await double({ app: 'live', published: ['cam'], tls: certs.selfSigned, stream: fixtureTags() });
    expect(await run(selfSigned.url('live/cam'))).toBe('failed: tlsCertSelfSigned');
    expect(selfSigned.plays).toEqual([]);
  }, 30_000);
});
