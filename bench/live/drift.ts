/**
 * Part "drift" of the live bench (`npm run bench -- live --parts=drift [--minutes=60]
 * [--drift-pace=1,1.005,0.995] [--drift-sample=5] [--web-dist=DIR]`): does the console's live
 * player stay at the live edge over a long watch (issue 4: "no drift behind live over an hour")?
 *
 * Per pace, in turn: a replay camera (replay-camera.ts) whose frames arrive PACE times as fast as
 * their timestamps say (1: a true clock, the baseline; 1.005 / 0.995: 0.5 % fast / slow, 18 s an
 * hour if nothing chased), a fresh server serving the built console (WEB_DIST: --web-dist, else
 * built once with vite into a temp folder), one RTSP device, and Debian Chromium opening
 * /video/player/DEV/1/0 as an operator would (the default transport, WS-fMP4). A probe injected
 * before the console's scripts (page/drift-probe.ts) watches the page's WebSocket media and the
 * <video>; it is read every --drift-sample seconds for --minutes after a 20 s warm-up.
 *
 * Lag, end to end: the media time of the end of the newest video fragment the page received minus
 * the mediaTime of the frame on screen (requestVideoFrameCallback), i.e. how far behind what the
 * server delivered the picture is; beside it the buffer lag (buffered end − currentTime). Figures:
 * lag p50/p99 over the first and the last window (5 min, or a third of a shorter run), the worst lag
 * after the warm-up, the growth of the median lag from the first to the last window (goal < 0.5 s:
 * the player's own jump threshold is 1.5 s, the chase's rate kicks in at 0.8 s, so a chase that
 * works keeps the median flat to well within half a second; drift unchased would grow 0.5 % of the
 * run), stalls ('waiting' events, seconds stalled), chase seeks and playbackRate changes, frames
 * presented vs received, the JS heap's growth first → last window and the SourceBuffer's buffered
 * length at the end (trimming: the player keeps 30 s behind the playhead, removing once 40 s pile up).
 * Each skewed case's figures carry the true-clock case's as baseline (this run's, else the last
 * live.json's).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { startCamera } from '../lib/camera';
import { RESULTS_DIR, type Figure } from '../lib/figures';
import { ADMIN, login, NEW_PASSWORD, onCleanup, ROOT } from '../lib/server';
import type { DriftReading } from './drift-reading';
import { addDevice, loadavg, percentile, round, sleep, startServer, type LiveContext } from './support';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--autoplay-policy=no-user-gesture-required', '--enable-precise-memory-info', '--disable-background-timer-throttling', '--disable-renderer-backgrounding'];
const WARMUP_S = 20;

/** Figures of this part start with this (run.ts keeps them through a full run of the other parts). */
export const DRIFT_PREFIX = 'live drift soak';
export const isDriftFigure = (f: Figure) => f.name.startsWith(DRIFT_PREFIX);

const paceLabel = (pace: number) =>
  pace === 1 ? 'camera clock true' : `camera ${round(Math.abs(pace - 1) * 100, 2)} % ${pace > 1 ? 'fast' : 'slow'}`;

/** The built console: --web-dist or WEB_DIST, else a vite build into a temp folder (once). */
async function webDist(ctx: LiveContext): Promise<string> {
  const given = ctx.arg('web-dist', process.env.WEB_DIST ?? '');
  if (given) {
    if (!fs.existsSync(path.join(given, 'index.html'))) throw new Error(`--web-dist ${given}: no index.html`);
    return path.resolve(given);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencvr-bench-live-drift-web-'));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  ctx.log(`drift: building the console into ${dir} ...`);
  const child = spawn('npx', ['vite', 'build', '--outDir', dir], { cwd: path.join(ROOT, 'apps/web'), stdio: ['ignore', 'ignore', 'inherit'] });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`vite build exited with ${code}`);
  return dir;
}

export interface Soak {
  pace: number;
  readings: DriftReading[];
  /** The first reading after the warm-up. */
  from: DriftReading;
}

