#!/usr/bin/env node
/**
 * `npm test`: installs what is missing, then runs every stage and prints one summary line:
 *
 *   typecheck → lint → unit (vitest on SQLite: shared, server, web) → pg (server tests on a
 *   throwaway PostgreSQL) → e2e (web and server builds, Playwright in Debian's Chromium)
 *
 * Options (after `npm test --`):
 *   --only NAME[,NAME]   run only these stages (typecheck, lint, unit, pg, e2e)
 *   --skip NAME[,NAME]   skip these stages;  --skip-e2e  same as --skip e2e
 *   --no-bootstrap       do not check Debian packages / npm dependencies
 *
 * Every stage runs even after a failure so the summary is complete. The last line is
 * `tests: N passed, M failed`; the exit code is 1 when anything failed.
 *
 * A failed test runs once more (TEST_RETRIES, default 1; 0 turns it off): a broken behaviour fails
 * twice and fails the run, while a test that only lost a race with a loaded machine passes on its
 * retry. Such a test is never hidden: the summary lists every one under "flaky" with its first
 * failure, and .tmp/test-results/flaky.txt keeps the list, so it gets fixed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { AsyncLocalStorage } from 'node:async_hooks';
import { bootstrap, ROOT } from './bootstrap.mjs';

const STAGES = ['typecheck', 'lint', 'unit', 'pg', 'e2e'];
/**
 * Stages of a group run at the same time: the machine has few cores and much of a stage is waiting
 * (sockets, timers, a browser), so pairing a CPU-light stage with a heavy one shortens the whole run.
 * The first stage of a group prints as it goes; the others write to .tmp/test-results/NAME.log,
 * printed when the group ends. TEST_SERIAL=1 runs every stage alone, in order.
 */
const GROUPS = process.env.TEST_SERIAL ? STAGES.map((s) => [s]) : [['typecheck', 'lint'], ['unit'], ['e2e', 'pg']];
/** The file descriptor a concurrently running stage's commands write to (unset: the terminal). */
const stageOut = new AsyncLocalStorage();
/** A line of a stage's own, to where the stage's output goes. */
function say(line) {
  const fd = stageOut.getStore();
  if (fd === undefined) console.log(line);
  else fs.writeSync(fd, `${line}\n`);
}
const RETRIES = Math.max(0, Number(process.env.TEST_RETRIES ?? 1) || 0);
const STAGE_TIMEOUT_MS = Number(process.env.TEST_STAGE_TIMEOUT_MS ?? 15 * 60_000);
const RESULTS = path.join(ROOT, '.tmp', 'test-results');

function parseArgs(argv) {
  const opts = { only: null, skip: new Set(), bootstrap: true };
  const list = (v, flag) => {
    if (!v) throw new Error(`${flag} needs a stage name (${STAGES.join(', ')})`);
    const names = v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const n of names) if (!STAGES.includes(n)) throw new Error(`unknown stage ${n}; stages: ${STAGES.join(', ')}`);
    return names;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes('=') ? a.split(/=(.*)/s, 2) : [a, undefined];
    if (flag === '--only') opts.only = new Set(list(inline ?? argv[++i], '--only'));
    else if (flag === '--skip') for (const n of list(inline ?? argv[++i], '--skip')) opts.skip.add(n);
    else if (flag === '--skip-e2e') opts.skip.add('e2e');
    else if (flag === '--skip-pg') opts.skip.add('pg');
    else if (flag === '--no-bootstrap') opts.bootstrap = false;
    else if (flag === '-h' || flag === '--help') {
      console.log('usage: npm test -- [--only typecheck|lint|unit|pg|e2e] [--skip NAME] [--skip-e2e] [--no-bootstrap]');
      process.exit(0);
    } else throw new Error(`unknown option ${a}`);
  }
  return opts;
}

/** Child processes still running, killed on Ctrl-C / SIGTERM. */
const running = new Set();
/** Cleanups (PostgreSQL) to run on Ctrl-C / SIGTERM. */
const cleanups = new Set();

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* gone */
    }
  }
}

