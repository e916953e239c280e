/**
 * Case-insensitive "contains" that behaves the same on both engines: ILIKE on PostgreSQL, LIKE on
 * SQLite (case-insensitive for ASCII there), with %, _ and \ in the user's text matched literally.
 */
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Engine } from './index.js';

export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function contains(engine: Engine, column: Expression<unknown>, text: string): RawBuilder<SqlBool> {
  const pattern = `%${escapeLike(text)}%`;
  return engine === 'postgres'
    ? sql<SqlBool>`${column} ILIKE ${pattern} ESCAPE '\\'`
    : sql<SqlBool>`${column} LIKE ${pattern} ESCAPE '\\'`;
}
