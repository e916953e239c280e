/**
 * Keeping a live MSE player near the live edge with a flat buffer, as a pure decision: given the
 * buffered ranges and the playhead, say whether to jump, change the playback rate, or trim.
 */

export interface EdgeOptions {
  /** Lag (buffered end − currentTime, s) above which the player jumps. */
  maxLag: number;
  /** Where a jump lands: this many seconds before the buffered end. */
  target: number;
  /** Lag above which the player plays slightly faster to catch up without a jump. */
  rateLag: number;
  /**
   * Lag at or below which the catch-up rate goes back to 1. Below `rateLag` so the two marks make a
   * band: with one threshold a camera whose clock runs a little fast (every real one is off by some
   * 0.1 %) sat on it and the rate flipped at nearly every fragment (8800 changes an hour at +0.5 %,
   * bench/live/drift.ts); with the band it catches up in a few seconds now and then.
   */
  rateLow: number;
  /**
   * Lag under which the player plays at `slowRate` until it is back at `slowUntil`: a camera whose
   * clock runs slow delivers less than a second of media a second, and at 1× the playhead would
   * reach the buffered end and stall, again and again.
   */
  slowLag: number;
  slowUntil: number;
  slowRate: number;
  /** The catch-up rate. */
  fastRate: number;
  /** Seconds of media kept behind the playhead. */
  keep: number;
  /** Trim only once this much more than `keep` has piled up, so removes stay rare. */
  trimSlack: number;
}

export const EDGE_DEFAULTS: EdgeOptions = { maxLag: 1.5, target: 0.3, rateLag: 0.8, rateLow: 0.4, slowLag: 0.15, slowUntil: 0.25, slowRate: 0.97, fastRate: 1.1, keep: 30, trimSlack: 10 };

/** Seconds before a range's end within which a stalled playhead counts as at its end (about a frame). */
const HOLE_EDGE = 0.05;

export interface EdgeInput {
  /** TimeRanges as [start, end] pairs, in order. */
  ranges: ReadonlyArray<readonly [number, number]>;
  currentTime: number;
  playbackRate: number;
}

export interface EdgeActions {
  seek?: number;
  rate?: number;
  /** SourceBuffer.remove(start, end). */
  trim?: { start: number; end: number };
}

export function rangesOf(tr: TimeRanges): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < tr.length; i++) out.push([tr.start(i), tr.end(i)]);
  return out;
}

export function liveEdge(input: EdgeInput, o: EdgeOptions = EDGE_DEFAULTS): EdgeActions {
  const { ranges, currentTime, playbackRate } = input;
  if (!ranges.length) return {};
  const out: EdgeActions = {};
  const first = ranges[0]!;
  const last = ranges[ranges.length - 1]!;
  const end = last[1];
  const lag = end - currentTime;
  // A playhead within HOLE_EDGE of a range's end waits there (the browser stops at the last frame,
  // not past it): with a newer range after it, that is a hole (a lost fragment, a refused append),
  // not a place to play on from.
  const inside = ranges.some(([s, e]) => currentTime >= s && currentTime < e - HOLE_EDGE);

  let playhead = currentTime;
  if (lag > o.maxLag) {
    playhead = Math.max(last[0], end - o.target);
    out.seek = playhead;
  } else if (!inside && currentTime < last[0]) {
    // Stalled in a gap before the newest range (a lost fragment): step over it.
    playhead = last[0];
    out.seek = playhead;
  }

  const lagAfter = end - playhead;
  const catchingUp = playbackRate > 1 && out.seek === undefined;
  const easing = playbackRate < 1 && out.seek === undefined;
  let wanted = 1;
  if (lagAfter > o.rateLag || (catchingUp && lagAfter > o.rateLow)) wanted = o.fastRate;
  else if (out.seek === undefined && (lagAfter < o.slowLag || (easing && lagAfter < o.slowUntil))) wanted = o.slowRate;
  if (wanted !== playbackRate) out.rate = wanted;

  if (playhead - first[0] > o.keep + o.trimSlack) {
    const trimEnd = playhead - o.keep;
    if (trimEnd > first[0]) out.trim = { start: first[0], end: trimEnd };
  }
  return out;
}
