/**
 * inventory benchmark (`npm run bench -- inventory`).
 *
 * Data, per engine (SQLite, then PostgreSQL): 1,000 RTSP devices × 16 channels (RTSP URLs to a
 * closed loopback port; CHANNEL_CHECK_INTERVAL=0 so nothing probes them), 50 labels of 320
 * channels each plus 2 whole devices each, and a non-admin role given 10 of those labels with one
 * user. The server is started once to migrate; labels, the role, its grants and the user go through
 * the API; the server is stopped, devices, channels and label contents are inserted directly
 * (seed.ts; through the API that would take minutes), and the server starts again. The role's 10
 * labels reach every device (2 to 4 of its 16 channels) plus the 20 devices placed in them: the
 * operator's filter is applied to every device and every page exists for both users.
 *
 * Query plans and per-query times of the same calls: `node --import tsx bench/inventory/explain.ts`.
 *
 * API: wall time of each HTTP request on loopback, measured in this process (the server runs in its
 * own), one request at a time on one keep-alive connection. The calls below and the baseline
 * GET /api/v1/gethomeotherconfig (public, from the config cache: no database work) are taken in
 * turn, round after round (20 warm-up rounds, then 300), so background load on the machine falls on
 * every call alike; ratio = call / baseline is what the query work costs. p50 and p99 per call,
 * engine and user (admin; operator = the role above, whose queries add the role filter).
 *
 * Sidebar: headless Chromium with the admin's session in localStorage (as the console's session
 * store keeps it) opens /video/square/0 (the video tree is the admin's tab); an init script records
 * performance.now() (from navigation start) once the first frame showing the first device node
 * of the video tree visible is painted (markerScript), and likewise for the top bar's user menu
 * (baseline: the console renders it after the sidebar, see app/layout/TopBar.tsx). One
 * warm-up load, then the median of 3 loads each in a fresh context (cold cache: a first visit),
 * then the median of 3 loads in one context whose cache a first load filled (a returning user).
 * Each load is logged with where its time went (PHASES_SCRIPT: HTML, entry script, last script
 * before the tree, the tree's devices call, first paint, main-thread long tasks).
 *
 * Options: --only=sqlite|pg (one engine), --sidebar-only (no API sampling; both print only and
 * leave bench/results alone), --serve (seed, start the measured server of the first engine and keep
 * it up for profiling by hand: URL and admin session in $TMPDIR/opencvr-bench-inventory-LABEL.json),
 * INVENTORY_WEB_DIST=DIR (serve a console built elsewhere, e.g. unminified with source maps).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { writeFigures, type Figure } from '../lib/figures';
import {
  freePort,
  initialise,
  login,
  md5,
  NEW_PASSWORD,
  onCleanup,
  postForm,
  ROOT,
  runBench,
  startServer,
  type LoginBody,
  type Server,
} from '../lib/server';
import {
  deviceName,
  labelName,
  LABELS,
  MID_DEVICE,
  openDb,
  ROLE_LABELS,
  SEARCH,
  seedInventory,
  type Engine,
} from './seed';

const WEB_DIST = path.join(ROOT, 'apps/web/dist');
/** The console the servers serve: a private copy of apps/web/dist (others may rebuild it meanwhile). */
let webDist = WEB_DIST;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const WARMUP = 20;
const SAMPLES = 300;
const SIDEBAR_LOADS = 3;
const ADMIN = 'admin';
const OPERATOR = 'bench-operator';
const API_GOAL = '< 50';
const SIDEBAR_ONLY = process.argv.includes('--sidebar-only');
const SERVE = process.argv.includes('--serve');
const SIDEBAR_GOAL = '< 1000';

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

const T0 = Date.now();
const log = (m: string) => console.log(`[inventory ${((Date.now() - T0) / 1000).toFixed(0).padStart(3)} s] ${m}`);
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

// ---------------------------------------------------------------------------------------------
// The server, in its own process (bench/lib/server.ts); the data folder outlives a restart.
// ---------------------------------------------------------------------------------------------
function makeDataDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `opencvr-bench-inventory-${label}-`));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const serverOptions = (label: string, dataDir: string, databaseUrl?: string) => ({
  label,
  dataDir,
  databaseUrl,
  env: { CHANNEL_CHECK_INTERVAL: '0', WEB_DIST: webDist },
  log,
});

