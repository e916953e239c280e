/**
 * GB28181 SIP figures (issue 6): REGISTER with digest and keepalive transactions per CPU-second, and
 * the keepalive response time with 2,000 devices keeping alive every 30 s, against the platform's
 * SIP server in its own process (SQLite, a fresh DATA_DIR, SIP_PORT on loopback, the global device
 * password, KeepaliveTimeout 30 s and the default KeepaliveCount 3: a device silent 90 s is offline).
 *
 * Devices: sipp (Debian sip-tester) on loopback, one UDP socket for all of them (`-t u1`, a fixed
 * local port kept across the runs, so the platform's requests reach the same sipp), the 20-digit
 * IDs from an injection CSV (`-inf`, SEQUENTIAL: one call = the next device); the platform's own
 * requests (DeviceInfo and Catalog queries after a first registration) are answered 200 by an
 * out-of-call scenario. Scenarios in bench/gb28181/sipp/.
 *
 * Phases, each measured on the server process's CPU (utime + stime from /proc/PID/stat):
 *  1. register: every device registers with digest (REGISTER, 401, REGISTER with credentials, 200)
 *     at `registerRate` per second; registrations per CPU-second (2 SIP transactions each);
 *  2. hold: every device sends a Keepalive MESSAGE every 30 s (`-r N -rp 30s`) for `holdSeconds`
 *     (longer than the 90 s that puts a silent device offline); CPU cores used (CPU seconds / wall
 *     seconds), keepalive response time p50/p99 from sipp's response-time trace (`-trace_rtt`, rtd 1 =
 *     MESSAGE sent to its 200 received, in ms), devices online at the end (the device list API);
 *  3. burst: keepalives at `burstRate` per second; keepalives per CPU-second.
 *
 * Baseline, same run: sipp as the server (uas-register.xml, uas-keepalive.xml: fixed answers, no
 * work) driven by the same client scenarios: its CPU per registration / keepalive, and the response
 * time of n other devices keeping alive to it during the platform's hold (same window, same load on
 * the machine): what the SIP transport and sipp's own timing (ms clock) cost here. Response times
 * include the scheduling delays of a shared machine; the load average is printed with the detail.
 *
 * The register rate stays below what the platform handles on one core (about 190 a CPU-second with
 * the queries that follow): beyond it UDP retransmissions pile up and measure the overload instead.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Figure } from '../lib/figures';
import { call, freePort, initialise, onCleanup, postForm, startServer, stopChild, trackChild, untrackChild } from '../lib/server';

const SIPP = '/usr/bin/sipp';
const SCENARIOS = path.join(import.meta.dirname, 'sipp');
const PLATFORM = '34020000002000000001';
const REALM = '3402000000';
const PASSWORD = 'Sip12345';
const KEEPALIVE_S = 30;

export interface SipBenchOptions {
  devices?: number;
  /** Seconds of the hold phase (at least 90 s shows a device that missed its keepalives going offline). */
  holdSeconds?: number;
  registerRate?: number;
  burstRate?: number;
  burstSeconds?: number;
  log?: (m: string) => void;
}

export interface SipBenchResult {
  figures: Figure[];
  detail: string;
}

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU seconds (user + system) a process has used so far. */
export function processCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after "(comm)": state is field 3, utime 14, stime 15.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / CLK_TCK;
}

/** The device IDs (domain 3402000000, type 132 = IPC) as a sipp injection file. */
function deviceCsv(dir: string, n: number): string {
  const file = path.join(dir, 'devices.csv');
  const ids = Array.from({ length: n }, (_, i) => `3402000000132${String(i).padStart(7, '0')};`);
  fs.writeFileSync(file, `SEQUENTIAL\n${ids.join('\n')}\n`);
  return file;
}

interface SippRun {
  code: number | null;
  successful: number;
  failed: number;
  /** Response times (ms) by rtd number. */
  rtt: Map<number, number[]>;
  errors: string;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function readRtt(dir: string): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const f of fs.readdirSync(dir)) {
    if (!f.endsWith('_rtt.csv')) continue;
    for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      // date_ms;response_time_ms;rtd_no
      const [, ms, rtd] = line.trim().split(';');
      const v = Number(ms);
      if (!line.trim() || Number.isNaN(v) || !rtd) continue;
      const k = Number(rtd.replace(/\D/g, '')) || 1;
      if (!out.has(k)) out.set(k, []);
      out.get(k)!.push(v);
    }
  }
  for (const v of out.values()) v.sort((a, b) => a - b);
  return out;
}

