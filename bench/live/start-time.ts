/**
 * How the way the server is run changes its start and its idle footprint: a developer's tool, not a
 * figure of an issue (nothing is written to bench/results).
 *
 *   node --import tsx bench/live/start-time.ts [--runs=5] [--idle=20] [--variants=source,build,build-nomap]
 *
 * Variants: `source` is the TypeScript through tsx (serverNodeArgs({ source: true }), what every server
 * ran before session 24), `build` the bundle scripts/server-build.mjs makes (serverNodeArgs(), what
 * npm start runs), `build-nomap` the bundle without --enable-source-maps. The build is made (if stale)
 * before the first run and is not timed. Runs alternate the variants (source, build, ..., source,
 * build, ...) so the machine's drift falls on all of them alike. Each run: a fresh temp DATA_DIR
 * (SQLite, first-run state), PORT=0 and SIP_PORT=0, LOG_LEVEL=warn; the time from spawn to the line
 * the server prints once it listens (`OpenCVR console:`), then after --idle seconds the server's
 * VmRSS and each child process's (tsx's esbuild service) VmRSS, then SIGTERM. Prints each run and the
 * median per variant.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { SERVER_V8_ARGS, serverNodeArgs } from '../../scripts/server-node-args.mjs';
import { buildServer } from '../../scripts/server-build.mjs';
import { childProcesses, ROOT, runBench, stopChild, trackChild } from '../lib/server';

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def;
const RUNS = Number(arg('runs', '5'));
const IDLE_S = Number(arg('idle', '20'));
const VARIANTS = arg('variants', 'source,build,build-nomap').split(',');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const ARGS: Record<string, string[]> = {
  source: serverNodeArgs({ source: true }),
  build: serverNodeArgs(),
  'build-nomap': serverNodeArgs().filter((a) => a !== '--enable-source-maps'),
};

/** VmRSS of a process in MB (0 when it is gone). */
function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

interface Run {
  startMs: number;
  rss: number;
  childRss: number;
  children: string;
}

async function once(variant: string): Promise<Run> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `opencvr-bench-start-${variant}-`));
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', PORT: '0', SIP_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', CHANNEL_CHECK_INTERVAL: '0' };
  delete env.DATABASE_URL;
  const t0 = performance.now();
  const child = spawn(process.execPath, ARGS[variant]!, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  trackChild(child);
  let out = '';
  try {
    const startMs = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${variant}: no listening line in 60 s:\n${out}`)), 60_000);
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('OpenCVR console:')) {
          clearTimeout(timer);
          resolve(performance.now() - t0);
        }
      });
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      child.once('exit', (code) => reject(new Error(`${variant}: exited ${code}:\n${out}`)));
    });
    await sleep(IDLE_S * 1000);
    const kids = childProcesses(child.pid!);
    return {
      startMs,
      rss: rssMb(child.pid!),
      childRss: kids.reduce((n, k) => n + rssMb(k.pid), 0),
      children: kids.map((k) => `${k.name} ${rssMb(k.pid).toFixed(1)} MB`).join(', ') || 'none',
    };
  } finally {
    await stopChild(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

await runBench('start-time', async () => {
  for (const v of VARIANTS) if (!ARGS[v]) throw new Error(`unknown variant ${v} (${Object.keys(ARGS).join(', ')})`);
  await buildServer();
  console.log(`[start-time] ${RUNS} runs of ${VARIANTS.join(', ')}; V8 args ${SERVER_V8_ARGS.join(' ')}; idle ${IDLE_S} s; load ${loadavg()}`);
  const runs = new Map<string, Run[]>(VARIANTS.map((v) => [v, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const v of VARIANTS) {
      const r = await once(v);
      runs.get(v)!.push(r);
      console.log(
        `[start-time] ${v.padEnd(11)} run ${i + 1}: listening after ${r.startMs.toFixed(0)} ms; after ${IDLE_S} s idle VmRSS ${r.rss.toFixed(1)} MB, children: ${r.children} (load ${loadavg()})`,
      );
    }
  }
  for (const v of VARIANTS) {
    const rs = runs.get(v)!;
    console.log(
      `[start-time] ${v.padEnd(11)} median: listening after ${median(rs.map((r) => r.startMs)).toFixed(0)} ms (${rs.map((r) => r.startMs.toFixed(0)).join(', ')}); VmRSS ${median(rs.map((r) => r.rss)).toFixed(1)} MB, children ${median(rs.map((r) => r.childRss)).toFixed(1)} MB, together ${median(rs.map((r) => r.rss + r.childRss)).toFixed(1)} MB`,
    );
  }
  console.log(`[start-time] load ${loadavg()}`);
  return 0;
});
