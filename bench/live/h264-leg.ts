/**
 * The live H.264 leg of an H.265 channel (media/transcode.ts), measured on its own:
 *   node --import tsx bench/live/h264-leg.ts [--audio=aac] [--samples=3] [--chromium=5] [--window=30]
 *     [--port=P --camera-port=P --sip-port=P] [--data=DIR]
 *
 * The server runs in this process (buildApp), so the hubs can be watched directly; the camera is the
 * GStreamer test camera in H.265 (320x240, 15 fps, GOP 2 s; --audio adds its AAC track). The
 * original stays open (one WS-fMP4 viewer of it); each sample starts the leg anew (its hub stopped
 * before) and reports:
 * - getchannelstream → the first binary message (init) and the first fragment at a WS viewer of
 *   URLs.WS_FMP4_H264;
 * - the transcoder's pictures in (written to ffmpeg) and out over the window, and what the viewer got
 *   (ffprobe: frames, the first a keyframe?, picture time steps more than 1.5x the median);
 * - the leg's lag: for each picture the leg's hub gives out live, the wall time since the original's
 *   hub got the picture of the same time (the cached GOP the leg starts on counts too: its max is
 *   that GOP's age, the median is the live lag).
 * Then, with --chromium=N, getchannelstream → the first decoded frame in Chromium of the leg (the
 * console's WS-fMP4 engine, bench/live/page/first-frame.ts), the leg not yet open, N samples after one
 * that warms the browser. Figures are printed, not written to bench/results (one camera, one leg).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import WebSocket from 'ws';
import type { AccessUnit } from '@opencvr/codec';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config/index';
import type { StreamHub } from '../../apps/server/src/media/hub';
import type { TranscodeSource } from '../../apps/server/src/media/transcode';
import { freePort, startCamera } from '../../apps/server/test/fixtures/camera';
import { initialise, ROOT } from '../lib/server';
import { percentile, sleep } from './support';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const AUDIO = arg('audio', '');
const SAMPLES = Number(arg('samples', '3'));
const CHROMIUM_N = Number(arg('chromium', '5'));
const WINDOW_S = Number(arg('window', '30'));
const CHROMIUM_ARGS = ['--disable-features=LocalNetworkAccessChecks', '--headless', '--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'];

/** A video-unit watcher on a hub; `live` false while subscribe() replays the cached GOP. */
function watch(hub: StreamHub, onUnit: (unit: AccessUnit, live: boolean) => void): () => void {
  let live = false;
  const off = hub.subscribe({ tracks: () => undefined, unit: (_t, unit) => unit.kind === 'video' && onUnit(unit, live), state: () => undefined });
  live = true;
  return off;
}

/** ffprobe of a viewer's WS-fMP4 bytes: frame count, first a keyframe, uneven time steps. */
function probe(file: string) {
  const out = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'frame=pts_time,key_frame', '-of', 'json', file], { encoding: 'utf8' }));
  const frames = out.frames as { pts_time: string; key_frame: number }[];
  const steps = frames.slice(1).map((f, i) => Number(f.pts_time) - Number(frames[i].pts_time));
  const median = percentile(steps, 50);
  return { frames: frames.length, firstKey: frames[0]?.key_frame === 1, uneven: steps.filter((s) => s <= 0 || s > 1.5 * median).length };
}

