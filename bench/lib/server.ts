/**
 * What the benchmarks share around their figures: the platform's server in its own process (free
 * loopback port, a temp DATA_DIR, LOG_LEVEL=warn), first-run initialisation through the API, and a
 * clean-up registry: everything started registers its stop, run in reverse order on success,
 * failure, Ctrl-C/SIGTERM and, as a last resort, SIGKILL of the children at process exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as NodeArgs from '../../scripts/server-node-args.mjs';
import type * as ServerBuild from '../../scripts/server-build.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// The scripts are plain .mjs without declarations: import them by path and type what we use.
export const { freePort } = (await import(path.join(ROOT, 'scripts/bootstrap.mjs'))) as {
  freePort(host?: string): Promise<number>;
};

// ---------------------------------------------------------------------------------------------
// Clean-up registry
// ---------------------------------------------------------------------------------------------
let tag = 'bench';
const cleanups: Array<() => Promise<void> | void> = [];
let cleaning: Promise<void> | undefined;
const children = new Set<ChildProcess>();
let interrupted = false;
let installed = false;

/** Registers a stop to run at clean-up (last registered, first run). */
export function onCleanup(fn: () => Promise<void> | void): void {
  cleanups.push(fn);
}

/** Runs every registered stop once; later calls wait for the same run. */
export function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length) {
      const fn = cleanups.pop()!;
      try {
        await fn();
      } catch (err) {
        console.error(`[${tag}] clean-up: ${(err as Error).message}`);
      }
    }
  })();
  return cleaning;
}

/** A child process to SIGKILL at exit if it is still running then. */
export function trackChild(child: ChildProcess): void {
  children.add(child);
}

export function untrackChild(child: ChildProcess): void {
  children.delete(child);
}

/** SIGTERM, then SIGKILL after graceMs; resolves once the child has exited. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
  children.delete(child);
}

/**
 * The processes `pid` started that are running now, with their names (/proc/PID/task/TID/children):
 * e.g. tsx's esbuild service beside a server run from its sources, whose CPU and memory are not in
 * the server's own /proc/PID figures.
 */
export function childProcesses(pid: number): { pid: number; name: string }[] {
  const out: { pid: number; name: string }[] = [];
  let tids: string[] = [];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      for (const c of fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean)) {
        out.push({ pid: Number(c), name: fs.readFileSync(`/proc/${c}/comm`, 'utf8').trim() });
      }
    } catch {
      // the thread or the child ended between the listing and the read
    }
  }
  return out;
}

/** The exit and signal handlers, once; `name` prefixes the messages. */
export function installCleanup(name: string): void {
  tag = name;
  if (installed) return;
  installed = true;
  process.on('exit', () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      interrupted = true;
      console.error(`[${tag}] ${sig}: stopping`);
      void cleanup().finally(() => process.exit(130));
    });
  }
}

/**
 * Runs a benchmark's main with the clean-up installed, reports a failure (not after Ctrl-C), runs
 * `atEnd` and the clean-up, and exits with main's code (1 when it threw).
 */
export async function runBench(name: string, main: () => Promise<number>, atEnd?: () => void): Promise<never> {
  installCleanup(name);
  let code = 1;
  try {
    code = await main();
  } catch (err) {
    if (!interrupted) console.error(`[${name}] failed: ${(err as Error).stack ?? err}`);
  } finally {
    atEnd?.();
    await cleanup();
  }
  process.exit(code);
}

// ---------------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------------
export interface ServerOptions {
  /** Names the server in messages and its temp data folder. */
  label: string;
  /** Variables on top of process.env + HOST, PORT, DATA_DIR and LOG_LEVEL=warn. */
  env?: Record<string, string>;
  /** PostgreSQL; without it the server runs on its embedded SQLite database. */
  databaseUrl?: string;
  /** A data folder the caller owns (kept after stop); by default a temp one, removed by stop(). */
  dataDir?: string;
  /** Prefix of the temp data folder's name (opencvr-bench-PREFIX-LABEL-). */
  prefix?: string;
  /** Prints the server's own log lines when it stops. */
  showLogOnStop?: boolean;
  /** The checkout the server runs from (default: this one); an A/B can run another build (bench/live/ab-dual.ts). */
  root?: string;
  /** Node/V8 arguments instead of serverNodeArgs()'s (scripts/server-node-args.mjs), for a trial (bench/live/wakes.ts, ab-dual.ts). */
  nodeArgs?: string[];
  /** The TypeScript through tsx (serverNodeArgs({ source: true })) instead of the build npm start runs. */
  source?: boolean;
  log?: (m: string) => void;
}

export interface Server {
  url: string;
  port: number;
  pid: number;
  dataDir: string;
  stop(): Promise<void>;
}

/** Builds made in this process, by checkout. */
const built = new Map<string, Promise<unknown>>();

/**
 * How `root` runs its server: its own scripts/server-node-args.mjs, and its build made first when it
 * has scripts/server-build.mjs (once per process; a checkout from before session 24 runs its
 * TypeScript through tsx, which its serverNodeArgs() says).
 */
