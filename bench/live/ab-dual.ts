/**
 * A paired A/B of two server builds of the live hub, side by side: a developer's tool, not a figure
 * of an issue (nothing is written to bench/results).
 *
 * Whole-run CPU figures of the live bench move by ±15 % from one run to the next on this kind of
 * shared two-core VM (host steal, cold caches), which hides changes of a few per cent unless many
 * runs are alternated. Here two servers run at once, the same N streams from the same replay camera
 * each with one WS-fMP4 viewer, and their CPU is read over the same windows: what the machine does to
 * one it does to the other, so the ratio B/A of each window is steady where the absolute figures are not.
 *
 *   node --import tsx bench/live/ab-dual.ts --streams=64 --windows=6 --window=20 --b-env=NAME=VALUE[,NAME=VALUE]
 *
 * Server A runs with --a-env, B with --b-env (the switch under test is read by the server from its
 * environment) or with --b-node-args=A,B (--a-node-args: Node/V8 arguments instead of
 * scripts/server-node-args.mjs's, e.g. a V8 flag on trial); --b-root=DIR (or --a-root) runs B (A) from another checkout instead (a `git worktree` of an earlier
 * commit whose node_modules links to this one's, except @opencvr/* which must link to its own). Each window prints both servers' CPU (all threads, and the main thread) per
 * stream-minute and B/A; at the end the median ratio. Run it twice with A and B swapped to see that
 * the order of start does not matter. --a-source=yes (--b-source) runs A (B) from its TypeScript
 * through tsx instead of the build npm start runs; the CPU of a server's child processes (tsx's
 * esbuild service) is then printed beside it ("+ children") and in a second ratio, as it is not in
 * the server's own figures.
 */
