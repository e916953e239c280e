/**
 * The recorder's cost, paired in time: two servers side by side, the same N streams each from one
 * replay camera (no viewer: the hubs are held open with touchchannelstream, as run.ts does), their
 * CPU read over the same windows. A developer's tool, not a figure of an issue (nothing is written
 * to bench/results).
 *
 * run.ts alternates live-only and recording windows of one server, and its pairs move by ±10-20
 * points from one run to the next on this shared two-core VM (docs/architecture.md, session 21):
 * whatever the machine does between two windows lands in the ratio. Here both servers are measured
 * in the same seconds, so what the machine does to one it does to the other.
 *
 *   node --import tsx bench/recording/ab-dual.ts --streams=64 --windows=6 --window=20 [--record=alt|both]
 *
 * --record=alt (default): the same build twice; one server records, the other is live-only, and
 *   they swap every window (so neither server's own bias, e.g. the order they started in, stays on
 *   one side). Per window: recording / live-only CPU; at the end the median: run.ts's "recorder extra
 *   CPU" measured within each window.
 * --record=both: both record; A and B differ by --a-env/--b-env or --a-root/--b-root (another
 *   checkout, as bench/live/ab-dual.ts). Per window B/A; at the end the median.
 *
 * After each switch of recording the window waits --settle s plus one segment (20 s), as run.ts does:
 * a recorder's first segment grows its buffers, the steady cost is what is measured.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startCamera, type Camera } from '../lib/camera';
import { call, initialise, onCleanup, postForm, runBench, startServer } from '../lib/server';

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def;
const STREAMS = Number(arg('streams', '64'));
const WINDOWS = Number(arg('windows', '6'));
const WINDOW_S = Number(arg('window', '20'));
const WARMUP_S = Number(arg('warmup', '10'));
const SETTLE_S = Number(arg('settle', '6'));
const MODE = arg('record', 'alt');
if (MODE !== 'alt' && MODE !== 'both') throw new Error(`--record=${MODE}: alt or both`);
const SEGMENT_S = 20;
const envOf = (s: string) => Object.fromEntries(s.split(',').filter(Boolean).map((kv) => kv.split('=') as [string, string]));
const A_ENV = envOf(arg('a-env', ''));
const B_ENV = envOf(arg('b-env', ''));
const A_ROOT = arg('a-root', '') || undefined;
const B_ROOT = arg('b-root', '') || undefined;
const CLK_TCK = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** utime + stime in ticks: the whole process, and its main thread. */
function cpu(pid: number) {
  const ticks = (file: string) => {
    const f = fs.readFileSync(file, 'utf8').split(') ')[1].split(' ');
    return Number(f[11]) + Number(f[12]);
  };
  return { all: ticks(`/proc/${pid}/stat`), main: ticks(`/proc/${pid}/task/${pid}/stat`) };
}

