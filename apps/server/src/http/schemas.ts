/**
 * Small zod building blocks for request schemas. Form-encoded bodies and query strings carry text,
 * so numbers and flags are coerced from text, with the same rules in both places.
 */
import { z } from 'zod';
import { schemaReason } from './zod-reason.js';

export const md5 = z
  .string()
  .regex(/^[0-9a-fA-F]{32}$/, schemaReason('md5Hex'))
  .transform((s) => s.toLowerCase());
/**
 * The largest row id: the ids are PostgreSQL `serial` (a 32-bit integer), which refuses a larger
 * parameter with an error (an internal error to the caller) where SQLite found no row.
 */
export const MAX_ID = 2_147_483_647;
export const id = z.coerce.number().int().positive().max(MAX_ID);
export const pageIndex = z.coerce.number().int().min(1).default(1);
export const pageSize = z.coerce.number().int().min(1).max(1000).default(20);
/** A flag that arrives as true/false, 1/0, "true"/"false", "on"/"off". */
export const flag = z.preprocess((v) => {
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (['1', 'true', 'on', 'yes'].includes(s)) return true;
    if (['0', 'false', 'off', 'no', ''].includes(s)) return false;
  }
  if (typeof v === 'number') return v !== 0;
  return v;
}, z.boolean());
export const text = (max: number) => z.string().trim().max(max);
export const userName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.@-]+$/, schemaReason('allowedChars', { chars: '_ . @ -' }));
