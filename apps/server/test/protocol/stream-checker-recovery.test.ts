/**
 * A camera server that answers again is seen within seconds, not a round later, and without
 * hammering it: the checker on a fake clock with a fake camera server (probes take 100 ms of it).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StreamChecker, type CheckTarget, type StreamCheckerDeps } from '../../src/services/inventory/stream-checker.js';
import { endpointOf } from '../../src/services/inventory/stream-recovery.js';
import type { ProbeResult } from '../../src/access/rtsp/probe.js';

const target = (pk: number, host: string, path = `ch${pk}`): CheckTarget => ({
  pk,
  deviceId: `d${pk}`,
  channelId: '1',
  url: `rtsp://${host}/${path}`,
  username: '',
  password: '',
});

/** Fake servers by host: up or down (refusing); a server up answers 404 to a URL containing "broken". */
function site(targets: CheckTarget[], probeMs: number) {
  const up = new Map<string, boolean>();
  const online = new Map<number, boolean>();
  const starts: { url: string; at: number }[] = [];
  const active = new Map<string, number>();
  const maxActive = new Map<string, number>();
  const deps: StreamCheckerDeps = {
    listTargets: async () => targets,
    setOnline: async (pk, ok) => {
      const changed = online.get(pk) !== ok;
      online.set(pk, ok);
      return changed;
    },
    subscribe: () => () => {},
    probe: async (url, opts): Promise<ProbeResult> => {
      const host = new URL(url).host;
      starts.push({ url, at: Date.now() });
      active.set(host, (active.get(host) ?? 0) + 1);
      maxActive.set(host, Math.max(maxActive.get(host) ?? 0, active.get(host)!));
      if (probeMs) {
        await new Promise<void>((r) => {
          const timer = setTimeout(r, probeMs);
          opts.signal?.addEventListener('abort', () => (clearTimeout(timer), r()));
        });
      }
      active.set(host, active.get(host)! - 1);
      if (!(up.get(host) ?? true)) return { ok: false, status: 0, reason: 'connection refused', codecs: [], latencyMs: probeMs };
      if (url.includes('broken')) return { ok: false, status: 404, reason: '404 Not Found', codecs: [], latencyMs: probeMs };
      return { ok: true, status: 200, reason: 'OK', codecs: ['H264'], latencyMs: probeMs };
    },
    log: { info: () => {}, warn: () => {} },
  };
  const onlineOf = (host: string) => targets.filter((t) => t.url.includes(`//${host}/`) && online.get(t.pk)).length;
  return { deps, up, online, starts, maxActive, onlineOf };
}

