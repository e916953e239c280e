/**
 * console-api benchmark (`npm run bench -- console-api`).
 *
 * Console: gzip size (zlib level 9, measured here whatever the server sends) of every JS and CSS
 * response a cold headless Chromium loads for /login and for /video (logged in, platform
 * initialised) until the network is idle. Baseline: all JS+CSS in apps/web/dist/assets, i.e. what
 * a build without route splitting would load.
 *
 * API: autocannon, 50 connections on loopback, 2 s warm-up then 10 s, against GET
 * /api/v1/getuserinfo with a valid token, on SQLite and on PostgreSQL. Baseline: the public
 * /api/v1/gethomeotherconfig (no token, served from the config cache) on the same server in the
 * same run, so the ratio is the cost of authentication + the user query. The server runs in its
 * own process (LOG_LEVEL=warn: no per-request log lines).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import autocannon, { type Result } from 'autocannon';
import { chromium, type Browser } from 'playwright-core';
import { writeFigures, type Figure } from '../lib/figures';
import { call, initialise, onCleanup, ROOT, runBench, startServer, type LoginBody } from '../lib/server';

const WEB_DIST = path.join(ROOT, 'apps/web/dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CONNECTIONS = 50;
const WARMUP_S = 2;
const DURATION_S = 10;
const KB = 1024;

// The scripts are plain .mjs without declarations: import them by path and type what we use.
interface Pg {
  url: string;
  stop(): Promise<void>;
}
const { startPostgres } = (await import(path.join(ROOT, 'scripts/pg.mjs'))) as {
  startPostgres(opts?: { log?: (m: string) => void }): Promise<Pg>;
};
const { buildWeb } = (await import(path.join(ROOT, 'scripts/web-build.mjs'))) as {
  buildWeb(opts?: { force?: boolean; log?: (m: string) => void }): boolean;
};

const log = (m: string) => console.log(`[console-api] ${m}`);
const gzipSize = (buf: Buffer) => zlib.gzipSync(buf, { level: 9 }).length;
const kb = (bytes: number) => Math.round((bytes / KB) * 10) / 10;
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

// ---------------------------------------------------------------------------------------------
// Console sizes
// ---------------------------------------------------------------------------------------------
function isCode(url: string, contentType: string): 'js' | 'css' | null {
  const p = new URL(url).pathname;
  if (/\.(m?js)$/.test(p) || /javascript/.test(contentType)) return 'js';
  if (/\.css$/.test(p) || /text\/css/.test(contentType)) return 'css';
  return null;
}

/** Sum of gzip sizes of all JS and CSS files under dist/assets: what an unsplit build loads. */
function distBaseline(): { bytes: number; files: number } {
  const dir = path.join(WEB_DIST, 'assets');
  let bytes = 0;
  let files = 0;
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(m?js|css)$/.test(e.name)) {
        bytes += gzipSize(fs.readFileSync(p));
        files++;
      }
    }
  };
  walk(dir);
  return { bytes, files };
}

interface PageLoad {
  bytes: number;
  files: { url: string; kind: string; raw: number; gz: number }[];
  finalUrl: string;
  marker: string;
}

/** Opens `route` in a fresh context (cold cache) and sums the gzip size of every JS/CSS response. */
async function measurePage(browser: Browser, base: string, route: string, session?: LoginBody): Promise<PageLoad> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    if (session) {
      // As the console's session store does: user info carrying its Token under 'userinfo'.
      const stored = JSON.stringify({ ...session.UserInfo, Token: session.Token });
      await context.addInitScript({ content: `localStorage.setItem('userinfo', ${JSON.stringify(stored)});` });
    }
    const page = await context.newPage();
    const pending: Promise<void>[] = [];
    const seen = new Map<string, PageLoad['files'][number]>();
    page.on('response', (res) => {
      const kind = isCode(res.url(), res.headers()['content-type'] ?? '');
      if (!kind || seen.has(res.url()) || res.status() !== 200) return;
      const entry = { url: new URL(res.url()).pathname, kind, raw: 0, gz: 0 };
      seen.set(res.url(), entry);
      pending.push(
        res.body().then(
          (body) => {
            entry.raw = body.length;
            entry.gz = gzipSize(body);
          },
          (err: Error) => {
            throw new Error(`could not read ${res.url()}: ${err.message}`);
          },
        ),
      );
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(base + route, { waitUntil: 'networkidle', timeout: 60_000 });
    // Lazy chunks requested after the first idle moment (route redirect, Suspense): settle again.
    await page.waitForTimeout(500);
    await page.waitForLoadState('networkidle', { timeout: 30_000 });
    await Promise.all(pending);
    if (errors.length) log(`${route}: page errors: ${errors.join(' | ')}`);
    const finalUrl = new URL(page.url()).pathname;
    let marker = 'none';
    if (await page.locator('[data-testid="user-menu"]').count()) {
      marker = (await page.locator('[data-testid="unavailable"]').count())
        ? 'console layout, page placeholder'
        : 'console layout';
    } else if (await page.locator('input#password, input[type="password"]').count()) marker = 'login form';
    const files = [...seen.values()];
    return { bytes: files.reduce((s, f) => s + f.gz, 0), files, finalUrl, marker };
  } finally {
    await context.close();
  }
}

