/**
 * Starts the platform for the end-to-end tests as `npm start` runs it: the built server (`node [V8 args]
 * --enable-source-maps apps/server/dist/main.js`, built here when a source is newer) on a free loopback
 * port with a fresh temp DATA_DIR (SQLite, first-run state), serving apps/web/dist.
 * Exposes the address as process.env.E2E_BASE_URL; the returned function stops the server.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverNodeArgs } from '../scripts/server-node-args.mjs';
import { buildServer } from '../scripts/server-build.mjs';
import { freePort } from './support/free-port';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function waitReady(url: string, child: { exitCode: number | null }, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  let last = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode} before answering`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status < 500) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not answer ${url} within ${ms / 1000} s (${last})`);
}

/**
 * The files run in the order of their names on this one server, and foundation.spec.ts walks the
 * first-run wizard: a file whose name sorts before it would initialise the server first and fail it
 * (as device-disabled.spec.ts did), so that is refused here with the fix, not found as a wizard that
 * never shows.
 */
function checkFoundationRunsFirst() {
  const specs = fs.readdirSync(path.join(root, 'e2e/tests')).filter((f) => f.endsWith('.spec.ts'));
  const before = specs.filter((f) => f < 'foundation.spec.ts');
  if (before.length) throw new Error(`e2e: ${before.join(', ')} sort(s) before foundation.spec.ts, which needs the fresh server: rename so it sorts after`);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  checkFoundationRunsFirst();
  const webDist = process.env.WEB_DIST ?? path.join(root, 'apps/web/dist');
  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    // Built by `npm test` before this stage; build here too when run on its own.
    const { buildWeb } = await import(path.join(root, 'scripts/web-build.mjs'));
    buildWeb();
  }
  // Not in the stage's web build: ~1 s, and a run of a spec or two by hand after a change must test the change.
  await buildServer({ log: (m: string) => console.log(m) });
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencvr-e2e-'));
  const logFile = path.join(dataDir, 'server.log');
  const out = fs.openSync(logFile, 'a');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    WEB_DIST: webDist,
    // The bell test waits for a channel to come online: check RTSP channels every second.
    CHANNEL_CHECK_INTERVAL: '1',
    // GB28181 SIP on a free port: 15060 may be held by another server on this machine.
    SIP_PORT: String(await freePort()),
  };
  delete env.DATABASE_URL; // e2e runs on the embedded SQLite database
  const child = spawn(process.execPath, serverNodeArgs(), {
    cwd: root,
    env,
    stdio: ['ignore', out, out],
  });
  const baseURL = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    fs.closeSync(out);
    if (!process.env.E2E_KEEP_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitReady(`${baseURL}/api/v1/gethomeotherconfig`, child, 60_000);
  } catch (err) {
    const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
    await stop();
    throw new Error(`${(err as Error).message}\n--- server output ---\n${tail}`);
  }
  process.env.E2E_BASE_URL = baseURL;
  process.env.E2E_DATA_DIR = dataDir;
  console.log(`[e2e] server at ${baseURL} (data ${dataDir})`);
  return stop;
}
