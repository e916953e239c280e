/**
 * Part "first-frame" of the live bench: time from `getchannelstream` to the first decoded frame in
 * Chromium (/usr/bin/chromium through playwright-core), for a running stream and for an on-demand
 * stream not yet open. The page (bench/live/page/first-frame.ts, bundled here by esbuild) runs the
 * console's own WS-fMP4 player engine; it is served on the server's origin by Playwright's routing,
 * so the calls are same-origin as in the console. The clock starts in the page before the call and
 * stops at the presentation time of the first frame (requestVideoFrameCallback). Each sample is a
 * fresh page in one browser context (the browser itself is warm, as an operator's is). The log shows
 * each sample's steps (getchannelstream answered / first media bytes / media buffered), so a slow
 * start can be put on the server, the WebSocket or the browser's decoder.
 *
 * Running: one WebSocket viewer in this process keeps the stream live. On-demand: a new device each
 * time on the bench camera (its pipeline already runs, so this is RTSP set-up + the wait for the next
 * keyframe + MSE start), stopped after; starts are spread over the GOP (2 s).
 */
import path from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import type { Figure } from '../lib/figures';
import { call, onCleanup, ROOT } from '../lib/server';
import { addDevice, loadavg, percentile, playUrls, round, sleep, startServer, within, wsViewer, type BenchServer, type LiveContext } from './support';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// A page fulfilled by Playwright has no server address, so Chromium counts it as public and blocks
// its WebSocket to loopback (Local Network Access); the console itself is served from the server.
const ARGS = ['--disable-features=LocalNetworkAccessChecks', '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--autoplay-policy=no-user-gesture-required'];
const PAGE = '/__bench/first-frame.html';
/** GOP of the bench camera (bench/live/camera.py clip: 50 frames at 25 fps). */
const GOP_S = 2;

async function bundle(page: string): Promise<string> {
  const out = await build({
    entryPoints: [path.resolve(ROOT, page)],
    bundle: true,
    write: false,
    format: 'iife',
    target: 'es2022',
    logLevel: 'silent',
  });
  return out.outputFiles[0].text;
}

async function sample(browser: Browser, server: BenchServer, script: string, device: string): Promise<FirstFrameSample> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    if (process.env.LIVE_DEBUG) {
      page.on('console', (m) => console.log('[page]', m.text()));
      page.on('websocket', (ws) => {
        console.log('[page] websocket', ws.url());
        ws.on('close', () => console.log('[page] websocket closed'));
        ws.on('socketerror', (e) => console.log('[page] websocket error', e));
      });
    }
    await page.route(`${server.base}${PAGE}`, (route) =>
      route.fulfill({ contentType: 'text/html', body: `<!doctype html><html><body><script>${script.replace(/<\/script/gi, '<\\/script')}</script></body></html>` }),
    );
    await page.goto(`${server.base}${PAGE}`);
    // Runs in the page, where the bundle defined benchFirstFrame.
    return await page.evaluate(([d, t]) => (globalThis as unknown as BenchPage).benchFirstFrame(d, t), [device, server.token] as const);
  } finally {
    await context.close();
  }
}

/** What the page answers (page/first-frame.ts, compiled for the browser on its own): ms from the call. */
interface FirstFrameSample {
  ms: number;
  answerMs: number;
  firstBytesMs?: number;
  bufferedMs?: number;
}

interface BenchPage {
  benchFirstFrame(device: string, token: string): Promise<FirstFrameSample>;
}

/** "total (answer / first bytes / buffered)" in ms, for the log: where a slow start spent its time. */
const steps = (s: FirstFrameSample) =>
  `${s.ms.toFixed(0)} (${[s.answerMs, s.firstBytesMs, s.bufferedMs].map((x) => (x === undefined ? '-' : x.toFixed(0))).join('/')})`;

export async function measureFirstFrame(ctx: LiveContext): Promise<Figure[]> {
  const runningN = Number(ctx.arg('first-frame-running', '10'));
  const onDemandN = Number(ctx.arg('first-frame-ondemand', '6'));
  // --first-frame-page=FILE: another page (e.g. an older copy of the engine, to compare start-ups);
  // its figures are named after it so they are not taken for the console engine's.
  const DEFAULT_PAGE = 'bench/live/page/first-frame.ts';
  const page = ctx.arg('first-frame-page', DEFAULT_PAGE);
  const pageNote = page === DEFAULT_PAGE ? '' : ` [page ${page}]`;
  const script = await bundle(page);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  onCleanup(() => browser.close());
  const server = await startServer(ctx, 'first-frame');
  const keepers: { close(): Promise<void> }[] = [];
  try {
    // Running stream: kept live by a viewer in this process.
    const main = await addDevice(server, 'bench-ff-main', ctx.cameraUrl(60_000));
    const keeper = wsViewer((await playUrls(server, main)).WS_FMP4);
    keepers.push(keeper);
    await within(keeper.ready, 30_000, 'keeper viewer');
    await sleep(3000);
    await sample(browser, server, script, main); // the browser's first media page (codec start-up), not counted
    const runningSamples: FirstFrameSample[] = [];
    for (let i = 0; i < runningN; i++) {
      runningSamples.push(await sample(browser, server, script, main));
      await sleep(300 + 170 * i); // different phases of the GOP
    }
    const running = runningSamples.map((x) => x.ms);
    ctx.log(`first frame, running stream, ms total (answer/first bytes/buffered): ${runningSamples.map(steps).join(' ')}; load ${loadavg()}`);

    const onDemandSamples: FirstFrameSample[] = [];
    for (let i = 0; i < onDemandN; i++) {
      const d = await addDevice(server, `bench-ff-od-${i}`, ctx.cameraUrl(61_000 + i));
      onDemandSamples.push(await sample(browser, server, script, d));
      await call(server.base, `/api/v1/stopstream?device=${d}&channel=1`, { headers: { token: server.token } });
      await sleep(700 + 330 * i);
    }
    const onDemand = onDemandSamples.map((x) => x.ms);
    ctx.log(`first frame, on-demand stream, ms total (answer/first bytes/buffered): ${onDemandSamples.map(steps).join(' ')}; load ${loadavg()}`);

    const fig = (name: string, xs: number[], goal: string): Figure[] => [
      { name: `${name}, median of ${xs.length}${pageNote}`, value: round(percentile(xs, 50), 1), unit: 'ms', baseline: null, ratio: null, goal },
      { name: `${name}, worst of ${xs.length}${pageNote}`, value: round(Math.max(...xs), 1), unit: 'ms', baseline: null, ratio: null, goal },
    ];
    return [
      ...fig('getchannelstream -> first decoded frame in Chromium (WS-fMP4, console player engine), running stream', running, '< 500'),
      ...fig(`getchannelstream -> first decoded frame in Chromium (WS-fMP4), on-demand stream not yet open, GOP ${GOP_S} s`, onDemand, `< ${1500 + GOP_S * 1000}`),
    ];
  } finally {
    await Promise.all(keepers.map((k) => k.close()));
    await server.stop();
  }
}
