/**
 * Machine figures for the dashboard: CPU usage over the last interval (from os.cpus() deltas) and
 * network bytes per second (from /proc/net/dev), sampled when asked (SystemSampler).
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

/** The machine's figures over a window: CPU in use (%), network bytes per second in and out. */
export interface SystemFigures {
  cpuPercent: number;
  rxPerSec: number;
  txPerSec: number;
}

/**
 * Samples when asked, not in the background: its only readers are getserverinfo and state/top (the
 * dashboard, every 5 s while it is open; the version page once), which show the figures of the moment
 * and keep no history, so nothing is read while nobody looks and an idle server is not woken every
 * 3 s for it (issue 4). A look at least `intervalMs` after the last sample gives the figures since
 * that sample (the dashboard's: the last 5 s); an earlier one the same figures again. A look after
 * more than `staleMs` without one (the first in a while) would average the whole spell, so it starts
 * afresh: a sample, `freshMs` of waiting, and the figures of those `freshMs` (the ask waits for them;
 * looks meanwhile share them). os.cpus() counts in 10 ms ticks: over 500 ms on 2 cores, 1 % steps.
 */
export class SystemSampler {
  private figures: SystemFigures = { cpuPercent: 0, rxPerSec: 0, txPerSec: 0 };
  private lastCpu = cpuTimes();
  private lastNet = netBytes();
  private lastAt: number;
  /** A look after a stale spell: its wait, and what ends it. */
  private fresh?: Promise<SystemFigures>;
  private timer?: NodeJS.Timeout;
  private finish?: () => void;

  constructor(
    private readonly o: { intervalMs?: number; staleMs?: number; freshMs?: number; now?: () => number } = {},
  ) {
    this.lastAt = this.now();
  }

  private now() {
    return this.o.now?.() ?? Date.now();
  }

  /** The figures of the moment (see the class): sampled now if the last sample is old enough. */
  read(): Promise<SystemFigures> {
    if (this.fresh) return this.fresh;
    const age = this.now() - this.lastAt;
    if (age < (this.o.intervalMs ?? 3000)) return Promise.resolve(this.figures);
    this.sample();
    if (age <= (this.o.staleMs ?? 15_000)) return Promise.resolve(this.figures);
    this.fresh = new Promise<SystemFigures>((resolve) => {
      this.finish = () => {
        clearTimeout(this.timer);
        this.timer = undefined;
        this.fresh = undefined;
        this.finish = undefined;
        this.sample();
        resolve(this.figures);
      };
      this.timer = setTimeout(() => this.finish?.(), this.o.freshMs ?? 500);
      this.timer.unref();
    });
    return this.fresh;
  }

  private sample() {
    const cpu = cpuTimes();
    const net = netBytes();
    const now = this.now();
    const figures = { ...this.figures };
    const dTotal = cpu.total - this.lastCpu.total;
    if (dTotal > 0) figures.cpuPercent = Math.round((1 - (cpu.idle - this.lastCpu.idle) / dTotal) * 1000) / 10;
    const dt = (now - this.lastAt) / 1000;
    if (dt > 0) {
      figures.rxPerSec = Math.max(0, Math.round((net.rx - this.lastNet.rx) / dt));
      figures.txPerSec = Math.max(0, Math.round((net.tx - this.lastNet.tx) / dt));
    }
    this.figures = figures;
    this.lastCpu = cpu;
    this.lastNet = net;
    this.lastAt = now;
  }

  /** A look in progress is answered at once, with the figures of the time it waited. */
  stop() {
    this.finish?.();
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