/** Steps the fake clock until `done` holds; returns the fake milliseconds it took (or throws past `limitMs`). */
async function until(done: () => boolean, limitMs: number, stepMs = 100) {
  const t0 = Date.now();
  while (!done()) {
    if (Date.now() - t0 > limitMs) throw new Error(`not within ${limitMs} ms of the fake clock`);
    await vi.advanceTimersByTimeAsync(stepMs);
  }
  return Date.now() - t0;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('stream checker recovery', () => {
  it('brings a returned camera server back within seconds, not on each channel’s next round turn', async () => {
    const server = '10.0.0.5:554';
    const targets = Array.from({ length: 300 }, (_, i) => target(i + 1, server));
    // A second server that stays down: it is retried, not flooded, while the first returns.
    targets.push(...Array.from({ length: 50 }, (_, i) => target(1000 + i, '10.0.0.6:554')));
    const s = site(targets, 100);
    s.up.set('10.0.0.6:554', false);
    const c = new StreamChecker(s.deps, { intervalSeconds: 30, concurrency: 8 });
    c.start();
    await until(() => s.onlineOf(server) === 300, 31_000);

    s.up.set(server, false);
    await until(() => s.onlineOf(server) === 0, 31_000);
    // Down for a while: the back-off has reached its longest wait.
    const downFrom = s.starts.length;
    await vi.advanceTimersByTimeAsync(60_000);
    const whileDown = s.starts.slice(downFrom);
    // Two rounds of 350 channels, plus one retry per server at most every 5 s (not one per channel).
    expect(whileDown.length).toBeLessThanOrEqual(2 * 350 + 2 * (60 / 5 + 1));

    s.up.set(server, true);
    const backFrom = s.starts.length;
    const took = await until(() => s.onlineOf(server) === 300, 60_000);
    // Each channel once: the round (a new one began meanwhile) skips the channels the retry and
    // follow-ups have just probed (probing them again took the server's slots from the ones waiting).
    const toServer = s.starts.slice(backFrom).filter((x) => x.url.includes(`//${server}/`));
    expect(new Set(toServer.map((x) => x.url)).size).toBe(toServer.length);
    await c.stop();
    // The round alone reaches each channel up to 30 s later; the retry (5 s at most) and the
    // follow-ups (300 × 100 ms, 8 at once) bring them all back well before.
    expect(took).toBeLessThan(10_000);
    // Follow-ups are bounded per server: the round's lane and the follow lane, 8 each.
    expect(s.maxActive.get(server)).toBeLessThanOrEqual(16);
    expect(s.onlineOf('10.0.0.6:554')).toBe(0);
  });

  it('retries a down endpoint with back-off, one channel at a time; any answer, even a 404, brings the rest back', async () => {
    const host = '10.0.0.7:8554';
    const targets = [target(1, host, 'broken'), target(2, host), target(3, host)];
    const s = site(targets, 0);
    s.up.set(host, false);
    // A long interval: the round probes each channel once, 200 s apart; what comes sooner is a retry.
    const c = new StreamChecker(s.deps, { intervalSeconds: 600, concurrency: 8 });
    c.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.starts.map((x) => x.url)).toEqual([`rtsp://${host}/broken`]);
    await vi.advanceTimersByTimeAsync(60_000);
    const gaps = s.starts.slice(1).map((x, i) => (x.at - s.starts[i].at) / 1000);
    // 1, 2, 4 s, then every 5 s (min(5 s, interval)).
    expect(gaps).toEqual([1, 2, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5]);
    // Only channel 1 has failed so far (the round has not reached 2 and 3): it is the one retried.
    expect(new Set(s.starts.map((x) => x.url))).toEqual(new Set([`rtsp://${host}/broken`]));

    // The round reaches channel 2 (t = 200 s) and 3 (t = 400 s); the retries then take the one probed longest ago.
    await vi.advanceTimersByTimeAsync(400_000 - 60_000);
    const before = s.starts.length;
    s.up.set(host, true);
    // The next retry gets an answer (a 404 for the broken channel, or OK): the other two follow at once.
    await until(() => s.online.get(2) === true && s.online.get(3) === true, 10_000);
    expect(s.starts.length - before).toBe(3);
    expect(s.online.get(1)).toBe(false);
    // The broken channel on a working server waits for its round turn: no more retries.
    const settled = s.starts.length;
    await vi.advanceTimersByTimeAsync(100_000);
    expect(s.starts.length).toBe(settled);
    await c.stop();
  });

  it('names an endpoint by host and port, the scheme’s default port when none is written', () => {
    expect(endpointOf('rtsp://user:pw@Cam.local/x')).toBe('cam.local:554');
    expect(endpointOf('rtsps://10.0.0.1/x')).toBe('10.0.0.1:322');
    expect(endpointOf('rtsp://10.0.0.1:8554/a?n=1')).toBe('10.0.0.1:8554');
    // Pulled addresses: each scheme its own default, not RTSP's 554.
    expect(endpointOf('rtmp://10.0.0.1/live/a')).toBe('10.0.0.1:1935');
    expect(endpointOf('rtmps://10.0.0.1/live/a')).toBe('10.0.0.1:443');
    expect(endpointOf('http://10.0.0.1:80/live/a.flv')).toBe('10.0.0.1:80');
    expect(endpointOf('https://10.0.0.1/hls/a.m3u8')).toBe('10.0.0.1:443');
    expect(endpointOf('http://10.0.0.1:8080/live/a.flv')).toBe('10.0.0.1:8080');
  });
});
