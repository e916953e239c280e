/**
 * The database: SQLite embedded by default, PostgreSQL when DATABASE_URL is set. One Kysely
 * instance and one set of migrations serve both.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Database } from './schema.js';
import { migrateToLatest } from './migrate.js';
import { withStatementCache } from './sqlite-statement-cache.js';

export type Engine = 'sqlite' | 'postgres';
export interface Db {
  kysely: Kysely<Database>;
  engine: Engine;
  close(): Promise<void>;
}

export async function openDatabase(opts: { dataDir: string; databaseUrl?: string; onPoolError?: (err: Error) => void }): Promise<Db> {
  let kysely: Kysely<Database>;
  let engine: Engine;
  if (opts.databaseUrl) {
    engine = 'postgres';
    // A console page opens with ~7 calls at once (boot calls, the video tree's first page). A new
    // PostgreSQL connection costs 20-50 ms and its first queries more (the backend's catalog cache
    // starts empty): measured 50-130 ms on this 2-core machine against 8-12 ms on a warm one. So
    // WARM_CONNECTIONS are opened at start (not awaited) and kept however long they sit idle;
    // connections above them still close after 60 s idle.
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10, min: WARM_CONNECTIONS, idleTimeoutMillis: 60_000 });
    // An idle client whose backend goes away (a PostgreSQL restart, a dropped database) is reported
    // here; without a listener pg would throw it as an uncaught error and take the server down. The
    // pool replaces the client on the next query.
    pool.on('error', (err) => opts.onPoolError?.(err));
    kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    engine = 'sqlite';
    fs.mkdirSync(opts.dataDir, { recursive: true });
    const file = path.join(opts.dataDir, 'opencvr.db');
    const sqlite = new SQLite(file);
    // WAL with NORMAL sync survives a process crash (kill -9) without losing committed data.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  }
  await migrateToLatest(kysely, engine);
  if (engine === 'postgres') void warmUp(kysely);
  return { kysely, engine, close: () => kysely.destroy() };
}

const WARM_CONNECTIONS = 4;

/**
 * Opens WARM_CONNECTIONS connections at once, each planning a query on the tables every page
 * reads (devices, channels), so their backends hold those tables and indexes in their caches
 * before the first visitor. Best effort: a failure (the pool closed meanwhile) only skips it.
 */
async function warmUp(kysely: Kysely<Database>): Promise<void> {
  const one = () =>
    kysely.connection().execute(async (c) => {
      await c.selectFrom('devices').select('id').where('device_id', '=', '').execute();
      await c.selectFrom('channels').select('id').where('parent_device_id', '=', '').execute();
    });
  await Promise.all(Array.from({ length: WARM_CONNECTIONS }, one)).catch(() => undefined);
}
