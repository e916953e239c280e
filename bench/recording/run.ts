/**
 * recording benchmark (`npm run bench -- recording [-- --streams=16,64 --viewers=0,1 --warmup=10 --window=20
 * --pairs=3 --settle=6 --engines=sqlite,pg --parts=record,playback,query --camera=gstreamer]`). The issue 5 figures, each with a baseline
 * measured in the same run:
 *
 * Recorder, per N streams (a fresh server; N RTSP devices on bench/live/camera.py, or with
 * --camera=replay on bench/live/replay-camera.ts (camera.ts), 1080p25 H.264 ~4 Mbit/s; CHANNEL_CHECK_INTERVAL=0): the N hubs are opened (devices/channelstream) and kept open
 * with touchchannelstream, no viewer. Then live-only (L) and recording (R, realtimerecord/start on
 * every channel) windows of --window s alternate as L R, R L, L R (--pairs), --settle s after each
 * switch, and after switching recording on also one segment (20 s) more: recording's steady cost is
 * measured, not its start. In its first segment a recorder's sample buffers grow to the stream's
 * fragment size and the next segment takes them at that size; at 64 streams whose keyframes all come
 * at once (one camera) that first change allocates ~64 MB of buffers together and V8 answers with a
 * burst of full collections, ~2 % of a core over a window that holds it (session 8: windows right
 * after a start 14.2-14.9 % against 12.6-13.1 % for the windows after them). Per window the server's CPU seconds (utime+stime of /proc/PID/stat) and bytes written
 * (wchar of /proc/PID/io). Figures: the server's CPU with recorders against live-only as the median
 * of the adjacent pairs' ratios (goal: under 10 % more), and the bytes the recorders added to wchar
 * (segment files; index rows go to the database, in wchar too) per byte of H.264 the camera sent in
 * the recording windows (the clip's elementary-stream rate × N × seconds); its baseline is what
 * `ffmpeg -c copy -f mp4 -movflags frag_keyframe+empty_moov+default_base_moof -frag_duration 1` writes
 * per byte of the same clip.
 *
 * ffmpeg as the reference recorder (per N, once, after the viewer-less server windows, with no server
 * running): N processes of Debian's ffmpeg pull the same camera streams over RTSP/TCP (cam.url(i+1),
 * the transport the server's RTSP client uses) and copy them either to nothing (L: `ffmpeg
 * -rtsp_transport tcp -i URL -c copy -f null -`) or each to its own fragmented MP4 file in a scratch
 * directory beside the server's (R: `-c copy -f mp4 -movflags frag_keyframe+empty_moov+default_base_moof
 * -frag_duration 1000000`, the muxing our recorder does; no segments), windows alternated as the
 * server's (L R, R L, ...). ffmpeg cannot switch its output mid-stream, so each window has its own
 * group of N processes: started, every one receiving ~2 s of the camera, --warmup s more, the window,
 * stopped (its files deleted). Both groups running for the whole run and read over the same windows
 * was weighed and left: the camera would serve 2N clients (camera.py ~1.2 % of a core per client:
 * ~150 % at 128) beside 2N ffmpeg, more than this 2-core machine has, so each group would run short of
 * CPU and beside a load the server's windows never had; one group at a time has the server's
 * conditions (N camera clients, one kind of window at a time, the same alternation against drift in
 * the machine's load). Per window the processes' utime+stime and what each received from the camera
 * (tcp_info bytes_received): in every window the processes must read at least 24/25 of the camera's
 * rate on the mean (the live bench's rule) and each one at least 23/25, and every file must grow, or
 * the part fails rather than give a reference it did not measure. ffmpeg writes through the page cache (our recorder writes
 * O_DIRECT); the prefault below covers its bytes too. Figures: ffmpeg's CPU recording against its own
 * -f null (median pair ratio), its extra in % (beside our goal of < 10 %, for comparison), and the
 * extra per stream of both recorders in % of a core (the server's recording − live-only windows / N,
 * ffmpeg's fMP4 − null / N, medians over the pairs) with the ratio ours / ffmpeg's.
 *
 * --viewers=0,1 (default both): 0 is the above, no viewer. 1 is the same again on a fresh server
 * whose every stream also has one WS-fMP4 viewer in this process for the whole run, in the live-only
 * and the recording windows alike (bench/lib/ws-viewer.ts, the reading viewer of the live bench's
 * parts: it takes every message and drops it), as issue 4's live figures are measured ("each stream
 * with one WS-fMP4 viewer"): issue 5's "live-only" read that way. Its figures say so in their names
 * ("each with one WS-fMP4 viewer as in the live bench"); every viewer must receive media in every
 * window, or the run fails rather than name a baseline it did not have. The recorder alone and the
 * segment writer alone are measured once per N (they have no viewer) and set against both baselines.
 *
 * Before the recorder windows, the page cache is prefaulted (prefaultPageCache, --prefault-mb): a
 * fresh VM's first write into each page of guest memory costs the host's page fault, which a server
 * that has been up a while does not pay.
 *
 * Playback (on the first N's server, after its recording): one complete 20 s segment of channel 1
 * copied 180 times as one hour of 4 Mbit/s video (index rows inserted directly, contiguous, on
 * yesterday 01:00-02:00). Range download: GET record/recordvideo/download/mp4 of the hour read to the
 * end by curl (remux only: one progressive MP4 of the segments' samples), MB/s, median of 3; baseline `cat` of the
 * same 180 files to /dev/null. Seek: a WS playback session of the hour; from sending
 * devices/record/playback/control?command=seek (a random second of the hour) to the first media
 * fragment after the new init at the client, p95 of 30; baseline: the round trip of
 * /api/v2/playState on the same session.
 *
 * Queries, per engine (SQLite, PostgreSQL): a fresh server, 64 RTSP devices (nothing listens), and
 * a year of contiguous 5-minute segments for each of the 64 channels (64 × 105,120 = 6.7 M rows)
 * inserted directly (SQLite: one transaction of prepared inserts; PostgreSQL: INSERT ... SELECT
 * FROM generate_series, then ANALYZE as autovacuum would). p99 of 300 sequential querydaily (random
 * channel and day of the year) and 300 querymonthly (random channel and month); baseline the p99 of
 * 300 deviceinfo (a lookup by the device's key through the same HTTP, auth and scope path). The three
 * run in interleaved blocks of 25, and the server's CPU seconds per block give each one's CPU per
 * request (figures without a goal: what the load cannot stretch).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import WebSocket from 'ws';
import { mergeFigures, writeFigures, type Figure } from '../lib/figures';
import { ADMIN, call, freePort, initialise, login, NEW_PASSWORD, onCleanup, postForm, ROOT, runBench, startServer, stopChild, trackChild } from '../lib/server';
import { startCamera, CLIP_H264, CLIP_MP4, FPS, type Camera, type CameraKind } from '../lib/camera';
import { machineBusy, machineCpu, ownCpu, receivedFrom } from '../lib/received';
import { wsViewer, type CountingViewer } from '../lib/ws-viewer';

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
function arg(name: string, def: string): string {
  const a = process.argv.slice(2).find((x) => x.startsWith(`--${name}=`));
  return a ? a.slice(name.length + 3) : def;
}
const list = (s: string) => s.split(',').map((x) => Number(x.trim())).filter((x) => Number.isInteger(x) && x > 0);
const STREAMS = list(arg('streams', '16,64'));
/** --viewers=0,1: the record part without viewers (0) and with one WS-fMP4 viewer per stream (1). */
const VIEWERS = arg('viewers', '0,1').split(',').map((x) => Number(x.trim()));
if (!VIEWERS.length || VIEWERS.some((v) => v !== 0 && v !== 1)) throw new Error(`--viewers=${arg('viewers', '')}: 0, 1 or 0,1`);
/** In the names of the figures measured with a viewer on every stream (and only in those). */
const WITH_VIEWER = 'each with one WS-fMP4 viewer as in the live bench';
const WARMUP_S = Number(arg('warmup', '10'));
const WINDOW_S = Number(arg('window', '20'));
/** Live-only/recording window pairs per N (alternated L R, R L, ...). */
const PAIRS = Number(arg('pairs', '3'));
/** Seconds after recording starts or stops before a window (the next keyframe; files closing). */
const SETTLE_S = Number(arg('settle', '6'));
/** Segment length on the bench's servers (short, so the windows see segments change). */
const SEGMENT_S = 20;
const ENGINES = arg('engines', 'sqlite,pg').split(',');
const PARTS = arg('parts', 'record,playback,query').split(',');
/** --camera=replay|gstreamer (camera.ts). */
const CAMERA = arg('camera', 'gstreamer') as CameraKind;
if (CAMERA !== 'replay' && CAMERA !== 'gstreamer') throw new Error(`--camera=${CAMERA}: replay or gstreamer`);
const SEEKS = Number(arg('seeks', '30'));
const QUERIES = Number(arg('queries', '300'));

