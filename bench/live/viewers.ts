/**
 * Part "viewers" of the live bench: CPU of the server per WS-fMP4 viewer and per WebRTC viewer of one
 * stream, at 1, 16 and 64 viewers (--viewers=). A fresh server, one device on the bench camera kept
 * alive by touchchannelstream with no viewer: its CPU over the window is the ingest's cost. Then for
 * each kind and count, that many viewers (WebSocket readers, or werift WHEP peers in this process),
 * a warm-up, and the server's CPU seconds over the window: (total - ingest) / viewers, per minute.
 * The viewers run in this process, not the server's: their own cost is not counted.
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

async function openMany(n: number, open: () => Promise<CountingViewer>): Promise<CountingViewer[]> {
  const out: CountingViewer[] = [];
  // 8 at a time: WHEP set-up (ICE, DTLS) is CPU work on both sides.
  for (let i = 0; i < n; i += 8) out.push(...(await Promise.all(Array.from({ length: Math.min(8, n - i) }, open))));
  return out;
}

export async function measureViewers(ctx: LiveContext): Promise<Figure[]> {
  const counts = ctx
    .arg('viewers', '1,16,64')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
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
    const idle = await cpuWindow();
    ctx.log(`viewers: 1 stream, 0 viewers: ${idle.perMin.toFixed(3)} CPU-s per minute (ingest); load ${loadavg()}`);
    const figures: Figure[] = [];
    for (const { kind, open: openOne } of KINDS) {
      for (const n of counts) {
        open = await openMany(n, () => openOne(urls));
        await within(Promise.all(open.map((v) => v.ready)), 60_000, `${n} ${kind} viewers`);
        const w = await cpuWindow();
        const perViewer = (w.perMin - idle.perMin) / n;
        ctx.log(
          `viewers: 1 stream, ${n} ${kind}: ${w.perMin.toFixed(3)} CPU-s per minute in all, ${perViewer.toFixed(4)} per viewer-minute beyond the ingest; ` +
            `${(w.mbit / n).toFixed(2)} Mbit/s per viewer received; load ${loadavg()}`,
        );
        figures.push({
          name: `CPU per ${kind} viewer-minute beyond the ingest, 1 stream x ${n} ${kind} viewers (baseline: the stream's ingest per minute, 0 viewers)`,
          value: round(perViewer, 4),
          unit: 'CPU-s',
          baseline: round(idle.perMin, 4),
          ratio: idle.perMin ? round(perViewer / idle.perMin, 3) : null,
          goal: null,
        });
        await Promise.all(open.map((v) => v.close()));
        open = [];
        await sleep(1500);
      }
    }
    return figures;
  } finally {
    clearInterval(touch);
    await Promise.all(open.map((v) => v.close()));
    await server.stop();
  }
}
