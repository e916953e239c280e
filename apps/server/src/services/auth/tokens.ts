/**
 * Session and API tokens: 256 random bits, stored only as their sha256, with an expiry, revoked at
 * logout and at a password change.
 */
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, User } from '../../db/schema.js';

export type TokenKind = 'session' | 'api';
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

type Resolved = { user: User; expiresAt: string; kind: string };

/**
 * Every API call resolves its token, so resolved tokens are kept in memory for a few seconds.
 * Revocations on this node drop them at once; a change made by another node (a cluster sharing
 * PostgreSQL) is seen within CACHE_MS.
 */
const CACHE_MS = 5000;
const CACHE_MAX = 10000;

export class TokenService {
  private cache = new Map<string, { value: Resolved; at: number }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly ttlSeconds: number,
  ) {}

  get ttl() {
    return this.ttlSeconds;
  }

  async issue(userId: number, opts: { kind?: TokenKind; ttlSeconds?: number; ip?: string } = {}) {
    const token = crypto.randomBytes(32).toString('hex');
    const now = new Date();
    const ttl = opts.ttlSeconds ?? this.ttlSeconds;
    const expiresAt = new Date(now.getTime() + ttl * 1000).toISOString();
    await this.db
      .insertInto('tokens')
      .values({
        token_hash: sha256(token),
        user_id: userId,
        kind: opts.kind ?? 'session',
        created_at: now.toISOString(),
        expires_at: expiresAt,
        ip: opts.ip ?? '',
      })
      .execute();
    return { token, expiresAt, ttl };
  }

  /** The user a live token belongs to, or undefined for an unknown, expired or disabled one. */
  async resolve(token: string): Promise<Resolved | undefined> {
    if (!/^[0-9a-f]{64}$/.test(token)) return undefined;
    const hash = sha256(token);
    const hit = this.cache.get(hash);
    const now = Date.now();
    if (hit && now - hit.at < CACHE_MS && hit.value.expiresAt > new Date(now).toISOString()) return hit.value;
    const row = await this.db
      .selectFrom('tokens')
      .innerJoin('users', 'users.id', 'tokens.user_id')
      .selectAll('users')
      .select(['tokens.expires_at', 'tokens.kind'])
      .where('tokens.token_hash', '=', hash)
      .executeTakeFirst();
    if (!row) {
      this.cache.delete(hash);
      return undefined;
    }
    if (row.expires_at <= new Date().toISOString()) {
      await this.revoke(token);
      return undefined;
    }
    const { expires_at, kind, ...user } = row;
    const value = { user: user as User, expiresAt: expires_at, kind };
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(hash, { value, at: now });
    return value;
  }

  async revoke(token: string) {
    this.cache.delete(sha256(token));
    await this.db.deleteFrom('tokens').where('token_hash', '=', sha256(token)).execute();
  }

  /** Drops cached resolutions of a user's tokens (after any change to the user). */
  forgetUser(userId: number) {
    for (const [k, v] of this.cache) if (v.value.user.id === userId) this.cache.delete(k);
  }

  async revokeUser(userId: number, kind?: TokenKind) {
    this.forgetUser(userId);
    let q = this.db.deleteFrom('tokens').where('user_id', '=', userId);
    if (kind) q = q.where('kind', '=', kind);
    await q.execute();
  }

  async list(userId: number) {
    return this.db
      .selectFrom('tokens')
      .select(['kind', 'created_at', 'expires_at', 'ip'])
      .where('user_id', '=', userId)
      .where('expires_at', '>', new Date().toISOString())
      .orderBy('created_at', 'desc')
      .execute();
  }

  async purgeExpired() {
    await this.db.deleteFrom('tokens').where('expires_at', '<=', new Date().toISOString()).execute();
  }
}
