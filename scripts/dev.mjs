#!/usr/bin/env node
/**
 * `npm run dev`: the server (restarts on change, port 18000) and Vite's dev server for the console
 * (hot reload; it proxies /api and /apidoc to the server) side by side, output prefixed.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { bootstrap, ROOT } from './bootstrap.mjs';
import { serverNodeArgs } from './server-node-args.mjs';

bootstrap('start');

const color = process.stdout.isTTY ? (c, s) => `\x1b[${c}m${s}\x1b[0m` : (_c, s) => s;
const procs = [
  {
    name: color(36, 'server'),
    cmd: process.execPath,
    args: serverNodeArgs({ watch: true }),
    env: { PORT: process.env.PORT ?? '18000', DATA_DIR: process.env.DATA_DIR ?? path.join(ROOT, 'data') },
  },
  {
    name: color(35, 'web   '),
    cmd: process.execPath,
    args: [path.join(ROOT, 'node_modules/vite/bin/vite.js'), '--host', process.env.WEB_HOST ?? '127.0.0.1'],
    cwd: path.join(ROOT, 'apps/web'),
    env: {},
  },
];

const children = procs.map((p) => {
  const child = spawn(p.cmd, p.args, {
    cwd: p.cwd ?? ROOT,
    env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0', ...p.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (line) => console.log(`${p.name} | ${line}`));
  }
  child.on('exit', (code, signal) => {
    console.log(`${p.name} | exited (${code ?? signal})`);
    shutdown(code ?? 1);
  });
  return child;
});

let stopping = false;
function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 3000).unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null))).then(() =>
    process.exit(code),
  );
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));
