import type { Kysely } from 'kysely';
import type { UserInfo } from '@opencvr/shared';
import type { Database, User } from '../../db/schema.js';
import { isAdmin } from '../../http/auth.js';

/** Spec 3 "User info" for a user row. */
export async function userInfo(db: Kysely<Database>, user: User, token?: string): Promise<UserInfo> {
  const role = await db.selectFrom('roles').select('name').where('id', '=', user.role_id).executeTakeFirst();
  const roleName = role?.name ?? '';
  return {
    ...(token ? { Token: token } : {}),
    id: user.id,
    name: user.username,
    nick_name: user.nick_name || user.name,
    role: isAdmin(user) ? 'admin' : roleName,
    role_name: roleName,
    role_id: user.role_id,
    Status: user.enable,
    MustChangePassword: !!user.must_change_password,
  };
}
