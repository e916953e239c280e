/**
 * A media connection opened with an expiring play token ends when the token does. The token is
 * checked when a connection opens; without this, a WebSocket, an HTTP-FLV response or a WebRTC
 * session opened a moment before expiry kept playing for as long as its holder kept it open (a
 * shared link's viewer, or a script, watched on past the link's end). HLS needs nothing here: each
 * playlist, init and segment request is a new request, checked with the token on its own.
 */
import type { FastifyRequest } from 'fastify';

/** How a media socket is closed at its token's expiry: policy violation, and words the console maps to its own text. */
export const TOKEN_EXPIRED_CLOSE = { code: 1008, reason: 'play token expired' } as const;

/** Longest delay setTimeout takes (about 24.8 days); a later expiry (a long shared link) is reached in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The expiry (unix seconds) of the play token each authorised request was let in with. */
const grants = new WeakMap<object, number>();

/** Remembers that `req` was let in by a play token expiring at `expiresAt` (unix seconds). */
export function grantUntil(req: FastifyRequest, expiresAt: number) {
  grants.set(req.raw, expiresAt);
}

/** The expiry of the play token `req` was let in with; undefined when a login or no authentication let it in. */
export const grantExpiry = (req: FastifyRequest): number | undefined => grants.get(req.raw);

/**
 * Calls `end` once at `expiresAt` (unix seconds), at once if that has passed; nothing without an
 * expiry. The returned function cancels (call it when the connection ends first).
 */
export function endAtExpiry(expiresAt: number | undefined, end: () => void, now: () => number = Date.now): () => void {
  if (expiresAt === undefined) return () => undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;
  const arm = () => {
    if (cancelled) return;
    const left = expiresAt * 1000 - now();
    if (left <= 0) {
      end();
      return;
    }
    timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
    // The connection keeps the process alive, not its expiry.
    timer.unref?.();
  };
  arm();
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}