const T0 = Date.now();
const log = (m: string) => console.log(`[recording ${((Date.now() - T0) / 1000).toFixed(0).padStart(4)} s] ${m}`);
const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').trim();
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const median = (xs: number[]) => pct(xs, 50);
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const stamp = (t: number) => {
  const d = new Date(t);
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
};

/** utime + stime of the process and of its children that ended (its ffmpeg runs, e.g. thumbnails), in seconds. */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / CLK_TCK;
}
function wchar(pid: number): number {
  return Number(/^wchar:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? NaN);
}

async function pool<T>(items: T[], limit: number, fn: (x: T, i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

interface Srv {
  base: string;
  pid: number;
  token: string;
  dataDir: string;
  stop(): Promise<void>;
}
async function server(label: string, databaseUrl?: string, dataDir?: string): Promise<Srv> {
  const s = await startServer({ label, prefix: 'recording', databaseUrl, dataDir, env: { CHANNEL_CHECK_INTERVAL: '0', SIP_PORT: '0' }, showLogOnStop: true, log });
  const session = await initialise(s.url);
  // Segments of 20 s, no disk guard and a long save time: retention must not touch the bench's rows.
  await postForm(s.url, '/api/v1/recordpath', session.Token, {
    RecordPath: path.join(s.dataDir, 'records'),
    SegmentSeconds: String(SEGMENT_S),
    MinFreeBytes: '0',
    DefaultSaveDays: '3650',
  });
  return { base: s.url, pid: s.pid, token: session.Token, dataDir: s.dataDir, stop: s.stop };
}
const get = <T = unknown>(s: Srv, url: string) => call<T>(s.base, url, { headers: { token: s.token } });

async function addDevice(s: Srv, name: string, url: string): Promise<string> {
  const body = await call<{ DeviceID: string }>(s.base, '/api/v1/adddevice', {
    method: 'POST',
    headers: { token: s.token, 'content-type': 'application/json' },
    body: JSON.stringify({ DeviceName: name, DeviceType: 'RTSP', RtspUrl: url }),
  });
  return body.DeviceID;
}

// ---------------------------------------------------------------------------------------------
// Recorder CPU and bytes
// ---------------------------------------------------------------------------------------------
/** One live-only/recording pair of windows: the CPU of each, % of a core. */
interface Pair {
  L: number;
  R: number;
}
interface Window {
  cpu: number;
  written: number;
  seconds: number;
}
async function measure(s: Srv): Promise<Window> {
  const c0 = cpuSeconds(s.pid);
  const w0 = wchar(s.pid);
  const t0 = performance.now();
  await sleep(WINDOW_S * 1000);
  return { cpu: cpuSeconds(s.pid) - c0, written: wchar(s.pid) - w0, seconds: (performance.now() - t0) / 1000 };
}

function recordsBytes(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) n += fs.statSync(path.join(e.parentPath, e.name)).size;
  return n;
}

/**
 * --prefault-mb=auto|0|N: before the recorder windows, write N MB to a file in the records' file
 * system and delete it. A fresh VM's guest memory has never been touched: the first write into each
 * page costs the host's page fault, and page-cache writes into such memory cost ~2.5 ms per MB here
 * against ~0.2 ms per MB into pages used before (dd of 320 MB files: 0.06 s for the first two, 0.8 s
 * each after). A server that has been up a while writes into recycled page cache, so the recorder's
 * CPU is measured there: the deleted file's pages go back to the free lists and the segments reuse
 * them. auto: what the recording windows will write, a third more, plus 512 MB, at most 60 % of
 * MemAvailable.
 */
function prefaultPageCache() {
  const want = arg('prefault-mb', 'auto');
  // The server's recording windows, and ffmpeg's (viewer-less N only: from its start to its stop, through the page cache).
  const ffmpegMb = VIEWERS.includes(0) ? STREAMS.reduce((sum, n) => sum + n * 0.55 * (WINDOW_S + WARMUP_S + 8) * PAIRS, 0) : 0;
  const windowsMb = STREAMS.reduce((sum, n) => sum + n * 0.55 * WINDOW_S * PAIRS * VIEWERS.length, 0) + ffmpegMb;
  const availMb = Number(/MemAvailable:\s+(\d+)/.exec(fs.readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0) / 1024;
  const mb = Math.floor(want === 'auto' ? Math.min(windowsMb * 1.33 + 512, availMb * 0.6) : Number(want) || 0);
  if (mb <= 0) return;
  const file = path.join(os.tmpdir(), `opencvr-bench-prefault-${process.pid}`);
  const t0 = performance.now();
  const chunk = Buffer.alloc(8 * 1024 * 1024, 1);
  const fd = fs.openSync(file, 'w');
  try {
    for (let done = 0; done < mb; done += 8) fs.writeSync(fd, chunk);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
  }
  log(`page cache prefaulted: ${mb} MB written and deleted in ${((performance.now() - t0) / 1000).toFixed(1)} s (--prefault-mb=0 to skip)`);
}

/** The recorder alone and the segment writer alone, % of a core, per N: measured once (no server, no viewer), by the first record run of that N. */
const soloCache = new Map<number, { recorder: number; writer: number }>();
function recorderAlone(n: number, scratch: string): { recorder: number; writer: number } {
  const known = soloCache.get(n);
  if (known) return known;
  // The recorder alone (recorder-only.ts), in its own process, for the same N and window, minus the
  // same harness with no recorder (its frame clock and Node itself cost ~1 % of a core on their own).
  const soloRun = (count: number, mode = 'kept') => {
    const alone = path.join(scratch, `recorder-only-${count}-${mode}`);
    fs.mkdirSync(alone, { recursive: true });
    const only = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/recording/recorder-only.ts'), String(count), String(WINDOW_S), alone, mode], { cwd: ROOT, encoding: 'utf8' });
    if (only.status !== 0) throw new Error(`recorder-only: ${only.stderr}`);
    const solo = JSON.parse(only.stdout.trim().split('\n').pop()!) as { cpuSeconds: number; seconds: number };
    fs.rmSync(alone, { recursive: true, force: true });
    return (solo.cpuSeconds / solo.seconds) * 100;
  };
  const harnessCpu = soloRun(0);
  const recorder = Math.max(0, soloRun(n) - harnessCpu);
  log(`recorder alone: ${round(recorder, 2)} % CPU for ${n} streams (harness without recorders ${round(harnessCpu, 2)} %, subtracted)`);
  // The floor under it: the same bytes through the same segment writer in as many direct writes, no
  // muxing (recorder-only.ts `writer`): what writing these bytes with the crash bound costs at all.
  const writer = Math.max(0, soloRun(n, 'writer') - harnessCpu);
  log(`segment writer alone: ${round(writer, 2)} % CPU for ${n} streams`);
  const r = { recorder, writer };
  soloCache.set(n, r);
  return r;
}

/**
 * The record part for N streams on a fresh server: live-only and recording windows alternated (see
 * the header). viewers 1: every stream also has one WS-fMP4 viewer (bench/lib/ws-viewer.ts) from
 * before the warm-up to the end, in both kinds of window.
 */
async function recordStreams(cam: Camera, n: number, keep: boolean, viewers: 0 | 1): Promise<{ figures: Figure[]; server?: Srv; devices: string[]; pairs: Pair[] }> {
  const what = viewers ? `${n} streams with viewers` : `${n} streams`;
  const s = await server(viewers ? `record-${n}-viewers` : `record-${n}`);
  const devices: string[] = new Array(n);
  await pool(Array.from({ length: n }, (_, i) => i), 8, async (i) => {
    devices[i] = await addDevice(s, `cam ${i + 1}`, cam.url(i + 1));
  });
  const urls: string[] = new Array(n);
  await pool(devices, 8, async (d, i) => {
    const body = await get<{ URL: string }>(s, `/api/v1/devices/channelstream?device=${d}&channel=1&protocol=ws_m4s`);
    urls[i] = s.base.replace(/^http/, 'ws') + body.URL;
  });
  const touch = setInterval(() => {
    for (const d of devices) void get(s, `/api/v1/touchchannelstream?device=${d}&channel=1`).catch(() => undefined);
  }, 5000);
  onCleanup(() => clearInterval(touch));
  const watching: CountingViewer[] = viewers ? urls.map((u) => wsViewer(u)) : [];
  const closeViewers = () => Promise.all(watching.map((v) => v.close())).then(() => undefined);
  onCleanup(closeViewers);
  if (viewers) {
    // Each stream waits for its camera's next keyframe (GOP 2 s); many start together.
    const within = Math.max(30_000, n * 300);
    await Promise.race([Promise.allSettled(watching.map((v) => v.ready)), sleep(within)]);
    const silent = watching.filter((v) => v.firstAt === undefined).length;
    if (silent) throw new Error(`${silent} of ${n} WS-fMP4 viewers got no media in ${within / 1000} s (load ${loadavg()})`);
    log(`${n} streams open, one WS-fMP4 viewer on each, all receiving`);
  }
  log(`${what} open; warm-up ${WARMUP_S} s (load ${loadavg()})`);
  await sleep(WARMUP_S * 1000);

  // Live-only (L) and recording (R) windows alternate, L R R L L R ..., so a change of the machine's
  // load hits both about equally; each pair's ratio is of two adjacent windows, the figure is the
  // median ratio. (One L window then one R window on a shared machine gave +62 % at 16 streams and
  // -2 % at 64: the noise, not the recorder.)
  const records = path.join(s.dataDir, 'records');
  let recording = false;
  const setRecording = async (on: boolean) => {
    if (on === recording) return;
    await pool(devices, 8, async (d) => void (await get(s, `/api/v1/realtimerecord/${on ? 'start' : 'stop'}?device=${d}&channel=1`)));
    recording = on;
    if (on) {
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && (!fs.existsSync(records) || fs.readdirSync(records).length < n)) await sleep(500);
    }
    // The recorders start at the next keyframe; stopped ones close their files. After a start the
    // window also waits out the first segment change: the sample buffers reach the stream's size in
    // the first segment and the next one takes them at that size (see the header).
    await sleep((SETTLE_S + (on ? SEGMENT_S : 0)) * 1000);
  };
  const lives: Window[] = [];
  const recs: Window[] = [];
  const ratios: number[] = [];
  const pairsCpu: Pair[] = [];
  let fileBytes = 0;
  for (let p = 0; p < PAIRS; p++) {
    const pair: Record<'L' | 'R', Window | undefined> = { L: undefined, R: undefined };
    for (const mode of p % 2 ? (['R', 'L'] as const) : (['L', 'R'] as const)) {
      await setRecording(mode === 'R');
      const bytes0 = mode === 'R' ? recordsBytes(records) : 0;
      const seen0 = watching.map((v) => v.bytes);
      const w = await measure(s);
      if (mode === 'R') fileBytes += recordsBytes(records) - bytes0;
      let seen = '';
      if (viewers) {
        // Every viewer must have read media in the window: the figure says each stream had one.
        const mbit = watching.map((v, i) => ((v.bytes - seen0[i]) * 8) / 1e6 / w.seconds);
        const idle = mbit.filter((m) => m === 0).length;
        if (idle) throw new Error(`${idle} of ${n} WS-fMP4 viewers received nothing in a ${WINDOW_S} s window (load ${loadavg()})`);
        seen = `; viewers ${round(mbit.reduce((a, b) => a + b, 0) / n, 2)} Mbit/s each (lowest ${round(Math.min(...mbit), 2)})`;
      }
      pair[mode] = w;
      (mode === 'R' ? recs : lives).push(w);
      log(`${what}, pair ${p + 1} ${mode === 'R' ? 'recording' : 'live-only'}: ${round((w.cpu / w.seconds) * 100, 1)} % CPU, ${round(w.written / 1e6, 2)} MB written${seen} (load ${loadavg()})`);
    }
    ratios.push(pair.R!.cpu / pair.R!.seconds / (pair.L!.cpu / pair.L!.seconds));
    pairsCpu.push({ L: (pair.L!.cpu / pair.L!.seconds) * 100, R: (pair.R!.cpu / pair.R!.seconds) * 100 });
  }
  const sum = (ws: Window[], k: keyof Window) => ws.reduce((a, w) => a + w[k], 0);
  const live = { cpu: sum(lives, 'cpu'), written: sum(lives, 'written'), seconds: sum(lives, 'seconds') };
  const rec = { cpu: sum(recs, 'cpu'), written: sum(recs, 'written'), seconds: sum(recs, 'seconds') };
  log(`${what}: recording/live-only CPU ratios ${ratios.map((r) => round(r, 3)).join(', ')}; ${round(fileBytes / 1e6, 1)} MB of segment files in the recording windows`);
  await setRecording(false);
  clearInterval(touch);
  await closeViewers();

  const { recorder: soloCpu, writer: writerCpu } = recorderAlone(n, s.dataDir);
  const liveCpu = median(lives.map((w) => (w.cpu / w.seconds) * 100));
  const recCpu = median(recs.map((w) => (w.cpu / w.seconds) * 100));
  const ratio = median(ratios);
  const pairs = ratios.map((r) => `${round((r - 1) * 100, 1)}`).join(', ');
  let figures: Figure[];
  if (!viewers) {
    const ingested = cam.bytesPerSecond * n * rec.seconds;
    const extraWritten = rec.written - (live.written / live.seconds) * rec.seconds;
    figures = [
      { name: `server CPU recording ${n} streams, median of ${PAIRS} alternated windows of ${WINDOW_S} s (baseline: same streams live-only; ratio: median of the adjacent pairs' ratios)`, value: round(recCpu, 1), unit: '% of a core', baseline: round(liveCpu, 1), ratio: round(ratio), goal: 'ratio < 1.10 (recorder under 10 % extra)' },
      { name: `recorder extra CPU, ${n} streams (median over ${PAIRS} pairs of (recording − live-only) / live-only; pairs ${pairs} %)`, value: round((ratio - 1) * 100, 1), unit: '%', baseline: null, goal: '< 10' },
      { name: `recorder alone, ${n} streams in real time (own process, minus the same process with no recorder; baseline: server live-only)`, value: round(soloCpu, 2), unit: '% of a core', baseline: round(liveCpu, 1), ratio: round(soloCpu / liveCpu), goal: 'ratio < 0.10' },
      { name: `segment writer alone, ${n} streams: the recorder's bytes copied and written as it writes them, no muxing (own process, minus the harness; baseline: server live-only)`, value: round(writerCpu, 2), unit: '% of a core', baseline: round(liveCpu, 1), ratio: round(writerCpu / liveCpu), goal: null },
      { name: `bytes written per byte ingested, ${n} streams (baseline: ffmpeg -c copy fMP4)`, value: round(extraWritten / ingested), unit: 'B/B', baseline: round(remuxRatio()), goal: '<= 1.05' },
    ];
  } else {
    // The same figures against the live-only server whose streams each have a viewer (the bytes
    // written are the viewer-less run's figure: wchar here also counts the viewers' socket writes).
    figures = [
      { name: `server CPU recording ${n} streams, ${WITH_VIEWER}, median of ${PAIRS} alternated windows of ${WINDOW_S} s (baseline: the same streams and viewers live-only; ratio: median of the adjacent pairs' ratios)`, value: round(recCpu, 1), unit: '% of a core', baseline: round(liveCpu, 1), ratio: round(ratio), goal: 'ratio < 1.10 (recorder under 10 % extra)' },
      { name: `recorder extra CPU, ${n} streams, ${WITH_VIEWER} (median over ${PAIRS} pairs of (recording − live-only) / live-only, the viewers in both; pairs ${pairs} %)`, value: round((ratio - 1) * 100, 1), unit: '%', baseline: null, goal: '< 10' },
      { name: `recorder alone, ${n} streams in real time, against the server's ${n} streams ${WITH_VIEWER} (own process, minus the same process with no recorder; baseline: that server live-only)`, value: round(soloCpu, 2), unit: '% of a core', baseline: round(liveCpu, 1), ratio: round(soloCpu / liveCpu), goal: 'ratio < 0.10' },
      { name: `segment writer alone, ${n} streams, against the server's ${n} streams ${WITH_VIEWER}: the recorder's bytes copied and written, no muxing (own process, minus the harness; baseline: that server live-only)`, value: round(writerCpu, 2), unit: '% of a core', baseline: round(liveCpu, 1), ratio: round(writerCpu / liveCpu), goal: null },
    ];
  }
  if (!keep) {
    await s.stop();
    return { figures, devices, pairs: pairsCpu };
  }
  return { figures, server: s, devices, pairs: pairsCpu };
}

let remux: number | undefined;
/** Bytes ffmpeg's fragmented MP4 remux of the clip writes per byte of its H.264. */
function remuxRatio(): number {
  if (remux !== undefined) return remux;
  const out = path.join(ROOT, 'bench/results/.recording-remux.mp4');
  const r = spawnSync('ffmpeg', ['-v', 'error', '-y', '-i', CLIP_MP4, '-c', 'copy', '-f', 'mp4', '-movflags', 'frag_keyframe+empty_moov+default_base_moof', '-frag_duration', '1000000', out]);
  if (r.status !== 0) throw new Error(`ffmpeg remux: ${r.stderr}`);
  remux = fs.statSync(out).size / fs.statSync(CLIP_H264).size;
  fs.rmSync(out, { force: true });
  return remux;
}

// ---------------------------------------------------------------------------------------------
// ffmpeg as the reference recorder (see the header)
// ---------------------------------------------------------------------------------------------
interface FfWindow {
  /** CPU seconds of the N processes over the window (utime + stime), and the two apart. */
  cpu: number;
  user: number;
  sys: number;
  seconds: number;
  /** Bytes the N files grew by over the window (recording windows; 0 for -f null). */
  written: number;
  /** Bytes the N processes received from the camera over the window. */
  received: number;
  /** What the processes received over the window per camera rate: the mean and the slowest. */
  meanRate: number;
  slowest: number;
  machine: string;
}

/**
 * One window of N ffmpeg processes pulling the camera over RTSP/TCP (cam.url(i + 1), as the
 * server's devices), each copying the stream to -f null (mode L) or to its own fragmented MP4 file
 * in `dir` (mode R, the muxing our recorder does: a fragment at each keyframe and at most 1 s):
 * started, every one receiving, WARMUP_S more, then WINDOW_S measured, then stopped (files deleted).
 * Fails unless the processes received at least (FPS - 1) / FPS of the camera's rate on the mean (the
 * live bench's rule: ffmpeg that fell behind did less than a stream's work) and every one at least
 * (FPS - 2) / FPS, and, recording, every file grew.
 */
async function ffmpegWindow(cam: Camera, n: number, mode: 'L' | 'R', dir: string): Promise<FfWindow> {
  const devnull = fs.openSync('/dev/null', 'w');
  const files = Array.from({ length: n }, (_, i) => path.join(dir, `ffmpeg-${i + 1}.mp4`));
  const output = (i: number) =>
    mode === 'R' ? ['-f', 'mp4', '-movflags', 'frag_keyframe+empty_moov+default_base_moof', '-frag_duration', '1000000', files[i]] : ['-f', 'null', '-'];
  let stopping = false;
  /** Processes replaced while starting (their exit is expected). */
  const replaced = new WeakSet<ChildProcess>();
  const startOne = (i: number) => {
    const child = spawn('ffmpeg', ['-nostdin', '-y', '-v', 'error', '-rtsp_transport', 'tcp', '-i', cam.url(i + 1), '-c', 'copy', ...output(i)], {
      stdio: ['ignore', devnull, 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      if (err.length < 2000) err += d.toString();
    });
    child.once('exit', (code, sig) => {
      if (!stopping && !replaced.has(child)) log(`ffmpeg ${i + 1} (${mode === 'R' ? 'fMP4 file' : '-f null'}) exited (${code ?? sig}): ${err.trim().slice(0, 300)}`);
    });
    trackChild(child);
    return child;
  };
  const procs: ChildProcess[] = [];
  const alive = () => procs.every((p) => p.exitCode === null && p.signalCode === null);
  try {
    for (let i = 0; i < n; i++) procs.push(startOne(i));
    // The warm-up starts once every process has received ~2 s of the camera (the live bench's start).
    // One the camera refused (its shared media torn down by the last group's leaving answers 503) and
    // one that has received under 1 s of the camera 10 s after its start (now and then camera.py
    // answers one's RTSP requests and sends it no RTP: two runs lost a reference to one such process
    // of 16 or 64) start again, each at most 3 times.
    const within = Math.max(45_000, n * 500);
    const startedAt = procs.map(() => performance.now());
    const restarts = procs.map(() => 0);
    for (const t = performance.now(); ; await sleep(1000)) {
      const got = receivedFrom(cam.port);
      for (let i = 0; i < n; i++) {
        const p = procs[i];
        const gone = p.exitCode !== null || p.signalCode !== null;
        // Under 1 s of the camera 10 s after its start: the RTSP answers came, the RTP does not.
        const silent = !gone && (got.get(p.pid!) ?? 0) < cam.bytesPerSecond && performance.now() - startedAt[i] > 10_000;
        if (!gone && !silent) continue;
        if (++restarts[i] > 3) throw new Error(`${n} ffmpeg (${mode}): ffmpeg ${i + 1} ${gone ? 'exited' : 'received under 1 s of the camera'} after 3 restarts (load ${loadavg()})`);
        log(`ffmpeg ${i + 1} (${mode}) ${gone ? 'exited' : `received ${got.get(p.pid!) ?? 0} bytes in 10 s`} while starting: started again`);
        replaced.add(p);
        await stopChild(p, 1000);
        procs[i] = startOne(i);
        startedAt[i] = performance.now();
      }
      const behind = procs.filter((p) => (got.get(p.pid!) ?? 0) < 2 * cam.bytesPerSecond).length;
      if (!behind) break;
      if (performance.now() - t > within) throw new Error(`${n} ffmpeg (${mode}): ${behind} of ${n} received under 2 s of the camera in ${within / 1000} s (load ${loadavg()})`);
    }
    await sleep(WARMUP_S * 1000);
    if (!alive()) throw new Error(`${n} ffmpeg (${mode}): some exited in the warm-up`);
    const pids = procs.map((p) => p.pid!);
    const size = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
    const c0 = pids.map((p) => ownCpu(p)!);
    const got0 = receivedFrom(cam.port);
    const s0 = mode === 'R' ? files.map(size) : [];
    const m0 = machineCpu();
    const w0 = performance.now();
    await sleep(WINDOW_S * 1000);
    const c1 = pids.map((p) => ownCpu(p));
    const got1 = receivedFrom(cam.port);
    const s1 = mode === 'R' ? files.map(size) : [];
    const seconds = (performance.now() - w0) / 1000;
    const machine = machineBusy(m0, seconds);
    if (!alive() || c1.some((c) => c === undefined)) throw new Error(`${n} ffmpeg (${mode}): some exited during the window`);
    const user = c1.reduce((a, c, i) => a + c!.user - c0[i].user, 0);
    const sys = c1.reduce((a, c, i) => a + c!.sys - c0[i].sys, 0);
    const got = pids.map((p) => Math.max(0, (got1.get(p) ?? 0) - (got0.get(p) ?? 0)));
    const rates = got.map((b) => b / seconds / cam.bytesPerSecond);
    const w: FfWindow = {
      cpu: user + sys,
      user,
      sys,
      seconds,
      written: s1.reduce((a, b, i) => a + b - s0[i], 0),
      received: got.reduce((a, b) => a + b, 0),
      meanRate: rates.reduce((a, b) => a + b, 0) / n,
      slowest: Math.min(...rates),
      machine,
    };
    // The live bench's rule on the mean (24/25), and every process at least 23/25: a window's edges
    // fall on one process's reading a fraction of a second apart from another's (a keyframe is ~1.5 %
    // of 20 s of the clip; a 5 s trial window at load 24 read 0.959 for one and 1.012 on the mean).
    const rule = (FPS - 1) / FPS;
    const each = (FPS - 2) / FPS;
    if (w.meanRate < rule || w.slowest < each) {
      const behind = rates.filter((r) => r < each).length;
      throw new Error(
        `${n} ffmpeg (${mode}): received ${round(w.meanRate)} of the camera's rate on the mean (rule >= ${round(rule)}), slowest ${round(w.slowest)} (${behind} of ${n} under ${round(each)}): they fell behind, no reference; ${machine}; load ${loadavg()}`,
      );
    }
    if (mode === 'R') {
      const still = s1.filter((b, i) => b <= s0[i]).length;
      if (still) throw new Error(`${n} ffmpeg (R): ${still} of ${n} files did not grow in the window`);
    }
    return w;
  } finally {
    stopping = true;
    await Promise.all(procs.map((p) => stopChild(p, 3000)));
    fs.closeSync(devnull);
    for (const f of files) fs.rmSync(f, { force: true });
  }
}

/**
 * ffmpeg as the reference recorder for N streams (no server running): windows of N ffmpeg to -f null
 * (L) and N ffmpeg to fMP4 files (R) alternated as the server's (L R, R L, ...), each group started
 * for its window (ffmpegWindow). `ours`: the server's live-only/recording pairs for the same N, no
 * viewer. Figures: ffmpeg's CPU recording against its own -f null, its extra in %, and both
 * recorders' extra per stream in % of a core.
 */
async function ffmpegReference(cam: Camera, n: number, ours: Pair[]): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `opencvr-bench-recording-ffmpeg-${n}-`));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  const pairs: Pair[] = [];
  for (let p = 0; p < PAIRS; p++) {
    const pair: Partial<Pair> = {};
    for (const mode of p % 2 ? (['R', 'L'] as const) : (['L', 'R'] as const)) {
      const w = await ffmpegWindow(cam, n, mode, dir);
      pair[mode] = (w.cpu / w.seconds) * 100;
      log(
        `${n} ffmpeg, pair ${p + 1} ${mode === 'R' ? 'recording (fMP4 files)' : 'live-only (-f null)'}: ${round(pair[mode], 1)} % CPU (user ${round((w.user / w.seconds) * 100, 1)}, sys ${round((w.sys / w.seconds) * 100, 1)}), ` +
          `${round(w.written / 1e6, 2)} MB written (${round(w.received ? w.written / w.received : 0, 3)} of the bytes received); read ${round(w.meanRate)} of the camera's rate on the mean, slowest ${round(w.slowest)}; ${w.machine} (load ${loadavg()})`,
      );
    }
    pairs.push(pair as Pair);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const ratios = pairs.map((q) => q.R / q.L);
  const ratio = median(ratios);
  const ffExtra = median(pairs.map((q) => (q.R - q.L) / n));
  const ourExtra = median(ours.map((q) => (q.R - q.L) / n));
  const pcts = ratios.map((r) => `${round((r - 1) * 100, 1)}`).join(', ');
  log(
    `${n} ffmpeg: recording/null CPU ratios ${ratios.map((r) => round(r, 3)).join(', ')}; extra per stream ${round(ffExtra, 4)} % of a core (pairs ${pairs.map((q) => round((q.R - q.L) / n, 4)).join(', ')}); ` +
      `the server's ${round(ourExtra, 4)} (pairs ${ours.map((q) => round((q.R - q.L) / n, 4)).join(', ')}); live-only per stream: ffmpeg ${round(median(pairs.map((q) => q.L)) / n, 3)}, server ${round(median(ours.map((q) => q.L)) / n, 3)} % of a core`,
  );
  return [
    {
      name: `ffmpeg CPU recording ${n} streams to fragmented MP4 files (${n} × ffmpeg -rtsp_transport tcp -c copy -f mp4 -movflags frag_keyframe+empty_moov+default_base_moof -frag_duration 1000000, the reference recorder), median of ${PAIRS} alternated windows of ${WINDOW_S} s (baseline: the same ${n} pulls to -f null; ratio: median of the adjacent pairs' ratios)`,
      value: round(median(pairs.map((q) => q.R)), 1),
      unit: '% of a core',
      baseline: round(median(pairs.map((q) => q.L)), 1),
      ratio: round(ratio),
      goal: null,
    },
    {
      name: `ffmpeg recording extra CPU, ${n} streams: the reference recorder's fMP4 files over its own -f null (median over ${PAIRS} pairs of (recording − null) / null; pairs ${pcts} %; for comparison, our recorder's goal over our live-only is < 10 %)`,
      value: round((ratio - 1) * 100, 1),
      unit: '%',
      baseline: null,
      goal: null,
    },
    {
      name: `recorder extra CPU per stream, ${n} streams: the server's (recording − live-only windows) / ${n}, median over its ${ours.length} pairs (baseline: ffmpeg's (fMP4 files − -f null) / ${n}, median over its ${PAIRS} pairs on the same camera; ratio ours / ffmpeg's)`,
      value: round(ourExtra, 4),
      unit: '% of a core per stream',
      baseline: round(ffExtra, 4),
      ratio: ffExtra > 0 ? round(ourExtra / ffExtra) : null,
      goal: null,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Playback: an hour of video, download throughput and seek
// ---------------------------------------------------------------------------------------------
interface Row {
  id: number;
  channel_pk: number;
  root: string;
  path: string;
  start_at: string;
  end_at: string;
  duration_ms: number;
  bytes: number;
  status: string;
}

async function playbackFigures(s: Srv, device: string): Promise<Figure[]> {
  const db = new SQLite(path.join(s.dataDir, 'opencvr.db'));
  db.pragma('busy_timeout = 5000');
  const records = path.join(s.dataDir, 'records');
  let seg: Row | undefined;
  for (let i = 0; i < 60 && !seg; i++) {
    seg = db
      .prepare(`SELECT r.* FROM recordings r JOIN channels c ON c.id = r.channel_pk WHERE c.parent_device_id = ? AND r.status = 'complete' AND r.duration_ms >= 15000 ORDER BY r.duration_ms DESC LIMIT 1`)
      .get(device) as Row | undefined;
    if (!seg) await sleep(1000);
  }
  if (!seg) throw new Error('no complete segment of 15 s or more was recorded');
  const src = path.join(records, seg.path);
  const copies = Math.ceil(3600_000 / seg.duration_ms);
  const y = new Date();
  const from = new Date(y.getFullYear(), y.getMonth(), y.getDate() - 1, 1, 0, 0).getTime();
  log(`one hour: ${copies} copies of a ${seg.duration_ms} ms segment (${round(seg.bytes / 1e6, 1)} MB)`);
  const files: string[] = [];
  const insert = db.prepare(`INSERT INTO recordings (channel_pk, root, path, start_at, end_at, duration_ms, bytes, important, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 'complete', ?)`);
  fs.mkdirSync(path.join(records, 'bench-hour'), { recursive: true });
  db.transaction(() => {
    for (let i = 0; i < copies; i++) {
      const rel = `bench-hour/${pad(i, 3)}.mp4`;
      fs.copyFileSync(src, path.join(records, rel));
      files.push(path.join(records, rel));
      const a = from + i * seg.duration_ms;
      insert.run(seg.channel_pk, seg.root, rel, new Date(a).toISOString(), new Date(a + seg.duration_ms).toISOString(), seg.duration_ms, seg.bytes, new Date().toISOString());
    }
  })();
  db.close();
  const to = from + copies * seg.duration_ms;
  const hourTo = from + 3600_000;

  // Download: the hour as one MP4, read to the end.
  const url = `${s.base}/api/v1/record/recordvideo/download/mp4/${device}:1/${stamp(from)}/${stamp(hourTo)}`;
  const rates: number[] = [];
  let size = 0;
  for (let i = 0; i < 3; i++) {
    // curl reads to /dev/null: a client that costs next to nothing, so the figure is the server's.
    const r = spawnSync('curl', ['-sS', '-f', '-o', '/dev/null', '-H', `token: ${s.token}`, '-w', '%{size_download} %{time_total}', url], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`download: curl ${r.status} ${r.stderr}`);
    const [n, secs] = r.stdout.trim().split(' ').map(Number);
    size = n;
    rates.push(n / 1e6 / secs);
    log(`download ${i + 1}: ${round(n / 1e6, 1)} MB in ${round(secs, 2)} s = ${round(n / 1e6 / secs, 1)} MB/s`);
  }
  const catRates: number[] = [];
  const total = files.reduce((n, f) => n + fs.statSync(f).size, 0);
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const r = spawnSync('sh', ['-c', 'cat "$@" > /dev/null', 'cat', ...files]);
    if (r.status !== 0) throw new Error(`cat: ${r.stderr}`);
    catRates.push(total / 1e6 / ((performance.now() - t0) / 1000));
  }
  log(`cat of the same files: ${catRates.map((r) => round(r, 1)).join(', ')} MB/s; the MP4 is ${round(size / total, 4)} × their bytes`);

  // Seek: a WS session of the hour.
  const body = await get<{ URL: string; request_id: string }>(s, `/api/v1/devices/record/playback?channel=${device}:1&stime=${stamp(from)}&etime=${stamp(Math.min(to, hourTo))}&protocol=ws_m4s`);
  const ws = new WebSocket(s.base.replace(/^http/, 'ws') + body.URL, { perMessageDeflate: false });
  let waiting: { stage: 'init' | 'initBytes' | 'frag'; resolve: () => void } | undefined;
  const opened = new Promise<void>((resolve) => (waiting = { stage: 'init', resolve }));
  ws.on('message', (data, isBinary) => {
    const w = waiting;
    if (!w) return;
    if (!isBinary) {
      const msg = JSON.parse(String(data));
      if (msg.type === 'init' && w.stage === 'init') w.stage = 'initBytes';
      return;
    }
    if (w.stage === 'initBytes') w.stage = 'frag';
    else if (w.stage === 'frag') {
      waiting = undefined;
      w.resolve();
    }
  });
  const t0 = performance.now();
  await opened;
  const openMs = performance.now() - t0;
  const seeks: number[] = [];
  const states: number[] = [];
  for (let i = 0; i < SEEKS; i++) {
    const at = from + Math.floor(Math.random() * (Math.min(to, hourTo) - from - 5000));
    const done = new Promise<void>((resolve) => (waiting = { stage: 'init', resolve }));
    const a = performance.now();
    await get(s, `/api/v1/devices/record/playback/control?request_id=${body.request_id}&command=seek&time=${stamp(at)}`);
    await done;
    seeks.push(performance.now() - a);
    await sleep(300);
    const b = performance.now();
    await call(s.base, `/api/v2/playState?request_id=${body.request_id}`, { headers: { token: s.token } });
    states.push(performance.now() - b);
  }
  ws.close();
  log(`open to first fragment ${round(openMs, 1)} ms; seek p50 ${round(median(seeks), 1)} ms p95 ${round(pct(seeks, 95), 1)} ms`);
  return [
    { name: 'range download of 1 h of 4 Mbit/s video (baseline: cat of the same files)', value: round(median(rates), 1), unit: 'MB/s', baseline: round(median(catRates), 1), goal: '> 200' },
    { name: 'seek to first frame p95 (baseline: playState round trip p95)', value: round(pct(seeks, 95), 1), unit: 'ms', baseline: round(pct(states, 95), 2), goal: '< 300' },
    { name: 'playback open to first frame (one sample)', value: round(openMs, 1), unit: 'ms', baseline: null, goal: null },
  ];
}

// ---------------------------------------------------------------------------------------------
// Queries over a year of segments
// ---------------------------------------------------------------------------------------------
const CHANNELS = 64;
const SEG_MS = 5 * 60_000;
const YEAR_MS = 365 * 86400_000;

/** The index of the recordings table (migration 0003): dropped while seeding, built again after (a sort, not 6.7 M inserts into three b-trees). */
const INDEXES = [
  'CREATE INDEX recordings_channel_start ON recordings (channel_pk, start_at)',
  'CREATE INDEX recordings_start ON recordings (start_at)',
  'CREATE INDEX recordings_status ON recordings (status)',
];
const DROP_INDEXES = ['DROP INDEX recordings_channel_start', 'DROP INDEX recordings_start', 'DROP INDEX recordings_status'];

async function seedYear(engine: string, s: Srv, url: string | undefined, pks: number[], yearFrom: number): Promise<number> {
  const per = YEAR_MS / SEG_MS;
  const t0 = performance.now();
  if (engine === 'pg') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('BEGIN');
      for (const q of DROP_INDEXES) await client.query(q);
      // One statement: the rows are made by the database (generate_series), times as toISOString writes them.
      await client.query(
        `INSERT INTO recordings (channel_pk, root, path, start_at, end_at, duration_ms, bytes, important, status, created_at)
         SELECT pk, '', 'seed/' || pk || '/' || i || '.mp4',
                to_char(to_timestamp(($2::bigint + i * $3::bigint) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                to_char(to_timestamp(($2::bigint + (i + 1) * $3::bigint) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                $3, 150000000, 0, 'complete', '2024-01-01T00:00:00.000Z'
         FROM unnest($1::int[]) AS pk, generate_series(0, $4::int - 1) AS i`,
        [pks, yearFrom, SEG_MS, per],
      );
      for (const q of INDEXES) await client.query(q);
      await client.query('COMMIT');
      await client.query('ANALYZE recordings');
    } finally {
      await client.end();
    }
  } else {
    const db = new SQLite(path.join(s.dataDir, 'opencvr.db'));
    db.pragma('synchronous = OFF');
    // One transaction, one statement per channel: the rows are made inside SQLite (a recursive CTE),
    // times as toISOString writes them.
    const insert = db.prepare(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < @last)
      INSERT INTO recordings (channel_pk, root, path, start_at, end_at, duration_ms, bytes, important, status, created_at)
      SELECT @pk, '', 'seed/' || @pk || '/' || i || '.mp4',
             strftime('%Y-%m-%dT%H:%M:%fZ', (@from + i * @seg) / 1000.0, 'unixepoch'),
             strftime('%Y-%m-%dT%H:%M:%fZ', (@from + (i + 1) * @seg) / 1000.0, 'unixepoch'),
             @seg, 150000000, 0, 'complete', '2024-01-01T00:00:00.000Z'
      FROM n`);
    db.transaction(() => {
      for (const q of DROP_INDEXES) db.exec(q);
      for (const pk of pks) insert.run({ pk, last: per - 1, from: yearFrom, seg: SEG_MS });
      for (const q of INDEXES) db.exec(q);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  }
  const secs = (performance.now() - t0) / 1000;
  log(`${engine}: ${pks.length * per} rows seeded in ${round(secs, 1)} s`);
  return pks.length * per;
}

async function queryFigures(engine: string): Promise<Figure[]> {
  let url: string | undefined;
  if (engine === 'pg') {
    const { startPostgres } = (await import(path.join(ROOT, 'scripts/pg.mjs'))) as { startPostgres(o?: { log?: (m: string) => void }): Promise<{ url: string; stop(): Promise<void> }> };
    const p = await startPostgres({ log });
    onCleanup(() => p.stop());
    url = p.url;
  }
  // The server makes the schema, the devices and channels; it is stopped while the rows go in (a
  // write lock held for minutes is no state the server is built for) and started again on the same
  // data. Its start-up reconciliation keeps the rows: the record folder is empty (an unmounted disk).
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `opencvr-bench-recording-query-${engine}-`));
  onCleanup(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  let s = await server(`query-${engine}`, url, dataDir);
  const port = await freePort(); // nothing listens there
  const devices: string[] = new Array(CHANNELS);
  await pool(Array.from({ length: CHANNELS }, (_, i) => i), 8, async (i) => {
    devices[i] = await addDevice(s, `site ${i + 1}`, `rtsp://127.0.0.1:${port}/cam${i + 1}`);
  });
  const pks: number[] = [];
  if (engine === 'pg') {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    pks.push(...(await c.query('SELECT id FROM channels ORDER BY id')).rows.map((r: { id: number }) => Number(r.id)));
    await c.end();
  } else {
    const db = new SQLite(path.join(s.dataDir, 'opencvr.db'), { readonly: true });
    pks.push(...(db.prepare('SELECT id FROM channels ORDER BY id').all() as { id: number }[]).map((r) => r.id));
    db.close();
  }
  if (pks.length !== CHANNELS) throw new Error(`expected ${CHANNELS} channels, found ${pks.length}`);
  const now = new Date();
  const yearFrom = Math.floor((now.getTime() - YEAR_MS) / SEG_MS) * SEG_MS;
  await s.stop();
  const rows = await seedYear(engine, s, url, pks, yearFrom);
  const again = await startServer({ label: `query-${engine}, seeded`, prefix: 'recording', databaseUrl: url, dataDir, env: { CHANNEL_CHECK_INTERVAL: '0', SIP_PORT: '0' }, showLogOnStop: true, log });
  s = { ...s, base: again.url, pid: again.pid, stop: again.stop, token: (await login(again.url, ADMIN, NEW_PASSWORD)).Token };
  const rnd = (n: number) => Math.floor(Math.random() * n);
  const dayStamp = () => stamp(yearFrom + 86400_000 + rnd(YEAR_MS - 2 * 86400_000)).slice(0, 8);
  const monthStamp = () => {
    const d = new Date(now.getFullYear(), now.getMonth() - 1 - rnd(11), 1);
    return `${d.getFullYear()}${pad(d.getMonth() + 1)}`;
  };
  let ranges = 0;
  let flags = '';
  const kinds = {
    daily: async () => {
      const b = await get<{ total: number }>(s, `/api/v1/record/querydaily?device=${devices[rnd(CHANNELS)]}&channel=1&period=${dayStamp()}`);
      ranges = b.total;
    },
    monthly: async () => {
      const res = await fetch(`${s.base}/api/v1/record/querymonthly?device=${devices[rnd(CHANNELS)]}&channel=1&period=${monthStamp()}`, { headers: { token: s.token } });
      flags = await res.text();
      if (!res.ok) throw new Error(`querymonthly: HTTP ${res.status} ${flags}`);
    },
    info: () => get(s, `/api/v1/deviceinfo?device=${devices[rnd(CHANNELS)]}`),
  };
  type Kind = keyof typeof kinds;
  const order: Kind[] = ['daily', 'monthly', 'info'];
  for (const k of order) for (let i = 0; i < 20; i++) await kinds[k](); // warm-up
  // Blocks of each kind interleave (daily, monthly, deviceinfo, monthly, deviceinfo, daily, ...) so
  // the load of the shared machine falls on the figures and their baseline alike; the server's CPU
  // seconds over each block give the CPU per request, which the load stretches far less than latency.
  const lat: Record<Kind, number[]> = { daily: [], monthly: [], info: [] };
  const cpu: Record<Kind, number> = { daily: 0, monthly: 0, info: 0 };
  const BLOCK = 25;
  for (let b = 0; b * BLOCK < QUERIES; b++) {
    for (let j = 0; j < order.length; j++) {
      const k = order[(b + j) % order.length];
      const c0 = cpuSeconds(s.pid);
      for (let i = 0; i < BLOCK && b * BLOCK + i < QUERIES; i++) {
        const t = performance.now();
        await kinds[k]();
        lat[k].push(performance.now() - t);
      }
      cpu[k] += cpuSeconds(s.pid) - c0;
    }
  }
  const daily = lat.daily;
  const monthly = lat.monthly;
  const pk = lat.info;
  const cpuMs = (k: Kind) => round((cpu[k] * 1000) / lat[k].length, 2);
  if (ranges !== 1 || !/^1{28,31}$/.test(flags)) throw new Error(`unexpected answers: querydaily total ${ranges}, querymonthly ${flags}`);
  const name = engine === 'pg' ? 'PostgreSQL' : 'SQLite';
  log(`${name}: querydaily p50/p99 ${round(median(daily), 2)}/${round(pct(daily, 99), 2)} ms, querymonthly ${round(median(monthly), 2)}/${round(pct(monthly, 99), 2)} ms, deviceinfo ${round(median(pk), 2)}/${round(pct(pk, 99), 2)} ms; server CPU per request ${cpuMs('daily')}, ${cpuMs('monthly')}, ${cpuMs('info')} ms (load ${loadavg()})`);
  await s.stop();
  return [
    { name: `querydaily p99, ${name}, ${rows} rows (baseline: deviceinfo, a key lookup)`, value: round(pct(daily, 99), 2), unit: 'ms', baseline: round(pct(pk, 99), 2), goal: '< 50' },
    { name: `querymonthly p99, ${name}, ${rows} rows (baseline: deviceinfo, a key lookup)`, value: round(pct(monthly, 99), 2), unit: 'ms', baseline: round(pct(pk, 99), 2), goal: '< 50' },
    { name: `querydaily server CPU per request, ${name} (baseline: deviceinfo)`, value: cpuMs('daily'), unit: 'ms', baseline: cpuMs('info'), goal: null },
    { name: `querymonthly server CPU per request, ${name} (baseline: deviceinfo)`, value: cpuMs('monthly'), unit: 'ms', baseline: cpuMs('info'), goal: null },
  ];
}

