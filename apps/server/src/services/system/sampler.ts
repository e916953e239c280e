/**
 * Machine figures for the dashboard: CPU usage over the last interval (from os.cpus() deltas) and
 * network bytes per second (from /proc/net/dev), sampled every few seconds in the background.
 */
import fs from 'node:fs';
import os from 'node:os';

interface CpuTimes {
  idle: number;
  total: number;
}
function cpuTimes(): CpuTimes {
  let idle = 0;
  let total = 0;
  for (const c of os.cpus()) {
    const t = c.times;
    idle += t.idle;
    total += t.user + t.nice + t.sys + t.idle + t.irq;
  }
  return { idle, total };
}
function netBytes(): { rx: number; tx: number } {
  try {
    const lines = fs.readFileSync('/proc/net/dev', 'utf8').split('\n').slice(2);
    let rx = 0;
    let tx = 0;
    for (const line of lines) {
      const [name, rest] = line.split(':');
      if (!rest || name.trim() === 'lo') continue;
      const f = rest.trim().split(/\s+/).map(Number);
      rx += f[0] || 0;
      tx += f[8] || 0;
    }
    return { rx, tx };
  } catch {
    return { rx: 0, tx: 0 };
  }
}

export class SystemSampler {
  cpuPercent = 0;
  rxPerSec = 0;
  txPerSec = 0;
  private lastCpu = cpuTimes();
  private lastNet = netBytes();
  private lastAt = Date.now();
  private timer: NodeJS.Timeout;

  constructor(intervalMs = 3000) {
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  sample() {
    const cpu = cpuTimes();
    const net = netBytes();
    const now = Date.now();
    const dTotal = cpu.total - this.lastCpu.total;
    if (dTotal > 0) this.cpuPercent = Math.round((1 - (cpu.idle - this.lastCpu.idle) / dTotal) * 1000) / 10;
    const dt = (now - this.lastAt) / 1000;
    if (dt > 0) {
      this.rxPerSec = Math.max(0, Math.round((net.rx - this.lastNet.rx) / dt));
      this.txPerSec = Math.max(0, Math.round((net.tx - this.lastNet.tx) / dt));
    }
    this.lastCpu = cpu;
    this.lastNet = net;
    this.lastAt = now;
  }

  stop() {
    clearInterval(this.timer);
  }
}

export function diskUsage(dir: string): { total: number; used: number } {
  try {
    const s = fs.statfsSync(dir);
    const total = s.blocks * s.bsize;
    return { total, used: total - s.bavail * s.bsize };
  } catch {
    return { total: 0, used: 0 };
  }
}

export function formatDuration(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.floor(seconds % 60);
  return `${d}d ${h}h ${m}m ${s}s`;
}
