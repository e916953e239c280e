import { describe, expect, it } from 'vitest';
import { EDGE_DEFAULTS, liveEdge } from '../src/components/player/liveEdge';
import { backoffDelay, backoffSequence, BACKOFF_MAX_MS } from '../src/components/player/backoff';
import { localStamp, snapshotName } from '../src/components/player/snapshot';

describe('live-edge chase', () => {
  it('does nothing without buffered media', () => {
    expect(liveEdge({ ranges: [], currentTime: 0, playbackRate: 1 })).toEqual({});
  });

  it('stays put near the edge at normal speed', () => {
    expect(liveEdge({ ranges: [[0, 10]], currentTime: 9.6, playbackRate: 1 })).toEqual({});
  });

  it('jumps to end − 0.3 s when more than 1.5 s behind', () => {
    expect(liveEdge({ ranges: [[0, 10]], currentTime: 8, playbackRate: 1 })).toEqual({ seek: 9.7 });
  });

  it('plays slightly faster when a little behind, and back to 1 once caught up', () => {
    expect(liveEdge({ ranges: [[0, 10]], currentTime: 9, playbackRate: 1 })).toEqual({ rate: EDGE_DEFAULTS.fastRate });
    expect(liveEdge({ ranges: [[0, 10]], currentTime: 9.8, playbackRate: 1.1 })).toEqual({ rate: 1 });
    // A jump lands close enough that the rate goes back to normal.
    expect(liveEdge({ ranges: [[0, 10]], currentTime: 5, playbackRate: 1.1 })).toEqual({ seek: 9.7, rate: 1 });
  });

  it('keeps catching up until the lag is back near the target, not just under the threshold', () => {
    // 0.7 s behind while already at the catch-up rate: still too far, keep going (no flapping).
    expect(liveEdge({ ranges: [[0, 10]], currentTime: 9.3, playbackRate: EDGE_DEFAULTS.fastRate })).toEqual({});
    // The same lag at normal speed is inside the band: no change either.
    expect(liveEdge({ ranges: [[0, 10]], currentTime: 9.3, playbackRate: 1 })).toEqual({});
    // Below the low mark (0.4 s): normal speed.
    expect(liveEdge({ ranges: [[0, 10]], currentTime: 9.65, playbackRate: EDGE_DEFAULTS.fastRate })).toEqual({ rate: 1 });
  });

  /**
   * A camera whose frames arrive `pace` times as fast as their timestamps say, a fragment per frame,
   * the rule run after each append as the player does: lag, rate changes and jumps over `hours`.
   */
  function chase(pace: number, hours: number) {
    const frame = 0.04;
    let end = 0.3;
    let t = 0;
    let rate = 1;
    let rateChanges = 0;
    let seeks = 0;
    let maxLag = 0;
    let stalls = 0;
    for (let wall = 0; wall < hours * 3600; wall += frame / pace) {
      end += frame;
      const act = liveEdge({ ranges: [[Math.max(0, end - 40), end]], currentTime: t, playbackRate: rate });
      if (act.seek !== undefined) {
        t = act.seek;
        seeks++;
      }
      if (act.rate !== undefined) {
        rate = act.rate;
        rateChanges++;
      }
      const next = t + (frame / pace) * rate;
      if (next >= end) stalls++;
      t = Math.min(end, next);
      maxLag = Math.max(maxLag, end - t);
    }
    return { lag: end - t, maxLag, rateChanges, seeks, stalls };
  }

  it('an hour of a camera 0.5 % fast: no drift, no jump, and the rate changes rarely', () => {
    const r = chase(1.005, 1);
    expect(r.seeks).toBe(0);
    expect(r.maxLag).toBeLessThanOrEqual(EDGE_DEFAULTS.rateLag + 0.05);
    // 18 s of surplus an hour, caught up at +10 %: a few dozen catch-ups, not one change per frame.
    expect(r.rateChanges).toBeLessThan(200);
  });

  it('an hour of a camera 0.5 % slow: the playhead never reaches the buffered end', () => {
    const r = chase(0.995, 1);
    expect(r.stalls).toBe(0);
    expect(r.seeks).toBe(0);
  });

  it('starts at the first fragment when the playhead is before the buffer (decode times do not start at 0)', () => {
    expect(liveEdge({ ranges: [[1000, 1001]], currentTime: 0, playbackRate: 1 })).toEqual({ seek: 1000.7 });
    expect(liveEdge({ ranges: [[1000, 1000.4]], currentTime: 0, playbackRate: 1 }).seek).toBeCloseTo(1000.1);
    // Inside a short newest range but behind it: step to its start.
    expect(liveEdge({ ranges: [[0, 2], [2.5, 3]], currentTime: 2.2, playbackRate: 1 })).toEqual({ seek: 2.5 });
  });

  it('steps over a gap to the newest range when stalled before it', () => {
    expect(liveEdge({ ranges: [[0, 5], [5.5, 6.2]], currentTime: 5.1, playbackRate: 1 })).toEqual({ seek: 5.5 });
  });

  it('steps over a hole from where the browser stalls: at the end of the range before it, or within a frame of it', () => {
    // Chrome's playhead stops at the last frame of a range (5.0 or a little before), never in the hole.
    expect(liveEdge({ ranges: [[0, 5], [5.5, 6.2]], currentTime: 5, playbackRate: 1 })).toEqual({ seek: 5.5 });
    expect(liveEdge({ ranges: [[0, 5], [5.5, 6.2]], currentTime: 4.97, playbackRate: 1 })).toEqual({ seek: 5.5 });
    // Still playing through the older range: no jump yet.
    expect(liveEdge({ ranges: [[0, 5], [5.5, 6.2]], currentTime: 4.8, playbackRate: 1 }).seek).toBeUndefined();
    // The newest range's own end is the live edge, not a hole.
    expect(liveEdge({ ranges: [[0, 5]], currentTime: 4.99, playbackRate: 1 }).seek).toBeUndefined();
  });

  it('never jumps before the start of the newest range', () => {
    expect(liveEdge({ ranges: [[0, 4], [9.9, 10]], currentTime: 2, playbackRate: 1 })).toEqual({ seek: 9.9 });
  });

  it('trims what lies more than 30 s behind once 40 s piled up, so memory stays flat', () => {
    expect(liveEdge({ ranges: [[0, 39.8]], currentTime: 39.6, playbackRate: 1 }).trim).toBeUndefined();
    const a = liveEdge({ ranges: [[0, 41]], currentTime: 40.8, playbackRate: 1 });
    expect(a.seek).toBeUndefined();
    expect(a.trim?.start).toBe(0);
    expect(a.trim?.end).toBeCloseTo(10.8);
    // After a jump the trim counts from where the playhead lands.
    const b = liveEdge({ ranges: [[100, 150]], currentTime: 140, playbackRate: 1 });
    expect(b.seek).toBeCloseTo(149.7);
    expect(b.trim?.start).toBe(100);
    expect(b.trim?.end).toBeCloseTo(119.7);
  });

  it('hours of playback: the buffer the rule keeps stays bounded', () => {
    let start = 0;
    let t = 0;
    let maxKept = 0;
    for (let end = 0.5; end < 4 * 3600; end += 0.5) {
      const act = liveEdge({ ranges: [[start, end]], currentTime: t, playbackRate: 1 });
      if (act.seek !== undefined) t = act.seek;
      if (act.trim) start = act.trim.end;
      maxKept = Math.max(maxKept, end - start);
      t = Math.min(end, t + 0.5);
    }
    expect(maxKept).toBeLessThanOrEqual(EDGE_DEFAULTS.keep + EDGE_DEFAULTS.trimSlack + 1);
  });
});

describe('reconnect back-off', () => {
  it('doubles from 1 s and stays at 30 s', () => {
    expect(backoffSequence(8)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
  it('is bounded for any attempt number', () => {
    expect(backoffDelay(1e6)).toBe(BACKOFF_MAX_MS);
    expect(backoffDelay(-1)).toBe(1000);
    expect(backoffDelay(Number.NaN)).toBe(1000);
  });
});

describe('snapshot names', () => {
  it('use the channel and the local time YYYYMMDDHHmmss', () => {
    const d = new Date(2024, 0, 5, 7, 8, 9);
    expect(localStamp(d)).toBe('20240105070809');
    // named as the recording's download is (the channel's name with its spaces; session 26 walk: Gate_1_ beside Gate 1_)
    expect(snapshotName('Gate 1', d)).toBe('Gate 1_20240105070809.png');
    expect(snapshotName('a/b:c', d)).toBe('a_b_c_20240105070809.png');
    expect(snapshotName('', d)).toBe('channel_20240105070809.png');
  });
});
