/**
 * A live HLS source that stops (its playlist still served, no EXT-X-ENDLIST, no new segment) while a
 * hub pulls it through ffmpeg: the hub says why (statusHlsStale) and is not live, its retries fetch no
 * segment already played (ffmpeg starts a live playlist 3 segments from its end, so every retry used to
 * replay those as if live), and it resumes by itself with the new segments once the playlist advances.
 * A real HTTP server serves a sliding playlist of segments ffmpeg wrote; the test moves its end. A
 * playlist that stops is found by reading it (1.5 target durations without a new segment), not by the
 * 15 s no-media watchdog; one stale before the first start is never played.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_HUB_OPTIONS, StreamHub } from '../../src/media/hub.js';
import { FfmpegPullSource } from '../../src/media/ingest/ffmpeg-pull-source.js';
import { until } from '../helpers/index.js';

const WINDOW = 3;
let dir: string;
let server: http.Server;
let base: string;
/** One live source per path (/<name>/live.m3u8): segments 0..end-1 exist, the playlist is the last WINDOW of them. */
const sources = new Map<string, { end: number; fetched: string[] }>();
function source(name: string) {
  if (!sources.has(name)) sources.set(name, { end: WINDOW, fetched: [] });
  return sources.get(name)!;
}

function playlist(end: number): string {
  const first = Math.max(0, end - WINDOW);
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:1', `#EXT-X-MEDIA-SEQUENCE:${first}`];
  for (let i = first; i < end; i++) lines.push('#EXTINF:1.000000,', `seg${i}.ts`);
  return lines.join('\n') + '\n';
}

