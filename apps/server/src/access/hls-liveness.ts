/**
 * Whether a live HLS playlist is moving, decided from what was seen of it before instead of by
 * waiting. RFC 8216 6.2.1 has a live server publish a segment within 1.5 target durations; a source
 * that stopped leaves its last playlist served unchanged, so one read alone cannot tell. Waiting for
 * the next segment held a checker slot up to 1.5 target durations per channel, and a pull start
 * played a stopped source's last segments as live. So every read of an address is remembered (for
 * the process, bounded): its newest segment, the last look that listed it, and bounds on when it was
 * published:
 * - `publishedBy` (it was there then): the first look that listed it, or, when it is n segments past
 *   the one listed before, that look plus the n segments' durations (a source publishes in real time),
 *   whichever is earlier. Now minus that is how long it has been stale at least: 1.5 target durations
 *   and it is stale, for sure (10% of the time between the two looks is allowed for EXTINF rounding);
 * - `after` (it was not there yet): the last look that listed the one before. A newest segment newer
 *   than 1.5 target durations by it is live, for sure.
 * Between the two, a newest segment other than the last look's is taken as live (it moved since, and
 * its durations account for the time); where nothing is known (a first look, the same segment seen
 * only lately), EXT-X-PROGRAM-DATE-TIME within 1.5 target durations of now says live (a clock far off
 * says nothing), else the caller looks again before `decideAt`, when the answer is sure.
 */
import type { HlsPlaylist } from './hls-playlist.js';

export type MediaPlaylist = Extract<HlsPlaylist, { kind: 'media' }>;

export type HlsLiveness =
  | { kind: 'live' }
  /** No new segment for at least `seconds` (1.5 target durations or more). */
  | { kind: 'stale'; seconds: number }
  /** Not known yet: read the playlist again (every half target duration, RFC 8216 6.3.4) until `decideAt` (ms, Date.now()'s clock). */
  | { kind: 'unknown'; decideAt: number; reloadMs: number };

interface Seen {
  newest: string;
  sequence: number;
  publishedBy: number;
  after: number;
  lookedAt: number;
}

/** RFC 8216 requires EXT-X-TARGETDURATION; a playlist without it is judged as if it said this. */
export const DEFAULT_TARGET_DURATION_S = 10;
/** Room for EXTINF values rounded down (whole seconds before HLS version 3): a tenth of the time between two looks. */
const ROUNDING = 0.1;
const MEMORY = 10_000;
const seen = new Map<string, Seen>();

/** What `address`'s live playlist, read now as `list` (a media playlist with segments, not ended), says. */
export function lookAtPlaylist(address: string, list: MediaPlaylist, now = Date.now()): HlsLiveness {
  const targetMs = (list.targetDuration ?? DEFAULT_TARGET_DURATION_S) * 1000;
  const limit = 1.5 * targetMs;
  const before = seen.get(address);
  let next: Seen;
  let moved = false;
  if (before && before.newest === list.newest) {
    next = { ...before, lookedAt: now };
  } else if (before && list.sequence > before.sequence) {
    const newMs = newDurationMs(list, list.sequence - before.sequence, targetMs);
    next = { newest: list.newest, sequence: list.sequence, publishedBy: Math.min(now, before.lookedAt + newMs), after: before.lookedAt, lookedAt: now };
    // The shortfall is the source's silence since; the rounding allowance grows with the time between looks.
    const allowance = ROUNDING * (now - before.lookedAt);
    if (now - next.publishedBy >= limit + allowance) {
      remember(address, next);
      return stale(now - next.publishedBy);
    }
    moved = true;
  } else {
    // A first look, or a numbering that went back (the source restarted): published by now, after nothing known.
    next = { newest: list.newest, sequence: list.sequence, publishedBy: now, after: before ? before.lookedAt : -Infinity, lookedAt: now };
    moved = before !== undefined;
  }
  remember(address, next);
  if (moved || now - next.after < limit) return { kind: 'live' };
  if (now - next.publishedBy >= limit) return stale(now - next.publishedBy);
  if (list.newestEndsAt !== undefined && Math.abs(now - list.newestEndsAt) < limit) return { kind: 'live' };
  return { kind: 'unknown', decideAt: next.publishedBy + limit, reloadMs: targetMs / 2 };
}

/** A playlist that ended or is gone: nothing to compare the next one with. */
export function forgetPlaylist(address: string) {
  seen.delete(address);
}

const stale = (ms: number): HlsLiveness => ({ kind: 'stale', seconds: Math.floor(ms / 100) / 10 });

/** The `count` newest segments' durations: those listed, and for any that slid out of the window the listed ones' mean (else the target). */
function newDurationMs(list: MediaPlaylist, count: number, targetMs: number): number {
  const listed = list.durations.slice(-count);
  const sum = listed.reduce((a, b) => a + b, 0) * 1000;
  const all = list.durations.reduce((a, b) => a + b, 0) * 1000;
  const mean = list.durations.length && all > 0 ? all / list.durations.length : targetMs;
  return sum + (count - listed.length) * mean;
}

function remember(address: string, s: Seen) {
  seen.delete(address);
  if (seen.size >= MEMORY) seen.delete(seen.keys().next().value!);
  seen.set(address, s);
}
