/** The message log (bell): paged list, read and delete marks, and the live events websocket. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { v1 } from '../../http/envelope.js';
import { id } from '../../http/schemas.js';
import { isAdmin } from '../../http/auth.js';
import type { EventMessage } from '@opencvr/shared';
import { cdnPushStatus } from '../../services/media/cdn-status.js';
import { scopeOf, visibleChannelIds } from '../../services/inventory/scope.js';
import type { User } from '../../db/schema.js';

/** How long a socket's set of visible channels is used before it is read again (a role edited). */
const VISIBLE_FOR_MS = 5000;

/**
 * The "device/channel" keys a user who is not an administrator may see, read at most every
 * VISIBLE_FOR_MS: a burst of 1,500 online/offline messages costs one query per socket, not 1,500.
 */
function visibleChannelKeys(ctx: AppContext, user: User): () => Promise<Set<string>> {
  let at = 0;
  let keys: Promise<Set<string>> | undefined;
  return () => {
    if (!keys || Date.now() - at > VISIBLE_FOR_MS) {
      at = Date.now();
      keys = (async () => {
        const scope = await scopeOf(ctx.db, user);
        const rows = await ctx.db
          .selectFrom('channels')
          .select(['parent_device_id', 'channel_id'])
          .where((eb) => visibleChannelIds(eb, scope) ?? eb.lit(true))
          .execute();
        return new Set(rows.map((r) => `${r.parent_device_id}/${r.channel_id}`));
      })();
    }
    return keys;
  };
}

export async function newsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['news'];

  r.get(
    '/api/v1/newslist',
    {
      schema: {
        tags,
        querystring: z.object({
          start: z.coerce.number().int().min(0).default(0),
          limit: z.coerce.number().int().min(1).max(200).default(20),
          /** Optional cursor: the page after this message (the last one the caller holds), stable while new ones arrive. */
          before: id.optional(),
        }),
      },
    },
    async (req) =>
      v1('MSG_SC_NEWS_LIST_ACK', await ctx.news.list(req.user!.id, req.query.start, req.query.limit, req.query.before, await scopeOf(ctx.db, req.user!))),
  );
  r.post('/api/v1/news/read', { schema: { tags, body: z.object({ id: id.optional() }).optional() } }, async (req) => {
    await ctx.news.markRead(req.user!.id, req.body?.id);
    return v1('MSG_SC_NEWS_READ_ACK', {});
  });
  r.post('/api/v1/news/delete', { schema: { tags, body: z.object({ id }) } }, async (req) => {
    await ctx.news.remove(req.user!.id, req.body.id);
    return v1('MSG_SC_NEWS_DELETE_ACK', {});
  });

  // Live pushes. The auth hook has already checked the token (query parameter for browsers).
  app.get('/api/v1/ws/events', { websocket: true, config: { pending: true } }, (socket, req) => {
    socket.send(JSON.stringify({ topic: 'hello', payload: { time: new Date().toISOString() } }));
    // Alarms are the administrator's (spec 6: /alarm is closed to other roles), so only admins get them pushed.
    const admin = !!req.user && isAdmin(req.user);
    // A CDN push's state is the channel settings' (admin only), rendered in the socket's language.
    const lang = req.lang;
    // Another user gets the news of the channels their role may see, in the order they came.
    const visible = admin ? undefined : visibleChannelKeys(ctx, req.user!);
    let inOrder = Promise.resolve();
    const off = ctx.events.subscribe((msg) => {
      if ((msg.topic === 'alarm' || msg.topic === 'catalog' || msg.topic === 'cdn') && !admin) return;
      if (socket.readyState !== socket.OPEN) return;
      if (msg.topic === 'news' && visible) {
        const key = `${msg.payload.DeviceID}/${msg.payload.ChannelID}`;
        inOrder = inOrder
          .then(async () => {
            if ((await visible()).has(key) && socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
          })
          .catch((err) => req.log.warn({ err }, 'events: a news message was not checked against the role'));
        return;
      }
      const out: EventMessage =
        msg.topic === 'cdn'
          ? { topic: 'cdn', payload: { DeviceID: msg.payload.deviceId, ChannelID: msg.payload.channelId, CdnPush: msg.payload.snapshot && cdnPushStatus(msg.payload.snapshot, lang) } }
          : msg;
      socket.send(JSON.stringify(out));
    });
    socket.on('close', off);
    socket.on('error', off);
    // The console sends nothing; anything it sends is ignored.
    socket.on('message', () => undefined);
  });
}