/** A server with N streams open and held open, none recording yet. */
async function side(label: string, env: Record<string, string>, cam: Camera, root?: string) {
  const s = await startServer({ label, prefix: 'ab-rec', env: { CHANNEL_CHECK_INTERVAL: '0', SIP_PORT: '0', ...env }, showLogOnStop: true, root });
  const { Token: token } = await initialise(s.url);
  await postForm(s.url, '/api/v1/recordpath', token, {
    RecordPath: path.join(s.dataDir, 'records'),
    SegmentSeconds: String(SEGMENT_S),
    MinFreeBytes: '0',
    DefaultSaveDays: '3650',
  });
  const get = <T = unknown>(url: string) => call<T>(s.url, url, { headers: { token } });
  const devices: string[] = [];
  for (let i = 0; i < STREAMS; i++) {
    const dev = await call<{ DeviceID: string }>(s.url, '/api/v1/adddevice', {
      method: 'POST',
      headers: { token, 'content-type': 'application/json' },
      body: JSON.stringify({ DeviceName: `${label}-${i}`, DeviceType: 'RTSP', RtspUrl: cam.url(i + 1) }),
    });
    devices.push(dev.DeviceID);
    await get(`/api/v1/devices/channelstream?device=${dev.DeviceID}&channel=1&protocol=ws_m4s`);
  }
  const touch = setInterval(() => {
    for (const d of devices) void get(`/api/v1/touchchannelstream?device=${d}&channel=1`).catch(() => undefined);
  }, 5000);
  onCleanup(() => clearInterval(touch));
  let recording = false;
  const setRecording = async (on: boolean) => {
    if (on === recording) return;
    for (const d of devices) await get(`/api/v1/realtimerecord/${on ? 'start' : 'stop'}?device=${d}&channel=1`);
    recording = on;
  };
  return { ...s, label, setRecording, isRecording: () => recording };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await runBench('ab-recording', async () => {
  const cam = await startCamera((m) => console.log(`[ab] ${m}`), 'replay');
  const a = await side('A', A_ENV, cam, A_ROOT);
  const b = await side('B', B_ENV, cam, B_ROOT);
  console.log(
    `A ${JSON.stringify(A_ENV)}${A_ROOT ? ` from ${A_ROOT}` : ''} pid ${a.pid}; B ${JSON.stringify(B_ENV)}${B_ROOT ? ` from ${B_ROOT}` : ''} pid ${b.pid}; ` +
      `${STREAMS} streams each; --record=${MODE}; warm-up ${WARMUP_S} s`,
  );
  await sleep(WARMUP_S * 1000);
  const ratios: number[] = [];
  const mainRatios: number[] = [];
  for (let w = 0; w < WINDOWS; w++) {
    // alt: A records in even windows, B in odd ones; both: both record throughout.
    const [recA, recB] = MODE === 'both' ? [true, true] : [w % 2 === 0, w % 2 === 1];
    const switched = a.isRecording() !== recA || b.isRecording() !== recB;
    // Stop first, then start: the window after waits out the new recorders' first segment.
    for (const [s, on] of [[a, recA], [b, recB]] as const) if (!on) await s.setRecording(false);
    for (const [s, on] of [[a, recA], [b, recB]] as const) if (on) await s.setRecording(true);
    if (switched) await sleep((SETTLE_S + SEGMENT_S) * 1000);
    const a0 = cpu(a.pid);
    const b0 = cpu(b.pid);
    const t0 = performance.now();
    await sleep(WINDOW_S * 1000);
    const secs = (performance.now() - t0) / 1000;
    const a1 = cpu(a.pid);
    const b1 = cpu(b.pid);
    const pctOf = (ticks: number) => (ticks / CLK_TCK / secs) * 100;
    const [aAll, bAll, aMain, bMain] = [a1.all - a0.all, b1.all - b0.all, a1.main - a0.main, b1.main - b0.main].map(pctOf);
    // alt: recording over live-only; both: B over A.
    const [num, den, numMain, denMain] = MODE === 'alt' && recA ? [aAll, bAll, aMain, bMain] : [bAll, aAll, bMain, aMain];
    ratios.push(num / den);
    mainRatios.push(numMain / denMain);
    const tag = (rec: boolean) => (MODE === 'both' ? '' : rec ? ' recording' : ' live-only');
    console.log(
      `window ${w + 1}: A${tag(recA)} ${aAll.toFixed(2)} % (main ${aMain.toFixed(2)}), B${tag(recB)} ${bAll.toFixed(2)} % (main ${bMain.toFixed(2)}) of a core; ` +
        `${MODE === 'alt' ? 'recording/live-only' : 'B/A'} ${(num / den).toFixed(3)} (main ${(numMain / denMain).toFixed(3)}); load ${loadavg()}`,
    );
  }
  const label = MODE === 'alt' ? 'recording/live-only' : 'B/A';
  console.log(`median ${label} over ${WINDOWS} windows: ${median(ratios).toFixed(3)} (main thread ${median(mainRatios).toFixed(3)})`);
  if (MODE === 'alt') {
    const byServer = (even: boolean) => median(ratios.filter((_, i) => (i % 2 === 0) === even));
    console.log(`  A recording: ${byServer(true).toFixed(3)}, B recording: ${byServer(false).toFixed(3)}`);
  }
  return 0;
});
