/** What a role may see: the labels and single channels given to it (issue 3, spec 6). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMIN_ROLE_ID } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import { v1 } from '../../http/envelope.js';
import { ApiError, notFound } from '../../http/errors.js';
import { id } from '../../http/schemas.js';
import { channelRefs, listOf } from './inventory-schemas.js';

const tags = ['roles'];

export async function roleChannelRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  async function editableRole(roleId: number) {
    const role = await ctx.db.selectFrom('roles').selectAll().where('id', '=', roleId).executeTakeFirst();
    if (!role) throw notFound('role', { id: roleId });
    if (role.id === ADMIN_ROLE_ID) throw new ApiError(400, 'cannotChangeBuiltinRole');
  }

  r.get('/api/v1/role/channels', { config: { access: 'admin' }, schema: { tags, querystring: z.object({ roleid: id }) } }, async (req) => {
    const channels = await ctx.db
      .selectFrom('role_channels')
      .innerJoin('channels', 'channels.id', 'role_channels.channel_pk')
      .select(['channels.parent_device_id as DeviceID', 'channels.channel_id as ChannelID', 'channels.name as Name'])
      .where('role_channels.role_id', '=', req.query.roleid)
      .orderBy('channels.id')
      .execute();
    const labels = await ctx.db.selectFrom('role_labels').select('label_id').where('role_id', '=', req.query.roleid).execute();
    return v1('MSG_SC_SERVER_ROLE_CHANNELS_ACK', { Channels: channels, Labels: labels.map((l) => l.label_id) });
  });

  /** Replaces a role's grants; the whole change is refused if one channel or label does not exist. */
  r.post(
    '/api/v1/role/channels',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        body: z.object({
          roleid: id,
          channels: channelRefs.optional(),
          labels: listOf(z.coerce.number().int().positive(), 20000).optional(),
        }),
      },
    },
    async (req) => {
      const { roleid, channels, labels } = req.body;
      await editableRole(roleid);
      const pks = channels ? await ctx.inventory.labels.channelPks(channels) : undefined;
      if (labels?.length) {
        const found = await ctx.db.selectFrom('labels').select('id').where('id', 'in', labels).execute();
        const missing = labels.filter((l) => !found.some((f) => f.id === l));
        if (missing.length) throw notFound('label', { id: missing.join(', ') }, 400);
      }
      await ctx.db.transaction().execute(async (trx) => {
        if (pks) {
          await trx.deleteFrom('role_channels').where('role_id', '=', roleid).execute();
          for (let i = 0; i < pks.length; i += 500) {
            await trx.insertInto('role_channels').values(pks.slice(i, i + 500).map((pk) => ({ role_id: roleid, channel_pk: pk }))).execute();
          }
        }
        if (labels) {
          await trx.deleteFrom('role_labels').where('role_id', '=', roleid).execute();
          const unique = [...new Set(labels)];
          if (unique.length) await trx.insertInto('role_labels').values(unique.map((l) => ({ role_id: roleid, label_id: l }))).execute();
        }
      });
      return v1('MSG_SC_SERVER_ROLE_CHANNELS_ACK', {});
    },
  );
}