const dataDir = arg('data', '') || fs.mkdtempSync(path.join(os.tmpdir(), 'opencvr-bench-h264-leg-'));
fs.mkdirSync(dataDir, { recursive: true });
const port = Number(arg('port', '0')) || (await freePort());
const cam = await startCamera({ codec: 'h265', audio: AUDIO === 'aac' || AUDIO === 'pcma' ? AUDIO : undefined, port: Number(arg('camera-port', '0')) || undefined });
const settings = loadConfig({ ...process.env, LOG_LEVEL: 'warn' }, { host: '127.0.0.1', port, dataDir, webDist: undefined, sipPort: Number(arg('sip-port', '0')) });
const built = await buildApp(settings);
let browser: Browser | undefined;
try {
  await built.app.listen({ host: '127.0.0.1', port });
  const base = `http://127.0.0.1:${port}`;
  const wsBase = base.replace('http', 'ws');
  const token = (await initialise(base)).Token;
  const api = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(base + url, { ...init, headers: { token, 'content-type': 'application/json' } });
    return ((await res.json()) as { EasyDarwin: { Body: { DeviceID: string; Stream: string; URLs: Record<string, string> } } }).EasyDarwin.Body;
  };
  const device = (await api('/api/v1/adddevice', { method: 'POST', body: JSON.stringify({ DeviceName: 'h265', DeviceType: 'RTSP', RtspUrl: cam.url }) })).DeviceID;
  const play = () => api(`/api/v1/getchannelstream?device=${device}&channel=1&protocol=ws_m4s`);
  const first = await play();
  const key = first.Stream;
  const keeper = new WebSocket(wsBase + first.URLs.WS_FMP4);
  keeper.on('message', () => undefined);
  await sleep(4000);
  const arrived = new Map<number, number>();
  watch(built.ctx.streams.get(key)!, (unit) => {
    if (!arrived.has(unit.pts)) arrived.set(unit.pts, performance.now());
  });
  const stopLeg = async () => {
    built.ctx.streams.get(key + '_h264')?.stop('bench');
    await sleep(1500);
  };

  for (let i = 0; i < SAMPLES; i++) {
    await stopLeg();
    await sleep(300 + 650 * i); // other phases of the GOP
    const t0 = performance.now();
    const answer = await play();
    const ws = new WebSocket(wsBase + answer.URLs.WS_FMP4_H264, { perMessageDeflate: false });
    const got: Buffer[] = [];
    const at: number[] = [];
    ws.on('message', (data: Buffer, binary: boolean) => {
      if (!binary) return;
      got.push(Buffer.from(data));
      if (at.length < 2) at.push(performance.now() - t0);
    });
    let leg: StreamHub | undefined;
    while (!(leg = built.ctx.streams.get(key + '_h264'))) await sleep(5);
    const lags: number[] = [];
    watch(leg, (unit, live) => {
      const inAt = arrived.get(unit.pts);
      if (live && inAt !== undefined) lags.push(performance.now() - inAt);
    });
    await sleep(WINDOW_S * 1000);
    // The hub's source is private; the bench reads the transcoder's counters all the same.
    const stats = { ...(leg as unknown as { source: TranscodeSource }).source.stats };
    ws.terminate();
    const file = path.join(dataDir, `leg-${i}.mp4`);
    fs.writeFileSync(file, Buffer.concat(got));
    const p = probe(file);
    console.log(
      `sample ${i}: init ${at[0]?.toFixed(0)} ms, first fragment ${at[1]?.toFixed(0)} ms after getchannelstream; ` +
        `transcoder in ${stats.in} out ${stats.out} dropped ${stats.dropped} over ${WINDOW_S} s; ` +
        `viewer frames ${p.frames}, first a keyframe ${p.firstKey}, uneven steps ${p.uneven}; ` +
        `lag median ${percentile(lags, 50).toFixed(0)} ms, max ${Math.max(...lags).toFixed(0)} ms (${lags.length} pictures)`,
    );
  }

  if (CHROMIUM_N > 0) {
    const page = (await build({ entryPoints: [path.join(ROOT, 'bench/live/page/first-frame.ts')], bundle: true, write: false, format: 'iife', target: 'es2022', logLevel: 'silent' })).outputFiles[0].text;
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const samples: string[] = [];
    for (let i = 0; i <= CHROMIUM_N; i++) {
      await stopLeg();
      await sleep(300 + 430 * i);
      const context = await browser.newContext();
      const tab = await context.newPage();
      await tab.route(`${base}/__bench.html`, (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><html><body><script>${page.replace(/<\/script/gi, '<\\/script')}</script></body></html>` }));
      await tab.goto(`${base}/__bench.html`);
      type Sample = { ms: number; answerMs: number; firstBytesMs?: number; bufferedMs?: number };
      const s = await tab.evaluate(
        ([d, t]) => (globalThis as unknown as { benchFirstFrame(d: string, t: string, u: string): Promise<Sample> }).benchFirstFrame(d, t, 'WS_FMP4_H264'),
        [device, token] as const,
      );
      await context.close();
      if (i > 0) samples.push(`${s.ms.toFixed(0)} (${[s.answerMs, s.firstBytesMs, s.bufferedMs].map((x) => x?.toFixed(0) ?? '-').join('/')})`);
    }
    console.log(`Chromium first decoded frame of the leg (not yet open), ms total (answer/first bytes/buffered): ${samples.join(' ')}`);
  }
  keeper.terminate();
} finally {
  await browser?.close();
  await built.app.close();
  await cam.stop();
  if (!arg('data', '')) fs.rmSync(dataDir, { recursive: true, force: true });
}
