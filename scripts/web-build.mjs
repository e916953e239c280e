/**
 * Builds the web console when apps/web/dist is missing or older than any of its sources
 * (apps/web/src, apps/web/index.html, apps/web/public, vite config and build/ plugins, packages/shared/src).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './bootstrap.mjs';
import { newestMtime } from './server-build.mjs';

export const WEB_DIST = path.join(ROOT, 'apps/web/dist');
const SOURCES = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/public',
  'apps/web/vite.config.ts',
  'apps/web/build',
  'packages/shared/src',
];

/** True when the console has to be (re)built. */
export function webNeedsBuild() {
  const index = path.join(WEB_DIST, 'index.html');
  if (!fs.existsSync(index)) return true;
  const built = fs.statSync(index).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(ROOT, s)) > built);
}

/** Builds when needed (or always with force); throws when the build fails. Returns whether it built. */
export function buildWeb({ force = false, log = console.log } = {}) {
  if (!force && !webNeedsBuild()) return false;
  log('[build] building the web console (apps/web/dist)…');
  const t0 = Date.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['run', 'build', '-w', '@opencvr/web'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`web build failed (exit ${r.status ?? r.signal})`);
  log(`[build] web console built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return true;
}
