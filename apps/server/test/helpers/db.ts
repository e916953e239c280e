/**
 * Test databases. With DATABASE_URL set (the `pg` stage of `npm test` points it at a throwaway
 * local PostgreSQL server), each test file/test gets its own freshly created database on that
 * server; without it, tests run on SQLite in a temp folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import { migrateToLatest } from '../../src/db/migrate.js';

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

/** The migrations' sources, hashed into the template's name: a changed migration gets a new template. */
function migrationsHash(): string {
  const dir = fileURLToPath(new URL('../../src/db/', import.meta.url));
  const files = ['migrate.ts', ...fs.readdirSync(path.join(dir, 'migrations')).sort().map((f) => `migrations/${f}`)];
  const h = createHash('sha256');
  for (const f of files) h.update(f).update(fs.readFileSync(path.join(dir, f)));
  return h.digest('hex').slice(0, 12);
}

/** The template of each server URL, made once per worker process (and once per server: see below). */
const templates = new Map<string, Promise<string>>();

/**
 * A database on the server holding the schema of every migration, which the test databases are
 * copies of (CREATE DATABASE ... TEMPLATE). The migrations run once per server and set of
 * migrations, from an empty database, instead of in every test's app (the pg stage alone, session 26:
 * 409 s -> 291 s, its tests' sum 785 s -> 553 s); the app still runs migrateToLatest on its copy and
 * finds nothing to do. The vitest workers build it under an advisory lock, so one builds and the others
 * wait for it; it is renamed into place when complete, so a half-built one is never copied.
 */
function templateOf(serverUrl: string): Promise<string> {
  let t = templates.get(serverUrl);
  if (!t) {
    t = buildTemplate(serverUrl);
    templates.set(serverUrl, t);
    t.catch(() => templates.delete(serverUrl));
  }
  return t;
}

async function buildTemplate(serverUrl: string): Promise<string> {
  const name = `opencvr_template_${migrationsHash()}`;
  return withAdmin(serverUrl, async (c) => {
    await c.query('SELECT pg_advisory_lock(2026112901)');
    try {
      const found = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount) return name;
      const building = `${name}_building`;
      await c.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await c.query(`CREATE DATABASE "${building}"`);
      const u = new URL(serverUrl);
      u.pathname = `/${building}`;
      const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: u.toString(), max: 1 }) }) });
      try {
        await migrateToLatest(kysely, 'postgres');
      } finally {
        await kysely.destroy();
      }
      await c.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      return name;
    } finally {
      await c.query('SELECT pg_advisory_unlock(2026112901)');
    }
  });
}

/**
 * Creates a uniquely named database on the server of `serverUrl` (default: process.env.DATABASE_URL),
 * a copy of the migrated template (`empty`: a database without even the migrations), and returns its
 * URL and a drop() to call afterwards.
 */
export async function createPgDatabase(serverUrl = process.env.DATABASE_URL, { empty = false } = {}): Promise<TestPgDatabase> {
  if (!serverUrl) throw new Error('createPgDatabase: DATABASE_URL is not set');
  const name = `t_${Date.now().toString(36)}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = empty ? undefined : await templateOf(serverUrl);
  await withAdmin(serverUrl, (c) => c.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`));
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
