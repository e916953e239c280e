/**
 * live benchmark (`npm run bench -- live [-- --streams=1,16,64,256 --viewers=1,16,64 --warmup=10 --window=30 --steady=240]`).
 *
 * Camera: a pre-encoded 1080p25 H.264 clip (about 4 Mbit/s, GOP 50 = 2 s, no B-frames; made once
 * with ffmpeg into bench/live/.cache) sent in a loop without re-encoding, to every client from one
 * clock: by default bench/live/replay-camera.ts (packetised once, one write per client per frame, a
 * few % of a core at 256 clients), with --camera=gstreamer bench/live/camera.py (GStreamer's RTSP
 * server, one shared pipeline, ~1.2% of a core per client). Every client asks for
 * rtsp://.../cam?n=K, so each device is its own channel and its own hub in the server. The camera's
 * CPU is logged per window and never counted.
 *
 * Hub, per N: a fresh server (own process, own DATA_DIR, LOG_LEVEL=warn, CHANNEL_CHECK_INTERVAL=0),
 * first-run initialisation through the API, N RTSP devices added with POST /api/v1/adddevice. Its
 * VmRSS is read with 0 streams once settled (settledRss), then its idle CPU over a window as long as
 * the measured one (the 0-stream VmRSS is the lower of the settled reading and one at the end of that
 * window); then each device's stream is opened with devices/channelstream
 * (protocol ws_m4s) and one WebSocket fMP4 viewer in this process reads it. After the warm-up, over
 * the window: the hub's CPU per stream-minute, i.e. the server's CPU seconds (utime+stime of
 * /proc/PID/stat, all its threads) minus its idle rate over the same time, per stream-minute (the
 * growth from 0 to N streams, as the memory figure is; the goal applies to it), and beside it the
 * whole process's CPU per stream-minute, idle included (no goal: what it costs at N=1 is mostly the
 * idle server); its VmRSS at the end of the window minus the 0-stream VmRSS, divided by N; and what
 * the viewers got: every fragment's moof is parsed (mfhd sequence, tfdt, trun sample durations);
 * a missing frame shows as a sample whose duration spans more than one frame or a tfdt gap between
 * fragments (the fragmenter takes durations from the camera's timestamps), a fragment the server
 * dropped as a gap in the mfhd sequence too; frames per second per stream are counted too.
 *
 * Baseline, per N, in the same run: N processes of
 *   ffmpeg -rtsp_transport tcp -i URL -c copy -f mp4 -movflags frag_keyframe+empty_moov+default_base_moof pipe:1
 * (stdout to /dev/null) on the same camera, same warm-up and window: their CPU seconds per
 * stream-minute and their PSS (smaps_rollup) per process at the end of the window. Any N, 256 too:
 * the warm-up starts once every process has read ~2 s of the camera (hundreds start slowly), and the
 * baseline is written only when the processes read, on the mean, at least (FPS - 1) / FPS of the
 * camera's rate over the window (bytes received on their camera sockets, from ss; the hub's own
 * rule, in fps): ffmpeg that fell behind did less than a stream's work, and the run then says NOT
 * MEASURED with the rate it read.
 * Every hub and ffmpeg window logs how many of the machine's cores were busy (/proc/stat). With
 * --baseline-tcp=yes, the same again with ffmpeg writing to a loopback TCP reader (what the hub does
 * for its viewer), written beside the hub's CPU figure without a goal; with --baseline-frame=yes, ffmpeg
 * writing a fragment per frame to such a reader (frag_every_frame, -flush_packets 1), as the hub does.
 *
 * Start-up (a fresh server with one always-watched stream): wall time in this process from sending
 * GET /api/v1/getchannelstream to the first media fragment (the binary message after the init
 * segment) at a new WebSocket viewer, for a running stream, and for an on-demand stream not yet
 * open (a new device each time; the camera's pipeline is already running, so this is the server's
 * RTSP session set-up + waiting for the next keyframe + one fragment). This is a proxy for the
 * issue's "first decoded frame in Chromium", which is not measured here.
 *
 * Viewers: one stream, 0 then 1, 16, 64 WebSocket fMP4 viewers; CPU seconds of the server per
 * viewer-minute beyond the 0-viewer ingest (kept alive with touchchannelstream).
 *
 * Steady state (--steady=SECONDS, hubs part): the same hub server, and the same ffmpeg processes of the
 * baseline, measured again over a window of the same length that starts SECONDS after their streams
 * started (the viewers opened; ffmpeg spawned). The first window (seconds ~12-42 of a stream) is
 * inside V8's warm-up: code run once per wake-up at one stream is still in baseline code for minutes
 * (docs/architecture.md, session 22). Written as figures of their own, named "steady state", beside
 * the first-window ones (which keep their names and meaning).
 *
 * Not measured: packet-arrival → fragment-departure latency inside the server (not observable from
 * outside), WebRTC. The machine is shared: other processes' load makes every figure noisy; the load
 * average is printed before and after.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { FPS, startCamera, type Camera, type CameraKind } from '../lib/camera';
import { mergeFigures, writeFigures, type Figure } from '../lib/figures';
import {
  call,
  initialise,
  onCleanup,
  ROOT,
  runBench,
  startServer as startServerProcess,
  stopChild,
  trackChild,
  untrackChild,
} from '../lib/server';
import { isDriftFigure, measureDrift } from './drift';
import { measureFirstFrame } from './first-frame';
import { measureLatency } from './latency';
import { measureViewers } from './viewers';
import { measureWakeCost } from './wake-cost';
import { machineBusy, machineCpu, receivedFrom } from '../lib/received';

const HERE = path.join(ROOT, 'bench/live');
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

function arg(name: string, def: string): string {
  const a = process.argv.slice(2).find((x) => x.startsWith(`--${name}=`));
  return a ? a.slice(name.length + 3) : def;
}
const list = (s: string) => s.split(',').map((x) => Number(x.trim())).filter((x) => Number.isInteger(x) && x > 0);
const STREAMS = list(arg('streams', '1,16,64'));
const VIEWERS = list(arg('viewers', '1,16,64'));
const WARMUP_S = Number(arg('warmup', '10'));
const WINDOW_S = Number(arg('window', '30'));
const VIEWER_WARMUP_S = Number(arg('viewer-warmup', '5'));
const VIEWER_WINDOW_S = Number(arg('viewer-window', '20'));
const RUNNING_SAMPLES = Number(arg('running-samples', '10'));
const ONDEMAND_SAMPLES = Number(arg('ondemand-samples', '5'));
/**
 * --parts=hubs,startup,first-frame,latency,viewers (default all); a partial run merges into live.json.
 * --parts=drift (drift.ts, the player's hour-long soak, --minutes=60 per camera clock) runs only when
 * named; a run of all the other parts keeps its figures.
 */