export async function serverArgsOf(root: string, { source = false, nodeArgs }: { source?: boolean; nodeArgs?: string[] } = {}): Promise<string[]> {
  const mod = (await import(path.join(root, 'scripts/server-node-args.mjs'))) as typeof NodeArgs;
  const builder = path.join(root, 'scripts/server-build.mjs');
  if (!source && fs.existsSync(builder)) {
    if (!built.has(root)) built.set(root, import(builder).then((b: typeof ServerBuild) => b.buildServer({ log: (m) => console.log(`[${tag}] ${m}`) })));
    await built.get(root);
  }
  const args = mod.serverNodeArgs({ source });
  return nodeArgs ? [...nodeArgs, ...args.filter((a) => !mod.SERVER_V8_ARGS.includes(a))] : args;
}

/**
 * The server as npm start runs it (`node [V8 args] --enable-source-maps apps/server/dist/main.js`,
 * serverNodeArgs, built first when a source is newer) on a free port; resolves once it answers.
 */
export async function startServer(opts: ServerOptions): Promise<Server> {
  const { label } = opts;
  const log = opts.log ?? ((m: string) => console.log(`[${tag}] ${m}`));
  const port = await freePort();
  const ownDir = !opts.dataDir;
  const dataDir =
    opts.dataDir ??
    fs.mkdtempSync(path.join(os.tmpdir(), `opencvr-bench-${opts.prefix ? `${opts.prefix}-` : ''}${label}-`));
  if (ownDir) onCleanup(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const logFile = path.join(dataDir, 'server.log');
  const out = fs.openSync(logFile, 'a');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...opts.env,
  };
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  else delete env.DATABASE_URL;
  const args = await serverArgsOf(opts.root ?? ROOT, { source: opts.source, nodeArgs: opts.nodeArgs });
  const child = spawn(process.execPath, args, {
    cwd: opts.root ?? ROOT,
    env,
    stdio: ['ignore', out, out],
  });
  trackChild(child);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await stopChild(child);
    fs.closeSync(out);
    if (opts.showLogOnStop) {
      const tail = fs
        .readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((l) => l.trim() && !/^(OpenCVR console|Database:|First run:)/.test(l))
        .join('\n');
      if (tail) log(`server (${label}) log, last lines:\n${tail.split('\n').slice(-15).join('\n')}`);
    }
    if (ownDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  onCleanup(stop);

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  let last = '';
  for (;;) {
    if (child.exitCode !== null) last = `exited with code ${child.exitCode}`;
    else {
      try {
        const res = await fetch(`${url}/api/v1/gethomeotherconfig`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) break;
        last = `HTTP ${res.status}`;
      } catch (err) {
        last = (err as Error).message;
      }
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
      throw new Error(`server (${label}) did not start: ${last}\n--- server output ---\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  log(`server (${label}) at ${url}, pid ${child.pid}`);
  return { url, port, pid: child.pid!, dataDir, stop };
}

// ---------------------------------------------------------------------------------------------
// API
// ---------------------------------------------------------------------------------------------
export const ADMIN = 'admin';
export const DEFAULT_PASSWORD = 'admin';
/** The admin's password after initialise(). */
export const NEW_PASSWORD = 'Str0ng!Pass';

export const md5 = (s: string) => crypto.createHash('md5').update(s).digest('hex');

interface Envelope<T> {
  EasyDarwin?: { Header: { ErrorNum: string; ErrorString: string }; Body: T };
  code?: number;
  msg?: string;
}

/** The body of an answer (inside the EasyDarwin envelope when there is one); throws on an error status. */
export async function call<T>(base: string, url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(base + url, init);
  const json = (await res.json()) as Envelope<T>;
  if (!res.ok) {
    throw new Error(
      `${init.method ?? 'GET'} ${url}: HTTP ${res.status} ${json.msg ?? JSON.stringify(json).slice(0, 300)}`,
    );
  }
  return (json.EasyDarwin?.Body ?? json) as T;
}

export interface LoginBody {
  Token: string;
  UserInfo: Record<string, unknown>;
}

export const login = (base: string, username: string, password: string) =>
  call<LoginBody>(base, `/api/v1/login?${new URLSearchParams({ username, password: md5(password) })}`);

export const postForm = <T = unknown>(base: string, url: string, token: string, form: Record<string, string>) =>
  call<T>(base, url, {
    method: 'POST',
    headers: { token, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });

/**
 * First-run initialisation and network choice, so every page and call answers normally; the
 * admin's session afterwards (password NEW_PASSWORD).
 */
export async function initialise(base: string): Promise<LoginBody> {
  const first = await login(base, ADMIN, DEFAULT_PASSWORD);
  await postForm(base, '/api/v1/setinitial', first.Token, {
    SipPassword: 'Sip12345',
    EhomePassword: 'Ehome12345',
    OldPassword: md5(DEFAULT_PASSWORD),
    NewPassword: NEW_PASSWORD,
  });
  const session = await login(base, ADMIN, NEW_PASSWORD);
  await postForm(base, '/api/v1/setip', session.Token, { sip_host: '127.0.0.1' });
  return session;
}
