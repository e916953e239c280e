/**
 * The H.264 leg of a recording kept on a GB28181 device, over real SIP and RTP with the TS device
 * double sending H.265 in PS: devices/record/playback recordType=Device answers URLs.WS_FMP4_H264
 * once the device's stream shows H.265 (an H.264 device's answer has none); that socket gets avc1,
 * which ffprobe decodes as H.264 without an error; a seek starts a new run (a second init), 8× sends
 * keyframes only to ffmpeg; the device's end (MediaStatus 121) comes after the last pictures; the
 * socket's close sends the BYE and ends the ffmpeg; legs share the platform's bound (maxTranscodes).
 * A device whose first picture comes after the answer's wait (6 s) still gets the leg: the socket
 * transcodes its H.265 to H.264, and passes an H.264 device's stream through without an ffmpeg; a
 * state message tells the socket which ({transcoded}), once the first track decided it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { sleep, until, type TestApp } from '../helpers/index.js';
import type { GbDevice } from '../fixtures/gb-device.js';
import { CHN, DEV, startRecordsRig } from './records-support.js';
import { serveHistory, type HistoryServing } from '../fixtures/gb-device-records.js';
import { gbRecordsOf } from '../../src/gb/records/index.js';
import { playbackOptions } from '../../src/services/playback/index.js';
import { localStamp } from '../../src/services/recording/time.js';
import { decodeErrors, ffprobeJson, transcoders } from '../playback/support.js';

let t: TestApp;
let admin: string;
let dev: GbDevice;
let history: HistoryServing | undefined;

beforeEach(async () => {
  ({ t, admin, dev } = await startRecordsRig());
});
afterEach(async () => {
  await history?.stop();
  history = undefined;
  await dev?.close();
  await t?.close();
});

const START = new Date(2026, 2, 14, 8, 0, 0);
const api = (url: string, query: Record<string, string> = {}) => t.app.inject({ url, headers: { token: admin }, query });

async function openPlayback(seconds: number) {
  const res = await api('/api/v1/devices/record/playback', { channel: `${DEV}:${CHN}`, stime: localStamp(START), etime: localStamp(new Date(START.getTime() + seconds * 1000)), recordType: 'Device' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body as { URL: string; URLs: Record<string, string>; request_id: string; Source: string };
}

interface Received {
  text: { type: string; state?: string; reason?: string; mime?: string }[];
  binary: Buffer[];
  ws: WebSocket;
  closed: Promise<void>;
}

function view(url: string): Received {
  const ws = new WebSocket(`${t.baseUrl!.replace('http', 'ws')}${url}`);
  const r: Received = { text: [], binary: [], ws, closed: new Promise((resolve) => ws.on('close', () => resolve())) };
  ws.on('message', (data, isBinary) => {
    if (isBinary) r.binary.push(Buffer.from(data as Buffer));
    else r.text.push(JSON.parse(String(data)));
  });
  ws.on('error', () => undefined);
  return r;
}

const fragments = (r: Received) => r.binary.filter((b) => b.toString('latin1', 4, 8) === 'moof').length;
const inits = (r: Received) => r.text.filter((m) => m.type === 'init');

/** What the socket sent from its last init segment on, as a file. */
function lastRun(r: Received, name: string): string {
  const from = r.binary.map((b) => b.toString('latin1', 4, 8)).lastIndexOf('ftyp');
  const file = path.join(t.settings.dataDir, name);
  fs.writeFileSync(file, Buffer.concat(r.binary.slice(from)));
  return file;
}