const ALL_PARTS = ['hubs', 'startup', 'first-frame', 'latency', 'viewers'];
const PARTS = arg('parts', ALL_PARTS.join(',')).split(',');
/** --hub-cpu-prof=DIR: the hubs part's servers write a V8 CPU profile there when they stop (cpu-profile.mjs). */
const HUB_CPU_PROF = arg('hub-cpu-prof', '');
/** --baseline=no skips the ffmpeg baseline (profiling runs only: the figures then have no baseline). */
const BASELINE = arg('baseline', 'yes') !== 'no';
/**
 * --baseline-tcp=yes: also the baseline with ffmpeg writing to a loopback TCP reader (measureFfmpeg),
 * beside the hub CPU figure as one without a goal: the hub's figure includes delivering every
 * fragment to its viewer over TCP, the issue's baseline writes to /dev/null.
 */
const BASELINE_TCP = arg('baseline-tcp', 'no') === 'yes';
/**
 * --baseline-frame=yes: also ffmpeg cutting a fragment at every frame and flushing each one to a
 * loopback TCP reader (`frag_every_frame`, `-flush_packets 1`): the delivery the hub does, a write per
 * frame for live latency. The issue's baseline cuts at keyframes (a fragment every 2 s), so its TCP
 * variant makes ~16 large writes a second per stream where the hub makes 25 and the viewer waits
 * for each. Written beside the hub's CPU figure without a goal.
 */
const BASELINE_FRAME = arg('baseline-frame', 'no') === 'yes';
/**
 * --baseline-streams=1,16,64: the stream counts the ffmpeg baseline runs at (default: every one);
 * outside the list the hub's figures are written without a baseline. 256 ffmpeg processes fit here
 * (~0.2 CPU-s per stream-minute: ~0.9 of a core on the replay camera, ~14 MB PSS each); whether they
 * kept up is checked (measureFfmpeg's rule), and a baseline that fell behind is not written.
 */
const BASELINE_STREAMS = list(arg('baseline-streams', STREAMS.join(',')));
/**
 * --steady=SECONDS (hubs part; 0: off): a second window, as long as the first, SECONDS after the
 * streams started, for the hub and for the ffmpeg baseline; figures named "steady state".
 */
const STEADY_S = Number(arg('steady', '0'));

const log = (m: string) => console.log(`[live] ${m}`);
const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').trim();
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

// ---------------------------------------------------------------------------------------------
// /proc
// ---------------------------------------------------------------------------------------------
/**
 * utime + stime of a process (all its threads) and of its children that ended (cutime + cstime: the
 * server's ffmpeg runs, e.g. thumbnails, are its work too), in seconds; undefined once it is gone.
 */
function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields after "pid (comm) ": state=0 ... utime=11 stime=12 cutime=13 cstime=14
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / CLK_TCK;
  } catch {
    return undefined;
  }
}
function statusKb(pid: number, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}
function pssKb(pid: number): number {
  const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}
/** Direct children of a process (to notice a server that spawns helpers during the window). */
function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Camera
// ---------------------------------------------------------------------------------------------
/** --camera=replay (default: replay-camera.ts, pre-packetised RTP) or gstreamer (camera.py). */
const CAMERA = arg('camera', 'replay') as CameraKind;
if (CAMERA !== 'replay' && CAMERA !== 'gstreamer') throw new Error(`--camera=${CAMERA}: replay or gstreamer`);

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------
interface Server {
  base: string;
  pid: number;
  token: string;
  stop(): Promise<void>;
}

