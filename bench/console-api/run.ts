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
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import autocannon, { type Result } from 'autocannon';
import { chromium, type Browser } from 'playwright-core';
import { writeFigures, type Figure } from '../lib/figures';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WEB_DIST = path.join(ROOT, 'apps/web/dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CONNECTIONS = 50;
const WARMUP_S = 2;
const DURATION_S = 10;
const ADMIN = 'admin';
const DEFAULT_PASSWORD = 'admin';
const NEW_PASSWORD = 'Str0ng!Pass';
const KB = 1024;

// The scripts are plain .mjs without declarations: import them by path and type what we use.
interface Pg {
  url: string;
  stop(): Promise<void>;
}
const { startPostgres } = (await import(path.join(ROOT, 'scripts/pg.mjs'))) as {
  startPostgres(opts?: { log?: (m: string) => void }): Promise<Pg>;
};
const { freePort } = (await import(path.join(ROOT, 'scripts/bootstrap.mjs'))) as {
  freePort(host?: string): Promise<number>;
};
const { buildWeb } = (await import(path.join(ROOT, 'scripts/web-build.mjs'))) as {
  buildWeb(opts?: { force?: boolean; log?: (m: string) => void }): boolean;
};

const log = (m: string) => console.log(`[console-api] ${m}`);
const md5 = (s: string) => crypto.createHash('md5').update(s).digest('hex');
const gzipSize = (buf: Buffer) => zlib.gzipSync(buf, { level: 9 }).length;
const kb = (bytes: number) => Math.round((bytes / KB) * 10) / 10;
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

// ---------------------------------------------------------------------------------------------
// Clean-up: everything started registers a synchronous-enough stop, run on success, failure,
// Ctrl-C and, as a last resort, process exit.
// ---------------------------------------------------------------------------------------------
const cleanups: Array<() => Promise<void> | void> = [];
let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length) {
      const fn = cleanups.pop()!;
      try {
        await fn();
      } catch (err) {
        console.error(`[console-api] clean-up: ${(err as Error).message}`);
      }
    }
  })();
  return cleaning;
}
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
let interrupted = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    interrupted = true;
    console.error(`[console-api] ${sig}: stopping`);
    void cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// The server, in its own process.
// ---------------------------------------------------------------------------------------------
interface Server {
  base: string;
  stop(): Promise<void>;
}

async function startServer(label: string, databaseUrl?: string): Promise<Server> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `opencvr-bench-${label}-`));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const logFile = path.join(dataDir, 'server.log');
  const out = fs.openSync(logFile, 'a');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    WEB_DIST,
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', out, out],
  });
  children.add(child);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    children.delete(child);
    fs.closeSync(out);
  };
  cleanups.push(stop);

  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  let last = '';
  for (;;) {
    if (child.exitCode !== null) last = `exited with code ${child.exitCode}`;
    else {
      try {
        const res = await fetch(`${base}/api/v1/gethomeotherconfig`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) break;
        last = `HTTP ${res.status}`;
      } catch (err) {
        last = (err as Error).message;
      }
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
      throw new Error(`server (${label}) did not start: ${last}\n--- server output ---\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  log(`server (${label}) at ${base}, pid ${child.pid}`);
  return { base, stop };
}

// ---------------------------------------------------------------------------------------------
// API helpers
// ---------------------------------------------------------------------------------------------
interface Envelope<T> {
  EasyDarwin?: { Header: { ErrorNum: string; ErrorString: string }; Body: T };
  code?: number;
  msg?: string;
}

async function call<T>(base: string, url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(base + url, init);
  const json = (await res.json()) as Envelope<T>;
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: HTTP ${res.status} ${json.msg ?? ''}`);
  return (json.EasyDarwin?.Body ?? json) as T;
}

interface LoginBody {
  Token: string;
  UserInfo: Record<string, unknown>;
}

const login = (base: string, password: string) =>
  call<LoginBody>(base, `/api/v1/login?${new URLSearchParams({ username: ADMIN, password: md5(password) })}`);

const postForm = (base: string, url: string, token: string, form: Record<string, string>) =>
  call<unknown>(base, url, {
    method: 'POST',
    headers: { token, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });

/** First-run initialisation and network choice, so every page and call answers normally. */
async function initialise(base: string): Promise<LoginBody> {
  const first = await login(base, DEFAULT_PASSWORD);
  await postForm(base, '/api/v1/setinitial', first.Token, {
    SipPassword: 'Sip12345',
    EhomePassword: 'Ehome12345',
    OldPassword: md5(DEFAULT_PASSWORD),
    NewPassword: NEW_PASSWORD,
  });
  const session = await login(base, NEW_PASSWORD);
  await postForm(base, '/api/v1/setip', session.Token, { sip_host: '127.0.0.1' });
  return session;
}

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
  cleanups.push(() => browser.close());
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

  const sqlite = await startServer('sqlite');
  const sqliteSession = await initialise(sqlite.base);
  if (webReady) {
    try {
      figures.push(...(await consoleFigures(sqlite.base, sqliteSession)));
    } catch (err) {
      failures.push(`console sizes: ${(err as Error).message}`);
    }
  }
  figures.push(...(await apiFigures('SQLite', sqlite.base, sqliteSession.Token)));
  await sqlite.stop();

  const pg = await startPostgres({ log });
  cleanups.push(() => pg.stop());
  const pgServer = await startServer('pg', pg.url);
  const pgSession = await initialise(pgServer.base);
  figures.push(...(await apiFigures('PostgreSQL', pgServer.base, pgSession.Token)));

  writeFigures('console-api', figures);
  for (const f of failures) console.error(`[console-api] NOT MEASURED: ${f}`);
  return failures.length ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  if (!interrupted) console.error(`[console-api] failed: ${(err as Error).stack ?? err}`);
} finally {
  await cleanup();
}
process.exit(code);
