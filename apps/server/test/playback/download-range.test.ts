/**
 * Range downloads over the segment files. A download is one MP4 whose length is promised up front
 * (Content-Length) and whose segment files are read while it streams. A segment removed meanwhile
 * (record/removedaily, record/remove, a retention pass) must not cut the file short: removal by
 * request takes the rows at once and the files once the download has read them; retention leaves a
 * segment being downloaded for its next pass. The download is held back by its reader (paused), so
 * the later segments are not open yet. A range over a gap joins what was recorded, the gap left out.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAdminApp } from '../api/admin-app.js';
import { sleep, until } from '../helpers/index.js';
import { segmentPath } from '../../src/services/recording/paths.js';
import { localDay } from '../../src/services/recording/time.js';
import { decodeErrors, ffprobeJson, stampOf } from './support.js';

const api = useAdminApp({ listen: true });
const SEGMENT_MS = 4000;
const SEGMENTS = 4;

/**
 * Four 4 s segments of ~6 MB each (lossless noise: more than the sockets between server and a
 * paused reader hold, so the last segments are opened only when the reader goes on).
 */
let fixture: string;
beforeEach(async () => {
  await api.t.ctx.recording.ready;
  await api.t.ctx.recording.retention(); // the start's pass is over before rows are written
  fixture = path.join(api.t.settings.dataDir, 'noise.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=gray:s=320x240:r=15,noise=alls=80:allf=t', '-t', String(SEGMENT_MS / 1000), '-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-g', '15', '-pix_fmt', 'yuv420p', '-movflags', '+frag_keyframe+empty_moov+default_base_moof', '-f', 'mp4', fixture]);
});

