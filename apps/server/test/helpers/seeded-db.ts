/**
 * A fresh, seeded database for every test of a file (SQLite in a temp folder, or PostgreSQL when
 * DATABASE_URL is set), for tests that drive a service straight on the database without an app.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import { openDatabase, type Db } from '../../src/db/index.js';
import { seed } from '../../src/db/seed.js';
import { createTestStorage, type TestStorage } from './db.js';

/**
 * Registers the hooks: before each test a new database is opened, seeded and handed to `use`; after
 * it, real timers come back (fake-timer tests) and the database is closed and removed. `sqlite`: on
 * SQLite even in the PostgreSQL stage, for fake-timer tests of a service's timing: their clock cannot
 * be advanced through PostgreSQL's network round trips (a pass awaiting a query is still waiting when
 * the advance is over) and pg's pool arms timers of its own.
 */
export function useSeededDb(use: (db: Db) => void, { sqlite = false } = {}): void {
  let storage: TestStorage | undefined;
  let db: Db | undefined;
  beforeEach(async () => {
    storage = await createTestStorage({ sqlite });
    db = await openDatabase({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl });
    await seed(db.kysely, db.engine);
    use(db);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await db?.close();
    await storage?.cleanup();
  });
}