// ---------------------------------------------------------------------------------------------
/** Whether this run measured the figure of that name (its part, stream count or engine ran). */
function measuredBy(name: string): boolean {
  const rec = /^(?:server CPU recording|recorder extra CPU,|recorder alone,|segment writer alone,|bytes written per byte ingested,|ffmpeg CPU recording|ffmpeg recording extra CPU,|recorder extra CPU per stream,) (\d+) streams/.exec(name);
  if (rec) return PARTS.includes('record') && STREAMS.includes(Number(rec[1])) && VIEWERS.includes(name.includes(WITH_VIEWER) ? 1 : 0);
  if (/^(?:range download|seek to first frame|playback open)/.test(name)) return PARTS.includes('playback');
  const q = /^(?:querydaily|querymonthly) .*?(SQLite|PostgreSQL)/.exec(name);
  if (q) return PARTS.includes('query') && ENGINES.includes(q[1] === 'SQLite' ? 'sqlite' : 'pg');
  return false;
}

async function main(): Promise<number> {
  log(`load average at start: ${loadavg()}; ${STREAMS.join(',')} streams, viewers per stream ${VIEWERS.join(',')}, warm-up ${WARMUP_S} s, window ${WINDOW_S} s`);
  const figures: Figure[] = [];
  const partial = process.argv.slice(2).some((a) => a.startsWith('--parts=') || a.startsWith('--engines=') || a.startsWith('--streams=') || a.startsWith('--viewers='));
  // A part that fails is reported and the others still run (a loaded, shared machine can stall one).
  const failures: string[] = [];
  const attempt = async (what: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (err) {
      failures.push(`${what}: ${(err as Error).message}`);
      log(`${what} failed: ${(err as Error).stack ?? err}`);
    }
  };
  if (PARTS.includes('record') || PARTS.includes('playback')) {
    if (PARTS.includes('record')) prefaultPageCache();
    const cam = await startCamera(log, CAMERA);
    const ns = PARTS.includes('record') ? STREAMS : [1];
    // Per N the viewer-less windows, then those with a viewer on every stream (each on a fresh server).
    const runs = ns.flatMap((n) => (PARTS.includes('record') ? VIEWERS : [0]).map((v) => ({ n, v: v as 0 | 1 })));
    for (const [i, { n, v }] of runs.entries()) {
      let ours: Pair[] | undefined;
      await attempt(v ? `${n} streams with a WS-fMP4 viewer each` : `${n} streams`, async () => {
        const keep = i === 0 && PARTS.includes('playback');
        const r = await recordStreams(cam, n, keep, v);
        if (PARTS.includes('record')) figures.push(...r.figures);
        ours = r.pairs;
        if (r.server) {
          const srv = r.server;
          await attempt('playback', async () => void figures.push(...(await playbackFigures(srv, r.devices[0]))));
          await srv.stop();
        }
      });
      // The reference recorder, once per N, right after the server's viewer-less windows (no server running).
      const pairs = ours;
      if (PARTS.includes('record') && v === 0 && pairs) await attempt(`${n} ffmpeg processes as the reference recorder`, async () => void figures.push(...(await ffmpegReference(cam, n, pairs))));
    }
  }
  if (PARTS.includes('query')) for (const e of ENGINES) await attempt(`queries on ${e}`, async () => void figures.push(...(await queryFigures(e))));
  for (const f of failures) console.error(`[recording] NOT MEASURED: ${f}`);
  if (partial) {
    for (const f of figures) log(`${f.name}: ${f.value} ${f.unit} (baseline ${f.baseline ?? '-'}, goal ${f.goal ?? '-'})`);
    // A partial run replaces the old figures of what it measured and keeps the others.
    if (!failures.length) writeFigures('recording', mergeFigures('recording', figures, (f) => measuredBy(f.name)));
  } else writeFigures('recording', figures);
  log(`load average at end: ${loadavg()}`);
  return failures.length ? 1 : 0;
}

await runBench('recording', main);
