/**
 * What processes read from a camera, and how busy the machine was: /proc and `ss` readings the
 * benches' ffmpeg baselines share (the live and the recording bench).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/**
 * Bytes each process has received on its TCP connections to `port` (the camera's), by pid: the
 * kernel's tcp_info bytes_received of every established socket, from one `ss` dump. (Not rchar of
 * /proc/PID/io: ffmpeg reads its socket with recv(2), which rchar does not count.) A process with no
 * connection, or one that has received nothing yet, is not in the map.
 */
export function receivedFrom(port: number): Map<number, number> {
  const out = new Map<number, number>();
  const ss = spawnSync('ss', ['-tinpH', 'state', 'established', `( dport = :${port} )`], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (ss.status !== 0) throw new Error(`ss (iproute2) failed: ${ss.error?.message ?? ss.stderr.trim()}`);
  let pid: number | undefined;
  for (const line of ss.stdout.split('\n')) {
    if (!/^\s/.test(line)) pid = Number(/pid=(\d+)/.exec(line)?.[1]) || undefined;
    else if (pid !== undefined) {
      const b = /bytes_received:(\d+)/.exec(line);
      if (b) out.set(pid, (out.get(pid) ?? 0) + Number(b[1]));
    }
  }
  return out;
}

/** utime and stime of a process (all its threads, not its children), in seconds; undefined once it is gone. */
export function ownCpu(pid: number): { user: number; sys: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(f[11]) / CLK_TCK, sys: Number(f[12]) / CLK_TCK };
  } catch {
    return undefined;
  }
}

/** The whole machine's CPU seconds since boot (all CPUs, /proc/stat): busy (user, nice, system, irq, softirq) and stolen. */
export function machineCpu(): { busy: number; steal: number } {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { busy: (f[0] + f[1] + f[2] + f[5] + f[6]) / CLK_TCK, steal: (f[7] ?? 0) / CLK_TCK };
}

/** How many of the machine's cores were busy since `m0` (machineCpu()), over `secs`. */
export function machineBusy(m0: { busy: number; steal: number }, secs: number): string {
  const m1 = machineCpu();
  return `machine ${((m1.busy - m0.busy) / secs).toFixed(2)} of ${os.cpus().length} cores busy (steal ${((m1.steal - m0.steal) / secs).toFixed(2)})`;
}