/** The last line of sipp's -trace_stat file as counters by column name. */
function readStat(dir: string): Record<string, string> {
  for (const f of fs.readdirSync(dir)) {
    if (!f.endsWith('_.csv')) continue;
    const lines = fs.readFileSync(path.join(dir, f), 'utf8').trim().split('\n');
    if (lines.length < 2) continue;
    const head = lines[0].split(';');
    const last = lines[lines.length - 1].split(';');
    return Object.fromEntries(head.map((h, i) => [h, last[i] ?? '']));
  }
  return {};
}

/** Runs one sipp client to its end in a fresh folder (its traces), removed afterwards. */
async function runClient(args: string[], timeoutS: number): Promise<SippRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencvr-bench-sipp-'));
  try {
    const child = spawn(
      SIPP,
      [...args, '-nostdin', '-trace_err', '-trace_rtt', '-rtt_freq', '1', '-trace_stat', '-fd', '3600', '-timeout', `${timeoutS}s`, '-timeout_error'],
      { cwd: dir, stdio: 'ignore' },
    );
    trackChild(child);
    const code = await new Promise<number | null>((resolve) => {
      child.on('exit', (c) => resolve(c));
      child.on('error', () => resolve(-1));
    });
    untrackChild(child);
    const stat = readStat(dir);
    let errors = '';
    for (const f of fs.readdirSync(dir)) if (f.endsWith('_errors.log')) errors += fs.readFileSync(path.join(dir, f), 'utf8');
    return {
      code,
      successful: Number(stat['SuccessfulCall(C)'] ?? NaN),
      failed: Number(stat['FailedCall(C)'] ?? NaN),
      rtt: readRtt(dir),
      // sipp writes its events without line breaks between them: the first ones are enough.
      errors: errors.length > 800 ? `${errors.slice(0, 800)} …` : errors,
    };
  } finally {
    // GB_BENCH_KEEP=DIR keeps sipp's traces (response times with their dates, statistics, errors).
    if (process.env.GB_BENCH_KEEP) fs.cpSync(dir, path.join(process.env.GB_BENCH_KEEP, path.basename(dir)), { recursive: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** sipp as a server (a baseline answerer) on a free port; stopped at clean-up. */
async function startUas(scenario: string): Promise<{ port: number; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencvr-bench-sipp-uas-'));
  const child = spawn(SIPP, ['-sf', path.join(SCENARIOS, scenario), '-i', '127.0.0.1', '-p', String(port), '-t', 'u1', '-nostdin'], {
    cwd: dir,
    stdio: 'ignore',
  });
  trackChild(child);
  const stop = async () => {
    await stopChild(child, 2000);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  onCleanup(stop);
  // Listening once it has read its scenario; a short wait is enough on loopback.
  await new Promise((r) => setTimeout(r, 500));
  if (child.exitCode !== null) throw new Error(`sipp UAS (${scenario}) exited with code ${child.exitCode}`);
  return { port, pid: child.pid!, stop };
}

const ms = (v: number) => Math.round(v * 100) / 100;

export async function measureSip(o: SipBenchOptions = {}): Promise<SipBenchResult> {
  const log = o.log ?? ((m: string) => console.log(`[gb28181] ${m}`));
  const n = o.devices ?? 2000;
  const holdSeconds = o.holdSeconds ?? 120;
  const registerRate = o.registerRate ?? 50;
  const burstRate = o.burstRate ?? 500;
  const burstCalls = burstRate * (o.burstSeconds ?? 20);
  if (!fs.existsSync(SIPP)) throw new Error(`${SIPP} not found (Debian package sip-tester)`);

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'opencvr-bench-gb-sip-'));
  onCleanup(() => fs.rmSync(work, { recursive: true, force: true }));
  const csv = deviceCsv(work, n);
  const sipPort = await freePort();
  const devicePort = await freePort();
  // The baseline's devices keep alive at the same time as the platform's: their own local port.
  const baselineDevicePort = await freePort();
  const common = (port: number, scenario: string, localPort = devicePort) => [
    `127.0.0.1:${port}`,
    '-sf', path.join(SCENARIOS, scenario),
    '-oocsf', path.join(SCENARIOS, 'device-answers.xml'),
    '-inf', csv,
    '-t', 'u1',
    '-i', '127.0.0.1',
    '-p', String(localPort),
    '-key', 'platform', PLATFORM,
    '-key', 'realm', REALM,
    '-key', 'expires', '3600',
    '-au', 'device',
    '-ap', PASSWORD,
  ];
  const registerArgs = (port: number) => [...common(port, 'register.xml'), '-r', String(registerRate), '-m', String(n), '-l', String(registerRate * 5)];
  const holdArgs = (port: number, seconds: number, localPort = devicePort) => [
    ...common(port, 'keepalive.xml', localPort),
    '-r', String(n),
    '-rp', `${KEEPALIVE_S}s`,
    '-m', String(Math.round((n * seconds) / KEEPALIVE_S)),
    '-l', String(n),
  ];
  const burstArgs = (port: number) => [...common(port, 'keepalive.xml'), '-r', String(burstRate), '-m', String(burstCalls), '-l', String(burstRate * 5)];
  const check = (what: string, r: SippRun, calls: number) => {
    const lost = calls - (Number.isNaN(r.successful) ? 0 : r.successful);
    if (r.code !== 0 || lost > 0) log(`${what}: sipp exit ${r.code}, ${r.successful} of ${calls} calls successful, ${r.failed} failed\n${r.errors}`);
    return lost;
  };

  // ---- the platform ----
  // GB_BENCH_PROF=DIR: the server writes a CPU profile there when it stops (cpu-profile.mjs).
  const prof: Record<string, string> = process.env.GB_BENCH_PROF
    ? { GB_BENCH_PROF: path.resolve(process.env.GB_BENCH_PROF), NODE_OPTIONS: `--import=${path.join(import.meta.dirname, 'cpu-profile.mjs')}` }
    : {};
  const server = await startServer({ label: 'gb-sip', env: { SIP_PORT: String(sipPort), ...prof }, showLogOnStop: true, log });
  const session = await initialise(server.url);
  await postForm(server.url, '/api/v1/setbaseconfig', session.Token, { DevicePassword: PASSWORD, KeepaliveTimeout: String(KEEPALIVE_S) });
  const online = async () =>
    (
      await call<{ TotalCount: number }>(server.url, '/api/v1/devicesconfig?protocol_type=GB28181&online=1&start=0&limit=1', {
        headers: { token: session.Token },
      })
    ).TotalCount;

  log(`register: ${n} devices at ${registerRate}/s`);
  let cpu0 = processCpuSeconds(server.pid);
  const reg = await runClient(registerArgs(sipPort), 600);
  // The queries that follow a first registration are part of its cost: let them go out and time
  // out (the devices answer 200 but send no DeviceInfo/Catalog; AckTimeout 10 s), before the hold.
  await new Promise((r) => setTimeout(r, 11_000));
  const regCpu = processCpuSeconds(server.pid) - cpu0;
  const regLost = check('register', reg, n);
  const registeredOnline = await online();
  log(`register: ${reg.successful}/${n} in ${regCpu.toFixed(2)} CPU s, ${registeredOnline} online`);

  // The baseline's hold runs in the same window (same load on the machine): sipp's own answerer
  // and another n devices keeping alive to it.
  const uasKa = await startUas('uas-keepalive.xml');
  log(`hold: ${n} devices keeping alive every ${KEEPALIVE_S} s for ${holdSeconds} s (and ${n} more to the baseline answerer)`);
  cpu0 = processCpuSeconds(server.pid);
  let bCpu0 = processCpuSeconds(uasKa.pid);
  let t0 = performance.now();
  const holdCalls = Math.round((n * holdSeconds) / KEEPALIVE_S);
  const [hold, bHold] = await Promise.all([
    runClient(holdArgs(sipPort, holdSeconds), holdSeconds + 120),
    runClient(holdArgs(uasKa.port, holdSeconds, baselineDevicePort), holdSeconds + 120),
  ]);
  const holdWall = (performance.now() - t0) / 1000;
  const holdCpu = processCpuSeconds(server.pid) - cpu0;
  const bHoldCpu = processCpuSeconds(uasKa.pid) - bCpu0;
  const holdLost = check('hold', hold, holdCalls);
  check('baseline hold', bHold, holdCalls);
  const heldOnline = await online();
  const holdRtt = hold.rtt.get(1) ?? [];
  log(`hold: ${hold.successful}/${holdCalls} keepalives, ${holdCpu.toFixed(2)} CPU s in ${holdWall.toFixed(1)} s, ${heldOnline} online`);

  log(`burst: ${burstCalls} keepalives at ${burstRate}/s`);
  cpu0 = processCpuSeconds(server.pid);
  t0 = performance.now();
  const burst = await runClient(burstArgs(sipPort), 600);
  const burstCpu = processCpuSeconds(server.pid) - cpu0;
  const burstWall = (performance.now() - t0) / 1000;
  const burstLost = check('burst', burst, burstCalls);
  const endOnline = await online();
  log(`burst: ${burst.successful}/${burstCalls} in ${burstCpu.toFixed(2)} CPU s (${burstWall.toFixed(1)} s), ${endOnline} online`);
  await server.stop();

  // ---- baseline: sipp answering with fixed messages ----
  const uasReg = await startUas('uas-register.xml');
  cpu0 = processCpuSeconds(uasReg.pid);
  const bReg = await runClient(registerArgs(uasReg.port), 600);
  const bRegCpu = processCpuSeconds(uasReg.pid) - cpu0;
  check('baseline register', bReg, n);
  await uasReg.stop();

  bCpu0 = processCpuSeconds(uasKa.pid);
  const bBurst = await runClient(burstArgs(uasKa.port), 600);
  const bBurstCpu = processCpuSeconds(uasKa.pid) - bCpu0;
  check('baseline burst', bBurst, burstCalls);
  await uasKa.stop();
  const bRtt = bHold.rtt.get(1) ?? [];

  const perCpu = (calls: number, cpu: number) => (cpu > 0 ? calls / cpu : NaN);
  const regOk = Number.isNaN(reg.successful) ? n - regLost : reg.successful;
  const holdOk = Number.isNaN(hold.successful) ? holdCalls - holdLost : hold.successful;
  const burstOk = Number.isNaN(burst.successful) ? burstCalls - burstLost : burst.successful;
  const figures: Figure[] = [
    {
      name: `REGISTER with digest: registrations (REGISTER → 401, REGISTER with credentials → 200; DeviceInfo and Catalog queries after each) per server CPU-second, ${n} devices at ${registerRate}/s (baseline: sipp answering with fixed messages)`,
      value: Math.round(perCpu(regOk, regCpu)),
      unit: 'registrations per CPU-s',
      baseline: Math.round(perCpu(bReg.successful, bRegCpu)),
    },
    {
      name: `Keepalive MESSAGE transactions per server CPU-second, burst of ${burstCalls} at ${burstRate}/s (baseline: sipp answering 200)`,
      value: Math.round(perCpu(burstOk, burstCpu)),
      unit: 'keepalives per CPU-s',
      baseline: Math.round(perCpu(bBurst.successful, bBurstCpu)),
    },
    {
      name: `Keepalive response time p99, ${n} devices keeping alive every ${KEEPALIVE_S} s for ${holdSeconds} s (sipp rtd MESSAGE → 200; baseline: sipp answering 200 to ${n} other devices in the same window)`,
      value: ms(percentile(holdRtt, 99)),
      unit: 'ms',
      baseline: ms(percentile(bRtt, 99)),
      goal: '< 20',
    },
    {
      name: `Keepalive response time p50, same hold`,
      value: ms(percentile(holdRtt, 50)),
      unit: 'ms',
      baseline: ms(percentile(bRtt, 50)),
    },
    {
      name: `Server CPU while holding ${n} devices online (CPU seconds / wall seconds of the hold; baseline: sipp answering 200)`,
      value: Math.round((holdCpu / holdWall) * 1000) / 1000,
      unit: 'cores',
      baseline: Math.round((bHoldCpu / holdWall) * 1000) / 1000,
      goal: '<= 1',
    },
    {
      name: `GB devices online after the hold (KeepaliveTimeout ${KEEPALIVE_S} s × 3) and the burst`,
      value: Math.min(heldOnline, endOnline),
      unit: 'devices',
      baseline: null,
      goal: `>= ${n}`,
    },
  ];
  const regRtt2 = reg.rtt.get(2) ?? [];
  const detail = [
    `register ${regOk}/${n} ok in ${regCpu.toFixed(2)} CPU s (200 p99 ${ms(percentile(regRtt2, 99))} ms)`,
    `hold ${holdOk}/${holdCalls} ok, ${holdCpu.toFixed(2)} CPU s over ${holdWall.toFixed(1)} s, p99 ${ms(percentile(holdRtt, 99))} ms, max ${ms(holdRtt.at(-1) ?? NaN)} ms`,
    `burst ${burstOk}/${burstCalls} ok in ${burstCpu.toFixed(2)} CPU s over ${burstWall.toFixed(1)} s`,
    `online after register ${registeredOnline}, after hold ${heldOnline}, at end ${endOnline}`,
    `load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} CPUs`,
    `baseline: register ${bReg.successful} in ${bRegCpu.toFixed(2)} CPU s; hold p99 ${ms(percentile(bRtt, 99))} ms; burst ${bBurst.successful} in ${bBurstCpu.toFixed(2)} CPU s`,
  ].join('; ');
  return { figures, detail };
}
