/**
 * `npm start` itself (node scripts/start.mjs): it builds the server's bundle when stale and runs the
 * built server, which must answer the API and serve the console that a browser then shows. A second
 * server beside the suite's, on its own ports and data folder, serving the suite's console build
 * (WEB_DIST, so that npm start does not rebuild apps/web/dist under the suite's server).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../support/fixtures';
import { freePort } from '../support/free-port';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('npm start runs the built server: the API answers and the console shows its login page', async ({ page }) => {
  test.setTimeout(120_000);
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencvr-e2e-start-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    SIP_PORT: String(await freePort()),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    CHANNEL_CHECK_INTERVAL: '0',
  };
  delete env.DATABASE_URL;
  env.WEB_DIST = process.env.WEB_DIST ?? path.join(ROOT, 'apps/web/dist');
  const child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  try {
    await expect
      .poll(() => (child.exitCode === null ? out.includes('OpenCVR console:') : `exited ${child.exitCode}: ${out}`), { timeout: 90_000 })
      .toBe(true);
    // What it ran: the bundle, not the TypeScript.
    const running = fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ').filter(Boolean);
    expect(running).toHaveLength(1);
    const cmdline = fs.readFileSync(`/proc/${running[0]}/cmdline`, 'utf8').split('\0');
    expect(cmdline).toContain('apps/server/dist/main.js');
    expect(cmdline).not.toContain('tsx');

    const base = `http://127.0.0.1:${port}`;
    const res = await fetch(`${base}/api/v1/getloginconfig`);
    expect(res.status).toBe(200);
    const title: string = ((await res.json()) as { EasyDarwin?: { Body?: { Title?: string } } }).EasyDarwin?.Body?.Title ?? 'OpenCVR';
    await page.goto(`${base}/`);
    await expect(page.getByRole('textbox', { name: /用户名|user ?name/i })).toBeVisible();
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM'); // start.mjs passes it on to the server and exits with it
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  expect(child.exitCode, out).toBe(0);
});
