/**
 * Signed, expiring play tokens for media URLs and shared links: "<payload>.<mac>", the payload
 * base64url JSON {s: stream key, e: expiry (unix seconds)}, the mac HMAC-SHA256 over the payload with
 * the platform's secret. Verification is constant-time and needs no database.
 */
import crypto from 'node:crypto';

export interface PlayClaims {
  /** The stream key the token opens, e.g. "stream_12_0", or "share:dev/chn/flow" for a share page. */
  s: string;
  /** Expiry, unix seconds. */
  e: number;
}

const b64 = (b: Buffer) => b.toString('base64url');

export function signPlayToken(secret: Buffer, claims: PlayClaims): string {
  const payload = b64(Buffer.from(JSON.stringify(claims)));
  const mac = b64(crypto.createHmac('sha256', secret).update(payload).digest());
  return `${payload}.${mac}`;
}

export type PlayTokenCheck = { ok: true; claims: PlayClaims } | { ok: false; reason: 'malformed' | 'bad signature' | 'expired' | 'wrong stream' };

export function verifyPlayToken(secret: Buffer, token: string, stream: string, now = Date.now()): PlayTokenCheck {
  const parts = token.split('.');
  if (parts.length !== 2 || !parts[0] || !parts[1] || token.length > 1024) return { ok: false, reason: 'malformed' };
  const expected = crypto.createHmac('sha256', secret).update(parts[0]).digest();
  let given: Buffer;
  try {
    given = Buffer.from(parts[1], 'base64url');
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return { ok: false, reason: 'bad signature' };
  let claims: PlayClaims;
  try {
    claims = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof claims?.s !== 'string' || typeof claims?.e !== 'number') return { ok: false, reason: 'malformed' };
  if (claims.e * 1000 <= now) return { ok: false, reason: 'expired' };
  if (claims.s !== stream) return { ok: false, reason: 'wrong stream' };
  return { ok: true, claims };
}