describe('a device recording in H.265, through the H.264 leg', () => {
  it('the answer offers WS_FMP4_H264; it plays H.264 that ffprobe decodes; seek, 8× keyframes only; the close ends the ffmpeg and the dialog', async () => {
    history = serveHistory(dev, { codec: 'h265' });
    const open = await openPlayback(600);
    expect(open.Source).toBe('Device');
    expect(open.URLs.WS_FMP4).toBe(open.URL);
    expect(open.URLs.WS_FMP4_H264).toBe(open.URL.replace('.mp4?', '_h264.mp4?'));
    const r = view(open.URLs.WS_FMP4_H264);
    await until(() => fragments(r) >= 40, 20000);
    expect(inits(r)).toHaveLength(1);
    expect(inits(r)[0].mime).toMatch(/^video\/mp4; codecs="avc1\.[0-9a-f]{6}"$/);
    const first = lastRun(r, 'device-h264.mp4');
    expect(decodeErrors(first)).toBe('');
    const video = ffprobeJson(first).streams[0];
    expect(video).toMatchObject({ codec_name: 'h264' });
    expect(Number(video.nb_read_frames)).toBeGreaterThan(30);
    expect(transcoders()).toBe(1);
    const session = gbRecordsOf(t.ctx).get(open.request_id)!;
    expect(session.transcoding).toBeDefined();

    // A seek: the device jumps (INFO PLAY Range), the player gets a fresh init, H.264 again.
    const seek = await api('/api/v1/devices/record/playback/control', { request_id: open.request_id, command: 'seek', time: localStamp(new Date(START.getTime() + 120_000)) });
    expect(seek.statusCode, seek.body).toBe(200);
    await until(() => inits(r).length === 2, 10000);
    const atSeek = fragments(r);
    await until(() => fragments(r) >= atSeek + 20, 20000);
    expect(inits(r)[1].mime).toMatch(/^video\/mp4; codecs="avc1\./);
    expect(decodeErrors(lastRun(r, 'device-seek.mp4'))).toBe('');

    // 8×: the device sends 8× faster; only its keyframes reach ffmpeg.
    const fast = await api('/api/v1/playbackspeed', { request_id: open.request_id, speed: '8' });
    expect(fast.statusCode, fast.body).toBe(200);
    await until(() => session.transcoding!.keyframesOnly > 20, 15000);

    r.ws.close();
    await until(() => history!.sessions[0].byeReceived, 5000);
    await until(() => transcoders() === 0, 10000);
    expect(gbRecordsOf(t.ctx).get(open.request_id)).toBeUndefined();
  }, 90000);

  it('the device’s end (MediaStatus 121) reaches the player after the last H.264 pictures', async () => {
    history = serveHistory(dev, { codec: 'h265' });
    const open = await openPlayback(3);
    const r = view(open.URLs.WS_FMP4_H264);
    await r.closed;
    expect(history.sessions[0].mediaStatusSent).toBe(true);
    expect(r.text.at(-1)).toMatchObject({ type: 'state', state: 'ended', reason: '录像已到结尾（设备发送 MediaStatus 121）' });
    const file = lastRun(r, 'device-end.mp4');
    expect(decodeErrors(file)).toBe('');
    // 3 s at 25 fps: every picture the device sent, ffmpeg's last ones included.
    expect(Number(ffprobeJson(file).streams[0].nb_read_frames)).toBeGreaterThanOrEqual(70);
  }, 60000);

  it('an H.264 device recording has no H.264 leg; the plain URL of an H.265 one still sends H.265', async () => {
    history = serveHistory(dev);
    const plain = await openPlayback(600);
    expect(plain.URLs.WS_FMP4_H264).toBeUndefined();
    await history.stop();
    history = serveHistory(dev, { codec: 'h265' });
    const hevc = await openPlayback(600);
    const r = view(hevc.URL);
    await until(() => inits(r).length === 1, 10000);
    expect(inits(r)[0].mime).toMatch(/hvc1|hev1/);
    r.ws.close();
    await sleep(200);
  }, 60000);

  it('device legs count against maxTranscodes with the platform’s: past it, the socket is told why and closed', async () => {
    playbackOptions.set(t.ctx, { maxTranscodes: 1 });
    history = serveHistory(dev, { codec: 'h265' });
    const a = await openPlayback(600);
    const b = await openPlayback(600);
    const ra = view(a.URLs.WS_FMP4_H264);
    await until(() => inits(ra).length === 1, 15000);
    const rb = view(b.URLs.WS_FMP4_H264);
    await rb.closed;
    expect(rb.text).toEqual([{ type: 'state', state: 'stopped', reason: '同时转码为 H.264 的回放已达上限（1 路），请稍后再试，或下载录像用本地播放器观看' }]);
    expect(rb.binary).toHaveLength(0);
    ra.ws.close();
    await until(() => transcoders() === 0, 10000);
  }, 60000);
});

describe('a device slow to send its first picture (after the answer’s 4 s wait for the codec)', () => {
  // The default AckTimeout (10 s) for the first RTP packet, not the rig's short one.
  beforeEach(async () => void (await t.ctx.config.set('gb', { AckTimeout: 10 })));

  it('H.265 after 6 s: the answer offers WS_FMP4_H264 anyway; that socket plays H.264 that ffprobe decodes', async () => {
    history = serveHistory(dev, { codec: 'h265', firstPictureDelayMs: 6000 });
    const open = await openPlayback(600);
    expect(open.URLs.WS_FMP4_H264).toBe(open.URL.replace('.mp4?', '_h264.mp4?'));
    const asked = Date.now();
    const r = view(open.URLs.WS_FMP4_H264);
    await until(() => fragments(r) >= 40, 30000);
    expect(history.sessions[0].sender.sent[0].at - asked).toBeGreaterThan(1000);
    expect(inits(r)).toHaveLength(1);
    expect(inits(r)[0].mime).toMatch(/^video\/mp4; codecs="avc1\.[0-9a-f]{6}"$/);
    const file = lastRun(r, 'slow-device-h264.mp4');
    expect(decodeErrors(file)).toBe('');
    const video = ffprobeJson(file).streams[0];
    expect(video).toMatchObject({ codec_name: 'h264' });
    expect(Number(video.nb_read_frames)).toBeGreaterThan(30);
    expect(transcoders()).toBe(1);
    // The socket is told the server transcodes once it knows (the page's note).
    expect(r.text.filter((m) => 'transcoded' in m)).toEqual([expect.objectContaining({ type: 'state', state: 'playing', transcoded: true })]);
    r.ws.close();
    await until(() => transcoders() === 0, 10000);
  }, 60000);

  it('H.264 after 6 s: the same leg passes the device’s H.264 through (no ffmpeg); the bound does not apply', async () => {
    playbackOptions.set(t.ctx, { maxTranscodes: 0 });
    history = serveHistory(dev, { firstPictureDelayMs: 6000 });
    const open = await openPlayback(600);
    expect(open.URLs.WS_FMP4_H264).toBeDefined();
    const r = view(open.URLs.WS_FMP4_H264);
    await until(() => fragments(r) >= 12, 30000);
    expect(inits(r)).toHaveLength(1);
    expect(inits(r)[0].mime).toMatch(/^video\/mp4; codecs="avc1\./);
    expect(r.text.some((m) => m.state === 'stopped')).toBe(false);
    const file = lastRun(r, 'slow-device-plain.mp4');
    expect(decodeErrors(file)).toBe('');
    expect(ffprobeJson(file).streams[0]).toMatchObject({ codec_name: 'h264' });
    expect(transcoders()).toBe(0);
    expect(gbRecordsOf(t.ctx).get(open.request_id)!.transcoding).toBeUndefined();
    expect(r.text.filter((m) => 'transcoded' in m)).toEqual([expect.objectContaining({ type: 'state', state: 'playing', transcoded: false })]);
    r.ws.close();
    await sleep(200);
  }, 60000);
});
