/**
 * How often the server wakes per frame at ONE stream, thread by thread, against the ffmpeg baseline
 * process on the same camera (issue 4 at 1 stream: on this VM a wake-up of an idle process costs more
 * than the hub's budget per frame, wake-cost.ts). A developer's tool: nothing is written to
 * bench/results.
 *
 *   node --import tsx bench/live/wakes.ts [--window=30] [--windows=1] [--warmup=15] [--env=NAME=VALUE,...] [--node-args=A,B]
 *        [--no-viewer=yes] [--strace=yes] [--sched=yes] [--ffmpeg=no]
 *
 * A server (startServer: its own process, LOG_LEVEL=warn, CHANNEL_CHECK_INTERVAL=0, SIP_PORT=0, plus
 * --env) with one RTSP device on the replay camera, first idle (the device added, no stream) over a
 * window, then with its stream open (devices/channelstream, ws_m4s) and one WebSocket fMP4 viewer in
 * this process, beside one `ffmpeg -rtsp_transport tcp -i URL -c copy -f mp4 -movflags
 * frag_keyframe+empty_moov+default_base_moof` to /dev/null on the same camera. Over each window, per
 * thread of the server and of ffmpeg (/proc/PID/task/TID): voluntary and involuntary context switches
 * (a voluntary switch is a sleep, so the next run is a wake-up), utime+stime; per process
 * /proc/PID/io syscr/syscw; and the frames the viewer got (one fragment per frame). Figures are per
 * frame the camera sent in the window (25 fps).
 *
 * --no-viewer=yes: before the viewer, a window with the stream open and nobody watching (kept open by
 * touchchannelstream every 2 s): the ingest alone.
 *
 * --strace=yes: afterwards, `strace -f -c` on each process for --strace-window seconds (10): system
 * calls per frame by name (strace slows the process: its CPU is not read then). --sched=yes: `perf
 * record` of sched_switch/sched_wakeup on the server for 5 s and who wakes each of its threads
 * (perf script), to say what a wake-up answers (a socket's data, a timer, another thread).
 * --hold=SECONDS keeps everything running at the end (pids printed) for tools run by hand.
 * --node-args=A,B replaces the server's V8/Node arguments (scripts/server-node-args.mjs) for a trial.
 * --root=DIR runs the server from another checkout (an earlier build, as ab-dual.ts --a-root), for a
 * before/after of the same counts. --source=yes runs the server's TypeScript through tsx instead of
 * the build npm start runs (serverNodeArgs({ source: true })). The server's child processes running
 * at the start of a window (tsx's esbuild service) are counted beside it, each on its own.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { FPS, startCamera } from '../lib/camera';
import { call, childProcesses, initialise, onCleanup, runBench, startServer, stopChild, trackChild } from '../lib/server';

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def;
const WINDOW_S = Number(arg('window', '30'));
const WARMUP_S = Number(arg('warmup', '15'));
const WINDOWS = Number(arg('windows', '1'));
const STRACE = arg('strace', 'no') === 'yes';
const STRACE_S = Number(arg('strace-window', '10'));
const SCHED = arg('sched', 'no') === 'yes';
const FFMPEG = arg('ffmpeg', 'yes') !== 'no';
const HOLD_S = Number(arg('hold', '0'));
const NO_VIEWER = arg('no-viewer', 'no') === 'yes';
const ENV = Object.fromEntries(
  arg('env', '')
    .split(',')
    .filter(Boolean)
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);
const NODE_ARGS = arg('node-args', '');
const ROOT = arg('root', '') || undefined;
const SOURCE = arg('source', 'no') === 'yes';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/**
 * A thread's counters: voluntary and involuntary switches, time on a CPU and waiting for one (run
 * queue, ns, /proc/.../schedstat), minor faults, migrations.
 */
const COUNTERS = ['vol', 'invol', 'runNs', 'waitNs', 'minflt', 'migrations'] as const;
type Counters = Record<(typeof COUNTERS)[number], number>;

/** b - a, counter by counter (a missing: a thread born in between, counted from 0). */
function grown(a: Counters | undefined, b: Counters): Counters {
  const r = {} as Counters;
  for (const k of COUNTERS) r[k] = b[k] - (a?.[k] ?? 0);
  return r;
}

