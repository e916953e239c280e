#!/usr/bin/env node
/**
 * `npm start`: installs what is missing (ffmpeg, npm dependencies), builds the web console when its
 * sources changed, then runs the platform on the embedded SQLite database (or DATABASE_URL).
 * Environment: PORT (18000), HOST (0.0.0.0), DATA_DIR (./data), DATABASE_URL, LOG_LEVEL, TOKEN_TTL.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { bootstrap, ROOT } from './bootstrap.mjs';
import { serverNodeArgs } from './server-node-args.mjs';

try {
  bootstrap('start');
  const { buildWeb, WEB_DIST } = await import('./web-build.mjs');
  if (!buildWeb()) console.log(`[build] web console is up to date (${path.relative(ROOT, WEB_DIST)})`);
} catch (err) {
  console.error(`[start] ${err.message}`);
  process.exit(1);
}

const env = {
  ...process.env,
  PORT: process.env.PORT ?? '18000',
  DATA_DIR: process.env.DATA_DIR ?? path.join(ROOT, 'data'),
  WEB_DIST: process.env.WEB_DIST ?? path.join(ROOT, 'apps/web/dist'),
};
const child = spawn(process.execPath, serverNodeArgs(), {
  cwd: ROOT,
  env,
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    if (child.exitCode === null) child.kill(sig);
  });
}
child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1)));
