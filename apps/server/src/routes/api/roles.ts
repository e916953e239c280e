/** Role management (admin only). The built-in admin role (id 1) cannot be changed or deleted. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMIN_ROLE_NAME, type RoleRow } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import { v1 } from '../../http/envelope.js';
import { ApiError, duplicate, notFound } from '../../http/errors.js';
import { id, pageIndex, pageSize, text } from '../../http/schemas.js';

const admin = { access: 'admin' as const };
const roleName = z.string().trim().min(1).max(64);

export async function roleRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.db;

  async function assertFreeName(name: string, exceptId?: number) {
    if (name.toLowerCase() === ADMIN_ROLE_NAME) throw duplicate({ name: name });
    let q = db.selectFrom('roles').select('id').where('name', '=', name);
    if (exceptId) q = q.where('id', '!=', exceptId);
    if (await q.executeTakeFirst()) throw duplicate({ name: name });
  }
  async function editableRole(roleId: number) {
    const role = await db.selectFrom('roles').selectAll().where('id', '=', roleId).executeTakeFirst();
    if (!role) throw notFound('role', { id: roleId });
    if (role.builtin) throw new ApiError(400, 'cannotChangeBuiltinRole');
    return role;
  }

  r.get(
    '/api/v1/rolelist',
    {
      config: admin,
      schema: { tags: ['roles'], querystring: z.object({ pageindex: pageIndex, pagesize: pageSize, q: text(64).optional() }) },
    },
    async (req) => {
      const { pageindex, pagesize, q } = req.query;
      let base = db.selectFrom('roles');
      if (q) base = base.where('name', 'like', `%${q}%`);
      const { n } = await base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
      const rows = await base
        .selectAll('roles')
        .select((eb) =>
          eb
            .selectFrom('users')
            .select((e) => e.fn.countAll<string | number>().as('c'))
            .whereRef('users.role_id', '=', 'roles.id')
            .as('user_count'),
        )
        .orderBy('roles.id')
        .limit(pagesize)
        .offset((pageindex - 1) * pagesize)
        .execute();
      const data: RoleRow[] = rows.map((x) => ({
        ID: x.id,
        Name: x.name,
        Describe: x.describe,
        Builtin: x.builtin,
        UserCount: Number(x.user_count ?? 0),
        CreateAt: x.created_at,
      }));
      return { count: Number(n), data };
    },
  );

  r.post(
    '/api/v1/addrole',
    { config: admin, schema: { tags: ['roles'], body: z.object({ name: roleName, describe: text(255).optional() }) } },
    async (req) => {
      await assertFreeName(req.body.name);
      const row = await db
        .insertInto('roles')
        .values({ name: req.body.name, describe: req.body.describe ?? '', builtin: 0, created_at: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return v1('MSG_SC_SERVER_ADD_ROLE_ACK', { ID: row.id });
    },
  );

  r.post(
    '/api/v1/role',
    { config: admin, schema: { tags: ['roles'], body: z.object({ id, name: roleName, describe: text(255).optional() }) } },
    async (req) => {
      await editableRole(req.body.id);
      await assertFreeName(req.body.name, req.body.id);
      await db
        .updateTable('roles')
        .set({ name: req.body.name, ...(req.body.describe !== undefined ? { describe: req.body.describe } : {}) })
        .where('id', '=', req.body.id)
        .execute();
      return v1('MSG_SC_SERVER_UPDATE_ROLE_ACK', {});
    },
  );

  r.post(
    '/api/v1/deleterole',
    { config: admin, schema: { tags: ['roles'], body: z.object({ id }) } },
    async (req) => {
      await editableRole(req.body.id);
      const used = await db.selectFrom('users').select('id').where('role_id', '=', req.body.id).executeTakeFirst();
      if (used) throw new ApiError(400, 'roleInUse');
      await db.deleteFrom('roles').where('id', '=', req.body.id).execute();
      return v1('MSG_SC_SERVER_DELETE_ROLE_ACK', {});
    },
  );
}
