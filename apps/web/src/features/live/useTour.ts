/**
 * The wall's tour clock (spec 9, loop channels). A page's interval counts from when every cell of
 * it shows a picture, not from when the page is put up: an H.265 channel played through the
 * server's H.264 transcoding takes seconds to its first picture (ffmpeg starts, waits for a
 * keyframe), longer than a 5 s interval, and the tour moved on before it ever showed; with more
 * pages than the transcoding outlives unwatched, it never showed at all. A cell that cannot show
 * a picture (a camera offline, reconnecting) holds the page at most TOUR_MAX_WAIT_MS. Pre-starting
 * the next page instead would have doubled the wall's streams; a longer minimum interval would have
 * slowed every tour for the sake of its slowest channel and still missed a slower one.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PlayerPhase } from '../../components/player/useLiveStream';
import { channelId, loopCells, type Layout, type WallChannel } from './wall';

/** Longest a page waits for its pictures before its interval counts anyway. */
export const TOUR_MAX_WAIT_MS = 20_000;

/** A cell has nothing more to wait for: it plays, or it said it cannot. */
const SETTLED: ReadonlySet<PlayerPhase> = new Set(['playing', 'unsupported', 'error']);

/**
 * The key of a tour cell's player: the wall keeps a player mounted while the same channel stays in
 * the same cell, so a player's phase belongs to this key, and a new key is a player starting over.
 */
export const tourCellKey = (index: number, c: WallChannel, flow: number) => `${index}:${channelId(c)}:${flow}`;

/** Every channel of the page has settled (empty cells have nothing to wait for). */
export function pageSettled(keys: readonly (string | null)[], phases: ReadonlyMap<string, PlayerPhase>): boolean {
  return keys.every((k) => k === null || SETTLED.has(phases.get(k) as PlayerPhase));
}

export interface Tour {
  /** Page number since the tour started (wraps round through the pages). */
  tick: number;
  cells: (WallChannel | null)[];
  /** The player key of each cell (null: empty). */
  keys: (string | null)[];
  /** The page's interval has not started: some cell has no picture yet. */
  waiting: boolean;
  /** A cell's player changed phase (LivePlayer's onStats). */
  report: (key: string, phase: PlayerPhase) => void;
}

/**
 * `startPage`: the page a tour already running when the wall mounts shows first (a reload puts a
 * running tour back on the page it showed); a tour started later starts from its first page.
 */
export function useTour(channels: WallChannel[], layout: Layout, flow: number, running: boolean, intervalS: number, startPage = 0): Tour {
  const [tick, setTick] = useState(() => (running ? startPage : 0));
  /** The tick whose interval is counting (its pictures came, or it waited long enough). */
  const [countingTick, setCountingTick] = useState<number | null>(null);
  const cells = loopCells(channels, layout, tick);
  const keys = cells.map((c, i) => (c ? tourCellKey(i, c, flow) : null));
  const phases = useRef(new Map<string, PlayerPhase>());
  const page = useRef({ tick, keys });
  useEffect(() => {
    page.current = { tick, keys };
  });

  const wasRunning = useRef(running);
  useEffect(() => {
    // A tour started again starts from its first page, and from no picture: its players start over.
    // One running as the wall mounts (resumed after a reload) stays on its page.
    phases.current.clear();
    const started = running && !wasRunning.current;
    wasRunning.current = running;
    if (!started) return;
    setTick(0);
    setCountingTick(null);
  }, [running]);

  const keysText = keys.join('|');
  useEffect(() => {
    if (!running) return;
    // Players that left with the last page start over if they come back.
    const current = new Set(keysText.split('|'));
    for (const k of [...phases.current.keys()]) if (!current.has(k)) phases.current.delete(k);
    if (pageSettled(page.current.keys, phases.current)) {
      setCountingTick(tick);
      return;
    }
    const giveUp = window.setTimeout(() => setCountingTick(tick), TOUR_MAX_WAIT_MS);
    return () => window.clearTimeout(giveUp);
  }, [running, tick, keysText]);

  const counting = running && countingTick === tick;
  useEffect(() => {
    if (!counting) return;
    const next = window.setTimeout(() => setTick((n) => n + 1), intervalS * 1000);
    return () => window.clearTimeout(next);
  }, [counting, tick, intervalS]);

  const report = useCallback((key: string, phase: PlayerPhase) => {
    phases.current.set(key, phase);
    const { tick: now, keys: onPage } = page.current;
    if (onPage.includes(key) && pageSettled(onPage, phases.current)) setCountingTick(now);
  }, []);

  return { tick, cells, keys, waiting: running && !counting, report };
}