interface ThreadStat extends Counters {
  tid: number;
  comm: string;
}

interface ProcStat {
  threads: Map<number, ThreadStat>;
  syscr: number;
  syscw: number;
}

function readProc(pid: number): ProcStat {
  const threads = new Map<number, ThreadStat>();
  for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const dir = `/proc/${pid}/task/${t}`;
      const status = fs.readFileSync(`${dir}/status`, 'utf8');
      const stat = fs.readFileSync(`${dir}/stat`, 'utf8');
      const [runNs, waitNs] = fs.readFileSync(`${dir}/schedstat`, 'utf8').split(' ').map(Number);
      const sched = fs.readFileSync(`${dir}/sched`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)![1]);
      threads.set(Number(t), {
        tid: Number(t),
        comm: /^Name:\s+(.*)$/m.exec(status)![1],
        vol: field('voluntary_ctxt_switches'),
        invol: field('nonvoluntary_ctxt_switches'),
        runNs,
        waitNs,
        minflt: Number(f[7]),
        migrations: Number(/^se\.nr_migrations\s+:\s+(\d+)/m.exec(sched)?.[1] ?? 0),
      });
    } catch {
      // the thread ended between the listing and the read
    }
  }
  const io = fs.readFileSync(`/proc/${pid}/io`, 'utf8');
  return {
    threads,
    syscr: Number(/^syscr: (\d+)/m.exec(io)![1]),
    syscw: Number(/^syscw: (\d+)/m.exec(io)![1]),
  };
}

interface Row extends Counters {
  name: string;
}

/**
 * Per thread, the growth from a to b (threads born in between count from 0; those that ended are
 * left out); a thread is named by its comm and its place in the process's order of creation (main =
 * the process itself; Node 20 leaves its V8 platform and libuv pool threads named "node": --sched
 * tells them apart by who wakes them).
 */
function diff(a: ProcStat, b: ProcStat, secs: number, frames: number, label: string): string {
  const rows: Row[] = [];
  const pid = Math.min(...b.threads.keys());
  const order = [...b.threads.keys()].sort((x, y) => x - y);
  const sum = { vol: 0, invol: 0, runNs: 0, waitNs: 0, minflt: 0, migrations: 0 };
  for (const t of b.threads.values()) {
    const r: Row = { name: t.tid === pid ? `${t.comm} main` : `${t.comm} #${order.indexOf(t.tid)} (${t.tid})`, ...grown(a.threads.get(t.tid), t) };
    rows.push(r);
    for (const k of COUNTERS) sum[k] += r[k];
  }
  const total: Row = { name: 'all', ...sum };
  const gone = [...a.threads.keys()].filter((tid) => !b.threads.has(tid)).length;
  const per = (x: number, d = 3) => (frames ? (x / frames).toFixed(d) : '-');
  const cols = (r: Row) =>
    `${r.name.padEnd(22)} ${per(r.vol).padStart(7)} ${per(r.invol).padStart(7)} ${per(r.minflt, 2).padStart(7)} ${per(r.migrations).padStart(7)} ` +
    `${per(r.runNs / 1000, 0).padStart(8)} ${per(r.waitNs / 1000, 0).padStart(8)} ${(r.vol ? r.runNs / 1000 / r.vol : 0).toFixed(0).padStart(8)}`;
  const lines = [
    `${label}: ${secs.toFixed(1)} s, ${frames} frames sent by the camera (${(frames / secs).toFixed(1)}/s); load ${loadavg()}`,
    `  ${'per frame:'.padEnd(22)} ${'wakes'.padStart(7)} ${'preempt'.padStart(7)} ${'minflt'.padStart(7)} ${'migr'.padStart(7)} ${'CPU us'.padStart(8)} ${'wait us'.padStart(8)} ${'us/wake'.padStart(8)}`,
  ];
  for (const r of rows.sort((x, y) => y.vol - x.vol || y.runNs - x.runNs)) if (r.vol || r.runNs) lines.push(`  ${cols(r)}`);
  lines.push(`  ${cols(total)}`);
  lines.push(
    `  (wakes = voluntary context switches, preempt = involuntary; ${rows.length} threads, ${rows.filter((r) => !r.vol && !r.runNs).length} idle all along${gone ? `, ${gone} ended` : ''}) ` +
      `CPU ${(total.runNs / 1e6).toFixed(0)} ms = ${(total.runNs / 1e6 / secs).toFixed(2)} ms/s (${((total.runNs / 1e9 / secs) * 60).toFixed(3)} CPU-s/min); ` +
      `wakes ${(total.vol / secs).toFixed(1)}/s; syscr ${per(b.syscr - a.syscr)}/frame, syscw ${per(b.syscw - a.syscw)}/frame`,
  );
  return lines.join('\n');
}