/** Labels, the operator's role with its 10 labels, and its user: through the API. */
async function seedThroughApi(base: string, token: string): Promise<{ labelIds: number[]; roleId: number }> {
  const labelIds: number[] = [];
  for (let l = 0; l < LABELS; l++) {
    const { ID } = await postForm<{ ID: number }>(base, '/api/v1/addlabel', token, {
      name: labelName(l),
      parentid: '0',
    });
    labelIds.push(ID);
  }
  const { ID: roleId } = await postForm<{ ID: number }>(base, '/api/v1/addrole', token, {
    name: 'bench-operators',
    describe: 'inventory benchmark',
  });
  await postForm(base, '/api/v1/role/channels', token, {
    roleid: String(roleId),
    labels: JSON.stringify(labelIds.slice(0, ROLE_LABELS)),
  });
  await postForm(base, '/api/v1/adduser', token, {
    username: OPERATOR,
    password: md5(NEW_PASSWORD),
    roleid: String(roleId),
  });
  return { labelIds, roleId };
}

// ---------------------------------------------------------------------------------------------
// Timing harness: one keep-alive connection, one request at a time.
// ---------------------------------------------------------------------------------------------
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function timed(port: number, urlPath: string, token?: string): Promise<{ ms: number; status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.get({ host: '127.0.0.1', port, path: urlPath, agent, headers: token ? { token } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          ms: performance.now() - t0,
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

interface Probe {
  key: string;
  name: string;
  path: string;
  token?: string;
  /** Checks the first answer, returns a short description of what it holds. */
  check(body: any): string;
}

interface Stats {
  p50: number;
  p99: number;
  mean: number;
}

async function sampleRoundRobin(port: number, probes: Probe[]): Promise<Map<string, Stats>> {
  for (const p of probes) {
    const r = await timed(port, p.path, p.token);
    if (r.status !== 200) throw new Error(`${p.path}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
    const json = JSON.parse(r.body);
    log(`    ${p.name}: ${p.check(json.EasyDarwin?.Body ?? json)}, ${Math.round(r.body.length / 1024)} kB`);
  }
  const samples = new Map(probes.map((p) => [p.key, [] as number[]]));
  for (let round = 0; round < WARMUP + SAMPLES; round++) {
    for (const p of probes) {
      const r = await timed(port, p.path, p.token);
      if (r.status !== 200) throw new Error(`${p.path}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
      if (round >= WARMUP) samples.get(p.key)!.push(r.ms);
    }
  }
  const out = new Map<string, Stats>();
  for (const [key, s] of samples) {
    const sorted = [...s].sort((a, b) => a - b);
    out.set(key, {
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      mean: s.reduce((a, b) => a + b, 0) / s.length,
    });
  }
  return out;
}

const need = (cond: unknown, what: string) => {
  if (!cond) throw new Error(`unexpected answer: ${what}`);
};

async function apiFigures(
  engine: Engine,
  server: Server,
  user: 'admin' | 'operator',
  token: string,
  labelId: number,
): Promise<Figure[]> {
  const q = (p: Record<string, string | number>) =>
    new URLSearchParams(Object.entries(p).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const devCheck = (b: any) => {
    need(Array.isArray(b.Devices) && b.Devices.length > 0, 'no devices');
    return `${b.Devices.length} of ${b.TotalCount} devices`;
  };
  const chCheck = (b: any) => {
    need(Array.isArray(b.Channels) && b.Channels.length > 0, 'no channels');
    return `${b.Channels.length} of ${b.ChannelCount} channels`;
  };
  const probes: Probe[] = [
    {
      key: 'dev1',
      name: 'devicesconfig page 1',
      path: `/api/v1/devicesconfig?${q({ start: 0, limit: 20 })}`,
      token,
      check: devCheck,
    },
    {
      key: 'dev50',
      name: 'devicesconfig page 50',
      path: `/api/v1/devicesconfig?${q({ start: 980, limit: 20 })}`,
      token,
      check: devCheck,
    },
    {
      key: 'chcfg',
      name: 'channelsconfig',
      path: `/api/v1/channelsconfig?${q({ device: MID_DEVICE, start: 0, limit: 20 })}`,
      token,
      check: chCheck,
    },
    {
      key: 'expand',
      name: 'tree expand',
      path: `/api/v1/channels?${q({ device: MID_DEVICE, start: 0, limit: 50 })}`,
      token,
      check: chCheck,
    },
    {
      key: 'search',
      name: 'search',
      path: `/api/v1/all/channels?${q({ q: SEARCH, start: 0, limit: 9999 })}`,
      token,
      check: chCheck,
    },
    {
      key: 'group',
      name: 'group tree',
      path: `/api/v1/group/children?${q({ labelid: labelId })}`,
      token,
      check: (b: any) => {
        need(Array.isArray(b.Nodes) && b.Nodes.length > 0, 'no nodes');
        return `${b.Nodes.length} nodes`;
      },
    },
    { key: 'base', name: 'baseline gethomeotherconfig', path: '/api/v1/gethomeotherconfig', check: () => 'ok' },
  ];
  log(`${engine}, ${user}: ${WARMUP} warm-up + ${SAMPLES} rounds of ${probes.length} calls`);
  const t0 = Date.now();
  const stats = await sampleRoundRobin(server.port, probes);
  log(`${engine}, ${user}: sampled in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const base = stats.get('base')!;
  log(`    ${'call'.padEnd(28)} ${'p50'.padStart(7)} ${'p99'.padStart(7)} ${'mean'.padStart(7)} ms`);
  for (const p of probes) {
    const s = stats.get(p.key)!;
    log(
      `    ${p.name.padEnd(28)} ${s.p50.toFixed(2).padStart(7)} ${s.p99.toFixed(2).padStart(7)} ${s.mean.toFixed(2).padStart(7)}`,
    );
  }
  const figures: Figure[] = [];
  for (const p of probes) {
    if (p.key === 'base') continue;
    const s = stats.get(p.key)!;
    figures.push({
      name: `${p.name} p50 (${engine}, ${user})`,
      value: round(s.p50),
      unit: 'ms',
      baseline: round(base.p50),
      ratio: round(s.p50 / base.p50, 2),
      goal: null,
    });
    figures.push({
      name: `${p.name} p99 (${engine}, ${user})`,
      value: round(s.p99),
      unit: 'ms',
      baseline: round(base.p99),
      ratio: round(s.p99 / base.p99, 2),
      goal: API_GOAL,
    });
  }
  return figures;
}

// ---------------------------------------------------------------------------------------------
// Sidebar: first level of the video tree in Chromium.
// ---------------------------------------------------------------------------------------------
/**
 * Stamps, from navigation start, the first frame painted with the first device node of the video
 * tree visible (in the DOM, laid out with a size, inside the viewport, not hidden by CSS), and
 * likewise for the top bar's user menu (baseline). A mutation that adds a candidate starts a
 * check at the next animation frame (layout done, repeated each frame until the node is
 * visible); the time is taken in a task posted from there, which runs once that frame is painted.
 */
function markerScript(firstDevice: string): string {
  return `(() => {
  const marks = (window.__benchMarks = {});
  const visible = (el) => {
    if (!el || !el.isConnected) return false;
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0 || r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth) return false;
    return el.checkVisibility ? el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) : true;
  };
  const find = {
    top: () => document.querySelector('[data-testid="user-menu"]'),
    tree: () => {
      for (const n of document.querySelectorAll('[data-testid="sider-spgc"] .ant-tree-treenode')) {
        if ((n.textContent || '').includes(${JSON.stringify(firstDevice)})) return n;
      }
      return null;
    },
  };
  window.__benchLongTasks = [];
  try {
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) window.__benchLongTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  const watching = {};
  const watch = (key) => {
    if (watching[key]) return;
    watching[key] = true;
    const frame = () => {
      if (!visible(find[key]())) return requestAnimationFrame(frame);
      const ch = new MessageChannel();
      ch.port1.onmessage = () => { marks[key] = performance.now(); };
      ch.port2.postMessage(0);
    };
    requestAnimationFrame(frame);
  };
  const observer = new MutationObserver(() => {
    if (!watching.top && find.top()) watch('top');
    if (!watching.tree && find.tree()) watch('tree');
    if (watching.top && watching.tree) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
})();`;
}

/** Times from navigation start (ms); `devicesCall`: start and end of the tree's GET /api/v1/devices. */
type Load = { tree: number; top: number; outer: number; devicesCall: [number, number] | null; phases: string };

/**
 * Where a load's time went, from the page's own timeline (ms from navigation start): the HTML,
 * the entry script, the last script that arrived before the tree showed, the tree's devices call,
 * the first paint, and the main thread's long tasks (> 50 ms) up to the tree (count, total).
 * Plain JavaScript in the init script: a function passed to page.evaluate would carry tsx's helpers.
 */
const PHASES_SCRIPT = `window.__benchPhases = (treeAt) => {
  const r = Math.round;
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  const js = res.filter((e) => e.name.endsWith('.js') && e.responseEnd <= treeAt);
  const entry = js.find((e) => /\\/assets\\/index-[^/]+\\.js$/.test(e.name));
  const last = js.reduce((a, e) => (!a || e.responseEnd > a.responseEnd ? e : a), null);
  const dev = res.find((e) => e.name.includes('/api/v1/devices?'));
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const long = (window.__benchLongTasks || []).filter((t) => t.start < treeAt);
  const busy = long.reduce((a, t) => a + t.duration, 0);
  const bytes = js.reduce((a, e) => a + (e.transferSize || 0), 0);
  return 'html ' + r(nav.responseEnd) + ', entry js ' + (entry ? r(entry.responseEnd) : '?') + ', ' + js.length +
    ' js (' + r(bytes / 1024) + ' kB over the wire) last at ' + (last ? r(last.responseEnd) + ' ' + last.name.split('/').pop() : '?') +
    ', devices ' + (dev ? r(dev.startTime) + '..' + r(dev.responseEnd) : '?') + ', fcp ' + (fcp ? r(fcp.startTime) : '?') +
    ', long tasks ' + long.length + ' = ' + r(busy) + ' ms [' + long.map((t) => r(t.start) + '+' + r(t.duration)).join(' ') + ']';
};`;

async function newSessionContext(browser: Browser, session: LoginBody): Promise<BrowserContext> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const stored = JSON.stringify({ ...session.UserInfo, Token: session.Token });
  await context.addInitScript({ content: `localStorage.setItem('userinfo', ${JSON.stringify(stored)});` });
  await context.addInitScript({ content: markerScript(deviceName(1)) });
  await context.addInitScript({ content: PHASES_SCRIPT });
  return context;
}

/** One load of /video/square/0 in a new page of `context`. */
async function sidebarLoad(context: BrowserContext, base: string): Promise<Load> {
  const page = await context.newPage();
  try {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('requestfailed', (r) => errors.push(`${r.url()} failed: ${r.failure()?.errorText ?? '?'}`));
    page.on('response', (r) => {
      if (r.status() >= 400) errors.push(`${r.url()}: HTTP ${r.status()}`);
    });
    const t0 = Date.now();
    await page.goto(`${base}/video/square/0`, { waitUntil: 'commit', timeout: 30_000 });
    const node = page.locator('[data-testid="sider-spgc"] .ant-tree-treenode', { hasText: deviceName(1) }).first();
    try {
      await node.waitFor({ state: 'visible', timeout: 30_000 });
    } catch (err) {
      const sider =
        (await page
          .locator('[data-testid="video-sider"]')
          .first()
          .textContent()
          .catch(() => null)) ?? '(no sidebar)';
      throw new Error(
        `the first device node did not show on ${page.url()}: ${(err as Error).message.split('\n')[0]}; sidebar text: ${sider.slice(0, 200)}${errors.length ? `; page errors: ${errors.join(' | ')}` : ''}`,
      );
    }
    const outer = Date.now() - t0;
    await page.waitForFunction(
      () => {
        const m = (globalThis as unknown as { __benchMarks?: Record<string, number> }).__benchMarks;
        return m && typeof m.tree === 'number' && typeof m.top === 'number';
      },
      undefined,
      { timeout: 10_000 },
    );
    const marks = (await page.evaluate(
      () => (globalThis as unknown as { __benchMarks: Record<string, number> }).__benchMarks,
    )) as Record<string, number>;
    const devicesCall = await page.evaluate(() => {
      const e = performance.getEntriesByType('resource').find((r) => r.name.includes('/api/v1/devices?')) as
        { startTime: number; responseEnd: number } | undefined;
      return e ? ([e.startTime, e.responseEnd] as [number, number]) : null;
    });
    const phaseText = (await page.evaluate(`window.__benchPhases(${marks.tree})`)) as string;
    if (errors.length) log(`    page errors: ${errors.join(' | ')}`);
    return { tree: marks.tree, top: marks.top, outer, devicesCall, phases: phaseText };
  } finally {
    await page.close();
  }
}

/** A first visit: a fresh context (empty HTTP cache) per load. */
async function coldLoad(browser: Browser, base: string, session: LoginBody): Promise<Load> {
  const context = await newSessionContext(browser, session);
  try {
    return await sidebarLoad(context, base);
  } finally {
    await context.close();
  }
}

async function sidebarFigures(browser: Browser, engine: Engine, base: string, session: LoginBody): Promise<Figure[]> {
  await coldLoad(browser, base, session); // warm-up: server code paths, OS file cache
  const cold: Load[] = [];
  for (let i = 0; i < SIDEBAR_LOADS; i++) cold.push(await coldLoad(browser, base, session));
  // A returning user: one context, its HTTP cache filled by a first load.
  const warm: Load[] = [];
  const context = await newSessionContext(browser, session);
  try {
    await sidebarLoad(context, base);
    for (let i = 0; i < SIDEBAR_LOADS; i++) warm.push(await sidebarLoad(context, base));
  } finally {
    await context.close();
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const figures: Figure[] = [];
  for (const [kind, loads] of [
    ['cold cache', cold],
    ['warm cache', warm],
  ] as const) {
    const tree = med(loads.map((l) => l.tree));
    const top = med(loads.map((l) => l.top));
    const ms = (xs: number[]) => xs.map((x) => Math.round(x)).join(', ');
    log(
      `${engine} sidebar, ${kind}: first device node at ${ms(loads.map((l) => l.tree))} ms; top bar at ${ms(loads.map((l) => l.top))} ms; GET devices ${loads
        .map((l) => (l.devicesCall ? `${Math.round(l.devicesCall[0])}..${Math.round(l.devicesCall[1])}` : '?'))
        .join(', ')} ms; goto..visible (outside) ${ms(loads.map((l) => l.outer))} ms`,
    );
    for (const l of loads) log(`    tree at ${Math.round(l.tree)} ms: ${l.phases}`);
    figures.push({
      name: `sidebar first tree level visible (${engine}, admin, ${kind}, median of ${SIDEBAR_LOADS})`,
      value: Math.round(tree),
      unit: 'ms',
      baseline: Math.round(top),
      ratio: round(tree / top, 2),
      goal: SIDEBAR_GOAL,
    });
  }
  return figures;
}

// ---------------------------------------------------------------------------------------------
async function runEngine(engine: Engine, browser: Browser | undefined, failures: string[]): Promise<Figure[]> {
  const label = engine === 'SQLite' ? 'sqlite' : 'pg';
  let url: string | undefined;
  if (engine === 'PostgreSQL') {
    const pgServer = await startPostgres({ log });
    onCleanup(() => pgServer.stop());
    url = pgServer.url;
  }
  const dataDir = makeDataDir(label);

  // 1. Migrate, initialise, labels + role + user through the API.
  let server = await startServer(serverOptions(`${label}, seeding`, dataDir, url));
  const admin0 = await initialise(server.url);
  const { labelIds } = await seedThroughApi(server.url, admin0.Token);
  await server.stop();

  // 2. Devices, channels, label contents directly.
  const t0 = Date.now();
  const rtspPort = await freePort(); // nothing listens there
  const db = openDb(engine, dataDir, url);
  try {
    await seedInventory(engine, db, labelIds, rtspPort);
    const count = async (t: 'devices' | 'channels' | 'label_channels' | 'label_devices' | 'role_labels') =>
      Number(
        (
          await db
            .selectFrom(t)
            .select((eb) => eb.fn.countAll<string | number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    log(
      `${engine}: inserted ${await count('devices')} devices, ${await count('channels')} channels, ${await count('label_channels')} label channels, ${await count('label_devices')} label devices (${await count('role_labels')} role labels) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
  } finally {
    await db.destroy();
  }

  // 3. The measured server.
  server = await startServer(serverOptions(label, dataDir, url));
  const adminSession = await login(server.url, ADMIN, NEW_PASSWORD);
  const operatorSession = await login(server.url, OPERATOR, NEW_PASSWORD);
  const figures: Figure[] = [];
  if (SERVE) {
    // For profiling by hand: the seeded server stays up until Ctrl-C.
    fs.writeFileSync(
      path.join(os.tmpdir(), `opencvr-bench-inventory-${label}.json`),
      JSON.stringify({ url: server.url, session: adminSession }),
    );
    log(`${engine}: serving ${server.url} (session in ${os.tmpdir()}/opencvr-bench-inventory-${label}.json) until Ctrl-C`);
    await new Promise(() => undefined);
  }
  if (!SIDEBAR_ONLY) {
    figures.push(...(await apiFigures(engine, server, 'admin', adminSession.Token, labelIds[0])));
    figures.push(...(await apiFigures(engine, server, 'operator', operatorSession.Token, labelIds[0])));
  }
  if (browser) {
    try {
      figures.push(...(await sidebarFigures(browser, engine, server.url, adminSession)));
    } catch (err) {
      failures.push(`sidebar (${engine}): ${(err as Error).message}`);
    }
  }
  await server.stop();
  return figures;
}

/**
 * Builds the console when needed and copies apps/web/dist to a temp folder, checking that every
 * file index.html names is there: a build by someone else in the middle of the run (vite empties
 * dist first) must not break the page loads.
 */
function snapshotWeb(): string {
  let last = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    buildWeb({ log });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencvr-bench-inventory-web-'));
    onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
    try {
      fs.cpSync(WEB_DIST, dir, { recursive: true });
      const index = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
      const refs = [...index.matchAll(/(?:src|href)="\/([^"?#]+\.(?:js|css))"/g)].map((m) => m[1]);
      const missing = refs.filter((r) => !fs.existsSync(path.join(dir, r)));
      if (!refs.length) throw new Error('index.html names no JS/CSS');
      if (missing.length) throw new Error(`missing ${missing.join(', ')}`);
      return dir;
    } catch (err) {
      last = (err as Error).message;
      log(`console copy ${attempt} incomplete (${last}); again in 5 s`);
      spawnSync('sleep', ['5']);
    }
  }
  throw new Error(`could not take a complete copy of apps/web/dist: ${last}`);
}

async function main(): Promise<number> {
  const t0 = Date.now();
  log(`load average at start: ${fs.readFileSync('/proc/loadavg', 'utf8').trim()} (${os.cpus().length} CPUs)`);
  const figures: Figure[] = [];
  const failures: string[] = [];

  let browser: Browser | undefined;
  try {
    // INVENTORY_WEB_DIST: a console built elsewhere (e.g. unminified with source maps, for profiling).
    webDist = process.env.INVENTORY_WEB_DIST ?? snapshotWeb();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        // This Chromium (156) loads its omnibox popup WebUIs (chrome://omnibox-popup.top-chrome)
        // into every new window: on this 2-core machine that renderer took ~380 ms of CPU in
        // the middle of each measured load. A user's browser has them loaded before they navigate.
        '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
      ],
    });
    const b = browser;
    onCleanup(() => b.close());
  } catch (err) {
    failures.push(`console: ${(err as Error).message}`);
  }

  // `npm run bench -- inventory --only=sqlite` (or pg): one engine, printed only, for a quick look.
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const engines = (['SQLite', 'PostgreSQL'] as const).filter(
    (e) => !only || (only === 'pg' ? e === 'PostgreSQL' : e.toLowerCase() === only),
  );
  if (!engines.length) throw new Error(`--only=${only}: use sqlite or pg`);
  for (const engine of engines) {
    figures.push(...(await runEngine(engine, browser, failures)));
  }

  if (only || SIDEBAR_ONLY) {
    // A partial run does not replace bench/results/inventory.json.
    for (const f of figures)
      log(`${f.name}: ${f.value} ${f.unit} (baseline ${f.baseline}, ratio ${f.ratio}, goal ${f.goal ?? '-'})`);
  } else writeFigures('inventory', figures);
  log(
    `load average at end: ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}; run took ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  for (const f of failures) console.error(`[inventory] NOT MEASURED: ${f}`);
  return failures.length ? 1 : 0;
}

await runBench('inventory', main, () => agent.destroy());