async function soak(ctx: LiveContext, dist: string, probe: string, pace: number, minutes: number, everyS: number): Promise<Soak> {
  const cam = await startCamera(ctx.log, 'replay', { pace });
  const server = await startServer(ctx, `drift-${pace}`, { WEB_DIST: dist, SIP_PORT: '0' });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  onCleanup(() => browser.close());
  try {
    const dev = await addDevice(server, `bench-drift-${pace}`, cam.url(1));
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    if (process.env.LIVE_DEBUG) page.on('console', (m) => console.log('[page]', m.text()));
    const body = await login(server.base, ADMIN, NEW_PASSWORD);
    // The console's session, as a login would leave it (e2e/support/page.ts openAs does the same).
    await page.addInitScript((u) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('userinfo', JSON.stringify(u)), { ...body.UserInfo, Token: body.Token });
    await page.addInitScript({ content: probe });
    await page.goto(`${server.base}/video/player/${encodeURIComponent(dev)}/1/0`);
    const read = () => page.evaluate(() => (globalThis as unknown as { __liveDrift: { sample(): DriftReading | null } }).__liveDrift.sample());
    const playingBy = Date.now() + 30_000;
    for (;;) {
      const r = await read();
      if (r && r.presentedFrames > 0 && r.currentTime > 0) break;
      if (Date.now() > playingBy) throw new Error(`drift: the player did not show a frame in 30 s (${JSON.stringify(r)})`);
      await sleep(500);
    }
    await sleep(WARMUP_S * 1000);
    const readings: DriftReading[] = [];
    const end = Date.now() + minutes * 60_000;
    let lastLog = 0;
    while (Date.now() < end) {
      const r = await read();
      if (!r) throw new Error('drift: the page has no <video> any more');
      readings.push(r);
      if (Date.now() - lastLog > 60_000) {
        lastLog = Date.now();
        const mins = (r.at - readings[0].at) / 60_000;
        ctx.log(
          `drift pace ${pace}: ${mins.toFixed(1)} min lag ${(r.sentEnd - r.shownMediaTime).toFixed(3)} s (buffer ${(r.bufEnd - r.currentTime).toFixed(3)} s, held ${(r.bufEnd - r.bufStart).toFixed(1)} s), rate ${r.playbackRate}, stalls ${r.waiting} (${(r.stalledMs / 1000).toFixed(1)} s), seeks ${r.seeks}, rate changes ${r.rateChanges}, frames ${r.presentedFrames}/${r.framesSent} (counter resets ${r.counterResets}, decoded ${r.totalVideoFrames}), heap ${(r.heap / 1e6).toFixed(1)} MB; load ${loadavg()}`,
        );
      }
      await sleep(everyS * 1000);
    }
    if (process.env.LIVE_DRIFT_DUMP) fs.writeFileSync(`${process.env.LIVE_DRIFT_DUMP}-${pace}.json`, JSON.stringify(readings));
    await context.close();
    return { pace, readings, from: readings[0] };
  } finally {
    await browser.close();
    await server.stop();
    await cam.stop();
  }
}

const lagOf = (r: DriftReading) => r.sentEnd - r.shownMediaTime;
const median = (xs: number[]) => percentile(xs, 50);

/** The last live.json's value of a figure (the baseline of a run that measured only skewed clocks). */
function previous(name: string): number | null {
  try {
    const all = (JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, 'live.json'), 'utf8')) as { figures: Figure[] }).figures;
    return all.find((f) => f.name === name)?.value ?? null;
  } catch {
    return null;
  }
}

