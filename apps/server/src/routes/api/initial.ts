/**
 * First-run initialisation (spec 4, 5): the administrator replaces the default password, sets the
 * GB28181 (SIP) and EHome device passwords and may rename the admin login. Runs once.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { schemaReason } from '../../http/zod-reason.js';
import { isStrongPassword, message } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import { ApiError, duplicate } from '../../http/errors.js';
import { md5 } from '../../http/schemas.js';
import { hashPasswordDigest, md5Hex, verifyPasswordDigest } from '../../services/auth/passwords.js';

export async function initialRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/v1/setinitial',
    {
      config: { access: 'admin', pending: true },
      schema: {
        tags: ['config'],
        body: z.object({
          Username: z.string().trim().max(64).regex(/^[A-Za-z0-9_.@-]*$/, schemaReason('allowedChars', { chars: '_ . @ -' })).optional(),
          SipPassword: z.string().max(64).default(''),
          EhomePassword: z.string().max(64).default(''),
          OldPassword: md5.or(z.literal('')).default(''),
          NewPassword: z.string().max(128).default(''),
        }),
      },
    },
    async (req) => {
      const b = req.body;
      const user = req.user!;
      if (!(await ctx.config.get('other')).Initial) throw new ApiError(400, 'alreadyInitialised');
      if (!b.OldPassword) throw new ApiError(400, 'oldPasswordRequired');
      if (!b.NewPassword) throw new ApiError(400, 'newPasswordRequired');
      if (!isStrongPassword(b.NewPassword)) throw new ApiError(400, 'passwordRule');
      if (md5Hex(b.NewPassword) === b.OldPassword) throw new ApiError(400, 'passwordSameAsOld');
      if (!b.SipPassword) throw new ApiError(400, 'sipPasswordRequired');
      if (!b.EhomePassword) throw new ApiError(400, 'ehomePasswordRequired');
      if (!(await verifyPasswordDigest(user.password_hash, b.OldPassword))) throw new ApiError(400, 'oldPasswordWrong');
      const username = b.Username || user.username;
      if (username !== user.username) {
        const taken = await ctx.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
        if (taken) throw duplicate({ name: username });
      }
      const hash = await hashPasswordDigest(md5Hex(b.NewPassword));
      await ctx.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ username, password_hash: hash, must_change_password: 0, updated_at: new Date().toISOString() })
          .where('id', '=', user.id)
          .execute();
        await trx.deleteFrom('tokens').where('user_id', '=', user.id).execute();
      });
      ctx.tokens.forgetUser(user.id);
      await ctx.config.set('gb', { DevicePassword: b.SipPassword });
      await ctx.config.set('ehome', { Password: b.EhomePassword });
      await ctx.config.set('other', { Initial: false });
      return { code: 200, msg: message('initSuccess', req.lang), status: 200 };
    },
  );
}
