/**
 * Test databases. With DATABASE_URL set (the `pg` stage of `npm test` points it at a throwaway
 * local PostgreSQL server), each test file/test gets its own freshly created database on that
 * server; without it, tests run on SQLite in a temp folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestPgDatabase {
  /** postgres:// URL of the new database. */
  url: string;
  name: string;
  /** Drops the database (terminating any connections left open). */
  drop(): Promise<void>;
}

/** The server-level admin URL: DATABASE_URL with its database replaced by `postgres`. */
function adminUrlOf(serverUrl: string): string {
  const u = new URL(serverUrl);
  u.pathname = '/postgres';
  return u.toString();
}

async function withAdmin<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrlOf(serverUrl) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates a uniquely named database on the server of `serverUrl` (default: process.env.DATABASE_URL)
 * and returns its URL and a drop() to call afterwards.
 */
export async function createPgDatabase(serverUrl = process.env.DATABASE_URL): Promise<TestPgDatabase> {
  if (!serverUrl) throw new Error('createPgDatabase: DATABASE_URL is not set');
  const name = `t_${Date.now().toString(36)}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin(serverUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  let dropped = false;
  return {
    url: u.toString(),
    name,
    async drop() {
      if (dropped) return;
      dropped = true;
      await withAdmin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

export interface TestStorage {
  engine: 'sqlite' | 'postgres';
  /** A new empty temp folder (the SQLite file lives here; also usable for recordings etc.). */
  dataDir: string;
  /** Set when running against PostgreSQL. */
  databaseUrl?: string;
  /** Drops the PostgreSQL database and removes the temp folder. */
  cleanup(): Promise<void>;
}

/**
 * Fresh storage for one test: a temp dataDir, plus a fresh PostgreSQL database when DATABASE_URL is set
 * (unless `sqlite`: a test whose subject does not depend on the engine and cannot run on it).
 */
export async function createTestStorage({ sqlite = false } = {}): Promise<TestStorage> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencvr-test-'));
  const pgDb = process.env.DATABASE_URL && !sqlite ? await createPgDatabase(process.env.DATABASE_URL) : undefined;
  return {
    engine: pgDb ? 'postgres' : 'sqlite',
    dataDir,
    databaseUrl: pgDb?.url,
    async cleanup() {
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