/** A fresh server (bench/lib/server.ts), initialised through the API. */
async function startServer(label: string, cpuProfDir = ''): Promise<Server> {
  // SIP on any free port: the default 15060 may be taken by another server on the machine.
  const env: Record<string, string> = { CHANNEL_CHECK_INTERVAL: '0', SIP_PORT: '0' };
  if (cpuProfDir) {
    env.LIVE_CPU_PROF_DIR = path.resolve(cpuProfDir);
    env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import ${path.join(HERE, 'cpu-profile.mjs')}`.trim();
  }
  if (process.env.LIVE_SERVER_NODE_OPTIONS) env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} ${process.env.LIVE_SERVER_NODE_OPTIONS}`.trim();
  const s = await startServerProcess({ label, prefix: 'live', env, showLogOnStop: true, log });
  const session = await initialise(s.url);
  return { base: s.url, pid: s.pid, token: session.Token, stop: s.stop };
}

async function addDevice(s: Server, name: string, url: string): Promise<string> {
  const body = await call<{ DeviceID: string }>(s.base, '/api/v1/adddevice', {
    method: 'POST',
    headers: { token: s.token, 'content-type': 'application/json' },
    body: JSON.stringify({ DeviceName: name, DeviceType: 'RTSP', RtspUrl: url }),
  });
  if (!body.DeviceID) throw new Error(`adddevice answered no DeviceID: ${JSON.stringify(body)}`);
  return body.DeviceID;
}

async function streamUrl(s: Server, device: string, api = 'devices/channelstream'): Promise<string> {
  const body = await call<{ URL: string }>(
    s.base,
    `/api/v1/${api}?${new URLSearchParams({ device, channel: '1', protocol: 'ws_m4s' })}`,
    { headers: { token: s.token } },
  );
  return s.base.replace(/^http/, 'ws') + body.URL;
}

/** Runs fn over items, `limit` at a time. */
async function pool<T, R>(items: T[], limit: number, fn: (x: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

// ---------------------------------------------------------------------------------------------
// A WebSocket fMP4 viewer that checks what it gets
// ---------------------------------------------------------------------------------------------
interface Frag {
  seq: number;
  tfdt: number;
  durations: number[];
}

/** A box type as a number (no string per box: 256 viewers read ~6,400 fragments a second). */
const fourcc = (t: string) => Buffer.from(t, 'latin1').readUInt32BE(0);
const MOOF = fourcc('moof');
const MOOV = fourcc('moov');
const MFHD = fourcc('mfhd');
const TRAF = fourcc('traf');
const TFHD = fourcc('tfhd');
const TFDT = fourcc('tfdt');
const TRUN = fourcc('trun');

/** A top-level moov (an init segment), found by walking the few top-level boxes, not by scanning the bytes. */
function hasTopLevel(buf: Buffer, type: number): boolean {
  for (let off = 0; off + 8 <= buf.length; ) {
    const size = buf.readUInt32BE(off);
    if (buf.readUInt32BE(off + 4) === type) return true;
    if (size < 8) return false;
    off += size;
  }
  return false;
}

/** Reads one moof: mfhd sequence, and the first traf's tfdt and per-sample durations. */
function parseMoof(buf: Buffer): Frag | undefined {
  let off = 0;
  while (off + 8 <= buf.length) {
    const size = buf.readUInt32BE(off);
    const type = buf.readUInt32BE(off + 4);
    if (size < 8) return undefined;
    if (type === MOOF) return parseMoofBody(buf, off + 8, off + size);
    off += size;
  }
  return undefined;
}
function parseMoofBody(buf: Buffer, start: number, end: number): Frag | undefined {
  let seq = -1;
  let tfdt = -1;
  let durations: number[] | undefined;
  let defaultDuration = 0;
  for (let off = start; off + 8 <= end; ) {
    const size = buf.readUInt32BE(off);
    const type = buf.readUInt32BE(off + 4);
    if (type === MFHD) seq = buf.readUInt32BE(off + 12);
    if (type === TRAF && !durations) {
      for (let o = off + 8; o + 8 <= off + size; ) {
        const sz = buf.readUInt32BE(o);
        const t = buf.readUInt32BE(o + 4);
        const version = buf[o + 8];
        const flags = buf.readUInt32BE(o + 8) & 0xffffff;
        if (t === TFHD) {
          let p = o + 16; // after track_ID
          if (flags & 0x01) p += 8;
          if (flags & 0x02) p += 4;
          if (flags & 0x08) defaultDuration = buf.readUInt32BE(p);
        } else if (t === TFDT) {
          tfdt = version === 1 ? Number(buf.readBigUInt64BE(o + 12)) : buf.readUInt32BE(o + 12);
        } else if (t === TRUN) {
          const count = buf.readUInt32BE(o + 12);
          let p = o + 16;
          if (flags & 0x01) p += 4;
          if (flags & 0x04) p += 4;
          const per = (flags & 0x100 ? 4 : 0) + (flags & 0x200 ? 4 : 0) + (flags & 0x400 ? 4 : 0) + (flags & 0x800 ? 4 : 0);
          durations = [];
          for (let i = 0; i < count; i++, p += per) durations.push(flags & 0x100 ? buf.readUInt32BE(p) : defaultDuration);
        }
        o += sz;
      }
    }
    off += size;
  }
  if (seq < 0 || tfdt < 0 || !durations) return undefined;
  return { seq, tfdt, durations };
}
/** mdhd timescale of the first track of an init segment. */
function initTimescale(buf: Buffer): number {
  const i = buf.indexOf('mdhd', 0, 'latin1');
  if (i < 4) return NaN;
  return buf[i + 4] === 1 ? buf.readUInt32BE(i + 24) : buf.readUInt32BE(i + 16);
}

interface Counters {
  fragments: number;
  frames: number;
  bytes: number;
  /** Frames missing according to the camera's timestamps (sample spans and tfdt gaps). */
  missingFrames: number;
  /** Gaps in the mfhd sequence (fragments the server did not send). */
  seqGaps: number;
  states: string[];
}
const zero = (): Counters => ({ fragments: 0, frames: 0, bytes: 0, missingFrames: 0, seqGaps: 0, states: [] });

class Viewer {
  readonly ws: WebSocket;
  total = zero();
  window = zero();
  timescale = NaN;
  inits = 0;
  firstFragmentAt?: number;
  error?: string;
  closed = false;
  private lastSeq = -1;
  private nextTfdt = -1;
  private firstFragment: Promise<number>;

  constructor(url: string) {
    this.ws = new WebSocket(url, { perMessageDeflate: false });
    this.firstFragment = new Promise((resolve, reject) => {
      this.ws.on('message', (data, isBinary) => {
        try {
          if (!isBinary) {
            const m = JSON.parse(String(data)) as { type: string; state?: string; reason?: string };
            if (m.type === 'state' && m.state !== 'live') this.window.states.push(`${m.state} ${m.reason ?? ''}`.trim());
            return;
          }
          const buf = data as Buffer;
          if (hasTopLevel(buf, MOOV) && !hasTopLevel(buf, MOOF)) {
            this.inits++;
            this.timescale = initTimescale(buf);
            this.lastSeq = -1;
            this.nextTfdt = -1;
            return;
          }
          const f = parseMoof(buf);
          if (!f) throw new Error('a binary message that is neither an init segment nor a moof');
          if (this.firstFragmentAt === undefined) {
            this.firstFragmentAt = performance.now();
            resolve(this.firstFragmentAt);
          }
          this.count(f, buf.length);
        } catch (err) {
          this.error ??= (err as Error).message;
        }
      });
      this.ws.on('error', (e) => {
        this.error ??= e.message;
        reject(e);
      });
      this.ws.on('unexpected-response', (_q, res) => {
        this.error ??= `HTTP ${res.statusCode}`;
        reject(new Error(`HTTP ${res.statusCode}`));
      });
      this.ws.on('close', () => {
        this.closed = true;
        reject(new Error('closed before the first fragment'));
      });
    });
    this.firstFragment.catch(() => undefined);
  }

  private count(f: Frag, bytes: number) {
    const frame = this.timescale / FPS;
    let missing = 0;
    let gaps = 0;
    if (this.lastSeq >= 0 && f.seq !== this.lastSeq + 1) gaps++;
    if (this.nextTfdt >= 0 && Number.isFinite(frame)) {
      const gap = Math.round((f.tfdt - this.nextTfdt) / frame);
      if (gap > 0) missing += gap;
    }
    let end = f.tfdt;
    f.durations.forEach((d, i) => {
      end += d;
      // The last sample's duration may be an estimate; any other sample spanning k frames hides k-1.
      if (Number.isFinite(frame) && i < f.durations.length - 1) {
        const k = Math.round(d / frame);
        if (k > 1) missing += k - 1;
      }
    });
    this.lastSeq = f.seq;
    this.nextTfdt = end;
    for (const c of [this.total, this.window]) {
      c.fragments++;
      c.frames += f.durations.length;
      c.bytes += bytes;
      c.missingFrames += missing;
      c.seqGaps += gaps;
    }
  }

  /** Resolves with performance.now() at the first media fragment. */
  first(timeoutMs: number): Promise<number> {
    return Promise.race([
      this.firstFragment,
      sleep(timeoutMs).then(() => {
        throw new Error(`no fragment in ${timeoutMs} ms${this.error ? ` (${this.error})` : ''}`);
      }),
    ]);
  }

  resetWindow() {
    this.window = zero();
  }

  close() {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.terminate();
  }
}

function sumWindow(viewers: Viewer[]) {
  const s = zero();
  for (const v of viewers) {
    s.fragments += v.window.fragments;
    s.frames += v.window.frames;
    s.bytes += v.window.bytes;
    s.missingFrames += v.window.missingFrames;
    s.seqGaps += v.window.seqGaps;
    s.states.push(...v.window.states);
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Measurements
// ---------------------------------------------------------------------------------------------
/** CPU and delivery over one window of a running hub. */
interface HubWindow {
  cpuPerStreamMin: number;
  serverCpuPerStreamMin: number;
  missingFrames: number;
  seqGaps: number;
  minFps: number;
  meanFps: number;
}

interface HubResult {
  n: number;
  /** The window STEADY_S after the streams started (--steady). */
  steady?: HubWindow;
  /** The hub's CPU: the server's CPU over the window minus its idle rate (0 streams) over as long, per stream-minute. */
  cpuPerStreamMin: number;
  /** The whole server process over the window, idle included, per stream-minute. */
  serverCpuPerStreamMin: number;
  /** The same server with its devices and no stream, CPU-s per minute. */
  idlePerMin: number;
  rssPerStreamMb: number;
  rss0Mb: number;
  rss1Mb: number;
  missingFrames: number;
  seqGaps: number;
  minFps: number;
  meanFps: number;
  mbitPerStream: number;
}

/**
 * VmRSS of a server with no stream once it has settled: just after start-up V8's young generation is
 * still sized for the start-up's allocation (tens of MB) and shrinks only when its memory reducer
 * runs, some seconds later; measured before that, the 0-stream figure is too high and the growth to
 * 1 stream comes out negative or (the other way) start-up garbage counts against the first stream.
 * V8's memory reducer shrinks it after some seconds of low allocation (seen 20-40 s after start), and
 * the RSS can sit flat for 10 s before that: so at least 40 s with no stream, then 8 one-second
 * readings within 1 MB of each other (their mean), at most 90 s.
 */
async function settledRss(pid: number): Promise<{ kb: number; note: string }> {
  const readings: number[] = [];
  const t0 = performance.now();
  for (;;) {
    readings.push(statusKb(pid, 'VmRSS'));
    const last = readings.slice(-8);
    const secs = (performance.now() - t0) / 1000;
    if (secs >= 40 && last.length === 8 && Math.max(...last) - Math.min(...last) <= 1024) {
      return { kb: last.reduce((a, b) => a + b, 0) / last.length, note: `settled after ${secs.toFixed(0)} s` };
    }
    if (secs > 90) return { kb: readings[readings.length - 1], note: 'NOT settled in 90 s, last reading' };
    await sleep(1000);
  }
}

async function measureHub(cam: Camera, n: number): Promise<HubResult> {
  const server = await startServer(`hub${n}`, HUB_CPU_PROF);
  const viewers: Viewer[] = [];
  try {
    const devices = await pool(
      Array.from({ length: n }, (_, i) => i),
      8,
      (i) => addDevice(server, `bench-cam-${i}`, cam.url(i + 1)),
    );
    await sleep(2000);
    const settled = await settledRss(server.pid);
    // The idle server (devices added, no stream) over a window as long as the measured one, once its
    // memory has settled: what the process costs without any hub, taken off the hub's figure.
    const i0 = cpuSeconds(server.pid)!;
    const idleFrom = performance.now();
    await sleep(WINDOW_S * 1000);
    const idlePerMin = ((cpuSeconds(server.pid)! - i0) / ((performance.now() - idleFrom) / 1000)) * 60;
    // The memory reducer can still shrink the heap during the idle window (a run at 1 stream: 146 MB
    // settled, 134 MB streaming): the lower of the two readings is the 0-stream figure, so the growth
    // is never understated.
    const idleEndKb = statusKb(server.pid, 'VmRSS');
    const rss0 =
      idleEndKb < settled.kb
        ? { kb: idleEndKb, note: `${settled.note} at ${(settled.kb / 1024).toFixed(1)} MB, lower after the idle window` }
        : settled;
    log(
      `N=${n}: ${n} devices added; server VmRSS with 0 streams ${(rss0.kb / 1024).toFixed(1)} MB (${rss0.note}), ` +
        `CPU ${idlePerMin.toFixed(3)} CPU-s per minute idle over ${WINDOW_S} s (taken off the hub's figure, kept in the whole-server one)`,
    );
    const t0 = performance.now();
    await pool(devices, 16, async (d) => {
      const v = new Viewer(await streamUrl(server, d));
      viewers.push(v);
    });
    // Hundreds of streams start together (each waits for its camera's next keyframe): more time.
    const firstWithin = Math.max(30_000, n * 300);
    const firsts = await Promise.allSettled(viewers.map((v) => v.first(firstWithin)));
    const failed = firsts.filter((r) => r.status === 'rejected');
    if (failed.length) {
      const states = [...new Set(viewers.flatMap((v) => v.window.states))].slice(0, 5).join('; ');
      throw new Error(
        `N=${n}: ${failed.length} of ${n} viewers got no fragment: ${(failed[0] as PromiseRejectedResult).reason}` +
          `${states ? `; stream states said: ${states}` : ''}; load ${loadavg()}`,
      );
    }
    log(`N=${n}: every viewer has fragments after ${((performance.now() - t0) / 1000).toFixed(1)} s; warm-up ${WARMUP_S} s`);
    await sleep(WARMUP_S * 1000);
    for (const v of viewers) v.resetWindow();
    const c0 = cpuSeconds(server.pid)!;
    const m0 = machineCpu();
    const cam0 = cpuSeconds(cam.pid) ?? NaN;
    const self0 = process.cpuUsage();
    const w0 = performance.now();
    // VmRSS sampled every second over the window and averaged: V8 frees the per-frame buffers in
    // batches (a saw-tooth of several MB per stream), so one reading at the end lands anywhere on it.
    const rssSamples: number[] = [];
    const sampler = setInterval(() => rssSamples.push(statusKb(server.pid, 'VmRSS')), 1000);
    await sleep(WINDOW_S * 1000);
    clearInterval(sampler);
    const c1 = cpuSeconds(server.pid)!;
    const cam1 = cpuSeconds(cam.pid) ?? NaN;
    const secs = (performance.now() - w0) / 1000;
    const machine = machineBusy(m0, secs);
    const rss1 = rssSamples.length ? rssSamples.reduce((a, b) => a + b, 0) / rssSamples.length : statusKb(server.pid, 'VmRSS');
    log(`N=${n}: server VmRSS over the window min ${(Math.min(...rssSamples) / 1024).toFixed(1)} mean ${(rss1 / 1024).toFixed(1)} max ${(Math.max(...rssSamples) / 1024).toFixed(1)} MB`);
    // The camera (one GStreamer process for every stream) is not counted; its load says whether it
    // kept up (near 100% of a core, its packets come late and the viewers' fps shows it).
    const self1 = process.cpuUsage(self0);
    log(
      `N=${n}: camera process ${(((cam1 - cam0) / secs) * 100).toFixed(0)}% of a core during the window (not counted); ` +
        `this bench process (the viewers) ${(((self1.user + self1.system) / 1e6 / secs) * 100).toFixed(0)}%`,
    );
    const win = sumWindow(viewers);
    const helpers = childPids(server.pid);
    if (helpers.length) log(`N=${n}: the server has child processes (not counted): ${helpers.join(' ')}`);
    const errs = viewers.filter((v) => v.error || v.closed);
    if (errs.length) log(`N=${n}: ${errs.length} viewers failed or closed, e.g. ${errs[0].error ?? 'closed'}`);
    if (win.states.length) log(`N=${n}: state messages in the window: ${[...new Set(win.states)].slice(0, 5).join('; ')}`);
    const fps = viewers.map((v) => v.window.frames / secs);
    const r: HubResult = {
      n,
      cpuPerStreamMin: (c1 - c0 - (idlePerMin / 60) * secs) / (n * (secs / 60)),
      serverCpuPerStreamMin: (c1 - c0) / (n * (secs / 60)),
      idlePerMin,
      rssPerStreamMb: (rss1 - rss0.kb) / 1024 / n,
      rss0Mb: rss0.kb / 1024,
      rss1Mb: rss1 / 1024,
      missingFrames: win.missingFrames,
      seqGaps: win.seqGaps,
      minFps: Math.min(...fps),
      meanFps: fps.reduce((a, b) => a + b, 0) / n,
      mbitPerStream: (win.bytes * 8) / 1e6 / secs / n,
    };
    log(
      `N=${n} hub: ${(c1 - c0).toFixed(2)} CPU-s in ${secs.toFixed(1)} s = ${r.serverCpuPerStreamMin.toFixed(3)} CPU-s/stream-min for the whole server, ` +
        `${r.cpuPerStreamMin.toFixed(3)} for the hubs (idle ${idlePerMin.toFixed(3)} CPU-s/min off); ` +
        `VmRSS ${r.rss0Mb.toFixed(1)} -> ${r.rss1Mb.toFixed(1)} MB = ${r.rssPerStreamMb.toFixed(2)} MB/stream; ` +
        `${win.fragments} fragments, ${win.frames} frames, fps/stream mean ${r.meanFps.toFixed(2)} min ${r.minFps.toFixed(2)}, ` +
        `${r.mbitPerStream.toFixed(2)} Mbit/s/stream; missing frames ${win.missingFrames}, mfhd gaps ${win.seqGaps}; ${machine}; load ${loadavg()}`,
    );
    if (STEADY_S > 0) {
      await sleep(Math.max(0, t0 + STEADY_S * 1000 - performance.now()));
      for (const v of viewers) v.resetWindow();
      const s0 = cpuSeconds(server.pid)!;
      const sm0 = machineCpu();
      const sw0 = performance.now();
      await sleep(WINDOW_S * 1000);
      const s1 = cpuSeconds(server.pid)!;
      const ssecs = (performance.now() - sw0) / 1000;
      const swin = sumWindow(viewers);
      const sfps = viewers.map((v) => v.window.frames / ssecs);
      r.steady = {
        cpuPerStreamMin: (s1 - s0 - (idlePerMin / 60) * ssecs) / (n * (ssecs / 60)),
        serverCpuPerStreamMin: (s1 - s0) / (n * (ssecs / 60)),
        missingFrames: swin.missingFrames,
        seqGaps: swin.seqGaps,
        minFps: Math.min(...sfps),
        meanFps: sfps.reduce((a, b) => a + b, 0) / n,
      };
      log(
        `N=${n} hub, steady state (window from ${((sw0 - t0) / 1000).toFixed(0)} s after the streams started): ${(s1 - s0).toFixed(2)} CPU-s in ${ssecs.toFixed(1)} s = ` +
          `${r.steady.serverCpuPerStreamMin.toFixed(3)} CPU-s/stream-min for the whole server, ${r.steady.cpuPerStreamMin.toFixed(4)} for the hubs ` +
          `(first window ${r.cpuPerStreamMin.toFixed(4)}: ${(r.steady.cpuPerStreamMin / r.cpuPerStreamMin).toFixed(3)}x); fps/stream mean ${r.steady.meanFps.toFixed(2)} ` +
          `min ${r.steady.minFps.toFixed(2)}; missing frames ${swin.missingFrames}, mfhd gaps ${swin.seqGaps}; ${machineBusy(sm0, ssecs)}; load ${loadavg()}`,
      );
    }
    return r;
  } finally {
    for (const v of viewers) v.close();
    await server.stop();
  }
}

interface FfmpegResult {
  n: number;
  cpuPerStreamMin: number;
  pssMb: number;
  /** The window STEADY_S after the processes were started (--steady, /dev/null output only). */
  steadyCpuPerStreamMin?: number;
  /** Why the steady-state window gave no baseline (the processes fell behind the camera in it). */
  steadyNotKeptUp?: string;
}

/**
 * `output` 'devnull': ffmpeg's fMP4 goes to /dev/null (the issue's baseline). 'tcp': to a TCP reader on
 * loopback in this process, which discards it: ffmpeg then pays for delivering its output through the
 * TCP stack as the hub does for its WS-fMP4 viewer (on loopback the sender's write also runs the
 * receiver's side of TCP).
 */
async function measureFfmpeg(cam: Camera, n: number, output: 'devnull' | 'tcp' | 'tcp-frame' = 'devnull'): Promise<FfmpegResult> {
  const devnull = fs.openSync('/dev/null', 'w');
  const procs: ChildProcess[] = [];
  const readers = new Set<net.Socket>();
  const sink =
    output !== 'devnull'
      ? await new Promise<net.Server>((resolve) => {
          const srv = net.createServer((sock) => {
            readers.add(sock);
            sock.on('data', () => undefined);
            sock.on('error', () => undefined);
            sock.once('close', () => readers.delete(sock));
          });
          srv.listen(0, '127.0.0.1', () => resolve(srv));
        })
      : undefined;
  const target = sink ? `tcp://127.0.0.1:${(sink.address() as net.AddressInfo).port}` : 'pipe:1';
  const startOne = (i: number) => {
    const child = spawn(
      'ffmpeg',
      [
        '-nostdin', '-v', 'error', '-rtsp_transport', 'tcp', '-i', cam.url(10_000 + i), '-c', 'copy', '-f', 'mp4',
        ...(output === 'tcp-frame'
          ? ['-movflags', 'frag_every_frame+empty_moov+default_base_moof', '-flush_packets', '1']
          : ['-movflags', 'frag_keyframe+empty_moov+default_base_moof']),
        target,
      ],
      { stdio: ['ignore', devnull, 'pipe'] },
    );
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      if (err.length < 2000) err += d.toString();
    });
    child.once('exit', (code, sig) => {
      if (!stopping) log(`ffmpeg ${i} exited (${code ?? sig}) during the baseline: ${err.trim().slice(0, 300)}`);
    });
    trackChild(child);
    return child;
  };
  let stopping = false;
  const stopAll = async () => {
    stopping = true;
    await Promise.all(procs.map((p) => stopChild(p, 3000)));
    fs.closeSync(devnull);
    for (const r of readers) r.destroy();
    sink?.close();
  };
  try {
    const startedAt = performance.now();
    for (let i = 0; i < n; i++) procs.push(startOne(i));
    // Those the camera refused (a shared media being torn down answers 503) are started again.
    await sleep(3000);
    for (let i = 0; i < n; i++) {
      if (procs[i].exitCode !== null || procs[i].signalCode !== null) {
        untrackChild(procs[i]);
        procs[i] = startOne(i);
      }
    }
    const alive = () => procs.every((p) => p.exitCode === null && p.signalCode === null);
    // Hundreds of ffmpeg processes started together take a while to all be streaming (256: ~25 CPU-s
    // of start-ups on 2 cores): the warm-up starts once every one has read ~2 s of the camera, so no
    // start-up lands in the window.
    const streamingWithin = Math.max(30_000, n * 300);
    for (const t = performance.now(); ; await sleep(1000)) {
      if (!alive()) throw new Error(`baseline N=${n}: some ffmpeg processes exited while starting`);
      const got = receivedFrom(cam.port);
      const behind = procs.filter((p) => (got.get(p.pid!) ?? 0) < 2 * cam.bytesPerSecond).length;
      if (!behind) {
        log(`N=${n} ffmpeg: every process streaming ${((performance.now() - startedAt) / 1000).toFixed(1)} s after the first start; warm-up ${WARMUP_S} s`);
        break;
      }
      if (performance.now() - t > streamingWithin) throw new Error(`baseline N=${n}: ${behind} of ${n} ffmpeg processes read under 2 s of the camera in ${streamingWithin / 1000} s; load ${loadavg()}`);
    }
    await sleep(WARMUP_S * 1000);
    if (!alive()) throw new Error(`baseline N=${n}: some ffmpeg processes exited`);
    const pids = procs.map((p) => p.pid!);
    /**
     * One window of the n processes' CPU and of what they read. The rule for a baseline (the hub's
     * rule, meanFps >= FPS - 1): the processes read, on the mean, at least (FPS - 1) / FPS of the
     * camera's rate (its elementary stream's bytes a second; RTP and interleave headers put ~1 % on
     * top, a 30 s window of the clip is within 1.3 % of its mean), as received on their camera
     * connections (receivedFrom). Fewer bytes read means ffmpeg fell
     * behind the camera (a machine short of CPU): it then did less work than a stream's, and its CPU
     * per stream-minute is no baseline; the caller writes none and says why.
     */
    const window = async () => {
      const c0 = pids.map((p) => cpuSeconds(p)!);
      const got0 = receivedFrom(cam.port);
      const b0 = pids.map((p) => got0.get(p) ?? 0);
      const m0 = machineCpu();
      const w0 = performance.now();
      await sleep(WINDOW_S * 1000);
      const c1 = pids.map((p) => cpuSeconds(p));
      const got1 = receivedFrom(cam.port);
      // A process whose connection is gone (the camera drops one 32 MB behind) received nothing more.
      const b1 = pids.map((p) => got1.get(p) ?? 0);
      const secs = (performance.now() - w0) / 1000;
      const machine = machineBusy(m0, secs);
      if (!alive() || c1.some((c) => c === undefined)) return undefined;
      const cpu = (c1 as number[]).reduce((sum, c, i) => sum + (c - c0[i]), 0);
      const rates = b1.map((b, i) => Math.max(0, b - b0[i]) / secs / cam.bytesPerSecond);
      const meanRate = rates.reduce((a, b) => a + b, 0) / n;
      const keptUp = meanRate >= (FPS - 1) / FPS;
      const reading =
        `read ${meanRate.toFixed(3)} of the camera's rate on the mean (slowest ${Math.min(...rates).toFixed(3)}; ` +
        `rule: >= ${((FPS - 1) / FPS).toFixed(3)}, ${keptUp ? 'kept up' : 'FELL BEHIND: no baseline'})`;
      return { cpu, secs, w0, keptUp, reading, machine };
    };
    const first = await window();
    if (!first) throw new Error(`baseline N=${n}: some ffmpeg processes exited during the window`);
    const pss = pids.map((p) => pssKb(p));
    const r: FfmpegResult = {
      n,
      cpuPerStreamMin: first.cpu / (n * (first.secs / 60)),
      pssMb: pss.reduce((a, b) => a + b, 0) / n / 1024,
    };
    log(
      `N=${n} ffmpeg (output to ${output === 'tcp' ? 'a loopback TCP reader' : output === 'tcp-frame' ? 'a loopback TCP reader, a fragment per frame' : '/dev/null'}): ${first.cpu.toFixed(2)} CPU-s in ${first.secs.toFixed(1)} s = ${r.cpuPerStreamMin.toFixed(3)} CPU-s/stream-min; ` +
        `PSS ${r.pssMb.toFixed(2)} MB/process (min ${(Math.min(...pss) / 1024).toFixed(2)}, max ${(Math.max(...pss) / 1024).toFixed(2)}); ${first.reading}; ${first.machine}; load ${loadavg()}`,
    );
    if (!first.keptUp) throw new Error(`baseline N=${n}: ffmpeg did not keep up with the camera, ${first.reading}; ${first.machine}; load ${loadavg()}`);
    if (STEADY_S > 0 && output === 'devnull') {
      await sleep(Math.max(0, startedAt + STEADY_S * 1000 - performance.now()));
      const st = await window();
      if (!st) throw new Error(`baseline N=${n}: some ffmpeg processes exited during the steady-state window`);
      const steady = st.cpu / (n * (st.secs / 60));
      log(
        `N=${n} ffmpeg, steady state (window from ${((st.w0 - startedAt) / 1000).toFixed(0)} s after the start): ${st.cpu.toFixed(2)} CPU-s in ${st.secs.toFixed(1)} s = ` +
          `${steady.toFixed(4)} CPU-s/stream-min (first window ${r.cpuPerStreamMin.toFixed(4)}: ${(steady / r.cpuPerStreamMin).toFixed(3)}x); ${st.reading}; ${st.machine}; load ${loadavg()}`,
      );
      if (st.keptUp) r.steadyCpuPerStreamMin = steady;
      else r.steadyNotKeptUp = `${st.reading}; ${st.machine}`;
    }
    return r;
  } finally {
    await stopAll();
  }
}

interface StartupResult {
  runningMs: number[];
  onDemandMs: number[];
  viewerCpu: { v: number; perViewerMin: number; totalPerMin: number }[];
  ingestPerMin: number;
}

async function timeToFirstFragment(server: Server, device: string): Promise<number> {
  const t0 = performance.now();
  const v = new Viewer(await streamUrl(server, device, 'getchannelstream'));
  try {
    const t1 = await v.first(15_000);
    return t1 - t0;
  } finally {
    v.close();
  }
}

async function measureStartupAndViewers(cam: Camera): Promise<StartupResult> {
  const server = await startServer('viewers');
  const open: Viewer[] = [];
  try {
    const main = await addDevice(server, 'bench-main', cam.url(20_000));
    const keeper = new Viewer(await streamUrl(server, main));
    open.push(keeper);
    await keeper.first(30_000);
    await sleep(3000);

    // CPU per viewer: the main stream with 0 viewers (kept alive by touchchannelstream), then V viewers.
    await sleep(5000);
    keeper.close();
    open.length = 0;
    const touch = setInterval(() => {
      void call(server.base, `/api/v1/touchchannelstream?device=${main}&channel=1`, { headers: { token: server.token } }).catch(() => undefined);
    }, 2000);
    onCleanup(() => clearInterval(touch));
    const cpuWindow = async () => {
      await sleep(VIEWER_WARMUP_S * 1000);
      for (const x of open) x.resetWindow();
      const c0 = cpuSeconds(server.pid)!;
      const w0 = performance.now();
      await sleep(VIEWER_WINDOW_S * 1000);
      return { cpu: cpuSeconds(server.pid)! - c0, secs: (performance.now() - w0) / 1000 };
    };
    const idle = await cpuWindow();
    const ingestPerMin = idle.cpu / (idle.secs / 60);
    log(`1 stream, 0 viewers: ${ingestPerMin.toFixed(3)} CPU-s per minute (ingest); load ${loadavg()}`);
    const viewerCpu: StartupResult['viewerCpu'] = [];
    for (const v of VIEWERS) {
      const vs: Viewer[] = [];
      for (let i = 0; i < v; i++) vs.push(new Viewer(await streamUrl(server, main)));
      open.push(...vs);
      await Promise.all(vs.map((x) => x.first(15_000)));
      const w = await cpuWindow();
      const win = sumWindow(vs);
      const totalPerMin = w.cpu / (w.secs / 60);
      const perViewerMin = (totalPerMin - ingestPerMin) / v;
      viewerCpu.push({ v, perViewerMin, totalPerMin });
      log(
        `1 stream, ${v} viewers: ${totalPerMin.toFixed(3)} CPU-s per minute in all, ${perViewerMin.toFixed(4)} per viewer-minute beyond the ingest; ` +
          `${win.frames} frames (${(win.frames / v / w.secs).toFixed(2)} fps/viewer), missing ${win.missingFrames}, mfhd gaps ${win.seqGaps}; load ${loadavg()}`,
      );
      for (const x of vs) x.close();
      open.length = 0;
      await sleep(1000);
    }
    clearInterval(touch);

    // Start-up, measured after (the per-viewer CPU windows have no other hub running).
    const again = new Viewer(await streamUrl(server, main));
    open.push(again);
    await again.first(15_000);
    await sleep(2000);
    // Start-up of a running stream.
    const runningMs: number[] = [];
    for (let i = 0; i < RUNNING_SAMPLES; i++) {
      runningMs.push(await timeToFirstFragment(server, main));
      await sleep(300);
    }
    log(`getchannelstream -> first fragment, running stream: ${runningMs.map((x) => x.toFixed(0)).join(' ')} ms`);

    // Start-up of an on-demand stream not yet open (a new device each time; the camera is running).
    const onDemandMs: number[] = [];
    for (let i = 0; i < ONDEMAND_SAMPLES; i++) {
      const d = await addDevice(server, `bench-od-${i}`, cam.url(30_000 + i));
      onDemandMs.push(await timeToFirstFragment(server, d));
      // Its hub would outlive the viewer by the grace period: stop it now.
      await call(server.base, `/api/v1/stopstream?device=${d}&channel=1`, { headers: { token: server.token } });
      // Spread the starts over the GOP (2 s) rather than land at the same phase each time.
      await sleep(700 + 400 * i);
    }
    log(`getchannelstream -> first fragment, on-demand stream: ${onDemandMs.map((x) => x.toFixed(0)).join(' ')} ms`);

    return { runningMs, onDemandMs, viewerCpu, ingestPerMin };
  } finally {
    for (const v of open) v.close();
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------
async function main(): Promise<number> {
  log(`streams ${STREAMS.join(',')}; viewers ${VIEWERS.join(',')}; warm-up ${WARMUP_S} s, window ${WINDOW_S} s; ${os.cpus().length} CPUs; load ${loadavg()}`);
  const cam = await startCamera(log, CAMERA);
  const figures: Figure[] = [];
  const failures: string[] = [];

  if (PARTS.includes('hubs')) {
    // Context for the per-frame CPU figures below (wake-cost.ts): the hub and every ffmpeg of the
    // baseline wake at least once per frame, and this is what a wake-up alone costs here.
    const slow = measureWakeCost(FPS, 10);
    const fast = measureWakeCost(250, 10);
    log(`a wake-up of an idle Node process costs ${slow.usPerWake.toFixed(0)} µs of CPU at ${FPS} Hz, ${fast.usPerWake.toFixed(0)} µs at 250 Hz`);
    figures.push({
      name: `CPU per wake-up of an otherwise idle Node process sleeping between ${FPS} Hz timer ticks (this machine's floor under any work done once per frame, the hub's and ffmpeg's; baseline: the same at 250 Hz)`,
      value: round(slow.usPerWake, 0),
      unit: 'µs',
      baseline: round(fast.usPerWake, 0),
      ratio: round(slow.usPerWake / fast.usPerWake, 2),
      goal: null,
    });
  }

  for (const n of PARTS.includes('hubs') ? STREAMS : []) {
    let hub: HubResult | undefined;
    let ff: FfmpegResult | undefined;
    let ffTcp: FfmpegResult | undefined;
    let ffFrame: FfmpegResult | undefined;
    try {
      hub = await measureHub(cam, n);
    } catch (err) {
      failures.push(`hub N=${n}: ${(err as Error).message}`);
    }
    await sleep(1500);
    if (!BASELINE_STREAMS.includes(n)) log(`N=${n}: no ffmpeg baseline (--baseline-streams=${BASELINE_STREAMS.join(',')})`);
    else if (BASELINE) {
      try {
        ff = await measureFfmpeg(cam, n);
      } catch (err) {
        failures.push(`ffmpeg N=${n}: ${(err as Error).message}`);
      }
      await sleep(1500);
      if (BASELINE_TCP) {
        try {
          ffTcp = await measureFfmpeg(cam, n, 'tcp');
        } catch (err) {
          failures.push(`ffmpeg to TCP N=${n}: ${(err as Error).message}`);
        }
        await sleep(1500);
      }
      if (BASELINE_FRAME) {
        try {
          ffFrame = await measureFfmpeg(cam, n, 'tcp-frame');
        } catch (err) {
          failures.push(`ffmpeg per-frame fragments to TCP N=${n}: ${(err as Error).message}`);
        }
        await sleep(1500);
      }
    }
    if (!hub) continue;
    const fb = ff?.cpuPerStreamMin ?? null;
    const mb = ff?.pssMb ?? null;
    // Streams that did not keep up make CPU and memory per stream-minute meaningless (less work was
    // done): only the fps and dropped-frame figures are written then. The work done is the mean rate
    // (one stream a second late at the window's end still got every frame: its fps figure says so).
    const sustained = hub.meanFps >= FPS - 1;
    if (!sustained) {
      failures.push(`hub N=${n}: not sustained (slowest stream ${hub.minFps.toFixed(1)} fps, mean ${hub.meanFps.toFixed(1)}): no CPU or memory figure`);
    }
    if (sustained && ffFrame) figures.push({
      name: `hub CPU per stream-minute, ${n} streams x 1 WS-fMP4 viewer (as above; baseline: ffmpeg -c copy fMP4 per stream cutting a fragment at every frame and flushing it to a loopback TCP reader, the hub's delivery)`,
      value: round(hub.cpuPerStreamMin, 4),
      unit: 'CPU-s',
      baseline: round(ffFrame.cpuPerStreamMin, 4),
      ratio: round(hub.cpuPerStreamMin / ffFrame.cpuPerStreamMin, 3),
      goal: null,
    });
    if (sustained && ffTcp) figures.push({
      name: `hub CPU per stream-minute, ${n} streams x 1 WS-fMP4 viewer (as above; baseline: ffmpeg -c copy fMP4 per stream writing to a loopback TCP reader, as the hub writes to its viewer, not to /dev/null)`,
      value: round(hub.cpuPerStreamMin, 4),
      unit: 'CPU-s',
      baseline: round(ffTcp.cpuPerStreamMin, 4),
      ratio: round(hub.cpuPerStreamMin / ffTcp.cpuPerStreamMin, 3),
      goal: null,
    });
    if (sustained) figures.push(
      {
        name: `hub CPU per stream-minute, ${n} streams x 1 WS-fMP4 viewer (server CPU over the window minus the same server idle with its devices over as long, per stream-minute; baseline: ffmpeg -c copy fMP4 per stream)`,
        value: round(hub.cpuPerStreamMin, 4),
        unit: 'CPU-s',
        baseline: fb === null ? null : round(fb, 4),
        ratio: fb ? round(hub.cpuPerStreamMin / fb, 3) : null,
        goal: fb === null ? 'ratio < 0.33' : `< ${round(fb / 3, 4)}`,
      },
      {
        name: `whole server CPU per stream-minute, ${n} streams x 1 WS-fMP4 viewer (idle ${round(hub.idlePerMin, 3)} CPU-s/min included; baseline: ffmpeg -c copy fMP4 per stream)`,
        value: round(hub.serverCpuPerStreamMin, 4),
        unit: 'CPU-s',
        baseline: fb === null ? null : round(fb, 4),
        ratio: fb ? round(hub.serverCpuPerStreamMin / fb, 3) : null,
        goal: null,
      },
      {
        name: `hub memory per stream (VmRSS growth 0->${n} streams / ${n}: settled 0-stream VmRSS to the mean over the window; baseline: ffmpeg PSS per process)`,
        value: round(hub.rssPerStreamMb, 2),
        unit: 'MB',
        baseline: mb === null ? null : round(mb, 2),
        ratio: mb ? round(hub.rssPerStreamMb / mb, 3) : null,
        goal: mb === null ? 'ratio < 0.2' : `< ${round(mb * 0.2, 2)}`,
      },
    );
    const st = hub.steady;
    if (st && st.meanFps < FPS - 1) failures.push(`hub N=${n}, steady state: not sustained (mean ${st.meanFps.toFixed(1)} fps): no figure`);
    else if (st) {
      if (ff?.steadyNotKeptUp) failures.push(`ffmpeg N=${n}, steady state: did not keep up with the camera, ${ff.steadyNotKeptUp}: the steady figure has no baseline`);
      const sb = ff?.steadyCpuPerStreamMin ?? null;
      figures.push({
        name: `hub CPU per stream-minute, ${n} streams x 1 WS-fMP4 viewer, steady state: a ${WINDOW_S} s window from ${STEADY_S} s after the streams started (server CPU minus the same server idle, per stream-minute; baseline: ffmpeg -c copy fMP4 per stream over a window as long from ${STEADY_S} s after its start)`,
        value: round(st.cpuPerStreamMin, 4),
        unit: 'CPU-s',
        baseline: sb === null ? null : round(sb, 4),
        ratio: sb ? round(st.cpuPerStreamMin / sb, 3) : null,
        goal: sb === null ? 'ratio < 0.33' : `< ${round(sb / 3, 4)}`,
      });
    }
    figures.push(
      {
        name: `dropped frames at the WS viewers, ${n} streams, ${WINDOW_S} s window (timestamp gaps; mfhd gaps: ${hub.seqGaps})`,
        value: hub.missingFrames,
        unit: 'frames',
        baseline: null,
        ratio: null,
        goal: '0',
      },
      {
        name: `frames per second received, slowest of ${n} streams (camera sends ${FPS})`,
        value: round(hub.minFps, 2),
        unit: 'fps',
        baseline: FPS,
        ratio: round(hub.minFps / FPS, 3),
        goal: `>= ${FPS - 1}`,
      },
    );
  }

  if (PARTS.includes('startup')) try {
    const s = await measureStartupAndViewers(cam);
    figures.push(
      {
        name: `getchannelstream -> first WS-fMP4 fragment at a new viewer, running stream (median of ${s.runningMs.length}; proxy for first decoded frame)`,
        value: round(median(s.runningMs), 1),
        unit: 'ms',
        baseline: null,
        ratio: null,
        goal: '< 500',
      },
      {
        name: `getchannelstream -> first WS-fMP4 fragment, on-demand stream not yet open, GOP 2 s (median of ${s.onDemandMs.length}; max ${Math.round(Math.max(...s.onDemandMs))})`,
        value: round(median(s.onDemandMs), 1),
        unit: 'ms',
        baseline: null,
        ratio: null,
        goal: '< 3500',
      },
    );
    for (const v of s.viewerCpu) {
      figures.push({
        name: `CPU per WS-fMP4 viewer-minute beyond the ingest, 1 stream x ${v.v} viewers (baseline: the stream's ingest per minute, 0 viewers)`,
        value: round(v.perViewerMin, 4),
        unit: 'CPU-s',
        baseline: round(s.ingestPerMin, 4),
        ratio: s.ingestPerMin ? round(v.perViewerMin / s.ingestPerMin, 3) : null,
        goal: null,
      });
    }
  } catch (err) {
    failures.push(`start-up / viewers: ${(err as Error).message}`);
  }

  for (const [part, measure] of [['first-frame', measureFirstFrame], ['latency', measureLatency], ['viewers', measureViewers], ['drift', measureDrift]] as const) {
    if (!PARTS.includes(part)) continue;
    try {
      figures.push(...(await measure({ cameraUrl: cam.url, log, arg })));
    } catch (err) {
      failures.push(`${part}: ${(err as Error).message}`);
    }
  }

  log(`load average at the end: ${loadavg()} (shared ${os.cpus().length}-core machine: figures are noisy)`);
  if (!BASELINE) log('--baseline=no: a profiling run, bench/results/live.json is left as it was');
  else {
    // The hubs part's memory figures were named "(VmRSS growth 0->N streams / N; baseline ...)" before
    // the 0-stream reading waited for the heap to settle: those old names are dropped.
    // Also dropped: an earlier CPU or memory figure for a stream count this run measured but did not
    // write (streams not sustained).
    const hubFigure = /^(?:hub |whole server )(?:CPU per stream-minute, |memory per stream \(VmRSS growth 0->)(\d+) streams/;
    // The viewers part's figures named their baseline "(..., 0 viewers)" before it became the lower of
    // a window before and one after the viewers: dropped when that part runs.
    const oldViewerFigure = /^CPU per (?:WS-fMP4|WebRTC) viewer-minute beyond the ingest, 1 stream x \d+ (?:WS-fMP4|WebRTC) viewers.*0 viewers\)$/;
    const steadyKept = (f: Figure) => f.name.includes(', steady state: ') && !STEADY_S;
    const stale = (f: Figure) => {
      if (PARTS.includes('viewers') && oldViewerFigure.test(f.name)) return true;
      if (!PARTS.includes('hubs')) return false;
      // A steady-state figure is replaced only by a run that measured one (--steady).
      if (steadyKept(f)) return false;
      if (f.name.startsWith('hub memory per stream (VmRSS growth 0->') && !f.name.includes('settled')) return true;
      const m = hubFigure.exec(f.name);
      return !!m && STREAMS.includes(Number(m[1]));
    };
    const full = ALL_PARTS.every((p) => PARTS.includes(p));
    writeFigures('live', mergeFigures('live', figures, full ? (f) => !isDriftFigure(f) && !steadyKept(f) : stale));
  }
  for (const f of failures) console.error(`[live] NOT MEASURED: ${f}`);
  return failures.length ? 1 : 0;
}

await runBench('live', main);
