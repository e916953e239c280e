/**
 * A live HLS source that stops (its playlist still served, no EXT-X-ENDLIST, no new segment) while a
 * hub pulls it through ffmpeg: the hub says why (statusHlsStale) and is not live, its retries fetch no
 * segment already played (ffmpeg starts a live playlist 3 segments from its end, so every retry used to
 * replay those as if live), and it resumes by itself with the new segments once the playlist advances.
 * A real HTTP server serves a sliding playlist of segments ffmpeg wrote; the test moves its end.
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
/** Segments 0..end-1 exist for the playlist: its window is the last WINDOW of them. */
let end = WINDOW;
/** Every segment GET, in order. */
const fetched: string[] = [];

function playlist(): string {
  const first = Math.max(0, end - WINDOW);
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:1', `#EXT-X-MEDIA-SEQUENCE:${first}`];
  for (let i = first; i < end; i++) lines.push('#EXTINF:1.000000,', `seg${i}.ts`);
  return lines.join('\n') + '\n';
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hls-stale-'));
  // 12 segments of 1 s (H.264, a keyframe each second); the playlist ffmpeg writes is not used.
  execFileSync('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25', '-t', '12',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-pix_fmt', 'yuv420p',
    '-f', 'hls', '-hls_time', '1', '-hls_list_size', '0', '-hls_segment_filename', path.join(dir, 'seg%d.ts'), path.join(dir, 'written.m3u8'),
  ]); // prettier-ignore
  server = http.createServer((req, res) => {
    const name = (req.url ?? '/').split('?')[0].slice(1);
    if (name === 'live.m3u8') {
      res.writeHead(200, { 'Content-Type': 'application/vnd.apple.mpegurl' }).end(playlist());
      return;
    }
    const n = /^seg(\d+)\.ts$/.exec(name);
    if (!n || Number(n[1]) >= end) {
      res.writeHead(404).end();
      return;
    }
    fetched.push(name);
    res.writeHead(200, { 'Content-Type': 'video/mp2t' }).end(fs.readFileSync(path.join(dir, name)));
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
  const hub = new StreamHub('hls', () => new FfmpegPullSource(`${base}/live.m3u8`, { mediaTimeoutMs: 3000 }), {
    ...DEFAULT_HUB_OPTIONS,
    onDemand: false,
    retryMinMs: 300,
    retryMaxMs: 1000,
  });
  try {
    // Live: a new segment every second, three times.
    await until(() => hub.state === 'live', 20_000, { what: 'the HLS stream live' });
    for (let i = 0; i < 3; i++) {
      const seen = fetched.length;
      end++;
      await until(() => fetched.length > seen, 20_000, { what: `segment ${end - 1} fetched` });
    }
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
    end += 2;
    await until(() => hub.state === 'live' && hub.stats.units > unitsAtStale, 30_000, { what: 'the stream live again' });
    await until(() => fetched.length >= fetchedAtStale + 2, 20_000, { what: 'the new segments fetched' });
    const after = fetched.slice(fetchedAtStale);
    expect(after.filter((s) => played.has(s))).toEqual([]);
    expect(after.slice(0, 2)).toEqual([`seg${end - 2}.ts`, `seg${end - 1}.ts`]);
  } finally {
    hub.stop();
  }
}, 120_000);