/** Runs a command in its own process group with inherited output; resolves to { code, timedOut }. */
function run(cmd, args, { env = {}, timeoutMs = STAGE_TIMEOUT_MS, out = stageOut.getStore() } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', out ?? 'inherit', out ?? 'inherit'],
      detached: true,
    });
    running.add(child);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      console.error(`\n[test] ${cmd} ${args.join(' ')} exceeded ${timeoutMs / 60000} min: stopping it`);
      killGroup(child, 'SIGTERM');
      setTimeout(() => killGroup(child, 'SIGKILL'), 5000).unref();
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      running.delete(child);
      console.error(`[test] could not start ${cmd}: ${err.message}`);
      resolve({ code: 127, timedOut });
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code: code ?? (signal ? 128 : 1), timedOut });
    });
  });
}

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, async () => {
    for (const c of running) killGroup(c, 'SIGTERM');
    for (const fn of cleanups) await fn().catch(() => {});
    console.log('\ntests: interrupted');
    process.exit(130);
  });
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Counts from a vitest JSON report, checked against the exit code. */
function vitestCounts(file, { code, timedOut }) {
  const r = readJson(file);
  if (!r) return { passed: 0, failed: 1, note: timedOut ? 'timed out' : `no report (exit ${code})` };
  const passed = r.numPassedTests ?? 0;
  let failed = r.numFailedTests ?? 0;
  const notes = [];
  const flaky = [];
  // Per part of the repo: shared 12/0, server 40/1, web 8/0 (passed/failed).
  const parts = new Map();
  for (const f of r.testResults ?? []) {
    const rp = path.relative(ROOT, f.name).split(path.sep);
    const part = rp[0] === 'apps' || rp[0] === 'packages' ? rp[1] : rp[0];
    const c = parts.get(part) ?? [0, 0];
    for (const a of f.assertionResults ?? []) {
      if (a.status === 'passed') c[0]++;
      else if (a.status === 'failed') c[1]++;
      // Passed with failure messages: it failed first and passed on its retry.
      if (a.status === 'passed' && a.failureMessages?.length) {
        flaky.push(`${path.relative(ROOT, f.name)} > ${a.fullName}: ${firstLine(a.failureMessages[0])}`);
      }
    }
    parts.set(part, c);
  }
  if (parts.size) notes.push([...parts].map(([k, [p, f]]) => `${k} ${p}/${f}`).join(', '));
  // A file that fails to load has no failed tests but a failed suite.
  const brokenFiles = (r.testResults ?? []).filter(
    (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
  );
  if (brokenFiles.length) {
    failed += brokenFiles.length;
    notes.push(
      `${brokenFiles.length} file(s) failed to run: ${brokenFiles.map((f) => path.relative(ROOT, f.name)).join(', ')}`,
    );
  }
  if (code !== 0 && failed === 0) {
    failed = 1;
    notes.push(timedOut ? 'timed out' : `vitest exited ${code} (errors outside tests)`);
  }
  if (flaky.length) notes.push(`${flaky.length} flaky`);
  return { passed, failed, flaky, note: notes.join('; ') };
}

function firstLine(text) {
  return String(text ?? '')
    .split('\n')[0]
    .slice(0, 200);
}

/** Tests Playwright reports as flaky (failed, then passed on a retry), with their first error. */
function playwrightFlaky(suites, out = [], trail = []) {
  for (const s of suites ?? []) {
    const here = s.title && !s.title.endsWith('.ts') ? [...trail, s.title] : trail;
    for (const spec of s.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== 'flaky') continue;
        const err = (t.results ?? []).find((x) => x.status !== 'passed')?.error?.message;
        out.push(`${spec.file} > ${[...here, spec.title].join(' > ')}: ${firstLine(err)}`);
      }
    }
    playwrightFlaky(s.suites, out, here);
  }
  return out;
}

