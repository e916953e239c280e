#!/usr/bin/env node
/**
 * `npm start`: installs what is missing (ffmpeg, npm dependencies), builds the web console
 * (apps/web/dist) and the server (apps/server/dist/main.js, scripts/server-build.mjs) when their
 * sources changed, then runs the built server on the embedded SQLite database (or DATABASE_URL).
 * Environment: PORT (18000), HOST (0.0.0.0), DATA_DIR (./data), DATABASE_URL, LOG_LEVEL, TOKEN_TTL;
 * WEB_DIST serves a console built elsewhere (then apps/web is not built).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { bootstrap, ROOT } from './bootstrap.mjs';
import { serverNodeArgs } from './server-node-args.mjs';

try {
  bootstrap('start');
  if (!process.env.WEB_DIST) {
    const { buildWeb, WEB_DIST } = await import('./web-build.mjs');
    if (!buildWeb()) console.log(`[build] web console is up to date (${path.relative(ROOT, WEB_DIST)})`);
  }
  const { buildServer, SERVER_MAIN } = await import('./server-build.mjs');
  if (!(await buildServer())) console.log(`[build] server is up to date (${path.relative(ROOT, SERVER_MAIN)})`);
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
