/** Reconnect delays of a player: 1 s, 2 s, 4 s … doubling up to 30 s (bounded), reset once it plays. */

export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;

/** The delay before reconnect attempt `attempt` (0 = the first retry). */
export function backoffDelay(attempt: number, base = BACKOFF_BASE_MS, max = BACKOFF_MAX_MS): number {
  if (!Number.isFinite(attempt) || attempt < 0) return base;
  // 2^attempt overflows to Infinity for large attempts; min() keeps it bounded.
  return Math.min(max, base * 2 ** Math.min(attempt, 30));
}

/** The first `n` delays, for display and tests. */
export function backoffSequence(n: number, base = BACKOFF_BASE_MS, max = BACKOFF_MAX_MS): number[] {
  return Array.from({ length: n }, (_, i) => backoffDelay(i, base, max));
}