/** Counts from a Playwright JSON report. */
function playwrightCounts(file, { code, timedOut }) {
  const r = readJson(file);
  if (!r?.stats) return { passed: 0, failed: 1, note: timedOut ? 'timed out' : `no report (exit ${code})` };
  const passed = (r.stats.expected ?? 0) + (r.stats.flaky ?? 0);
  let failed = r.stats.unexpected ?? 0;
  const notes = [];
  if (r.stats.skipped) notes.push(`${r.stats.skipped} skipped`);
  if (r.errors?.length) {
    notes.push(`errors outside tests: ${r.errors.map((e) => (e.message ?? '').split('\n')[0]).join(' | ')}`);
  }
  if (code !== 0 && failed === 0) {
    failed = 1;
    notes.push(timedOut ? 'timed out' : `playwright exited ${code}`);
  }
  const flaky = playwrightFlaky(r.suites);
  if (flaky.length) notes.push(`${flaky.length} flaky`);
  return { passed, failed, flaky, note: notes.join('; ') };
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Each stage resolves to { passed, failed, note }. */
const stageRunners = {
  async typecheck() {
    const r = await run(npm, ['run', '--silent', 'typecheck']);
    return r.code === 0
      ? { passed: 1, failed: 0 }
      : { passed: 0, failed: 1, note: r.timedOut ? 'timed out' : 'type errors' };
  },
  async lint() {
    const r = await run(npx, ['eslint', '.']);
    return r.code === 0
      ? { passed: 1, failed: 0 }
      : { passed: 0, failed: 1, note: r.timedOut ? 'timed out' : 'lint errors' };
  },
  async unit() {
    // Two vitest runs at once: the server in one, the packages and the console in the other. In one
    // run vitest takes the projects one after another, and the server's files mostly wait (sockets,
    // timers, camera, ffmpeg) while the console's jsdom files keep the cores busy: run side by side
    // they share the cores (in one run of 604 s the server's files took 55-316 s, then the
    // console's 323-603 s; side by side the stage took 378 s). The packages go with the console: the
    // server's run is the longer one (CI run 19: 443 s against the console's 250 s), and the packages'
    // 65 files held its two workers for its first 23 s. The second run's output is printed when
    // both are done; two reports (unit.json, unit-web.json), one line of counts.
    const env = { DATABASE_URL: '' }; // SQLite
    const part = async (name, projects, fd) => {
      const out = path.join(RESULTS, `${name}.json`);
      fs.rmSync(out, { force: true });
      const r = await run(
        npx,
        ['vitest', 'run', ...projects, `--retry=${RETRIES}`, '--reporter=default', '--reporter=json', `--outputFile=${out}`],
        { env, ...(fd !== undefined ? { out: fd } : {}) },
      );
      return vitestCounts(out, r);
    };
    const webLog = path.join(RESULTS, 'unit-web.log');
    const webFd = fs.openSync(webLog, 'w');
    let counts;
    try {
      // TEST_SERVER_WORKERS: files the server's run takes at once, 3 by default. Its files mostly wait
      // (cameras, ffmpeg reading live for seconds, timers): with the console's run light on CPU since
      // it shares one jsdom per worker, 3 took the stage from 516 s to 350 s (CPU 510 -> 492 s).
      const serverWorkers = Number(process.env.TEST_SERVER_WORKERS) || 3;
      const server = ['--project', 'server', `--maxWorkers=${serverWorkers}`];
      counts = await Promise.all([part('unit', server), part('unit-web', ['--project', '!server'], webFd)]);
    } finally {
      fs.closeSync(webFd);
      say(`\n--- packages and web (ran alongside; their output from ${path.relative(ROOT, webLog)}) ---`);
      say(fs.readFileSync(webLog, 'utf8'));
    }
    return {
      passed: counts.reduce((n, c) => n + c.passed, 0),
      failed: counts.reduce((n, c) => n + c.failed, 0),
      flaky: counts.flatMap((c) => c.flaky ?? []),
      note: counts
        .map((c) => c.note)
        .filter(Boolean)
        .join('; '),
    };
  },
  async pg() {
    const out = path.join(RESULTS, 'pg.json');
    fs.rmSync(out, { force: true });
    const { startPostgres } = await import('./pg.mjs');
    let pg;
    try {
      pg = await startPostgres({ log: (m) => say(`[pg] ${m}`) });
    } catch (err) {
      console.error(`[pg] could not start PostgreSQL: ${err.message}`);
      return { passed: 0, failed: 1, note: 'PostgreSQL did not start' };
    }
    cleanups.add(pg.stop);
    try {
      const r = await run(
        npx,
        // The tests whose outcome depends on the database engine: the API, recording index and the
        // harness. Media and protocol tests are engine-independent and already ran in the unit stage.
        // Each test's database is a copy of a template the migrations built once on this server
        // (apps/server/test/helpers/db.ts), so every run still applies them all on PostgreSQL.
        [
          'vitest',
          'run',
          '--project',
          'server',
          'apps/server/test/api',
          'apps/server/test/recording',
          'apps/server/test/helpers',
          // GB28181 registration state (device rows, channels and the message log written together).
          'apps/server/test/gb/register.test.ts',
          'apps/server/test/gb/keepalive.test.ts',
          // GB28181 catalog (batched upserts, tree, removals) and device management (rows, news, positions).
          'apps/server/test/gb/catalog.test.ts',
          'apps/server/test/gb/device-management.test.ts',
          // Migrations that rewrite stored rows (0005: the stored status words become catalogue keys).
          'apps/server/test/db/status-reason-migration.test.ts',
          // Where a killed recorder's files end (three kills at the longest fragments): the recorder's
          // files, not the index; kill.test.ts runs the restart's index repair here.
          '--exclude',
          '**/recording/kill-longest-fragments.test.ts',
          // Files of the folders above whose subject is media, protocol or timers, and whose SQL other
          // files here run too (they ran on SQLite in the unit stage). Liveness with short timers: its
          // writes are register.test.ts's setOnline and keepalive_at (the same calls, run here).
          '--exclude',
          '**/gb/keepalive.test.ts',
          // Hubs kept open with nobody watching: the always-on pass's query runs in every app here.
          '--exclude',
          '**/api/always-on.test.ts',
          // The hub's grace, touch and stopstream; a channel's new address restarts it (the edit is
          // inventory.test.ts's); the role's 404 is channel-scope-calls.test.ts's.
          '--exclude',
          '**/api/streams.test.ts',
          // The CDN push's state (kept in memory) as channelsconfig and the events socket give it.
          '--exclude',
          '**/api/cdn-status.test.ts',
          // A snapshot taken from the camera.
          '--exclude',
          '**/api/channel-thumb-snapshot.test.ts',
          `--retry=${RETRIES}`,
          '--reporter=default',
          '--reporter=json',
          `--outputFile=${out}`,
        ],
        { env: { DATABASE_URL: pg.url } },
      );
      return vitestCounts(out, r);
    } finally {
      await pg.stop();
      cleanups.delete(pg.stop);
      say('[pg] stopped');
    }
  },
  async e2e() {
    const { webNeedsBuild } = await import('./web-build.mjs');
    // CI always builds; locally a build newer than every source is reused. Built as a child process
    // (not spawnSync) so a stage running alongside keeps its event loop.
    if (process.env.CI || webNeedsBuild()) {
      const b0 = Date.now();
      say('[build] building the web console (apps/web/dist)…');
      const b = await run(npm, ['run', 'build', '-w', '@opencvr/web']);
      if (b.code !== 0) {
        console.error(`[e2e] web build failed (exit ${b.code})`);
        return { passed: 0, failed: 1, note: 'web build failed' };
      }
      say(`[build] web console built in ${secs(Date.now() - b0)}`);
    }
    // The e2e server is the built one, as npm start runs it (e2e/global-setup.ts would build it too).
    const sb = await run(process.execPath, ['scripts/server-build.mjs', ...(process.env.CI ? ['--force'] : [])]);
    if (sb.code !== 0) {
      console.error(`[e2e] server build failed (exit ${sb.code})`);
      return { passed: 0, failed: 1, note: 'server build failed' };
    }
    const out = path.join(RESULTS, 'e2e.json');
    fs.rmSync(out, { force: true });
    const r = await run(npx, ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
      env: { E2E_RETRIES: String(RETRIES), E2E_JSON_OUTPUT: out, E2E_OUTPUT_DIR: path.join(RESULTS, 'e2e'), PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    });
    return playwrightCounts(out, r);
  },
};

function secs(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`[test] ${err.message}`);
    console.log('tests: 0 passed, 1 failed');
    process.exit(2);
  }
  const t0 = Date.now();
  const results = [];

  if (opts.bootstrap) {
    const b0 = Date.now();
    console.log('\n=== bootstrap: Debian packages and npm dependencies ===');
    try {
      bootstrap('test');
    } catch (err) {
      console.error(`[bootstrap] ${err.message}`);
      results.push({ name: 'bootstrap', passed: 0, failed: 1, note: err.message.split('\n')[0], ms: Date.now() - b0 });
      // Without npm dependencies nothing else can run.
      if (!fs.existsSync(path.join(ROOT, 'node_modules', '.bin'))) return finish(results, t0);
    }
  }
  fs.mkdirSync(RESULTS, { recursive: true });

  const selected = new Set(STAGES.filter((s) => (!opts.only || opts.only.has(s)) && !opts.skip.has(s)));
  for (const group of GROUPS) {
    const names = group.filter((n) => selected.has(n));
    if (names.length > 1) console.log(`\n=== ${names.join(' + ')} at the same time (${names.slice(1).join(', ')} printed when done) ===`);
    const done = await Promise.all(names.map((name, i) => runStage(name, i === 0 ? null : path.join(RESULTS, `${name}.log`))));
    // Stages in the summary in the order of STAGES.
    results.push(...done);
  }
  results.sort((a, b) => STAGES.indexOf(a.name) - STAGES.indexOf(b.name));
  return finish(results, t0);
}

