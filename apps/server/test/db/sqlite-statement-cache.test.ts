/**
 * The prepared-statement cache under Kysely's SQLite dialect: the same SQL is compiled once, results
 * stay right (parameters per call, writes seen by later reads, a schema change), and the cache is bounded.
 */
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from '../../src/db/sqlite-statement-cache.js';

interface T {
  items: { id: number; name: string };
}

function open(size?: number) {
  const raw = new SQLite(':memory:');
  let prepares = 0;
  const prepare = raw.prepare.bind(raw);
  raw.prepare = ((text: string) => {
    prepares++;
    return prepare(text);
  }) as typeof raw.prepare;
  const db = withStatementCache(raw, size);
  const kysely = new Kysely<T>({ dialect: new SqliteDialect({ database: db }) });
  return { kysely, db, prepares: () => prepares };
}

describe('withStatementCache', () => {
  it('prepares a repeated query once and answers each call with its own parameters', async () => {
    const { kysely, prepares } = open();
    await kysely.schema.createTable('items').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('name', 'text').execute();
    for (let i = 1; i <= 20; i++) await kysely.insertInto('items').values({ id: i, name: `n${i}` }).execute();
    const before = prepares();
    for (let i = 1; i <= 20; i++) {
      const row = await kysely.selectFrom('items').selectAll().where('id', '=', i).executeTakeFirst();
      expect(row).toEqual({ id: i, name: `n${i}` });
    }
    expect(prepares() - before).toBe(1);
    // A write through a cached statement is seen by the next read.
    await kysely.updateTable('items').set({ name: 'changed' }).where('id', '=', 3).execute();
    expect((await kysely.selectFrom('items').selectAll().where('id', '=', 3).executeTakeFirst())?.name).toBe('changed');
    await kysely.destroy();
  });

  it('keeps working after a schema change (SQLite re-prepares the cached statement)', async () => {
    const { kysely } = open();
    await kysely.schema.createTable('items').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('name', 'text').execute();
    await kysely.insertInto('items').values({ id: 1, name: 'a' }).execute();
    const q = () => kysely.selectFrom('items').selectAll().execute();
    expect(await q()).toEqual([{ id: 1, name: 'a' }]);
    await sql`ALTER TABLE items ADD COLUMN extra TEXT DEFAULT 'x'`.execute(kysely);
    expect(await q()).toEqual([{ id: 1, name: 'a', extra: 'x' }]);
    await kysely.destroy();
  });

  it('is bounded: the least recently used text is dropped', async () => {
    const { kysely, db, prepares } = open(4);
    for (let i = 0; i < 10; i++) await sql.raw(`SELECT ${i} AS v`).execute(kysely);
    expect(db.cached()).toBe(4);
    const before = prepares();
    await sql.raw('SELECT 9 AS v').execute(kysely); // still cached
    expect(prepares()).toBe(before);
    await sql.raw('SELECT 0 AS v').execute(kysely); // dropped long ago: prepared again
    expect(prepares()).toBe(before + 1);
    await kysely.destroy();
  });
});