function printLoad(route: string, load: PageLoad) {
  log(`${route} -> ${load.finalUrl} (${load.marker}): ${load.files.length} files, ${kb(load.bytes)} kB gzip`);
  for (const f of load.files.sort((a, b) => b.gz - a.gz)) {
    log(
      `    ${f.kind.padEnd(3)} ${String(kb(f.gz)).padStart(7)} kB gz ${String(kb(f.raw)).padStart(8)} kB raw  ${f.url}`,
    );
  }
}

async function consoleFigures(base: string, session: LoginBody): Promise<Figure[]> {
  const baseline = distBaseline();
  log(`dist/assets: ${baseline.files} JS/CSS files, ${kb(baseline.bytes)} kB gzip (baseline)`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  onCleanup(() => browser.close());
  try {
    const loginLoad = await measurePage(browser, base, '/login');
    printLoad('/login', loginLoad);
    if (loginLoad.finalUrl !== '/login') throw new Error(`/login ended on ${loginLoad.finalUrl}`);
    const videoLoad = await measurePage(browser, base, '/video', session);
    printLoad('/video', videoLoad);
    if (!videoLoad.finalUrl.startsWith('/video')) {
      throw new Error(`/video ended on ${videoLoad.finalUrl} (${videoLoad.marker}): the session was not accepted`);
    }
    const b = kb(baseline.bytes);
    return [
      {
        name: 'console /login JS+CSS (gzip)',
        value: kb(loginLoad.bytes),
        unit: 'kB',
        baseline: b,
        ratio: round(loginLoad.bytes / baseline.bytes, 3),
        goal: '< 250',
      },
      {
        name: 'console /video JS+CSS (gzip)',
        value: kb(videoLoad.bytes),
        unit: 'kB',
        baseline: b,
        ratio: round(videoLoad.bytes / baseline.bytes, 3),
        goal: '< 400',
      },
    ];
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------------------------
// API load
// ---------------------------------------------------------------------------------------------
async function load(url: string, headers: Record<string, string>, duration: number): Promise<Result> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1, timeout: 10, headers });
  if (r.non2xx || r.errors || r.timeouts) {
    throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts of ${r.requests.total}`);
  }
  return r;
}

async function measure(url: string, headers: Record<string, string>) {
  await load(url, headers, WARMUP_S);
  const r = await load(url, headers, DURATION_S);
  return { rps: r.requests.average, p99: r.latency.p99, p50: r.latency.p50, total: r.requests.total };
}

async function apiFigures(engine: 'SQLite' | 'PostgreSQL', base: string, token: string): Promise<Figure[]> {
  const check = await call<{ id: number }>(base, '/api/v1/getuserinfo', { headers: { token } });
  if (!check.id) throw new Error('getuserinfo did not answer a user');
  const user = await measure(`${base}/api/v1/getuserinfo`, { token });
  log(
    `${engine} getuserinfo: ${round(user.rps)} req/s, p50 ${user.p50} ms, p99 ${user.p99} ms (${user.total} requests)`,
  );
  const pub = await measure(`${base}/api/v1/gethomeotherconfig`, {});
  log(
    `${engine} gethomeotherconfig: ${round(pub.rps)} req/s, p50 ${pub.p50} ms, p99 ${pub.p99} ms (${pub.total} requests)`,
  );
  return [
    {
      name: `getuserinfo req/s (${engine}, 50 conn)`,
      value: round(user.rps),
      unit: 'req/s',
      baseline: round(pub.rps),
      ratio: round(user.rps / pub.rps, 3),
      goal: '>= 2000',
    },
    {
      name: `getuserinfo p99 (${engine}, 50 conn)`,
      value: user.p99,
      unit: 'ms',
      baseline: pub.p99,
      ratio: pub.p99 ? round(user.p99 / pub.p99, 3) : null,
      goal: '< 50',
    },
  ];
}

// ---------------------------------------------------------------------------------------------
async function main(): Promise<number> {
  const figures: Figure[] = [];
  const failures: string[] = [];

  // The console build is optional for the API part: measure what can be measured, report the rest.
  let webReady = false;
  try {
    buildWeb({ log });
    webReady = fs.existsSync(path.join(WEB_DIST, 'index.html'));
    if (!webReady) throw new Error('apps/web/dist/index.html is missing after the build');
  } catch (err) {
    failures.push(`console build: ${(err as Error).message}`);
  }

  const sqlite = await startServer({ label: 'sqlite', env: { WEB_DIST }, log });
  const sqliteSession = await initialise(sqlite.url);
  if (webReady) {
    try {
      figures.push(...(await consoleFigures(sqlite.url, sqliteSession)));
    } catch (err) {
      failures.push(`console sizes: ${(err as Error).message}`);
    }
  }
  figures.push(...(await apiFigures('SQLite', sqlite.url, sqliteSession.Token)));
  await sqlite.stop();

  const pg = await startPostgres({ log });
  onCleanup(() => pg.stop());
  const pgServer = await startServer({ label: 'pg', databaseUrl: pg.url, env: { WEB_DIST }, log });
  const pgSession = await initialise(pgServer.url);
  figures.push(...(await apiFigures('PostgreSQL', pgServer.url, pgSession.Token)));

  writeFigures('console-api', figures);
  for (const f of failures) console.error(`[console-api] NOT MEASURED: ${f}`);
  return failures.length ? 1 : 0;
}

await runBench('console-api', main);