/** Runs one stage; with a log file its commands' output goes there and is printed at the end. */
async function runStage(name, logFile) {
  const fd = logFile ? fs.openSync(logFile, 'w') : null;
  if (!logFile) console.log(`\n=== ${name} ===`);
  const s0 = Date.now();
  let res;
  try {
    res = await stageOut.run(fd ?? undefined, () => stageRunners[name]());
  } catch (err) {
    console.error(`[test] stage ${name} could not run: ${err.stack ?? err}`);
    res = { passed: 0, failed: 1, note: `could not run: ${err.message}` };
  }
  const ms = Date.now() - s0;
  if (fd !== null) {
    fs.closeSync(fd);
    console.log(`\n=== ${name} (ran alongside; its output from ${path.relative(ROOT, logFile)}) ===`);
    process.stdout.write(fs.readFileSync(logFile, 'utf8'));
  }
  console.log(`=== ${name}: ${res.passed} passed, ${res.failed} failed in ${secs(ms)}${res.note ? ` (${res.note})` : ''} ===`);
  return { name, ...res, ms };
}

function finish(results, t0) {
  let passed = 0;
  let failed = 0;
  console.log('\n=== summary ===');
  for (const r of results) {
    passed += r.passed;
    failed += r.failed;
    const mark = r.failed ? 'FAIL' : 'ok  ';
    console.log(
      `${mark} ${r.name.padEnd(10)} ${String(r.passed).padStart(5)} passed ${String(r.failed).padStart(4)} failed ${secs(r.ms).padStart(9)}${r.note ? `  ${r.note}` : ''}`,
    );
  }
  const flaky = results.flatMap((r) => (r.flaky ?? []).map((f) => `${r.name}: ${f}`));
  if (flaky.length) {
    console.log(`flaky (failed, then passed on the retry; fix them): ${flaky.length}`);
    for (const f of flaky) console.log(`  ${f}`);
  }
  try {
    fs.mkdirSync(RESULTS, { recursive: true });
    fs.writeFileSync(path.join(RESULTS, 'flaky.txt'), flaky.map((f) => `${f}\n`).join(''));
  } catch {
    // The list is also on the terminal.
  }
  const failedStages = results.filter((r) => r.failed).map((r) => r.name);
  if (failedStages.length) console.log(`failed stages: ${failedStages.join(', ')}`);
  console.log(`total time ${secs(Date.now() - t0)}`);
  console.log(`tests: ${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

await main();
