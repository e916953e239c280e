/** Login, user info, logout, password change and API tokens. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isStrongPassword, message } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import { v1 } from '../../http/envelope.js';
import { ApiError, notFound } from '../../http/errors.js';
import { id, md5 } from '../../http/schemas.js';
import { hashPasswordDigest, md5Hex, verifyPasswordDigest } from '../../services/auth/passwords.js';
import { userInfo } from '../../services/users/userinfo.js';

const loginInput = z.object({
  username: z.string().trim().min(1).max(64),
  password: md5,
  captcha: z.string().optional(),
});

// Verified when the user does not exist, so a wrong name takes as long as a wrong password.
let dummyHash: Promise<string> | undefined;

export async function authRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  async function login(req: FastifyRequest, input: z.infer<typeof loginInput>) {
    const ip = req.ip;
    const locked = await ctx.lockout.lockedMinutes(input.username, ip);
    if (locked) throw new ApiError(429, 'loginLocked', { minutes: locked });
    const user = await ctx.db.selectFrom('users').selectAll().where('username', '=', input.username).executeTakeFirst();
    dummyHash ??= hashPasswordDigest(md5Hex('not a password'));
    const ok = await verifyPasswordDigest(user?.password_hash ?? (await dummyHash), input.password);
    if (!user || !ok) {
      const nowLocked = await ctx.lockout.fail(input.username, ip);
      if (nowLocked) throw new ApiError(429, 'loginLocked', { minutes: 15 });
      throw new ApiError(400, 'badCredentials');
    }
    if (!user.enable) throw new ApiError(403, 'userDisabled');
    await ctx.lockout.clear(input.username, ip);
    const { token, ttl } = await ctx.tokens.issue(user.id, { ip });
    return v1('MSG_SC_SERVER_LOGIN_ACK', {
      Token: token,
      TokenTimeout: ttl,
      UserInfo: await userInfo(ctx.db, user, token),
    });
  }

  r.get('/api/v1/login', { config: { access: 'public' }, schema: { querystring: loginInput, tags: ['auth'] } }, (req) =>
    login(req, req.query),
  );
  r.post('/api/v1/login', { config: { access: 'public' }, schema: { body: loginInput, tags: ['auth'] } }, (req) =>
    login(req, req.body),
  );

  r.get('/api/v1/getuserinfo', { config: { pending: true }, schema: { tags: ['auth'] } }, async (req) =>
    v1('MSG_SC_SERVER_GET_USERINFO_ACK', await userInfo(ctx.db, req.user!, req.token)),
  );

  r.get('/api/v1/logout', { config: { pending: true }, schema: { tags: ['auth'] } }, async (req) => {
    await ctx.tokens.revoke(req.token!);
    return v1('MSG_SC_SERVER_LOGOUT_ACK', {});
  });

  r.post(
    '/api/v1/modifypassword',
    {
      config: { pending: true },
      schema: {
        tags: ['auth'],
        body: z.object({
          username: z.string().trim().max(64).optional(),
          oldpassword: md5,
          newpassword: z.string().max(128),
        }),
      },
    },
    async (req) => {
      const user = req.user!;
      const { username, oldpassword, newpassword } = req.body;
      if (username && username !== user.username) throw new ApiError(403, 'forbidden');
      if (!newpassword) throw new ApiError(400, 'newPasswordRequired');
      if (!isStrongPassword(newpassword)) throw new ApiError(400, 'passwordRule');
      const newDigest = md5Hex(newpassword);
      if (newDigest === oldpassword) throw new ApiError(400, 'passwordSameAsOld');
      if (!(await verifyPasswordDigest(user.password_hash, oldpassword))) throw new ApiError(400, 'oldPasswordWrong');
      await ctx.db
        .updateTable('users')
        .set({ password_hash: await hashPasswordDigest(newDigest), must_change_password: 0, updated_at: new Date().toISOString() })
        .where('id', '=', user.id)
        .execute();
      // Every session of the user ends: whoever knew the old password is out.
      await ctx.tokens.revokeUser(user.id);
      const msg = message('passwordChanged', req.lang);
      return { code: 200, msg, ...v1('MSG_SC_SERVER_MODIFY_PASSWORD_ACK', {}, 200, msg) };
    },
  );

  r.get('/api/v1/gettoken', { schema: { tags: ['auth'] } }, async (req) => {
    const found = await ctx.tokens.resolve(req.token!);
    return v1('MSG_SC_SERVER_GET_TOKEN_ACK', { Token: req.token!, ExpiresAt: found?.expiresAt ?? '' });
  });

  const genToken = z.object({ days: z.coerce.number().int().min(1).max(3650).default(365) });
  const gen = async (req: FastifyRequest, days: number) => {
    const { token, expiresAt } = await ctx.tokens.issue(req.user!.id, { kind: 'api', ttlSeconds: days * 86400, ip: req.ip });
    return v1('MSG_SC_SERVER_GEN_TOKEN_ACK', { Token: token, ExpiresAt: expiresAt });
  };
  r.get('/api/v1/gentoken', { schema: { tags: ['auth'], querystring: genToken } }, (req) => gen(req, req.query.days));
  r.post('/api/v1/gentoken', { schema: { tags: ['auth'], body: genToken } }, (req) => gen(req, req.body.days));

  r.get(
    '/api/v1/getusertoken',
    { config: { access: 'admin' }, schema: { tags: ['auth'], querystring: z.object({ id }) } },
    async (req) => {
      const exists = await ctx.db.selectFrom('users').select('id').where('id', '=', req.query.id).executeTakeFirst();
      if (!exists) throw notFound('user', { id: req.query.id });
      return v1('MSG_SC_SERVER_GET_USER_TOKEN_ACK', { Tokens: await ctx.tokens.list(req.query.id) });
    },
  );
}
