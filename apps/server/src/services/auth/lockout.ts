/**
 * Login lock-out: five failures for one user name from one address lock that pair for 15 minutes.
 * Kept in the database so a restart does not reset an attacker's count.
 */
import type { Kysely } from 'kysely';
import { LOGIN_LOCK_MINUTES, LOGIN_MAX_FAILURES } from '@opencvr/shared';
import type { Database } from '../../db/schema.js';

export class LockoutService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Minutes left (rounded up) while the pair is locked, else 0. */
  async lockedMinutes(username: string, ip: string): Promise<number> {
    const row = await this.db
      .selectFrom('login_failures')
      .select('locked_until')
      .where('username', '=', username)
      .where('ip', '=', ip)
      .executeTakeFirst();
    if (!row?.locked_until) return 0;
    const left = new Date(row.locked_until).getTime() - this.now().getTime();
    return left > 0 ? Math.ceil(left / 60000) : 0;
  }

  /** Counts a failure; returns true when this failure locked the pair. */
  async fail(username: string, ip: string): Promise<boolean> {
    const now = this.now();
    const windowStart = new Date(now.getTime() - LOGIN_LOCK_MINUTES * 60000).toISOString();
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('login_failures')
        .selectAll()
        .where('username', '=', username)
        .where('ip', '=', ip)
        .executeTakeFirst();
      // A count older than the lock window, or from an expired lock, starts again.
      const stale = !row || row.first_failed_at < windowStart || (row.locked_until !== null && row.locked_until <= now.toISOString());
      const count = stale ? 1 : row.count + 1;
      const lockedUntil =
        count >= LOGIN_MAX_FAILURES ? new Date(now.getTime() + LOGIN_LOCK_MINUTES * 60000).toISOString() : null;
      if (row) {
        await trx
          .updateTable('login_failures')
          .set({ count, first_failed_at: stale ? now.toISOString() : row.first_failed_at, locked_until: lockedUntil })
          .where('username', '=', username)
          .where('ip', '=', ip)
          .execute();
      } else {
        await trx
          .insertInto('login_failures')
          .values({ username, ip, count, first_failed_at: now.toISOString(), locked_until: lockedUntil })
          .execute();
      }
      return lockedUntil !== null;
    });
  }

  async clear(username: string, ip: string) {
    await this.db.deleteFrom('login_failures').where('username', '=', username).where('ip', '=', ip).execute();
  }
}