async function window(pids: { pid: number; label: string }[], frames: () => number): Promise<string[]> {
  const s0 = pids.map((p) => readProc(p.pid));
  const f0 = frames();
  const t0 = performance.now();
  await sleep(WINDOW_S * 1000);
  const s1 = pids.map((p) => {
    try {
      return readProc(p.pid);
    } catch {
      return undefined; // a child process that ended in the window
    }
  });
  const secs = (performance.now() - t0) / 1000;
  const n = Math.round((secs * FPS) as number);
  const got = frames() - f0;
  return pids.map((p, i) => (s1[i] ? diff(s0[i], s1[i], secs, n, `${p.label} (viewer got ${got} frames)`) : `${p.label}: ended in the window`));
}

/** `strace -f -c -p PID` for secs: the summary table. */
async function straceCount(pid: number, secs: number): Promise<string> {
  const out = `/tmp/opencvr-wakes-strace-${pid}.txt`;
  const child = spawn('strace', ['-f', '-c', '-o', out, '-p', String(pid)], { stdio: 'ignore' });
  trackChild(child);
  await sleep(secs * 1000);
  await stopChild(child, 3000);
  const text = fs.readFileSync(out, 'utf8');
  fs.rmSync(out, { force: true });
  return text;
}

/**
 * perf record of the scheduler's switch and wake-up events on the server's threads for secs, then for
 * each of its threads: how many times it was woken and by whom (the waking task's name, or
 * "irq/softirq" for a wake-up outside any of this process's threads, e.g. a timer or the network).
 */
