/**
 * better-sqlite3 behind Kysely with prepared statements kept: Kysely's SQLite driver calls
 * `prepare(sql)` for every query, and compiling the same SQL again costs 0.3-1 ms a query on this
 * machine under load, more than running most of our indexed look-ups. Kysely compiles a query builder
 * to the same SQL text each time (values go in parameters), so a cache by text hits nearly always.
 *
 * Safe because Kysely's SQLite dialect runs one query at a time on its one connection (a mutex), and
 * all()/run() finish synchronously; a statement is never used by two queries at once. SQLite
 * re-prepares a statement itself after a schema change (migrations).
 */
import type SQLite from 'better-sqlite3';

/** The part of better-sqlite3's Database that Kysely's SqliteDialect uses. */
export interface KyselySqliteDatabase {
  prepare(sql: string): SQLite.Statement;
  close(): void;
}

/** Distinct SQL texts kept; the least recently used is dropped beyond it (ad-hoc SQL cannot grow it without bound). */
export const STATEMENT_CACHE_SIZE = 512;

export function withStatementCache(db: SQLite.Database, size = STATEMENT_CACHE_SIZE): KyselySqliteDatabase & { cached(): number } {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (stmt) {
        // Most recently used last (Map keeps insertion order).
        cache.delete(sql);
      } else {
        stmt = db.prepare(sql);
        if (cache.size >= size) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, stmt);
      return stmt;
    },
    close() {
      cache.clear();
      db.close();
    },
    cached: () => cache.size,
  };
}
