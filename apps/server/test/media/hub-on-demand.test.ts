/**
 * A hub follows an edit of its channel's OnDemand (StreamHub.setOnDemand): always-on runs with nobody
 * watching; on-demand again stops one grace period after the last viewer (now, when nobody watches).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StreamHub, type Subscriber } from '../../src/media/hub.js';
import { FakeSource, fakeSources, hubOptions as opts } from './fake-source.js';

const viewer = (): Subscriber => ({ tracks: () => undefined, unit: () => undefined });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('StreamHub.setOnDemand', () => {
  it('always-on → on-demand with nobody watching: stops one grace period later', () => {
    const src = new FakeSource();
    const hub = new StreamHub('k', () => src, opts({ onDemand: false }));
    expect(hub.state).toBe('connecting');
    vi.advanceTimersByTime(60_000);
    expect(hub.state).not.toBe('stopped');
    hub.setOnDemand(true);
    expect(hub.onDemand).toBe(true);
    vi.advanceTimersByTime(900);
    expect(src.stopped).toBe(false);
    vi.advanceTimersByTime(200);
    expect(src.stopped).toBe(true);
    expect(hub.state).toBe('stopped');
  });

  it('always-on → on-demand while watched: stops a grace period after the last viewer leaves, not before', () => {
    const src = new FakeSource();
    const hub = new StreamHub('k', () => src, opts({ onDemand: false }));
    const off = hub.subscribe(viewer());
    hub.setOnDemand(true);
    vi.advanceTimersByTime(60_000);
    expect(src.stopped).toBe(false);
    off();
    vi.advanceTimersByTime(1100);
    expect(src.stopped).toBe(true);
  });

  it('on-demand → always-on: the grace period running is cancelled, and a viewer leaving no longer stops it', () => {
    const src = new FakeSource();
    const hub = new StreamHub('k', () => src, opts());
    const off = hub.subscribe(viewer());
    off();
    hub.setOnDemand(false);
    vi.advanceTimersByTime(60_000);
    expect(src.stopped).toBe(false);
    hub.subscribe(viewer())();
    vi.advanceTimersByTime(60_000);
    expect(src.stopped).toBe(false);
    expect(hub.state).toBe('connecting');
  });

  it('on-demand → always-on starts an idle hub; a stopped hub stays stopped', () => {
    const { sources, open } = fakeSources();
    const hub = new StreamHub('k', open, opts());
    expect(sources).toHaveLength(0);
    hub.setOnDemand(false);
    expect(sources).toHaveLength(1);
    hub.stop();
    hub.setOnDemand(true);
    hub.setOnDemand(false);
    expect(sources).toHaveLength(1);
    expect(hub.state).toBe('stopped');
  });
});
