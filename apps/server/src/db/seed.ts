/**
 * First-boot data: the built-in admin role (id 1) and administrator (id 1, admin/admin) that
 * first-run initialisation then makes the administrator change.
 */
import { ADMIN_ROLE_ID, ADMIN_ROLE_NAME, ADMIN_USER_ID, DEFAULT_ADMIN_PASSWORD, DEFAULT_ADMIN_USERNAME } from '@opencvr/shared';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { Engine } from './index.js';
import { hashPasswordDigest, md5Hex } from '../services/auth/passwords.js';

export async function seed(db: Kysely<Database>, engine: Engine) {
  const now = new Date().toISOString();
  const role = await db.selectFrom('roles').select('id').where('id', '=', ADMIN_ROLE_ID).executeTakeFirst();
  if (!role) {
    await db
      .insertInto('roles')
      .values({ id: ADMIN_ROLE_ID, name: ADMIN_ROLE_NAME, describe: 'Administrator', builtin: 1, created_at: now } as never)
      .execute();
  }
  const admin = await db.selectFrom('users').select('id').where('id', '=', ADMIN_USER_ID).executeTakeFirst();
  if (!admin) {
    await db
      .insertInto('users')
      .values({
        id: ADMIN_USER_ID,
        username: DEFAULT_ADMIN_USERNAME,
        name: DEFAULT_ADMIN_USERNAME,
        nick_name: 'Administrator',
        password_hash: await hashPasswordDigest(md5Hex(DEFAULT_ADMIN_PASSWORD)),
        role_id: ADMIN_ROLE_ID,
        enable: 1,
        must_change_password: 0,
        created_at: now,
        updated_at: now,
      } as never)
      .execute();
  }
  if (engine === 'postgres') {
    // Explicit ids leave the serial sequences behind; move them past the seeded rows.
    await sql`SELECT setval(pg_get_serial_sequence('roles','id'), GREATEST((SELECT MAX(id) FROM roles), 1))`.execute(db);
    await sql`SELECT setval(pg_get_serial_sequence('users','id'), GREATEST((SELECT MAX(id) FROM users), 1))`.execute(db);
  }
}
