#!/usr/bin/env node
/**
 * A throwaway local PostgreSQL server for tests: initdb + pg_ctl as user `postgres` (root cannot
 * run postgres), data in a temp folder, listening on 127.0.0.1 on a free port only.
 *
 *   const pg = await startPostgres();   // { url, adminUrl, port, dataDir, stop() }
 *   ...DATABASE_URL = pg.url...
 *   await pg.stop();
 *
 * Run directly (`node scripts/pg.mjs`) it starts a server, prints its URL and stops on Ctrl-C.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './bootstrap.mjs';

const DB_NAME = 'opencvr_test';

/** The bin folder of the highest PostgreSQL under /usr/lib/postgresql, or PG_BIN. */
export function findPgBin() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  let versions = [];
  try {
    versions = fs
      .readdirSync(base)
      .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
      .sort((a, b) => parseFloat(b) - parseFloat(a));
  } catch {
    /* not installed */
  }
  if (!versions.length) throw new Error(`no PostgreSQL found under ${base}/*/bin (apt-get install postgresql)`);
  return path.join(base, versions[0], 'bin');
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function userId(name) {
  const r = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  return r.status === 0 ? Number(r.stdout.trim()) : null;
}

/** Runs a PostgreSQL binary, as user postgres when we are root. */
function pgRun(bin, args, { check = true } = {}) {
  const cmd = isRoot ? 'runuser' : bin;
  const argv = isRoot ? ['-u', 'postgres', '--', bin, ...args] : args;
  const r = spawnSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], cwd: os.tmpdir() });
  if (r.error) throw new Error(`${bin} failed to start: ${r.error.message}`);
  if (check && r.status !== 0) {
    throw new Error(`${path.basename(bin)} ${args.join(' ')} exited with ${r.status}\n${r.stdout}${r.stderr}`);
  }
  return r;
}

/** Starts a fresh server; resolves to { url, adminUrl, port, dataDir, stop() }. */
export async function startPostgres({ log = () => {} } = {}) {
  const bin = findPgBin();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'opencvr-pg-'));
  const dataDir = path.join(tmp, 'data');
  const sockDir = tmp;
  if (isRoot) {
    const uid = userId('postgres');
    if (uid == null) throw new Error('user postgres does not exist (apt-get install postgresql creates it)');
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    fs.chownSync(tmp, uid, gid);
  }
  fs.chmodSync(tmp, 0o700);
  const port = await freePort();
  log(`initdb in ${dataDir}`);
  pgRun(path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--no-sync',
    '--locale=C',
  ]);
  const opts = [
    `-p ${port}`,
    `-c listen_addresses=127.0.0.1`,
    `-c unix_socket_directories=${sockDir}`,
    // A test server: speed over durability.
    `-c fsync=off`,
    `-c synchronous_commit=off`,
    `-c full_page_writes=off`,
    `-c max_connections=200`,
  ].join(' ');
  const logFile = path.join(tmp, 'server.log');
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    pgRun(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], { check: false });
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  try {
    pgRun(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-l', logFile, '-o', opts, '-w', '-t', '60', 'start']);
    pgRun(path.join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', DB_NAME]);
  } catch (err) {
    let tail = '';
    try {
      tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n');
    } catch {
      /* no log */
    }
    await stop();
    throw new Error(`${err.message}${tail ? `\n--- server.log ---\n${tail}` : ''}`);
  }
  const url = `postgres://postgres@127.0.0.1:${port}/${DB_NAME}`;
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  log(`PostgreSQL ${path.basename(path.dirname(bin))} on 127.0.0.1:${port}`);
  return { url, adminUrl, port, dataDir, stop };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const pg = await startPostgres({ log: (m) => console.log(`[pg] ${m}`) });
  console.log(`DATABASE_URL=${pg.url}`);
  const done = async () => {
    await pg.stop();
    console.log('[pg] stopped');
    process.exit(0);
  };
  process.on('SIGINT', done);
  process.on('SIGTERM', done);
  if (process.argv.includes('--check')) await done();
  else setInterval(() => {}, 1 << 30);
}