import fs from 'node:fs';
import WebSocket from 'ws';
import { startCamera, type Camera } from '../lib/camera';
import { call, childProcesses, initialise, onCleanup, runBench, startServer } from '../lib/server';

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def;
const STREAMS = Number(arg('streams', '64'));
const WINDOWS = Number(arg('windows', '6'));
const WINDOW_S = Number(arg('window', '20'));
const WARMUP_S = Number(arg('warmup', '15'));
const envOf = (s: string) => Object.fromEntries(s.split(',').filter(Boolean).map((kv) => kv.split('=') as [string, string]));
const A_ENV = envOf(arg('a-env', ''));
const B_ENV = envOf(arg('b-env', ''));
const A_ROOT = arg('a-root', '') || undefined;
/** --a-node-args=A,B / --b-node-args: Node/V8 arguments instead of scripts/server-node-args.mjs's (a V8 flag on trial). */
const argsOf = (s: string) => (s ? s.split(',') : undefined);
const A_NODE_ARGS = argsOf(arg('a-node-args', ''));
const B_NODE_ARGS = argsOf(arg('b-node-args', ''));
const B_ROOT = arg('b-root', '') || undefined;
const A_SOURCE = arg('a-source', 'no') === 'yes';
const B_SOURCE = arg('b-source', 'no') === 'yes';
const CLK_TCK = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * CPU time in ticks (1/100 s): the whole process, and its main thread, from each thread's
 * /proc/PID/task/TID/schedstat (nanoseconds on a CPU; /proc/PID/stat's utime+stime count whole ticks,
 * too coarse for one stream's ~10 ms a second). A thread that ended in a window would take its time
 * with it: a server's threads (V8 platform, libuv pool) live as long as it does.
 */
function cpu(pid: number) {
  const ns = (p: number, tid: string) => Number(fs.readFileSync(`/proc/${p}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  const ticksOf = (p: number) => {
    let all = 0;
    for (const tid of fs.readdirSync(`/proc/${p}/task`)) {
      try {
        all += ns(p, tid);
      } catch {
        // ended between the listing and the read
      }
    }
    return (all / 1e9) * CLK_TCK;
  };
  /** Each child process's CPU by pid: one that ends (or starts) within a window is left out of it. */
  const children = new Map<number, number>();
  for (const c of childProcesses(pid)) {
    try {
      children.set(c.pid, ticksOf(c.pid));
    } catch {
      // ended meanwhile
    }
  }
  return { all: ticksOf(pid), main: (ns(pid, String(pid)) / 1e9) * CLK_TCK, children };
}

/** CPU of the child processes running at both readings, between them. */
function childrenGrowth(a: ReturnType<typeof cpu>, b: ReturnType<typeof cpu>) {
  let n = 0;
  for (const [pid, t] of b.children) if (a.children.has(pid)) n += t - a.children.get(pid)!;
  return n;
}

/** A server with N streams open, each with a viewer counting its binary messages. */
async function side(label: string, env: Record<string, string>, cam: Camera, root?: string, nodeArgs?: string[], source?: boolean) {
  const s = await startServer({ label, prefix: 'ab', env: { CHANNEL_CHECK_INTERVAL: '0', SIP_PORT: '0', ...env }, showLogOnStop: true, root, nodeArgs, source });
  const { Token: token } = await initialise(s.url);
  const counts = new Array<number>(STREAMS).fill(0);
  for (let i = 0; i < STREAMS; i++) {
    const dev = await call<{ DeviceID: string }>(s.url, '/api/v1/adddevice', {
      method: 'POST',
      headers: { token, 'content-type': 'application/json' },
      body: JSON.stringify({ DeviceName: `${label}-${i}`, DeviceType: 'RTSP', RtspUrl: cam.url(i) }),
    });
    const q = new URLSearchParams({ device: dev.DeviceID, channel: '1', protocol: 'ws_m4s' });
    const { URL: url } = await call<{ URL: string }>(s.url, `/api/v1/devices/channelstream?${q}`, { headers: { token } });
    const ws = new WebSocket(s.url.replace(/^http/, 'ws') + url);
    ws.on('message', (_d, binary) => binary && counts[i]++);
    onCleanup(() => ws.terminate());
  }
  return { ...s, label, counts };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await runBench('ab-dual', async () => {
  const cam = await startCamera((m) => console.log(`[ab] ${m}`), 'replay');
  const a = await side('A', A_ENV, cam, A_ROOT, A_NODE_ARGS, A_SOURCE);
  const b = await side('B', B_ENV, cam, B_ROOT, B_NODE_ARGS, B_SOURCE);
  const what = (env: Record<string, string>, root?: string, nodeArgs?: string[], source?: boolean) =>
    `${JSON.stringify(env)}${root ? ` from ${root}` : ''}${nodeArgs ? ` node ${nodeArgs.join(' ')}` : ''}${source ? ' (TypeScript through tsx)' : ''}`;
  console.log(`A ${what(A_ENV, A_ROOT, A_NODE_ARGS, A_SOURCE)} pid ${a.pid}; B ${what(B_ENV, B_ROOT, B_NODE_ARGS, B_SOURCE)} pid ${b.pid}; ${STREAMS} streams each; warm-up ${WARMUP_S} s; load ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
  await sleep(WARMUP_S * 1000);
  const ratios: number[] = [];
  const mainRatios: number[] = [];
  const withChildrenRatios: number[] = [];
  for (let w = 0; w < WINDOWS; w++) {
    const a0 = cpu(a.pid);
    const b0 = cpu(b.pid);
    const f0 = [a.counts.reduce((n, x) => n + x, 0), b.counts.reduce((n, x) => n + x, 0)];
    const t0 = performance.now();
    await sleep(WINDOW_S * 1000);
    const secs = (performance.now() - t0) / 1000;
    const a1 = cpu(a.pid);
    const b1 = cpu(b.pid);
    const f1 = [a.counts.reduce((n, x) => n + x, 0), b.counts.reduce((n, x) => n + x, 0)];
    const perStreamMin = (ticks: number) => ticks / CLK_TCK / STREAMS / (secs / 60);
    const [aAll, bAll, aMain, bMain, aKids, bKids] = [
      a1.all - a0.all,
      b1.all - b0.all,
      a1.main - a0.main,
      b1.main - b0.main,
      childrenGrowth(a0, a1),
      childrenGrowth(b0, b1),
    ].map(perStreamMin);
    ratios.push(bAll / aAll);
    mainRatios.push(bMain / aMain);
    withChildrenRatios.push((bAll + bKids) / (aAll + aKids));
    const kids = aKids || bKids ? `; + children A ${aKids.toFixed(4)} B ${bKids.toFixed(4)}, B/A with them ${((bAll + bKids) / (aAll + aKids)).toFixed(3)}` : '';
    console.log(
      `window ${w + 1}: A ${aAll.toFixed(4)} (main ${aMain.toFixed(4)}), B ${bAll.toFixed(4)} (main ${bMain.toFixed(4)}) CPU-s/stream-min; ` +
        `B/A ${(bAll / aAll).toFixed(3)} (main ${(bMain / aMain).toFixed(3)})${kids}; fps A ${((f1[0] - f0[0]) / secs / STREAMS).toFixed(1)} B ${((f1[1] - f0[1]) / secs / STREAMS).toFixed(1)}`,
    );
  }
  console.log(
    `median B/A over ${WINDOWS} windows: ${median(ratios).toFixed(3)} (main thread ${median(mainRatios).toFixed(3)}, with child processes ${median(withChildrenRatios).toFixed(3)}); load ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`,
  );
  return 0;
});
