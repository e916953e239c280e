/**
 * Part "viewers" of the live bench: CPU of the server per WS-fMP4 viewer and per WebRTC viewer of one
 * stream, at 1, 16 and 64 viewers (--viewers=). A fresh server, one device on the bench camera kept
 * alive by touchchannelstream with no viewer: its CPU over a window before the viewers and one after
 * them, the lower of the two, is the ingest's cost. Then for each kind and count, that many viewers
 * (WebSocket readers, or werift WHEP peers in this process), a warm-up, and the server's CPU seconds
 * over the window: (total - ingest) / viewers, per minute. The viewers run in this process, not the
 * server's: their own cost is not counted. The WHEP viewers
 * authenticate one SRTP packet in 64 and count the rest (support.ts): full werift receivers cost as
 * much as the server and, 64 of them beside it on a shared 2-core machine, starved their own ICE.
 * --viewer-kinds=WebRTC measures one kind only.
 */
import { performance } from 'node:perf_hooks';
import type { Figure } from '../lib/figures';
import { call } from '../lib/server';
import {
  addDevice,
  cpuSeconds,
  loadavg,
  playUrls,
  round,
  sleep,
  startServer,
  whepViewer,
  within,
  wsViewer,
  type BenchServer,
  type CountingViewer,
  type LiveContext,
} from './support';

const KINDS = [
  { kind: 'WS-fMP4', open: (urls: Awaited<ReturnType<typeof playUrls>>) => Promise.resolve(wsViewer(urls.WS_FMP4)) },
  { kind: 'WebRTC', open: (urls: Awaited<ReturnType<typeof playUrls>>) => whepViewer(urls.WEBRTC) },
] as const;

/** n viewers, 8 set up at a time (WHEP set-up, ICE and DTLS, is CPU work on both sides); failed set-ups are left out. */
async function openMany(n: number, open: () => Promise<CountingViewer>, log: (m: string) => void): Promise<CountingViewer[]> {
  const out: CountingViewer[] = [];
  for (let i = 0; i < n; i += 8) {
    const batch = await Promise.allSettled(Array.from({ length: Math.min(8, n - i) }, open));
    for (const r of batch) {
      if (r.status === 'fulfilled') out.push(r.value);
      else log(`viewers: a viewer could not start: ${(r.reason as Error).message}`);
    }
  }
  return out;
}

/** The viewers that received media within ms; the others are closed. */
async function receiving(viewers: CountingViewer[], ms: number): Promise<CountingViewer[]> {
  await Promise.race([Promise.allSettled(viewers.map((v) => v.ready)), sleep(ms)]);
  const ok = viewers.filter((v) => v.firstAt !== undefined);
  await Promise.all(viewers.filter((v) => v.firstAt === undefined).map((v) => v.close()));
  return ok;
}

export async function measureViewers(ctx: LiveContext): Promise<Figure[]> {
  const counts = ctx
    .arg('viewers', '1,16,64')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  // --viewer-kinds=WebRTC (or WS-fMP4) measures one kind only.
  const kinds = ctx.arg('viewer-kinds', KINDS.map((k) => k.kind).join(',')).split(',');
  const warmupS = Number(ctx.arg('viewer-warmup', '5'));
  const windowS = Number(ctx.arg('viewer-window', '20'));
  const server: BenchServer = await startServer(ctx, 'viewers-cpu');
  let open: CountingViewer[] = [];
  const touch = setInterval(() => {
    void call(server.base, `/api/v1/touchchannelstream?device=${device}&channel=1`, { headers: { token: server.token } }).catch(() => undefined);
  }, 2000);
  let device = '';
  const cpuWindow = async () => {
    await sleep(warmupS * 1000);
    const bytes0 = open.reduce((n, v) => n + v.bytes, 0);
    const c0 = cpuSeconds(server.pid);
    const w0 = performance.now();
    await sleep(windowS * 1000);
    const secs = (performance.now() - w0) / 1000;
    return { perMin: (cpuSeconds(server.pid) - c0) / (secs / 60), mbit: ((open.reduce((n, v) => n + v.bytes, 0) - bytes0) * 8) / 1e6 / secs };
  };
  try {
    device = await addDevice(server, 'bench-viewers', ctx.cameraUrl(50_000));
    const urls = await playUrls(server, device);
    // Start the ingest with one viewer, then leave it to the keep-alive.
    const first = wsViewer(urls.WS_FMP4);
    await within(first.ready, 30_000, 'first viewer');
    await first.close();
    const idleFirst = await cpuWindow();
    ctx.log(`viewers: 1 stream, 0 viewers: ${idleFirst.perMin.toFixed(3)} CPU-s per minute (ingest, first window); load ${loadavg()}`);
    const windows: { kind: string; n: number; k: number; perMin: number; mbit: number }[] = [];
    for (const { kind, open: openOne } of KINDS.filter((k) => kinds.includes(k.kind))) {
      for (const n of counts) {
        open = await receiving(await openMany(n, () => openOne(urls), ctx.log), 60_000);
        const k = open.length;
        if (!k) {
          ctx.log(`viewers: none of ${n} ${kind} viewers received media; not measured`);
          continue;
        }
        const w = await cpuWindow();
        windows.push({ kind, n, k, ...w });
        ctx.log(`viewers: 1 stream, ${k} of ${n} ${kind} receiving: ${w.perMin.toFixed(3)} CPU-s per minute in all; ${(w.mbit / k).toFixed(2)} Mbit/s per viewer received; load ${loadavg()}`);
        await Promise.all(open.map((v) => v.close()));
        open = [];
        await sleep(1500);
      }
    }
    // The ingest alone again, warm: the first window follows the server's start (compilation, the
    // first GOP) and once cost more than the stream with one viewer did. The lower of the two is the
    // ingest's steady cost (which makes the per-viewer figures, if anything, larger).
    // A viewer for a moment first, so the window is sure to hold a running ingest.
    const again = wsViewer(urls.WS_FMP4);
    await within(again.ready, 30_000, 'viewer before the last ingest window');
    await again.close();
    const idleLast = await cpuWindow();
    const idle = idleFirst.perMin <= idleLast.perMin ? idleFirst : idleLast;
    ctx.log(`viewers: 1 stream, 0 viewers again: ${idleLast.perMin.toFixed(3)} CPU-s per minute; the ingest's cost taken as ${idle.perMin.toFixed(3)}; load ${loadavg()}`);
    const figures: Figure[] = windows.map(({ kind, n, k, perMin }) => {
      const perViewer = (perMin - idle.perMin) / k;
      ctx.log(`viewers: ${k} ${kind}: ${perViewer.toFixed(4)} CPU-s per viewer-minute beyond the ingest`);
      return {
        name: `CPU per ${kind} viewer-minute beyond the ingest, 1 stream x ${n} ${kind} viewers${k < n ? ` (only ${k} received media)` : ''} (baseline: the stream's ingest per minute, 0 viewers, the lower of a window before and one after the viewers)`,
        value: round(perViewer, 4),
        unit: 'CPU-s',
        baseline: round(idle.perMin, 4),
        ratio: idle.perMin ? round(perViewer / idle.perMin, 3) : null,
        goal: null,
      };
    });
    return figures;
  } finally {
    clearInterval(touch);
    await Promise.all(open.map((v) => v.close()));
    await server.stop();
  }
}
