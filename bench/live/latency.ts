/**
 * Part "latency" of the live bench: time from a packet's arrival to its fragment leaving the server,
 * p99, per output. A fresh server runs with MEDIA_LATENCY_PROBE (apps/server/src/media/latency-probe.ts):
 * the hub stamps each access unit when its last RTP packet has been read, and each output records,
 * per unit, the time until the bytes carrying it are handed to the socket (WS-fMP4: ws.send of the
 * fragment holding it; WebRTC: the SRTP send of its last packet; WS-FLV: the write of its tag). One
 * stream of the bench camera, one viewer of each kind; the probe's histograms are read at the start
 * and the end of the window and their difference gives the percentiles (0.1 ms buckets).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Figure } from '../lib/figures';
import { onCleanup } from '../lib/server';
import { addDevice, loadavg, playUrls, round, sleep, startServer, within, whepViewer, wsViewer, type LiveContext } from './support';

interface Snapshot {
  outputs: Record<string, { count: number; over: number; buckets: Record<string, number> }>;
}
/** Bucket width of the probe's histograms (LATENCY_BUCKET_MS in the server). */
const BUCKET_MS = 0.1;

function read(file: string): Snapshot {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Snapshot;
  } catch {
    return { outputs: {} };
  }
}

/** Percentiles of the units recorded between two snapshots; undefined without samples. */
function window(a: Snapshot, b: Snapshot, output: string) {
  const before = a.outputs[output];
  const after = b.outputs[output];
  if (!after) return undefined;
  const counts = new Map<number, number>();
  for (const [i, c] of Object.entries(after.buckets)) counts.set(Number(i), c - (before?.buckets[i] ?? 0));
  const over = after.over - (before?.over ?? 0);
  const n = after.count - (before?.count ?? 0);
  if (n <= 0) return undefined;
  const sorted = [...counts.entries()].filter(([, c]) => c > 0).sort((x, y) => x[0] - y[0]);
  const at = (p: number) => {
    const want = Math.ceil((p / 100) * n);
    let seen = 0;
    for (const [i, c] of sorted) {
      seen += c;
      if (seen >= want) return (i + 1) * BUCKET_MS;
    }
    return Infinity; // in the overflow (> 2 s)
  };
  return { n, over, p50: at(50), p99: at(99), max: over ? Infinity : sorted.length ? (sorted[sorted.length - 1][0] + 1) * BUCKET_MS : 0 };
}

export async function measureLatency(ctx: LiveContext): Promise<Figure[]> {
  const warmupS = Number(ctx.arg('latency-warmup', '5'));
  const windowS = Number(ctx.arg('latency-window', '30'));
  const file = path.join(os.tmpdir(), `opencvr-bench-latency-${process.pid}.json`);
  onCleanup(() => fs.rmSync(file, { force: true }));
  const server = await startServer(ctx, 'latency', { MEDIA_LATENCY_PROBE: file });
  const viewers: { close(): Promise<void> }[] = [];
  try {
    const device = await addDevice(server, 'bench-latency', ctx.cameraUrl(40_000));
    const urls = await playUrls(server, device);
    const ws = wsViewer(urls.WS_FMP4);
    viewers.push(ws);
    await within(ws.ready, 30_000, 'WS-fMP4 viewer');
    const flv = wsViewer(urls.WS_FLV);
    viewers.push(flv);
    const rtc = await whepViewer(urls.WEBRTC);
    viewers.push(rtc);
    await within(Promise.all([flv.ready, rtc.ready]), 30_000, 'WS-FLV and WebRTC viewers');
    await sleep(warmupS * 1000 + 1100); // the probe writes its file every second
    const a = read(file);
    await sleep(windowS * 1000 + 1100);
    const b = read(file);
    const figures: Figure[] = [];
    const goals: Record<string, string | null> = { 'ws-fmp4': '< 50', webrtc: '< 20', flv: null };
    const names: Record<string, string> = { 'ws-fmp4': 'WS-fMP4 fragment', webrtc: 'WebRTC (last RTP packet of the unit)', flv: 'WS-FLV tag' };
    for (const output of ['ws-fmp4', 'webrtc', 'flv']) {
      const w = window(a, b, output);
      if (!w) throw new Error(`no ${output} latency samples in the window (is the probe on?)`);
      ctx.log(`latency ${output}: ${w.n} units, p50 ${w.p50.toFixed(1)} ms, p99 ${w.p99.toFixed(1)} ms, max ${w.max.toFixed(1)} ms (${w.over} over 2 s); load ${loadavg()}`);
      const name = (p: string) => `packet arrival -> ${names[output]} sent, ${p} of every access unit over ${windowS} s, 1 stream 1080p25`;
      figures.push(
        { name: name('p99'), value: round(w.p99, 1), unit: 'ms', baseline: null, ratio: null, goal: goals[output] },
        { name: name('p50'), value: round(w.p50, 1), unit: 'ms', baseline: null, ratio: null, goal: null },
      );
    }
    return figures;
  } finally {
    await Promise.all(viewers.map((v) => v.close()));
    await server.stop();
  }
}