async function recorded(ageMs: number, gapMs = 0) {
  const res = await api.post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:9/c' });
  const dev = res.json().EasyDarwin.Body.DeviceID as string;
  const pk = (await api.t.ctx.inventory.channels.require(dev, '1')).id;
  const from = new Date(Date.now() - ageMs);
  from.setMilliseconds(0);
  const files: string[] = [];
  for (let i = 0; i < SEGMENTS; i++) {
    const start = new Date(from.getTime() + i * SEGMENT_MS + (i >= SEGMENTS / 2 ? gapMs : 0));
    const rel = segmentPath(pk, start);
    const file = path.join(api.t.settings.dataDir, 'records', rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.copyFileSync(fixture, file);
    files.push(file);
    await api.t.ctx.db
      .insertInto('recordings')
      .values({ channel_pk: pk, root: '', path: rel, start_at: start.toISOString(), end_at: new Date(start.getTime() + SEGMENT_MS).toISOString(), duration_ms: SEGMENT_MS, bytes: fs.statSync(file).size, important: 0, status: 'complete', created_at: new Date().toISOString() })
      .execute();
  }
  return { dev, pk, from: from.getTime(), to: from.getTime() + SEGMENTS * SEGMENT_MS + gapMs, files };
}

/** A download over a real socket, paused after its headers until `go` is called. */
function pausedDownload(url: string) {
  let go!: () => void;
  let request!: http.ClientRequest;
  const done = new Promise<{ length: number; body: Buffer; complete: boolean }>((resolve, reject) => {
    request = http.get(`${api.t.baseUrl}${url}`, { headers: { token: api.admin } }, (res) => {
      res.pause();
      const chunks: Buffer[] = [];
      go = () => {
        res.on('data', (c: Buffer) => chunks.push(c));
        res.resume();
      };
      res.on('end', () => resolve({ length: Number(res.headers['content-length']), body: Buffer.concat(chunks), complete: res.complete }));
      res.on('aborted', () => resolve({ length: Number(res.headers['content-length']), body: Buffer.concat(chunks), complete: false }));
      res.on('error', () => resolve({ length: Number(res.headers['content-length']), body: Buffer.concat(chunks), complete: false }));
    });
    request.on('error', reject);
  });
  return { done, started: until(() => go !== undefined, 10000).then(() => sleep(300)), resume: () => go(), abort: () => request.destroy() };
}

function checkWhole(got: { length: number; body: Buffer; complete: boolean }, seconds: number) {
  expect(got.complete).toBe(true);
  expect(got.body.length).toBe(got.length);
  const file = path.join(api.t.settings.dataDir, 'got.mp4');
  fs.writeFileSync(file, got.body);
  expect(decodeErrors(file)).toBe('');
  expect(Math.abs(Number(ffprobeJson(file).format.duration) - seconds)).toBeLessThanOrEqual(1 / 15 + 0.001);
}

describe('a segment removed while it is downloaded', () => {
  it('removedaily: the rows go at once, the download ends whole, the files go when it is done', async () => {
    const r = await recorded(86400_000);
    const dl = pausedDownload(`/api/v1/record/recordvideo/download/mp4/${r.dev}:1/${stampOf(r.from)}/${stampOf(r.to)}`);
    await dl.started;
    const removed = await api.get(`/api/v1/record/removedaily?id=${r.dev}:1&period=${localDay(new Date(r.from))}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().EasyDarwin.Body).toEqual({ Removed: SEGMENTS, Kept: 0 });
    expect((await api.get(`/api/v1/record/querydaily?id=${r.dev}:1&period=${localDay(new Date(r.from))}`)).json().list).toEqual([]);
    dl.resume();
    checkWhole(await dl.done, (r.to - r.from) / 1000);
    await until(() => r.files.every((f) => !fs.existsSync(f)), 5000, { what: () => `files left: ${r.files.filter((f) => fs.existsSync(f)).join(', ')}` });
  }, 60000);

  it('record/remove of the last segment: the download ends whole; the file goes when it is done', async () => {
    const r = await recorded(86400_000);
    const dl = pausedDownload(`/api/v1/record/recordvideo/download/mp4/${r.dev}:1/${stampOf(r.from)}/${stampOf(r.to)}`);
    await dl.started;
    const last = await api.t.ctx.db.selectFrom('recordings').select('id').where('channel_pk', '=', r.pk).orderBy('start_at', 'desc').executeTakeFirstOrThrow();
    const removed = await api.get(`/api/v1/record/remove?id=${last.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    dl.resume();
    checkWhole(await dl.done, (r.to - r.from) / 1000);
    await until(() => !fs.existsSync(r.files[SEGMENTS - 1]), 5000);
    expect(r.files.slice(0, -1).every((f) => fs.existsSync(f))).toBe(true);
  }, 60000);

  it('retention: expired segments being downloaded wait for its next pass', async () => {
    const r = await recorded(40 * 86400_000); // past the default 30 save days
    const dl = pausedDownload(`/api/v1/record/recordvideo/download/mp4/${r.dev}:1/${stampOf(r.from)}/${stampOf(r.to)}`);
    await dl.started;
    expect(await api.t.ctx.recording.retention()).toMatchObject({ expired: 0 });
    expect(r.files.every((f) => fs.existsSync(f))).toBe(true);
    dl.resume();
    checkWhole(await dl.done, (r.to - r.from) / 1000);
    await until(async () => (await api.t.ctx.recording.retention())?.expired === SEGMENTS, 5000);
    expect(r.files.some((f) => fs.existsSync(f))).toBe(false);
  }, 60000);
});

describe('a download the reader abandons', () => {
  it('lets go of its files: a removal while it was held deletes them once it is cut off', async () => {
    const r = await recorded(86400_000);
    const dl = pausedDownload(`/api/v1/record/recordvideo/download/mp4/${r.dev}:1/${stampOf(r.from)}/${stampOf(r.to)}`);
    await dl.started;
    expect((await api.get(`/api/v1/record/removedaily?id=${r.dev}:1&period=${localDay(new Date(r.from))}`)).json().EasyDarwin.Body).toEqual({ Removed: SEGMENTS, Kept: 0 });
    expect(r.files.every((f) => fs.existsSync(f))).toBe(true);
    dl.done.catch(() => undefined);
    dl.abort();
    await until(() => r.files.every((f) => !fs.existsSync(f)), 5000, { what: () => `files left: ${r.files.filter((f) => fs.existsSync(f)).length}` });
  }, 60000);
});

describe('a range over a gap', () => {
  it('is one MP4 of what was recorded, the gap left out; from inside the gap it starts at the next recording; inside it, nothing', async () => {
    const gap = 60_000;
    const r = await recorded(86400_000, gap);
    const url = (a: number, b: number) => `/api/v1/record/recordvideo/download/mp4/${r.dev}:1/${stampOf(a)}/${stampOf(b)}`;
    const whole = await api.get(url(r.from, r.to));
    expect(whole.statusCode, whole.body.slice(0, 200)).toBe(200);
    expect(Number(whole.headers['content-length'])).toBe(whole.rawPayload.length);
    expect(whole.headers['x-record-start']).toBe(stampOf(r.from));
    expect(whole.headers['x-record-end']).toBe(stampOf(r.to));
    const file = path.join(api.t.settings.dataDir, 'gap.mp4');
    fs.writeFileSync(file, whole.rawPayload);
    expect(decodeErrors(file)).toBe('');
    const probe = ffprobeJson(file);
    expect(Math.abs(Number(probe.format.duration) - (SEGMENTS * SEGMENT_MS) / 1000)).toBeLessThanOrEqual(1 / 15 + 0.001);
    expect(Number(probe.streams[0].nb_read_frames)).toBe((SEGMENTS * SEGMENT_MS * 15) / 1000);

    const afterGap = r.from + (SEGMENTS / 2) * SEGMENT_MS + gap;
    const inside = await api.get(url(r.from + (SEGMENTS / 2) * SEGMENT_MS + 10_000, r.to));
    expect(inside.statusCode).toBe(200);
    expect(inside.headers['x-record-start']).toBe(stampOf(afterGap));
    fs.writeFileSync(file, inside.rawPayload);
    expect(Math.abs(Number(ffprobeJson(file).format.duration) - (SEGMENTS / 2) * (SEGMENT_MS / 1000))).toBeLessThanOrEqual(1 / 15 + 0.001);

    const none = await api.get(`${url(r.from + (SEGMENTS / 2) * SEGMENT_MS + 5000, afterGap - 5000)}?lang=en-US`);
    expect(none.statusCode).toBe(404);
    expect(none.json().msg).toMatch(/does not exist/);
  }, 60000);
});