export function figuresOf(s: Soak, minutes: number, trueClock: Map<string, number>): Figure[] {
  const rs = s.readings;
  const t0 = rs[0].at;
  const windowMin = Math.min(5, minutes / 3);
  const first = rs.filter((r) => r.at - t0 <= windowMin * 60_000);
  const last = rs.filter((r) => rs[rs.length - 1].at - r.at <= windowMin * 60_000);
  const a = rs[0];
  const z = rs[rs.length - 1];
  const lagFirst = first.map(lagOf);
  const lagLast = last.map(lagOf);
  const label = `${DRIFT_PREFIX}, ${paceLabel(s.pace)}, ${minutes} min, WS-fMP4 in Chromium`;
  const w = `${round(windowMin, 1)} min`;
  const sentDelta = z.framesSent - a.framesSent;
  const presentedDelta = z.presentedFrames - a.presentedFrames;
  const rows: [string, number, string, string | null][] = [
    [`${label}: lag p50, first ${w} (newest media received − media time on screen)`, median(lagFirst), 's', null],
    [`${label}: lag p99, first ${w}`, percentile(lagFirst, 99), 's', null],
    [`${label}: lag p50, last ${w}`, median(lagLast), 's', null],
    [`${label}: lag p99, last ${w}`, percentile(lagLast, 99), 's', null],
    [`${label}: worst lag after a ${WARMUP_S} s warm-up`, Math.max(...rs.map(lagOf)), 's', '< 1.8'],
    [`${label}: growth of the lag p50, first -> last ${w}`, median(lagLast) - median(lagFirst), 's', '< 0.5'],
    [`${label}: buffer lag p50, last ${w} (buffered end − currentTime)`, median(last.map((r) => r.bufEnd - r.currentTime)), 's', null],
    [`${label}: stalls ('waiting' events)`, z.waiting - a.waiting, 'events', null],
    [`${label}: time stalled`, (z.stalledMs - a.stalledMs) / 1000, 's', null],
    [`${label}: chase jumps (seeks)`, z.seeks - a.seeks, 'seeks', null],
    [`${label}: playbackRate changes`, z.rateChanges - a.rateChanges, 'changes', null],
    [`${label}: frames presented / frames received`, sentDelta ? presentedDelta / sentDelta : NaN, 'ratio', null],
    [`${label}: media player restarts under the <video> (presented-frame count from 0 again)`, (z.counterResets ?? 0) - (a.counterResets ?? 0), 'restarts', null],
    [`${label}: JS heap growth, first -> last ${w} (median)`, (median(last.map((r) => r.heap)) - median(first.map((r) => r.heap))) / 1e6, 'MB', '< 5'],
    [`${label}: SourceBuffer held at the end (buffered end − start)`, z.bufEnd - z.bufStart, 's', '<= 41'],
  ];
  return rows.map(([name, value, unit, goal]) => {
    const key = name.replace(paceLabel(s.pace), paceLabel(1));
    const base = s.pace === 1 ? null : (trueClock.get(key) ?? previous(key));
    const v = round(value, 3);
    return { name, value: v, unit, baseline: base, ratio: base ? round(v / base, 3) : null, goal };
  });
}

export async function measureDrift(ctx: LiveContext): Promise<Figure[]> {
  const minutes = Number(ctx.arg('minutes', '60'));
  const everyS = Number(ctx.arg('drift-sample', '5'));
  const paces = ctx.arg('drift-pace', '1,1.005,0.995').split(',').map(Number);
  if (!(minutes > 0) || !(everyS > 0) || paces.some((p) => !(p > 0.5 && p < 2))) throw new Error('drift: --minutes, --drift-sample > 0 and --drift-pace between 0.5 and 2');
  const dist = await webDist(ctx);
  const probe = (
    await build({ entryPoints: [path.join(ROOT, 'bench/live/page/drift-probe.ts')], bundle: true, write: false, format: 'iife', target: 'es2022', logLevel: 'silent' })
  ).outputFiles[0].text;
  const out: Figure[] = [];
  const trueClock = new Map<string, number>();
  // The true clock first: the skewed cases take its figures as their baseline.
  for (const pace of [...paces].sort((x, y) => Number(y === 1) - Number(x === 1))) {
    ctx.log(`drift: pace ${pace} (${paceLabel(pace)}) for ${minutes} min, a reading every ${everyS} s; load ${loadavg()}`);
    const s = await soak(ctx, dist, probe, pace, minutes, everyS);
    const figs = figuresOf(s, minutes, trueClock);
    if (pace === 1) for (const f of figs) trueClock.set(f.name, f.value);
    out.push(...figs);
  }
  return out;
}
