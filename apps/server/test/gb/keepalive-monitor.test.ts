/**
 * The keepalive monitor's timer (fake timers, no SIP): with no device registered it arms none, so a
 * server without GB devices is not woken every second (issue 4); a registration starts the sweeps, a
 * lost keepalive and an expired registration are still seen within a sweep, and once the last device
 * is gone the monitor sleeps again.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeepaliveMonitor } from '../../src/gb/keepalive.js';
import { DeviceRegistry, type DeviceSession } from '../../src/gb/registry.js';

afterEach(() => {
  vi.useRealTimers();
});

function session(deviceId: string, now: number, expiresInMs: number): DeviceSession {
  return {
    deviceId,
    peer: { transport: 'UDP', address: '127.0.0.1', port: 5060 },
    contact: `sip:${deviceId}@127.0.0.1:5060`,
    registeredAt: now,
    expiresAt: now + expiresInMs,
    keepaliveAt: now,
    online: true,
    cseq: 0,
  };
}

describe('KeepaliveMonitor', () => {
  it('arms no timer while no device is registered; sweeps once one is, and sleeps again after the last one goes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const registry = new DeviceRegistry();
    let rulesRead = 0;
    const lost: [string, number][] = [];
    const expired: string[] = [];
    const monitor = new KeepaliveMonitor({
      registry,
      // 5 s x 2: offline 10 s after the last keepalive; a sweep every 500 ms (a tenth of the timeout).
      rules: async () => (rulesRead++, { timeoutSeconds: 5, count: 2 }),
      onExpired: (id) => {
        expired.push(id);
        registry.delete(id);
      },
      onKeepaliveLost: (id, silent) => {
        lost.push([id, silent]);
        registry.get(id)!.online = false;
      },
      log: { warn: () => undefined },
    });
    monitor.start();
    await vi.advanceTimersByTimeAsync(0); // the sweep at start
    expect(rulesRead).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(rulesRead).toBe(1);

    // A device registers (expires in 30 s): sweeps every 500 ms from now on.
    registry.set(session('34020000001320000001', Date.now(), 30_000));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(rulesRead).toBe(11);
    // No keepalive: lost past 10 s of silence, seen by the first sweep after it (10.5 s).
    await vi.advanceTimersByTimeAsync(5_499);
    expect(lost).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(lost).toEqual([['34020000001320000001', 11]]);
    // The registration runs out at 30 s: unregistered by the sweep at 30 s, then no timer.
    await vi.advanceTimersByTimeAsync(19_500);
    expect(expired).toEqual(['34020000001320000001']);
    expect(registry.size).toBe(0);
    const sweeps = rulesRead;
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(rulesRead).toBe(sweeps);

    // Another device registers: the sweeps start again.
    registry.set(session('34020000001320000002', Date.now(), 3_600_000));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(rulesRead).toBe(sweeps + 2);
    await monitor.stop();
    expect(vi.getTimerCount()).toBe(0);
    // Stopped: a registration arms nothing.
    registry.set(session('34020000001320000003', Date.now(), 3_600_000));
    expect(vi.getTimerCount()).toBe(0);
  });
});
