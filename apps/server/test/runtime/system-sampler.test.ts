/**
 * The dashboard's machine figures are sampled when asked (services/system/sampler.ts), not every 3 s
 * in the background: no timer while nobody looks; a look gives the CPU of the time since the last
 * sample; the first look after a long spell measures a short window of its own instead of averaging
 * the spell. os.cpus() is replaced by a counter the test moves (1 core, times in ms).
 */
import os from 'node:os';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SystemSampler } from '../../src/services/system/sampler.js';

let busy = 0;
let idle = 0;
/** `ms` of wall time on the one core, `percent` of it busy. */
function run(ms: number, percent: number) {
  busy += (ms * percent) / 100;
  idle += (ms * (100 - percent)) / 100;
  vi.advanceTimersByTime(ms);
}

beforeEach(() => {
  busy = 0;
  idle = 0;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.spyOn(os, 'cpus').mockImplementation(() => [{ model: 'test', speed: 1, times: { user: busy, nice: 0, sys: 0, idle, irq: 0 } }]);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('the system sampler', () => {
  it('arms nothing while nobody looks; a look gives the CPU since the last sample, a look sooner than intervalMs the same figures', async () => {
    const sampler = new SystemSampler({ intervalMs: 3000 });
    expect(vi.getTimerCount()).toBe(0);
    // The dashboard looks every 5 s.
    run(5000, 10);
    expect((await sampler.read()).cpuPercent).toBe(10);
    run(5000, 40);
    expect((await sampler.read()).cpuPercent).toBe(40);
    run(1000, 90);
    // 1 s later: the same figures (no window shorter than intervalMs).
    expect((await sampler.read()).cpuPercent).toBe(40);
    run(4000, 90);
    expect((await sampler.read()).cpuPercent).toBe(90);
    // Nobody looks for a minute: nothing runs.
    run(60_000, 20);
    expect(vi.getTimerCount()).toBe(0);
    sampler.stop();
  });

  it('the first look after more than staleMs measures freshMs of its own (looks meanwhile share it), not the average of the spell', async () => {
    const sampler = new SystemSampler({ intervalMs: 3000, staleMs: 15_000, freshMs: 500 });
    // An hour nearly idle, then busy now.
    run(3600_000, 1);
    const look = sampler.read();
    const another = sampler.read();
    expect(vi.getTimerCount()).toBe(1);
    let answered = false;
    void look.then(() => (answered = true));
    run(499, 80);
    await Promise.resolve();
    expect(answered).toBe(false);
    run(1, 80);
    expect((await look).cpuPercent).toBe(80);
    expect(await another).toEqual(await look);
    expect(vi.getTimerCount()).toBe(0);
    sampler.stop();
  });

  it('stop() answers a look that waits, at once', async () => {
    const sampler = new SystemSampler({ staleMs: 15_000, freshMs: 500 });
    run(60_000, 5);
    const look = sampler.read();
    run(200, 50);
    sampler.stop();
    expect((await look).cpuPercent).toBe(50);
    expect(vi.getTimerCount()).toBe(0);
  });
});
