/**
 * A recording that starts H.264 and turns H.265 (a camera switched codec), on the plain URL (its
 * second init continues the timeline) and through the H.264 leg: the two GStreamer cameras (H.264+AAC, H.265+AAC, same size) recorded at once, then the index made one
 * channel's recording: the H.264 camera's first segments, the H.265 camera's after them. The answer
 * offers WS_FMP4_H264 although the range starts H.264; the leg sends one init (avc1+mp4a) and H.264
 * throughout, decoded by ffmpeg without an error, its picture times running on across the change
 * with no gap (ffprobe of what the socket sent), through two ffmpeg runs (one per part); a pause
 * before the change and the resume keep it so; a seek into the H.265 part starts a new run (H.264).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, startTestApp, until, type TestApp } from '../helpers/index.js';
import { startCamera } from '../fixtures/camera.js';
import { playbackOf } from '../../src/services/playback/index.js';
import { decodeErrors, ffprobeJson, playWs, recordSpliced, stampOf } from './support.js';

let t: TestApp;
let admin: string;
let dev: string;
let tmp: string;
/** Wall clock: the H.264 part [from, change), the H.265 part [resume, to) (the hole between is skipped). */
let range: { from: number; change: number; resume: number; to: number };

beforeAll(async () => {
  const avc = await startCamera({ codec: 'h264', audio: 'aac' });
  const hevc = await startCamera({ codec: 'h265', audio: 'aac' });
  t = await startTestApp({ listen: true });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'playback-codec-change-'));
  ({ admin, dev, range } = await recordSpliced(t, avc, hevc, 'Cam H.265'));
}, 120000);
afterAll(async () => {
  await t?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const get = (url: string) => t.app.inject({ url, headers: { token: admin } });

async function openPlayback(fromMs: number, toMs: number) {
  const res = await get(`/api/v1/devices/record/playback?channel=${dev}:1&stime=${stampOf(fromMs)}&etime=${stampOf(toMs)}&protocol=ws_m4s`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body as { URL: string; URLs: Record<string, string>; request_id: string };
}

/** Presentation times (s) of the video frames ffprobe reads in `file`, in order. */
function videoTimes(file: string): number[] {
  const out = execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'frame=pts_time', '-of', 'csv=p=0', file], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => Number.parseFloat(l))
    .filter((n) => Number.isFinite(n));
}

// The tests only read the recording made above, each in its own session (and H.264 leg, 3 of the
// 4 legs maxTranscodes allows), so they play it at once rather than one after the other in real time.
describe.concurrent('H.264 then H.265 in one range, over the H.264 leg', () => {
  it('the plain URL sends the recording as stored: an avc1 init, then an hvc1 init at the change', async ({ expect }) => {
    const body = await openPlayback(Math.ceil(range.from / 1000) * 1000, Math.floor(range.to / 1000) * 1000);
    const played = await playWs(t.baseUrl!, body.URL, { stop: (p) => p.messages.filter((m) => m.type === 'init').length >= 2, timeoutMs: 40000 });
    const mimes = played.messages.filter((m) => m.type === 'init').map((m) => String(m.mime));
    expect(mimes[0]).toMatch(/avc1/);
    expect(mimes[1]).toMatch(/hvc1|hev1/);
    // The timeline runs on (the player opens a fresh MediaSource for the other codec, at the same time).
    expect(played.messages.filter((m) => m.type === 'init')[1].continues).toBe(true);
    played.ws.close();
  }, 60000);

  it('offers WS_FMP4_H264 though the range starts H.264, and plays H.264 throughout with one init and no gap', async ({ expect }) => {
    const from = Math.ceil(range.from / 1000) * 1000;
    const to = Math.floor(range.to / 1000) * 1000;
    const body = await openPlayback(from, to);
    expect(body.URLs.WS_FMP4_H264).toBe(body.URL.replace('.mp4?', '_h264.mp4?'));
    const played = await playWs(t.baseUrl!, body.URLs.WS_FMP4_H264, { timeoutMs: 60000 });
    expect(played.messages.at(-1)).toMatchObject({ type: 'state', state: 'ended' });
    const inits = played.messages.filter((m) => m.type === 'init');
    expect(inits, JSON.stringify(played.messages)).toHaveLength(1);
    expect(inits[0].mime).toMatch(/^video\/mp4; codecs="avc1\.[0-9a-f]{6},mp4a\.40\.2"$/);
    // One ffmpeg per part: H.264 in, then H.265 in.
    expect(playbackOf(t.ctx, t.app.log).get(body.request_id)?.transcoding?.ffmpegRuns).toBe(2);

    const file = path.join(tmp, 'across.mp4');
    fs.writeFileSync(file, Buffer.concat(played.binary));
    expect(decodeErrors(file)).toBe('');
    const probe = ffprobeJson(file);
    expect(probe.streams.filter((s) => s.codec_name !== 'aac').map((s) => s.codec_name)).toEqual(['h264']);
    const times = videoTimes(file);
    // 15 fps: no step between pictures longer than a few frame times, across the change included.
    const steps = times.slice(1).map((x, i) => x - times[i]);
    expect(Math.max(...steps), JSON.stringify(steps)).toBeLessThan(0.25);
    expect(Math.min(...steps)).toBeGreaterThan(0);
    // The pictures cover both parts (the hole between them skipped, as playback does; 1.5 s spare for
    // the seconds rounding).
    const seconds = (range.change - from + to - range.resume) / 1000;
    expect(times.at(-1)! - times[0]).toBeGreaterThan(seconds - 1.5);
    expect(times.length).toBeGreaterThan((seconds - 1.5) * 15 * 0.9);
    played.ws.close();
  }, 90000);

  it('a seek into the H.265 part starts a new run there, H.264 as well', async ({ expect }) => {
    const body = await openPlayback(Math.ceil(range.from / 1000) * 1000, Math.floor(range.to / 1000) * 1000);
    const id = body.request_id;
    let socket: { close(): void } | undefined;
    let inits = 0;
    const done = playWs(t.baseUrl!, body.URLs.WS_FMP4_H264, {
      timeoutMs: 40000,
      onOpen: (ws) => (socket = ws),
      stop: (p) => {
        inits = p.messages.filter((m) => m.type === 'init').length;
        return false;
      },
    });
    await until(() => inits >= 1, 20000);
    expect((await get(`/api/v1/devices/record/playback/control?request_id=${id}&command=seek&time=${stampOf(range.change + 1000)}`)).statusCode).toBe(200);
    expect((await get(`/api/v1/playbackspeed?request_id=${id}&speed=2`)).statusCode).toBe(200);
    const played = await done;
    expect(played.messages.filter((m) => m.type === 'init').map((m) => String(m.mime).slice(0, 24))).toEqual(['video/mp4; codecs="avc1.', 'video/mp4; codecs="avc1.']);
    const lastInit = played.binary.map((b) => b.toString('latin1', 4, 8)).lastIndexOf('ftyp');
    const file = path.join(tmp, 'seek.mp4');
    fs.writeFileSync(file, Buffer.concat(played.binary.slice(lastInit)));
    expect(decodeErrors(file)).toBe('');
    expect(ffprobeJson(file).streams.some((s) => s.codec_name === 'h264')).toBe(true);
    socket?.close();
  }, 60000);

  it('a pause before the change and the resume: the run goes on across it, one init, no gap', async ({ expect }) => {
    const body = await openPlayback(range.change - 3000, Math.floor(range.to / 1000) * 1000);
    const id = body.request_id;
    let count = 0;
    const done = playWs(t.baseUrl!, body.URLs.WS_FMP4_H264, {
      timeoutMs: 60000,
      stop: (p) => {
        count = p.binary.length;
        return false;
      },
    });
    await until(() => count >= 5, 20000);
    expect((await get(`/api/v1/devices/record/playback/control?request_id=${id}&command=pause`)).statusCode).toBe(200);
    await sleep(1500);
    expect((await get(`/api/v1/devices/record/playback/control?request_id=${id}&command=resume`)).statusCode).toBe(200);
    const played = await done;
    expect(played.messages.filter((m) => m.type === 'init')).toHaveLength(1);
    const file = path.join(tmp, 'paused.mp4');
    fs.writeFileSync(file, Buffer.concat(played.binary));
    expect(decodeErrors(file)).toBe('');
    const times = videoTimes(file);
    const steps = times.slice(1).map((x, i) => x - times[i]);
    expect(Math.max(...steps)).toBeLessThan(0.25);
    expect(times.at(-1)! - times[0]).toBeGreaterThan((range.to - range.resume) / 1000 + 1);
  }, 90000);
});