const hubOf = (name: string, mediaTimeoutMs?: number) =>
  new StreamHub('hls', () => new FfmpegPullSource(`${base}/${name}/live.m3u8`, { mediaTimeoutMs }), {
    ...DEFAULT_HUB_OPTIONS,
    onDemand: false,
    retryMinMs: 300,
    retryMaxMs: 1000,
  });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hls-stale-'));
  // 12 segments of 1 s (H.264, a keyframe each second); the playlist ffmpeg writes is not used.
  execFileSync('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25', '-t', '12',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-pix_fmt', 'yuv420p',
    '-f', 'hls', '-hls_time', '1', '-hls_list_size', '0', '-hls_segment_filename', path.join(dir, 'seg%d.ts'), path.join(dir, 'written.m3u8'),
  ]); // prettier-ignore
  server = http.createServer((req, res) => {
    const [, name, file] = /^\/(\w+)\/([\w.]+)$/.exec((req.url ?? '/').split('?')[0]) ?? [];
    const src = name ? source(name) : undefined;
    if (src && file === 'live.m3u8') {
      res.writeHead(200, { 'Content-Type': 'application/vnd.apple.mpegurl' }).end(playlist(src.end));
      return;
    }
    const n = /^seg(\d+)\.ts$/.exec(file ?? '');
    if (!src || !n || Number(n[1]) >= src.end) {
      res.writeHead(404).end();
      return;
    }
    src.fetched.push(file);
    res.writeHead(200, { 'Content-Type': 'video/mp2t' }).end(fs.readFileSync(path.join(dir, file)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

it('a stalled live HLS playlist: statusHlsStale, no segment played twice, resumes with the new segments', async () => {
  const hub = hubOf('main', 3000);
  const src = source('main');
  const fetched = src.fetched;
  // Live: a new segment every second, four times (a playlist that does not move is not started at all).
  const cutting = setInterval(() => src.end < 7 && src.end++, 1000);
  try {
    await until(() => hub.state === 'live', 20_000, { what: 'the HLS stream live' });
    await until(() => fetched.includes('seg6.ts'), 20_000, { what: 'segment 6 fetched' });
    // The source stops: the playlist stays as it is.
    await until(() => hub.why?.key === 'statusHlsStale', 30_000, { what: 'the stale reason' });
    expect(hub.state).toBe('retrying');
    const played = new Set(fetched);
    const fetchedAtStale = fetched.length;
    const unitsAtStale = hub.stats.units;
    // Retries go on (each reads the playlist, sees it unchanged) and play nothing again.
    const restarts = hub.stats.restarts;
    await until(() => hub.stats.restarts >= restarts + 3, 30_000, { what: 'three more retries' });
    expect(hub.state).toBe('retrying');
    expect(hub.why).toMatchObject({ key: 'statusHlsStale' });
    expect(fetched.slice(fetchedAtStale)).toEqual([]);
    expect(hub.stats.units).toBe(unitsAtStale);

    // The source comes back: two new segments, and the stream is live again with them only.
    src.end += 2;
    await until(() => hub.state === 'live' && hub.stats.units > unitsAtStale, 30_000, { what: 'the stream live again' });
    await until(() => fetched.length >= fetchedAtStale + 2, 20_000, { what: 'the new segments fetched' });
    const after = fetched.slice(fetchedAtStale);
    expect(after.filter((s) => played.has(s))).toEqual([]);
    expect(after.slice(0, 2)).toEqual([`seg${src.end - 2}.ts`, `seg${src.end - 1}.ts`]);
  } finally {
    clearInterval(cutting);
    hub.stop();
  }
}, 120_000);

it('a live playlist that stops moving ends the run within about 1.5 target durations, with the stale reason (not the 15 s no-media watchdog)', async () => {
  const hub = hubOf('stops');
  const src = source('stops');
  // A source cutting a segment every second, as a camera would (ffmpeg wrote 12).
  const cutting = setInterval(() => src.end < 12 && src.end++, 1000);
  try {
    await until(() => hub.state === 'live', 20_000, { what: 'the HLS stream live' });
    await until(() => src.end >= 7, 10_000, { what: 'four more segments' });
    clearInterval(cutting);
    const stoppedAt = Date.now();
    await until(() => hub.why?.key === 'statusHlsStale', 20_000, { what: 'the stale reason' });
    // 1.5 s of target durations, half a target duration between reads, and the hub's report.
    expect(Date.now() - stoppedAt).toBeLessThan(5000);
    expect(hub.state).toBe('retrying');
    expect(hub.why).toMatchObject({ key: 'statusHlsStale', vars: { seconds: expect.any(Number) } });
  } finally {
    clearInterval(cutting);
    hub.stop();
  }
}, 60_000);

it('a brand-new start on a stale playlist plays none of its old segments: the stale reason, no segment fetched; once it moves, only the new segments', async () => {
  const hub = hubOf('frozen');
  const src = source('frozen');
  try {
    await until(() => hub.why?.key === 'statusHlsStale', 20_000, { what: 'the stale reason' });
    const restarts = hub.stats.restarts;
    await until(() => hub.stats.restarts >= restarts + 2, 20_000, { what: 'two more retries' });
    expect(hub.state).toBe('retrying');
    expect(hub.why).toMatchObject({ key: 'statusHlsStale' });
    expect(src.fetched).toEqual([]);
    expect(hub.stats.units).toBe(0);

    src.end += 2;
    await until(() => hub.state === 'live' && hub.stats.units > 0, 30_000, { what: 'the stream live' });
    await until(() => src.fetched.length >= 2, 20_000, { what: 'the new segments fetched' });
    expect(src.fetched.slice(0, 2)).toEqual(['seg3.ts', 'seg4.ts']);
  } finally {
    hub.stop();
  }
}, 60_000);

it('the wait for a first look’s next segment is not cut short by the no-media watchdog (no ffmpeg runs yet): the reason is the stale one', async () => {
  // 1.5 s of waiting for the next segment against a 0.5 s no-media limit (checked every second).
  const hub = hubOf('frozenlong', 500);
  const src = source('frozenlong');
  try {
    await until(() => hub.why !== undefined, 20_000, { what: 'a reason' });
    expect(hub.why).toMatchObject({ key: 'statusHlsStale' });
    expect(src.fetched).toEqual([]);
  } finally {
    hub.stop();
  }
}, 30_000);
