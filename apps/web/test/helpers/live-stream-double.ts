/**
 * The player engine's hook replaced by a store the test sets: `vi.mock('../src/components/player/useLiveStream',
 * async (importOriginal) => (await import('./helpers/live-stream-double')).useLiveStreamDouble(importOriginal))`,
 * then `liveStats.set(stats)` re-renders every player with what its engine would say.
 */
import { useSyncExternalStore } from 'react';
import type * as UseLiveStream from '../../src/components/player/useLiveStream';
import type { PlayerStats } from '../../src/components/player/useLiveStream';

const listeners = new Set<() => void>();

export const liveStats = {
  stats: { phase: 'loading', reason: '', bytesPerSecond: 0 } as PlayerStats,
  subscribe(l: () => void) {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  set(stats: PlayerStats) {
    liveStats.stats = stats;
    for (const l of listeners) l();
  },
};

/** The mocked module: the real one, with useLiveStream reading `liveStats`. */
export async function useLiveStreamDouble(importOriginal: <T>() => Promise<T>) {
  return {
    ...(await importOriginal<typeof UseLiveStream>()),
    useLiveStream: () => ({ stats: useSyncExternalStore(liveStats.subscribe, () => liveStats.stats), retry: () => {} }),
  };
}
