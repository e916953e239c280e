/** The checker's schedule with plain-object dependencies: spread over the interval, bounded, changes first; a live stream is not probed. */
import { describe, expect, it } from 'vitest';
import { StreamChecker, type CheckTarget, type StreamCheckerDeps } from '../../src/services/inventory/stream-checker.js';
import type { ProbeResult } from '../../src/access/rtsp/probe.js';
import type { Reason } from '@opencvr/shared';
import { until } from '../helpers/index.js';

function fakes(n: number, probeMs: number) {
  let targets: CheckTarget[] = Array.from({ length: n }, (_, i) => ({
    pk: i + 1,
    deviceId: `d${i + 1}`,
    channelId: '1',
    url: `rtsp://127.0.0.1/${i + 1}`,
    username: '',
    password: '',
  }));
  const starts: { pk: number; at: number; url: string }[] = [];
  const results: [number, boolean, Reason | undefined][] = [];
  let active = 0;
  let maxActive = 0;
  let listener: (() => void) | undefined;
  const deps: StreamCheckerDeps = {
    listTargets: async () => targets,
    setOnline: async (pk, ok, why) => {
      results.push([pk, ok, why]);
      return false;
    },
    subscribe: (fn) => {
      listener = fn;
      return () => (listener = undefined);
    },
    probe: async (url, opts): Promise<ProbeResult> => {
      starts.push({ pk: Number(url.split('/').pop()), at: Date.now(), url });
      active++;
      maxActive = Math.max(maxActive, active);
      await new Promise<void>((r) => {
        const timer = setTimeout(r, probeMs);
        opts.signal?.addEventListener('abort', () => (clearTimeout(timer), r()));
      });
      active--;
      return { ok: false, status: 0, reason: 'connection refused', why: { key: 'connectionRefused' }, codecs: [], latencyMs: probeMs };
    },
    log: { info: () => {}, warn: () => {} },
  };
  return {
    deps,
    starts,
    results,
    maxActive: () => maxActive,
    setTargets: (t: CheckTarget[]) => (targets = t),
    targets: () => targets,
    change: () => listener?.(),
  };
}

describe('stream checker schedule', () => {
  it('spreads a round over the interval and keeps to the concurrency bound', async () => {
    const f = fakes(20, 30);
    const c = new StreamChecker(f.deps, { intervalSeconds: 1, concurrency: 3 });
    const t0 = Date.now();
    c.start();
    await new Promise((r) => setTimeout(r, 1150));
    await c.stop();
    const firstRound = f.starts.filter((s) => s.at - t0 < 1000);
    expect(firstRound.length).toBe(20);
    const span = firstRound[firstRound.length - 1].at - firstRound[0].at;
    // 20 probes, one every 50 ms: the last starts about 950 ms after the first, not all at once.
    expect(span).toBeGreaterThan(800);
    expect(f.maxActive()).toBeLessThanOrEqual(3);
    // The second round began after the interval.
    expect(f.starts.filter((s) => s.at - t0 >= 1000).length).toBeGreaterThan(0);
    expect(f.results.every(([, ok, why]) => !ok && why?.key === 'connectionRefused')).toBe(true);
  });

  it('probes an added or edited channel at once, ahead of the round', async () => {
    const f = fakes(50, 10);
    const c = new StreamChecker(f.deps, { intervalSeconds: 10, concurrency: 2 });
    c.start();
    await new Promise((r) => setTimeout(r, 100));
    const edited = { ...f.targets()[40], url: 'rtsp://127.0.0.1/41?edited' };
    const added = { pk: 99, deviceId: 'd99', channelId: '1', url: 'rtsp://127.0.0.1/99', username: '', password: '' };
    f.setTargets([...f.targets().map((t) => (t.pk === 41 ? edited : t)), added]);
    const at = Date.now();
    f.change();
    await new Promise((r) => setTimeout(r, 200));
    await c.stop();
    const quick = f.starts.filter((s) => s.at >= at && s.at - at < 150).map((s) => s.url);
    expect(quick).toContain('rtsp://127.0.0.1/41?edited');
    expect(quick).toContain('rtsp://127.0.0.1/99');
    // The round itself is spread over 10 s: far from all 50 have started.
    expect(f.starts.length).toBeLessThan(10);
  });

  it('stop() aborts probes in flight and leaves nothing running', async () => {
    const f = fakes(3, 60000);
    const c = new StreamChecker(f.deps, { intervalSeconds: 30, concurrency: 8 });
    c.start();
    await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    await c.stop();
    expect(Date.now() - t0).toBeLessThan(500);
    const n = f.starts.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(f.starts.length).toBe(n);
    expect(f.results).toEqual([]);
  });

  it('interval 0 turns it off', () => {
    const f = fakes(1, 10);
    const c = new StreamChecker(f.deps, { intervalSeconds: 0 });
    c.start();
    expect(c.enabled).toBe(false);
    expect(f.starts).toEqual([]);
  });

  it('a channel whose stream is live is online without a probe, one being opened is left alone; the others are probed', async () => {
    const f = fakes(4, 5);
    const streams = new Map<number, 'live' | 'connecting'>([
      [2, 'live'],
      [4, 'connecting'],
    ]);
    const c = new StreamChecker({ ...f.deps, streamState: (pk) => streams.get(pk) }, { intervalSeconds: 1, concurrency: 3 });
    c.start();
    await until(() => [1, 2, 3].every((pk) => f.results.some(([p]) => p === pk)), 5000, { what: 'a round' });
    expect(new Set(f.starts.map((x) => x.pk))).toEqual(new Set([1, 3]));
    expect(f.results.find(([pk]) => pk === 2)).toEqual([2, true, undefined]);
    expect(f.results.some(([pk]) => pk === 4)).toBe(false);
    // Their streams stopped: the next round probes them.
    streams.clear();
    await until(() => f.starts.some((x) => x.pk === 2) && f.starts.some((x) => x.pk === 4), 5000, { what: 'channels 2 and 4 probed' });
    await c.stop();
  });

  it('a channel whose hub retries within the probe’s time waits for that attempt, then is probed, not a round later', async () => {
    const f = fakes(1, 5);
    const asked: number[] = [];
    // The hub retries 600 ms from now (a retryNow): until then within any probe's time (here 300 + 1000 ms).
    const t0 = Date.now();
    const retryAt = t0 + 600;
    const streamState = (_pk: number, withinMs: number) => {
      asked.push(withinMs);
      return Date.now() < retryAt + 400 && retryAt <= Date.now() + withinMs ? ('connecting' as const) : undefined;
    };
    const c = new StreamChecker({ ...f.deps, streamState }, { intervalSeconds: 30, timeoutMs: 300 });
    c.start();
    await until(() => f.starts.length > 0, 5000, { what: 'the channel probed after the hub’s attempt' });
    // Not before the attempt had run, and well within the 30 s round.
    expect(f.starts[0]!.at - t0).toBeGreaterThanOrEqual(1000);
    expect(f.starts[0]!.at - t0).toBeLessThan(3000);
    expect(asked[0]).toBe(1300);
    await c.stop();
  });
});
