/**
 * Playback of a recording still being written (the GStreamer camera with G.711 audio, segments of
 * 3 s): a session of "now" runs on into the growing segment and the next ones without stopping, with
 * one init and one continuous timeline, and ends once the recording stops. The G.711 track, which a
 * browser's Media Source cannot play, is left out of the WS stream (the init message says so) while
 * the download keeps it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, until, type TestApp } from '../helpers/index.js';
import { initialise } from '../api/support.js';
import { startCamera, type Camera } from '../fixtures/camera.js';
import { playbackOptions } from '../../src/services/playback/index.js';
import { addCamera, channelPk } from '../recording/support.js';
import { decodeErrors, ffprobeJson, playWs, stampOf, videoTimeline } from './support.js';

let cam: Camera;
let t: TestApp;
let admin: string;
let dev: string;
let pk: number;
let tmp: string;

beforeAll(async () => {
  cam = await startCamera({ audio: 'pcma' });
  t = await startTestApp({ listen: true });
  playbackOptions.set(t.ctx, { followPollMs: 200, followGraceMs: 3000 });
  admin = await initialise(t);
  await t.ctx.config.set('record', { SegmentSeconds: 3, MinFreeBytes: 0 });
  await t.ctx.recording.ready;
  dev = await addCamera(t, admin, cam.url);
  pk = await channelPk(t, dev);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'playback-follow-'));
  const start = await t.app.inject({ url: `/api/v1/realtimerecord/start?device=${dev}&channel=1`, headers: { token: admin } });
  expect(start.statusCode, start.body).toBe(200);
  await until(() => t.ctx.db.selectFrom('recordings').select('id').where('channel_pk', '=', pk).where('duration_ms', '>', 1500).executeTakeFirst(), 20000);
}, 60000);
afterAll(async () => {
  await t?.close();
  await cam?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const trackIds = (buf: Buffer) => {
  const ids = new Set<number>();
  for (let i = buf.indexOf('tfhd'); i >= 4; i = buf.indexOf('tfhd', i + 4)) ids.add(buf.readUInt32BE(i + 8));
  return [...ids];
};

describe('playing a recording still being written', () => {
  it('runs on into the growing segment and the next ones, one continuous stream, and ends when the recording stops', async () => {
    const rows = await t.ctx.db.selectFrom('recordings').selectAll().where('channel_pk', '=', pk).orderBy('start_at').execute();
    const from = new Date(rows[0].start_at).getTime();
    const res = await t.app.inject({ url: `/api/v1/devices/record/playback?channel=${dev}:1&stime=${stampOf(from)}&etime=${stampOf(Date.now() + 120_000)}`, headers: { token: admin } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().EasyDarwin.Body as { URL: string; EndAt: string };
    const recordedAtOpen = Date.now() - from;
    let stopAt = 0;
    const played = await playWs(t.baseUrl!, body.URL, {
      timeoutMs: 40000,
      stop: (p) => {
        // After 9 s of playing, stop the recording: the session must then end by itself.
        if (!stopAt && p.binary.length > 1 && Date.now() - from > recordedAtOpen + 9000) {
          stopAt = Date.now();
          void t.app.inject({ url: `/api/v1/realtimerecord/stop?device=${dev}&channel=1`, headers: { token: admin } });
        }
        return false;
      },
    });
    expect(stopAt).toBeGreaterThan(0);
    expect(played.messages.filter((m) => m.type === 'init')).toHaveLength(1);
    expect(played.messages.at(-1)).toMatchObject({ type: 'state', state: 'ended' });
    const all = Buffer.concat(played.binary);
    const timeline = videoTimeline(all);
    for (let i = 1; i < timeline.length; i++) {
      expect(timeline[i].base).toBe(timeline[i - 1].base + timeline[i - 1].duration);
      expect(timeline[i].seq).toBeGreaterThan(timeline[i - 1].seq);
    }
    const seconds = timeline.reduce((n, f) => n + f.duration, 0) / 90000;
    // Far more than was recorded when the session opened: it followed the recording (≥ 3 segments of 3 s).
    expect(seconds).toBeGreaterThan(recordedAtOpen / 1000 + 6);
    const after = await t.ctx.db.selectFrom('recordings').select('id').where('channel_pk', '=', pk).execute();
    expect(after.length).toBeGreaterThanOrEqual(rows.length + 2);
    const file = path.join(tmp, 'follow.mp4');
    fs.writeFileSync(file, all);
    expect(decodeErrors(file)).toBe('');
  }, 60000);
});

describe('G.711 audio in playback', () => {
  it('is left out of the WS stream with a note in the init message; the download keeps it', async () => {
    const rows = await until(async () => {
      const r = await t.ctx.db.selectFrom('recordings').selectAll().where('channel_pk', '=', pk).where('status', '=', 'complete').orderBy('start_at').execute();
      return r.length >= 2 && r;
    }, 20000);
    const from = new Date(rows[0].start_at).getTime();
    const to = new Date(rows[1].end_at).getTime();
    const res = await t.app.inject({ url: `/api/v1/devices/record/playback?channel=${dev}:1&stime=${stampOf(from)}&etime=${stampOf(to)}`, headers: { token: admin } });
    expect(res.statusCode, res.body).toBe(200);
    const played = await playWs(t.baseUrl!, (res.json().EasyDarwin.Body as { URL: string }).URL, { timeoutMs: 30000 });
    const init = played.messages.find((m) => m.type === 'init')!;
    expect(init.mime).toMatch(/^video\/mp4; codecs="avc1\.[0-9a-f]{6}"$/);
    expect(init.tracks).toEqual([{ kind: 'video', codecString: expect.stringMatching(/^avc1\./) }]);
    expect(init.dropped).toEqual([expect.objectContaining({ kind: 'audio', codecString: 'alaw' })]);
    const all = Buffer.concat(played.binary);
    expect(trackIds(all)).toEqual([1]);
    const file = path.join(tmp, 'ws-audio.mp4');
    fs.writeFileSync(file, all);
    expect(decodeErrors(file)).toBe('');
    expect(ffprobeJson(file).streams.map((s) => s.codec_name)).toEqual(['h264']);

    const dl = await t.app.inject({ url: `/api/v1/record/recordvideo/download/mp4/${dev}:1/${stampOf(from)}/${stampOf(to)}`, headers: { token: admin } });
    expect(dl.statusCode).toBe(200);
    const dfile = path.join(tmp, 'dl-audio.mp4');
    fs.writeFileSync(dfile, dl.rawPayload);
    expect(ffprobeJson(dfile).streams.map((s) => s.codec_name).sort()).toEqual(['h264', 'pcm_alaw']);
  }, 60000);
});
