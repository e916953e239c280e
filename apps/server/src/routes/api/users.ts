/** User management (admin only): list, add, update, delete. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ADMIN_ROLE_ID, type UserRow } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { v1 } from '../../http/envelope.js';
import { ApiError, duplicate, notFound } from '../../http/errors.js';
import { flag, id, md5, pageIndex, pageSize, text, userName } from '../../http/schemas.js';
import { hashPasswordDigest } from '../../services/auth/passwords.js';

const admin = { access: 'admin' as const };

async function enabledAdmins(db: Kysely<Database>) {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('role_id', '=', ADMIN_ROLE_ID)
    .where('enable', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function requireRole(db: Kysely<Database>, roleId: number) {
  const role = await db.selectFrom('roles').select('id').where('id', '=', roleId).executeTakeFirst();
  if (!role) throw notFound('role', { id: roleId }, 400);
}

export async function userRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.db;

  r.get(
    '/api/v1/userlist',
    {
      config: admin,
      schema: { tags: ['users'], querystring: z.object({ pageindex: pageIndex, pagesize: pageSize, q: text(64).optional() }) },
    },
    async (req) => {
      const { pageindex, pagesize, q } = req.query;
      let base = db.selectFrom('users').innerJoin('roles', 'roles.id', 'users.role_id');
      if (q) base = base.where((eb) => eb.or([eb('users.username', 'like', `%${q}%`), eb('users.name', 'like', `%${q}%`)]));
      const { n } = await base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
      const rows = await base
        .select([
          'users.id',
          'users.username',
          'users.name',
          'users.nick_name',
          'users.role_id',
          'roles.name as role_name',
          'users.enable',
          'users.must_change_password',
          'users.created_at',
          'users.updated_at',
        ])
        .orderBy('users.id')
        .limit(pagesize)
        .offset((pageindex - 1) * pagesize)
        .execute();
      const data: UserRow[] = rows.map((u) => ({
        ID: u.id,
        Name: u.name,
        Username: u.username,
        NickName: u.nick_name,
        RoleID: u.role_id,
        RoleName: u.role_name,
        Enable: u.enable,
        MustChangePassword: u.must_change_password,
        CreateAt: u.created_at,
        UpdateAt: u.updated_at,
      }));
      return { count: Number(n), data };
    },
  );

  r.post(
    '/api/v1/adduser',
    {
      config: admin,
      schema: {
        tags: ['users'],
        body: z.object({
          username: userName,
          password: md5,
          roleid: id,
          name: text(64).optional(),
          nick_name: text(64).optional(),
          enable: flag.optional(),
          mustchange: flag.optional(),
        }),
      },
    },
    async (req) => {
      const b = req.body;
      await requireRole(db, b.roleid);
      const exists = await db.selectFrom('users').select('id').where('username', '=', b.username).executeTakeFirst();
      if (exists) throw duplicate({ name: b.username });
      const now = new Date().toISOString();
      const row = await db
        .insertInto('users')
        .values({
          username: b.username,
          name: b.name || b.username,
          nick_name: b.nick_name ?? '',
          password_hash: await hashPasswordDigest(b.password),
          role_id: b.roleid,
          enable: b.enable === false ? 0 : 1,
          must_change_password: b.mustchange ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return v1('MSG_SC_SERVER_ADD_USER_ACK', { ID: row.id });
    },
  );

  r.post(
    '/api/v1/updateuser',
    {
      config: admin,
      schema: {
        tags: ['users'],
        body: z.object({
          id,
          name: text(64).optional(),
          nick_name: text(64).optional(),
          roleid: id.optional(),
          enable: flag.optional(),
          password: md5.optional().or(z.literal('').transform(() => undefined)),
          mustchange: flag.optional(),
        }),
      },
    },
    async (req) => {
      const b = req.body;
      const user = await db.selectFrom('users').selectAll().where('id', '=', b.id).executeTakeFirst();
      if (!user) throw notFound('user', { id: b.id });
      if (b.roleid !== undefined) await requireRole(db, b.roleid);
      const losesAdmin =
        user.role_id === ADMIN_ROLE_ID &&
        user.enable === 1 &&
        ((b.roleid !== undefined && b.roleid !== ADMIN_ROLE_ID) || b.enable === false);
      if (losesAdmin && (await enabledAdmins(db)) <= 1) throw new ApiError(400, 'cannotDeleteLastAdmin');
      if (b.enable === false && user.id === req.user!.id) throw new ApiError(400, 'cannotDeleteSelf');
      await db
        .updateTable('users')
        .set({
          ...(b.name !== undefined ? { name: b.name } : {}),
          ...(b.nick_name !== undefined ? { nick_name: b.nick_name } : {}),
          ...(b.roleid !== undefined ? { role_id: b.roleid } : {}),
          ...(b.enable !== undefined ? { enable: b.enable ? 1 : 0 } : {}),
          ...(b.password ? { password_hash: await hashPasswordDigest(b.password) } : {}),
          ...(b.mustchange !== undefined ? { must_change_password: b.mustchange ? 1 : 0 } : {}),
          updated_at: new Date().toISOString(),
        })
        .where('id', '=', b.id)
        .execute();
      ctx.tokens.forgetUser(b.id);
      // A reset password, a disabled account or a new role ends the user's sessions.
      if (b.password || b.enable === false || (b.roleid !== undefined && b.roleid !== user.role_id)) {
        await ctx.tokens.revokeUser(b.id);
      }
      return v1('MSG_SC_SERVER_UPDATE_USER_ACK', {});
    },
  );

  r.post(
    '/api/v1/deleteuser',
    { config: admin, schema: { tags: ['users'], body: z.object({ id }) } },
    async (req) => {
      const target = req.body.id;
      if (target === req.user!.id) throw new ApiError(400, 'cannotDeleteSelf');
      const user = await db.selectFrom('users').selectAll().where('id', '=', target).executeTakeFirst();
      if (!user) throw notFound('user', { id: target });
      if (user.role_id === ADMIN_ROLE_ID && user.enable === 1 && (await enabledAdmins(db)) <= 1) {
        throw new ApiError(400, 'cannotDeleteLastAdmin');
      }
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('tokens').where('user_id', '=', target).execute();
        await trx.deleteFrom('news_state').where('user_id', '=', target).execute();
        await trx.deleteFrom('users').where('id', '=', target).execute();
      });
      ctx.tokens.forgetUser(target);
      return v1('MSG_SC_SERVER_DELETE_USER_ACK', {});
    },
  );
}
