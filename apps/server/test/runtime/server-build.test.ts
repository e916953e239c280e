/**
 * The server's build (scripts/server-build.mjs): what npm start, the end-to-end tests and the benches
 * run. The built server started as npm start starts it (serverNodeArgs() from the checkout's root)
 * loads every module it imports, answers the API and serves the console's page, and its stack traces
 * name the TypeScript files; the build is made again only when a source is newer than it.
 * (e2e/tests/start.spec.ts runs `node scripts/start.mjs` itself.)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverNodeArgs } from '../../../../scripts/server-node-args.mjs';
import { buildServer, isStale, SERVER_MAIN } from '../../../../scripts/server-build.mjs';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

const temps: string[] = [];
afterEach(() => {
  for (const d of temps.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tempDir(name: string) {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `opencvr-${name}-`));
  temps.push(d);
  return d;
}

/** Runs the built server as npm start does, with `env` over a fresh data folder; resolves when it prints its address or exits. */
function runBuilt(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, serverNodeArgs(), {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', SIP_PORT: '0', LOG_LEVEL: 'warn', CHANNEL_CHECK_INTERVAL: '0', DATABASE_URL: '', DATA_DIR: tempDir('build-data'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const started = new Promise<{ url?: string; code?: number | null; out: string; err: string }>((resolve) => {
    child.stdout.on('data', () => {
      const m = /OpenCVR console: (http:\/\/[^/\s]+)\//.exec(out);
      if (m) resolve({ url: m[1], out, err });
    });
    child.once('exit', (code) => resolve({ code, out, err }));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { started, stop };
}

describe('the server build', () => {
  it('starts as npm start runs it, answers the API and serves the console page', async () => {
    await buildServer({ log: () => {} });
    expect(fs.existsSync(SERVER_MAIN)).toBe(true);
    expect(fs.existsSync(`${SERVER_MAIN}.map`)).toBe(true);
    const web = tempDir('build-web');
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>OpenCVR</title><div id="root" data-build-test></div>');
    const server = runBuilt({ WEB_DIST: web });
    try {
      const s = await server.started;
      expect(s.url, `server output:\n${s.out}\n${s.err}`).toBeDefined();
      const api = await fetch(`${s.url}/api/v1/gethomeotherconfig`);
      expect(api.status).toBe(200);
      const body = (await api.json()) as { EasyDarwin: { Body: { Version: string; Initial: boolean } } };
      expect(body.EasyDarwin.Body.Version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(body.EasyDarwin.Body.Initial).toBe(true);
      const page = await fetch(`${s.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('data-build-test');
      // A console route (single-page app) gets the same page.
      expect(await (await fetch(`${s.url}/devices`)).text()).toContain('data-build-test');
    } finally {
      await server.stop();
    }
  });

  it('prints stack traces at the TypeScript lines', async () => {
    await buildServer({ log: () => {} });
    const server = runBuilt({ PORT: '99999' });
    const s = await server.started;
    expect(s.code).toBe(1);
    expect(s.err).toContain('invalid configuration');
    // The frame of loadConfig, mapped from the bundle back to its source file.
    expect(s.err).toMatch(/apps\/server\/src\/config\/index\.ts:\d+:\d+/);
    expect(s.err).not.toMatch(/dist\/main\.js:\d+/);
  });
});

describe('when the server is built again', () => {
  function tree() {
    const d = tempDir('build-stale');
    fs.mkdirSync(path.join(d, 'src/sub'), { recursive: true });
    fs.writeFileSync(path.join(d, 'src/a.ts'), 'a');
    fs.writeFileSync(path.join(d, 'src/sub/b.ts'), 'b');
    fs.writeFileSync(path.join(d, 'package.json'), '{}');
    const past = new Date(Date.now() - 60_000);
    for (const p of ['src/a.ts', 'src/sub/b.ts', 'src/sub', 'src', 'package.json']) fs.utimesSync(path.join(d, p), past, past);
    const built = path.join(d, 'main.js');
    fs.writeFileSync(built, '');
    fs.utimesSync(built, new Date(Date.now() - 30_000), new Date(Date.now() - 30_000));
    return { d, built, sources: [path.join(d, 'src'), path.join(d, 'package.json')] };
  }

  it('builds when there is no build, not when every source is older', () => {
    const { d, built, sources } = tree();
    expect(isStale(built, sources)).toBe(false);
    expect(isStale(path.join(d, 'missing.js'), sources)).toBe(true);
  });

  it('builds when a source is newer, deep in a folder or a file of its own', () => {
    const a = tree();
    fs.utimesSync(path.join(a.d, 'src/sub/b.ts'), new Date(), new Date());
    expect(isStale(a.built, a.sources)).toBe(true);
    const b = tree();
    fs.utimesSync(path.join(b.d, 'package.json'), new Date(), new Date());
    expect(isStale(b.built, b.sources)).toBe(true);
  });

  it('builds when a source was removed (its folder changed)', () => {
    const { d, built, sources } = tree();
    fs.rmSync(path.join(d, 'src/sub/b.ts'));
    expect(isStale(built, sources)).toBe(true);
  });
});
