/** Server configuration: other-config, public home/login config, module switches, VQD base config. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HomeConfig } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import { v1, v2 } from '../../http/envelope.js';
import { flag, text } from '../../http/schemas.js';

export async function configRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['config'];

  r.get('/api/v1/getotherconfig', { config: { pending: true }, schema: { tags } }, async () =>
    v1('MSG_SC_SERVER_GET_OTHER_CONFIG_ACK', await ctx.config.get('other')),
  );

  r.post(
    '/api/v1/setotherconfig',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        body: z.object({
          Title: text(64).optional(),
          Copyright: text(255).optional(),
          RecordVersion: flag.optional(),
          MapKey: text(255).optional(),
        }),
      },
    },
    async (req) => v1('MSG_SC_SERVER_SET_OTHER_CONFIG_ACK', await ctx.config.set('other', req.body)),
  );

  async function homeConfig(): Promise<HomeConfig> {
    const o = await ctx.config.get('other');
    return { Title: o.Title, Version: o.Version, Copyright: o.Copyright, Initial: o.Initial, RecordVersion: o.RecordVersion };
  }
  r.get('/api/v1/gethomeotherconfig', { config: { access: 'public' }, schema: { tags } }, async () =>
    v1('MSG_SC_SERVER_GET_HOME_OTHER_CONFIG_ACK', await homeConfig()),
  );
  r.get('/api/v1/getloginconfig', { config: { access: 'public' }, schema: { tags } }, async () => {
    const h = await homeConfig();
    return v1('MSG_SC_SERVER_GET_LOGIN_CONFIG_ACK', { Title: h.Title, Version: h.Version, Copyright: h.Copyright, Captcha: false });
  });

  r.get('/api/v2/config/basic/switch', { config: { pending: true }, schema: { tags } }, async () =>
    v2(await ctx.config.get('switch')),
  );
  r.post(
    '/api/v2/config/basic/switch',
    { config: { access: 'admin' }, schema: { tags, body: z.object({ ai_platform: flag.optional(), vqd_show: flag.optional() }) } },
    async (req) => v2(await ctx.config.set('switch', req.body)),
  );

  r.get('/api/v1/vqd/base_config', { config: { pending: true }, schema: { tags } }, async () =>
    v1('MSG_SC_VQD_BASE_CONFIG_ACK', await ctx.config.get('vqd')),
  );
  r.post(
    '/api/v1/vqd/base_config',
    { config: { access: 'admin' }, schema: { tags, body: z.object({ is_show: flag }) } },
    async (req) => v1('MSG_SC_VQD_BASE_CONFIG_ACK', await ctx.config.set('vqd', req.body)),
  );
}
