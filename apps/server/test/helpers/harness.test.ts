/** Checks the test harness itself: fresh storage per test, on SQLite or on PostgreSQL (DATABASE_URL). */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStorage, startTestApp, type TestApp } from './index.js';

describe('test harness', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('gives each test its own storage', async () => {
    const a = await createTestStorage();
    const b = await createTestStorage();
    expect(a.dataDir).not.toBe(b.dataDir);
    expect(a.engine).toBe(process.env.DATABASE_URL ? 'postgres' : 'sqlite');
    if (a.databaseUrl) expect(a.databaseUrl).not.toBe(b.databaseUrl);
    await a.cleanup();
    await b.cleanup();
    expect(fs.existsSync(a.dataDir)).toBe(false);
  });

  it('builds an app on that storage', async () => {
    t = await startTestApp();
    expect(t.ctx.engine).toBe(process.env.DATABASE_URL ? 'postgres' : 'sqlite');
    expect(await t.ctx.config.get('other')).toBeTruthy();
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/gethomeotherconfig' });
    expect(res.statusCode).toBeLessThan(500);
  });
});
