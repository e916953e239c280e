/** Favourite channels, per user (issue 3). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { isAdmin } from '../../http/auth.js';
import { v1 } from '../../http/envelope.js';
import { flag, text } from '../../http/schemas.js';
import { scopeOf } from '../../services/inventory/scope.js';
import { channelId, deviceId, listWindow } from './inventory-schemas.js';

const tags = ['favorites'];
const ref = z.object({ device: deviceId, channel: channelId });

export async function favoriteRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { channels } = ctx.inventory;

  r.get('/api/v1/addfavoriteschannel', { schema: { tags, querystring: ref } }, async (req) => {
    const scope = await scopeOf(ctx.db, req.user!);
    const c = await channels.requireVisible(scope, req.query.device, req.query.channel);
    await ctx.db
      .insertInto('favorites')
      .values({ user_id: req.user!.id, channel_pk: c.id, created_at: new Date().toISOString() })
      .onConflict((oc) => oc.columns(['user_id', 'channel_pk']).doNothing())
      .execute();
    return v1('MSG_SC_SERVER_ADD_FAVORITES_ACK', { FavoritesChannel: 1 });
  });

  r.get('/api/v1/deletefavoriteschannel', { schema: { tags, querystring: ref } }, async (req) => {
    const scope = await scopeOf(ctx.db, req.user!);
    const c = await channels.requireVisible(scope, req.query.device, req.query.channel);
    await ctx.db.deleteFrom('favorites').where('user_id', '=', req.user!.id).where('channel_pk', '=', c.id).execute();
    return v1('MSG_SC_SERVER_DELETE_FAVORITES_ACK', { FavoritesChannel: 0 });
  });

  /**
   * The favourites tab: the user's favourite channels that it may still see, paged. Optional `q`
   * (name or ID) and `cameras` (no directories) let the video square page and search them on the
   * server, 20 cards a page, instead of reading them all (limit 9999) to page and search in the browser.
   */
  r.get(
    '/api/v1/favorites',
    { schema: { tags, querystring: listWindow.extend({ q: text(128).optional(), cameras: flag.optional() }) } },
    async (req) => {
      const { cameras, ...w } = req.query;
      const scope = await scopeOf(ctx.db, req.user!);
      const p = await channels.list(
        scope,
        { ...w, favoritesOf: req.user!.id, camerasOnly: cameras },
        req.user!.id,
        isAdmin(req.user!),
        req.lang,
      );
      return v1('MSG_SC_SERVER_FAVORITES_ACK', {
        Channels: p.rows,
        ChannelCount: p.total,
      });
    },
  );

  /** Just the keys of the user's favourites, to flag channels in any list. */
  r.get('/api/v1/favoritechannels', { schema: { tags } }, async (req) => {
    const rows = await ctx.db
      .selectFrom('favorites')
      .innerJoin('channels', 'channels.id', 'favorites.channel_pk')
      .select(['channels.parent_device_id as DeviceID', 'channels.channel_id as ChannelID'])
      .where('favorites.user_id', '=', req.user!.id)
      .execute();
    return v1('MSG_SC_SERVER_FAVORITE_CHANNELS_ACK', { Channels: rows });
  });
}
