/**
 * Playback of an H.265 recording through its H.264 leg (URLs.WS_FMP4_H264), for browsers without
 * H.265: ~8 s of the GStreamer camera in H.265 with AAC, played back transcoded by one ffmpeg per
 * session: the init says avc1 (and mp4a), ffprobe reads H.264 and decodes it without an error; pause
 * stops the pictures, resume brings them back, a seek starts a new init; at 16× only keyframes reach
 * ffmpeg; the socket's close ends the session and its ffmpeg; past maxTranscodes (2 here) a leg is
 * refused with its reason.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, until } from '../helpers/index.js';
import { playbackOf } from '../../src/services/playback/index.js';
import { decodeErrors, ffprobeJson, playWs, recordCamera, stampOf, transcoders, type Recorded } from './support.js';

let R: Recorded;
beforeAll(async () => {
  R = await recordCamera(8, { codec: 'h265', audio: 'aac' }, { maxTranscodes: 2 });
}, 90000);
afterAll(async () => {
  await R?.t.close();
  if (R?.tmp) fs.rmSync(R.tmp, { recursive: true, force: true });
});

const get = (url: string) => R.t.app.inject({ url, headers: { token: R.admin } });

interface Answer {
  URL: string;
  URLs: Record<string, string>;
  request_id: string;
}

async function openPlayback(fromMs: number, toMs: number): Promise<Answer> {
  const res = await get(`/api/v1/devices/record/playback?channel=${R.dev}:1&stime=${stampOf(fromMs)}&etime=${stampOf(toMs)}&protocol=ws_m4s`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body as Answer;
}

const from = () => Math.ceil(R.from.getTime() / 1000) * 1000;
const end = () => Math.floor(R.to.getTime() / 1000) * 1000;

describe('H.265 recording, H.264 leg', () => {
  it('offers WS_FMP4_H264 beside WS_FMP4, and plays it as H.264 with the AAC audio', async () => {
    const body = await openPlayback(from(), end());
    expect(body.URLs.WS_FMP4).toBe(body.URL);
    expect(body.URLs.WS_FMP4_H264).toBe(body.URL.replace('.mp4?', '_h264.mp4?'));
    const played = await playWs(R.t.baseUrl!, body.URLs.WS_FMP4_H264, { timeoutMs: 40000 });
    const inits = played.messages.filter((m) => m.type === 'init');
    expect(inits).toHaveLength(1);
    expect(inits[0].mime).toMatch(/^video\/mp4; codecs="avc1\.[0-9a-f]{6},mp4a\.40\.2"$/);
    const file = path.join(R.tmp, 'h264.mp4');
    fs.writeFileSync(file, Buffer.concat(played.binary));
    expect(decodeErrors(file)).toBe('');
    const probe = ffprobeJson(file);
    const video = probe.streams.find((s) => s.codec_name === 'h264');
    expect(video, JSON.stringify(probe.streams)).toBeDefined();
    expect(probe.streams.some((s) => s.codec_name === 'aac')).toBe(true);
    // 15 fps for several seconds, less what ffmpeg still held at the end.
    expect(Number(video!.nb_read_frames)).toBeGreaterThan(30);
    played.ws.close();
  }, 60000);

  it('the plain URL of the same recording still sends the H.265 as stored', async () => {
    const body = await openPlayback(from(), end());
    const played = await playWs(R.t.baseUrl!, body.URL, { stop: (p) => p.messages.some((m) => m.type === 'init') });
    expect(played.messages.find((m) => m.type === 'init')?.mime).toMatch(/hvc1|hev1/);
    played.ws.close();
  });

  it('pause, resume, seek and 16× work as on the plain path; closing the socket ends the session and its ffmpeg', async () => {
    const body = await openPlayback(from(), end());
    const id = body.request_id;
    const state = async () => (await get(`/api/v2/playState?request_id=${id}`)).json().data as { state: string; speed: number };
    let count = 0;
    const received: Record<string, unknown>[] = [];
    let socket: { close(): void } | undefined;
    const done = playWs(R.t.baseUrl!, body.URLs.WS_FMP4_H264, {
      timeoutMs: 40000,
      onOpen: (ws) => (socket = ws),
      stop: (p) => {
        count = p.binary.length;
        received.splice(0, received.length, ...p.messages);
        return false;
      },
    });
    await until(() => count >= 6, 20000);
    expect(transcoders()).toBe(1);

    expect((await get(`/api/v1/devices/record/playback/control?request_id=${id}&command=pause`)).statusCode).toBe(200);
    expect((await state()).state).toBe('paused');
    // What ffmpeg held when the input stopped comes out; then nothing while paused.
    await sleep(1000);
    const atPause = count;
    await sleep(2000);
    expect(count).toBe(atPause);

    expect((await get(`/api/v1/devices/record/playback/control?request_id=${id}&command=resume`)).statusCode).toBe(200);
    await until(() => count > atPause, 10000);

    // 16×: the pictures between keyframes stay out of ffmpeg.
    const session = playbackOf(R.t.ctx, R.t.app.log).get(id)!;
    expect(session.transcoding).toBeDefined();
    // A seek back to the start: a new run, a new ffmpeg, a second init; played to the end at 16×.
    expect((await get(`/api/v1/devices/record/playback/control?request_id=${id}&command=seek&time=${stampOf(from() + 1000)}`)).statusCode).toBe(200);
    expect((await get(`/api/v1/playbackspeed?request_id=${id}&speed=16`)).statusCode).toBe(200);
    const played = await done;
    expect(received.filter((m) => m.type === 'init').length, JSON.stringify(received.map((m) => [m.type, m.state]))).toBe(2);
    expect(session.transcoding!.keyframesOnly).toBeGreaterThan(0);
    expect(played.messages.at(-1)).toMatchObject({ type: 'state', state: 'ended' });
    // The run after the seek decodes as H.264 on its own.
    const lastInit = played.binary.map((b) => b.toString('latin1', 4, 8)).lastIndexOf('ftyp');
    const file = path.join(R.tmp, 'seek-h264.mp4');
    fs.writeFileSync(file, Buffer.concat(played.binary.slice(lastInit)));
    expect(decodeErrors(file)).toBe('');
    expect(ffprobeJson(file).streams.some((s) => s.codec_name === 'h264')).toBe(true);

    socket!.close();
    await until(() => !playbackOf(R.t.ctx, R.t.app.log).get(id), 5000);
    await until(() => transcoders() === 0, 10000);
  }, 90000);

  it('past maxTranscodes legs at once, another is told why and closed', async () => {
    const a = await openPlayback(from(), end());
    const b = await openPlayback(from(), end());
    const c = await openPlayback(from(), end());
    const hasInit = (p: { messages: Record<string, unknown>[] }) => p.messages.some((m) => m.type === 'init');
    const pa = await playWs(R.t.baseUrl!, a.URLs.WS_FMP4_H264, { stop: hasInit, timeoutMs: 20000 });
    const pb = await playWs(R.t.baseUrl!, b.URLs.WS_FMP4_H264, { stop: hasInit, timeoutMs: 20000 });
    expect(playbackOf(R.t.ctx, R.t.app.log).transcoding).toBe(2);
    const pc = await playWs(R.t.baseUrl!, c.URLs.WS_FMP4_H264, { timeoutMs: 20000 });
    expect(pc.messages).toEqual([{ type: 'state', state: 'stopped', reason: '同时转码为 H.264 的回放已达上限（2 路），请稍后再试，或下载录像用本地播放器观看' }]);
    expect(pc.binary).toHaveLength(0);
    pa.ws.close();
    pb.ws.close();
    await until(() => playbackOf(R.t.ctx, R.t.app.log).transcoding === 0, 5000);
  }, 60000);

  it('an unknown session has no H.264 leg', async () => {
    const res = await R.t.app.inject({ url: '/ws_m4s/playback/0123456789abcdef0123456789abcdef_h264.mp4', headers: { token: R.admin } });
    expect(res.statusCode).toBe(404);
  });
});