async function schedWakers(pid: number, secs: number): Promise<string> {
  const data = `/tmp/opencvr-wakes-perf-${pid}.data`;
  const rec = spawnSync('perf', ['record', '-q', '-o', data, '-e', 'sched:sched_wakeup,sched:sched_waking', '-a', '--', 'sleep', String(secs)], {
    encoding: 'utf8',
  });
  if (rec.status !== 0) return `perf record failed: ${rec.stderr.slice(0, 300)}`;
  const script = spawnSync('perf', ['script', '-i', data, '-F', 'comm,tid,event,trace'], { encoding: 'utf8', maxBuffer: 256 << 20 });
  fs.rmSync(data, { force: true });
  const tids = new Set(fs.readdirSync(`/proc/${pid}/task`).map(Number));
  const counts = new Map<string, number>();
  for (const line of script.stdout.split('\n')) {
    // e.g. "  node  1234 sched:sched_waking: comm=node pid=1240 prio=120 target_cpu=001"
    const m = /^\s*(.+?)\s+(\d+)\s+sched:sched_waking:\s+comm=(.+?) pid=(\d+)/.exec(line);
    if (!m || !tids.has(Number(m[4]))) continue;
    const waker = tids.has(Number(m[2])) ? `${m[1]} (same process)` : m[2] === '0' ? 'idle/irq' : m[1];
    const key = `${m[3]}#${m[4]} <- ${waker}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `  ${k}: ${n} (${(n / secs / FPS).toFixed(3)}/frame)`)
    .join('\n');
}

await runBench('wakes', async () => {
  const log = (m: string) => console.log(`[wakes] ${m}`);
  const cam = await startCamera(log, 'replay');
  const env = { CHANNEL_CHECK_INTERVAL: '0', SIP_PORT: '0', ...ENV };
  const nodeArgs = NODE_ARGS ? NODE_ARGS.split(',') : undefined;
  const s = await startServer({ label: 'wakes', prefix: 'wakes', env, showLogOnStop: true, log, nodeArgs, root: ROOT, source: SOURCE });
  /** The server and, each on its own, the processes it runs now. */
  const serverAnd = (label: string) => [
    { pid: s.pid, label },
    ...childProcesses(s.pid).map((c) => ({ pid: c.pid, label: `the server's child ${c.name} (${c.pid}), ${label}` })),
  ];
  const { Token: token } = await initialise(s.url);
  const dev = await call<{ DeviceID: string }>(s.url, '/api/v1/adddevice', {
    method: 'POST',
    headers: { token, 'content-type': 'application/json' },
    body: JSON.stringify({ DeviceName: 'wakes-0', DeviceType: 'RTSP', RtspUrl: cam.url(1) }),
  });
  log(`server pid ${s.pid}${ROOT ? ` from ${ROOT}` : ''}${SOURCE ? ' (TypeScript through tsx)' : ''}, env ${JSON.stringify(env)}${NODE_ARGS ? `, node args ${NODE_ARGS}` : ''}; load ${loadavg()}`);
  // Start-up's own work (module compilation, the first GCs) settles in some seconds.
  await sleep(Number(arg('settle', '20')) * 1000);
  for (const l of await window(serverAnd('server idle (device added, no stream)'), () => 0)) console.log(l);

  const q = new URLSearchParams({ device: dev.DeviceID, channel: '1', protocol: 'ws_m4s' });
  const { URL: url } = await call<{ URL: string }>(s.url, `/api/v1/devices/channelstream?${q}`, { headers: { token } });
  let frames = 0;
  if (NO_VIEWER) {
    // The stream with nobody watching, kept open by touchchannelstream (as run.ts's viewers part):
    // the ingest alone, without the viewer's write and its wake-up of the reading process.
    const touch = setInterval(() => {
      void call(s.url, `/api/v1/touchchannelstream?device=${dev.DeviceID}&channel=1`, { headers: { token } }).catch(() => undefined);
    }, 2000);
    onCleanup(() => clearInterval(touch));
    await sleep(WARMUP_S * 1000);
    for (const l of await window(serverAnd('server, 1 stream, no viewer (touchchannelstream every 2 s)'), () => 0)) console.log(l);
  }
  const ws = new WebSocket(s.url.replace(/^http/, 'ws') + url, { perMessageDeflate: false });
  ws.on('message', (_d, binary) => binary && frames++);
  onCleanup(() => ws.terminate());

  const pids = serverAnd('server, 1 stream, 1 WS-fMP4 viewer');
  if (FFMPEG) {
    const devnull = fs.openSync('/dev/null', 'w');
    const ff = spawn(
      'ffmpeg',
      ['-nostdin', '-y', '-v', 'error', '-rtsp_transport', 'tcp', '-i', cam.url(2), '-c', 'copy', '-f', 'mp4', '-movflags', 'frag_keyframe+empty_moov+default_base_moof', '/dev/null'],
      { stdio: ['ignore', devnull, 'inherit'] },
    );
    trackChild(ff);
    onCleanup(() => stopChild(ff, 3000));
    pids.push({ pid: ff.pid!, label: 'ffmpeg -c copy to /dev/null' });
  }
  await sleep(WARMUP_S * 1000);
  if (!frames) throw new Error('the viewer got no frame in the warm-up');
  for (let w = 0; w < WINDOWS; w++) for (const l of await window(pids, () => frames)) console.log(WINDOWS > 1 ? `[window ${w + 1}/${WINDOWS}] ${l}` : l);

  if (STRACE) {
    for (const p of pids) {
      const f0 = frames;
      const text = await straceCount(p.pid, STRACE_S);
      console.log(`strace -f -c ${p.label}, ${STRACE_S} s = ${STRACE_S * FPS} frames (viewer got ${frames - f0}):\n${text}`);
    }
  }
  if (HOLD_S) {
    console.log(`holding ${HOLD_S} s (server pid ${s.pid}, camera pid ${cam.pid}) for other tools`);
    await sleep(HOLD_S * 1000);
  }
  if (SCHED) console.log(`who wakes the server's threads (perf sched_waking, 5 s = ${5 * FPS} frames):\n${await schedWakers(s.pid, 5)}`);
  return 0;
});
