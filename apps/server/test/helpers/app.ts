/**
 * One app per test on fresh storage (SQLite in a temp folder, or a fresh PostgreSQL database when
 * DATABASE_URL is set). Use `app.inject()` for API calls, or `listen: true` for a real port
 * (websockets, protocol tests).
 *
 *   const t = await startTestApp();
 *   const res = await t.app.inject({ method: 'GET', url: '/api/v1/gethomeotherconfig' });
 *   await t.close();
 */
import { loadConfig, type Config } from '../../src/config/index.js';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { createTestStorage, type TestStorage } from './db.js';

export interface TestApp extends BuiltApp {
  storage: TestStorage;
  settings: Config;
  /** http://127.0.0.1:PORT when started with listen: true. */
  baseUrl?: string;
  close(): Promise<void>;
}

export async function startTestApp(opts: { overrides?: Partial<Config>; listen?: boolean } = {}): Promise<TestApp> {
  const storage = await createTestStorage();
  const settings = loadConfig(
    { ...process.env, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' },
    {
      host: '127.0.0.1',
      port: 0,
      dataDir: storage.dataDir,
      databaseUrl: storage.databaseUrl,
      webDist: undefined,
      // Any free port: test apps run in parallel and must not fight over 15060.
      sipPort: 0,
      ...opts.overrides,
    },
  );
  let built: BuiltApp;
  try {
    built = await buildApp(settings);
  } catch (err) {
    await storage.cleanup();
    throw err;
  }
  let baseUrl: string | undefined;
  if (opts.listen) {
    await built.app.listen({ host: '127.0.0.1', port: 0 });
    const addr = built.app.server.address();
    if (addr && typeof addr === 'object') baseUrl = `http://127.0.0.1:${addr.port}`;
  } else {
    await built.app.ready();
  }
  let closed = false;
  return {
    ...built,
    storage,
    settings,
    baseUrl,
    async close() {
      if (closed) return;
      closed = true;
      await built.app.close(); // its onClose hook closes the database
      await storage.cleanup();
    },
  };
}

/**
 * A restart of the server on the same storage: closes `t`'s app (its storage kept) and builds a new
 * one on the same data folder and database. `t` is done with: close the returned app, which removes
 * the storage.
 */
export async function restartTestApp(t: TestApp): Promise<TestApp> {
  await t.app.close();
  const built = await buildApp(t.settings);
  await built.app.ready();
  let closed = false;
  return {
    ...t,
    ...built,
    baseUrl: undefined,
    async close() {
      if (closed) return;
      closed = true;
      await built.app.close();
      await t.storage.cleanup();
    },
  };
}
