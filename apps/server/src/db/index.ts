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
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
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
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  }
  await migrateToLatest(kysely, engine);
  return { kysely, engine, close: () => kysely.destroy() };
}
