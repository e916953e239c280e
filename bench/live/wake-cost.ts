/**
 * What one wake-up costs on this machine: a Node process that does nothing but sleep between timer
 * ticks, at 25 Hz (a camera's frame rate) and at 250 Hz, its CPU time per wake-up measured inside it
 * (start-up excluded). The hub wakes at least once per frame it receives, and so does each ffmpeg of
 * the baseline: on a VM where waking an idle vCPU is expensive, this is the floor under both
 * per-frame figures, whatever the code does once awake.
 */
import { spawnSync } from 'node:child_process';

export interface WakeCost {
  hz: number;
  wakes: number;
  /** CPU microseconds per wake-up (user + system of the whole process, threads included). */
  usPerWake: number;
}

const CHILD = `
const hz = Number(process.argv[1]), seconds = Number(process.argv[2]);
setTimeout(() => {
  const c0 = process.cpuUsage();
  let n = 0;
  const t = setInterval(() => {
    if (++n < hz * seconds) return;
    clearInterval(t);
    const c = process.cpuUsage(c0);
    console.log(JSON.stringify({ wakes: n, us: c.user + c.system }));
  }, 1000 / hz);
}, 1000);
`;

export function measureWakeCost(hz: number, seconds: number): WakeCost {
  const r = spawnSync(process.execPath, ['-e', CHILD, String(hz), String(seconds)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`wake-cost child: ${r.stderr}`);
  const { wakes, us } = JSON.parse(r.stdout.trim()) as { wakes: number; us: number };
  return { hz, wakes, usPerWake: us / wakes };
}
