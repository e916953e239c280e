/**
 * The platform as `npm start` runs it, for the specs: the built server (`node [V8 args]
 * --enable-source-maps apps/server/dist/main.js`, built by the global setup) on a free loopback port
 * with a fresh temp DATA_DIR (SQLite, first-run state), serving the console build.
 *
 * Each Playwright worker starts its own (the `server` fixture, support/fixtures.ts): the workers run
 * files side by side, and a spec changes server-wide state (GB settings, users, recording plans,
 * the first-run wizard) that must not reach a file running beside it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverNodeArgs } from '../../scripts/server-node-args.mjs';
import { freePort } from './free-port';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The console build the servers serve: WEB_DIST (in a run, the global setup's copy: support/web-snapshot.ts), else apps/web/dist. */
export const webDist = () => process.env.WEB_DIST ?? path.join(ROOT, 'apps/web/dist');

export interface E2eServer {
  readonly baseURL: string;
  readonly dataDir: string;
  stop(): Promise<void>;
}

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
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not answer ${url} within ${ms / 1000} s (${last})`);
}

/**
 * Starts a server and waits until it answers; its output goes to server.log in its data folder
 * (opencvr-e2e-LABEL-*, kept with E2E_KEEP_DATA).
 */
export async function startServer(label = 'shared'): Promise<E2eServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `opencvr-e2e-${label.replace(/[^\w-]/g, '_')}-`));
  const logFile = path.join(dataDir, 'server.log');
  const out = fs.openSync(logFile, 'a');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    WEB_DIST: webDist(),
    // The bell test waits for a channel to come online: check RTSP channels every second.
    CHANNEL_CHECK_INTERVAL: '1',
    // GB28181 SIP on a free port: 15060 may be held by another server on this machine.
    SIP_PORT: String(await freePort()),
  };
  delete env.DATABASE_URL; // e2e runs on the embedded SQLite database
  const child = spawn(process.execPath, serverNodeArgs(), { cwd: ROOT, env, stdio: ['ignore', out, out] });
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
  if (process.env.E2E_KEEP_DATA) console.log(`[e2e] server at ${baseURL} (data ${dataDir})`);
  return { baseURL, dataDir, stop };
}
