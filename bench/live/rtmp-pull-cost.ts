/**
 * What one pulled RTMP stream costs the server: the native RTMP client (media/ingest/rtmp-source.ts)
 * against one ffmpeg per stream (ffmpeg-pull-source.ts), ingest only (no hub, no viewer: the outputs
 * cost the same after either). nginx-rtmp relays one ffmpeg publisher (-re, copied: H.264 640×360
 * 25 fps + AAC) to N players of each kind in turn, on its own port and config in a temp folder.
 *
 *   node --expose-gc --import tsx bench/live/rtmp-pull-cost.ts --streams=4 --window=10
 *
 * CPU: this process's (process.cpuUsage) over the window, less an idle window's, plus for ffmpeg its
 * processes' (utime + stime in /proc/PID/stat). Memory: ffmpeg's private memory (smaps_rollup
 * Private_Clean + Private_Dirty) per process; for the native sources the growth of this process's
 * heap and external memory after a garbage collection (--expose-gc; without it, RSS growth, noisier). A developer's figure, nothing is written to bench/results.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MediaSource, SourceSink } from '../../apps/server/src/media/hub';
import { FfmpegPullSource } from '../../apps/server/src/media/ingest/ffmpeg-pull-source';
import { RtmpPullSource } from '../../apps/server/src/media/ingest/rtmp-source';
import { startNginxRtmp } from '../../apps/server/test/fixtures/nginx-rtmp';
import { freePort, onCleanup, runBench, stopChild, trackChild } from '../lib/server';

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def;
const STREAMS = Number(arg('streams', '4'));
const WINDOW_S = Number(arg('window', '10'));
const WARMUP_S = 4;
const CLK_TCK = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** utime + stime of a process, in seconds; 0 once it is gone. */
function cpuOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / CLK_TCK;
  } catch {
    return 0;
  }
}

function privateMb(pid: number): number {
  try {
    const text = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = [...text.matchAll(/^Private_(?:Clean|Dirty):\s+(\d+) kB/gm)].reduce((s, m) => s + Number(m[1]), 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

/** This process's memory in use: heap and buffers after a collection where --expose-gc allows one, else RSS. */
function inUse(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return process.memoryUsage().rss;
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

const selfCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

async function measure(label: string, make: () => MediaSource, pids: (s: MediaSource[]) => number[], idleCpuPerS: number) {
  let units = 0;
  const failures: string[] = [];
  const sink: SourceSink = { tracks: () => undefined, unit: () => void units++, failed: (w) => void failures.push(w) };
  const mem0 = inUse();
  const sources = Array.from({ length: STREAMS }, () => make());
  for (const s of sources) s.start(sink);
  await sleep(WARMUP_S * 1000);
  const children = pids(sources);
  const self0 = selfCpu();
  const kids0 = children.map(cpuOf);
  const units0 = units;
  await sleep(WINDOW_S * 1000);
  const self = selfCpu() - self0 - idleCpuPerS * WINDOW_S;
  const kids = children.map((p, i) => cpuOf(p) - kids0[i]).reduce((a, b) => a + b, 0);
  const mem = children.length ? children.map(privateMb).reduce((a, b) => a + b, 0) / STREAMS : (inUse() - mem0) / 1024 / 1024 / STREAMS;
  const perStream = ((self + kids) / WINDOW_S / STREAMS) * 100;
  console.log(
    `${label.padEnd(7)} ${STREAMS} streams: CPU ${perStream.toFixed(2)} % of a core per stream (this process ${((self / WINDOW_S / STREAMS) * 100).toFixed(2)}, ffmpeg ${((kids / WINDOW_S / STREAMS) * 100).toFixed(2)}), ` +
      `memory ${mem.toFixed(1)} MB per stream${children.length ? ' (ffmpeg private)' : ' (this process)'}, ${((units - units0) / WINDOW_S / STREAMS).toFixed(1)} units/s per stream, ${failures.length} failures`,
  );
  for (const s of sources) s.stop();
  await sleep(1000);
}

await runBench('rtmp-pull-cost', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rtmp-pull-cost-'));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  const clip = path.join(dir, 'clip.flv');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '10', '-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '1M', '-g', '50', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k', clip]); // prettier-ignore
  const nginx = await startNginxRtmp(await freePort());
  onCleanup(() => nginx.stop());
  const url = nginx.url('bench');
  const publisher = spawn('ffmpeg', ['-v', 'error', '-re', '-stream_loop', '-1', '-i', clip, '-c', 'copy', '-f', 'flv', url], { stdio: 'ignore' });
  trackChild(publisher);
  onCleanup(() => stopChild(publisher));
  await sleep(2000);

  const idle0 = selfCpu();
  await sleep(3000);
  const idleCpuPerS = (selfCpu() - idle0) / 3;

  await measure('native', () => new RtmpPullSource(url), () => [], idleCpuPerS);
  await measure('ffmpeg', () => new FfmpegPullSource(url), (s) => s.map((x) => (x as FfmpegPullSource).pid).filter((p): p is number => p !== undefined), idleCpuPerS);
  return 0;
});
