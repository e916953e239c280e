/**
 * StreamHub.retryNow: a hub waiting out its back-off after a failure connects within
 * SOURCE_BACK_DELAY_MS (its source answers again, the stream checker says; not at the instant the
 * probe let go of it); in any other state it changes nothing, and a connection that fails again goes
 * on with the back-off where it was.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SOURCE_BACK_DELAY_MS, StreamHub, type HubOptions } from '../../src/media/hub.js';
import { fakeSources } from './fake-source.js';

const opts: HubOptions = { onDemand: false, graceMs: 1000, retryMinMs: 10_000, retryMaxMs: 40_000, maxGopUnits: 100 };

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('StreamHub.retryNow', () => {
  it('retrying: connects within SOURCE_BACK_DELAY_MS with a new source; failing again waits the next back-off step', () => {
    const { sources, open } = fakeSources();
    const hub = new StreamHub('k', open, opts);
    expect(sources).toHaveLength(1);
    sources[0]!.sink!.failed('connection refused');
    expect(hub.state).toBe('retrying');
    // When it connects next, for the stream checker to keep its probes away (retryAt).
    expect(hub.retryAt).toBe(Date.now() + 10_000);
    hub.retryNow();
    expect(hub.retryAt).toBe(Date.now() + SOURCE_BACK_DELAY_MS);
    // Not at the instant the probe let go of the source (a one-client camera is still freeing it).
    vi.advanceTimersByTime(SOURCE_BACK_DELAY_MS - 1);
    expect(hub.state).toBe('retrying');
    expect(sources).toHaveLength(1);
    // A second word that the source is back moves nothing.
    hub.retryNow();
    vi.advanceTimersByTime(1);
    expect(hub.state).toBe('connecting');
    expect(hub.retryAt).toBeUndefined();
    expect(sources).toHaveLength(2);
    // The timer of the back-off it cut short does not connect a third time.
    vi.advanceTimersByTime(10_000);
    expect(sources).toHaveLength(2);
    sources[1]!.sink!.failed('connection refused');
    vi.advanceTimersByTime(19_999);
    expect(sources).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sources).toHaveLength(3);
    hub.stop();
  });

  it('connecting, stopped: nothing happens', () => {
    const { sources, open } = fakeSources();
    const hub = new StreamHub('k', open, opts);
    hub.retryNow();
    expect(sources).toHaveLength(1);
    expect(hub.state).toBe('connecting');
    hub.stop();
    hub.retryNow();
    expect(sources).toHaveLength(1);
    expect(hub.state).toBe('stopped');
  });
});
