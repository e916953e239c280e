/**
 * GET /api/v1/devices/channelsnap?device&channel[&stream]: a JPEG of the channel's latest keyframe
 * (spec: devices/channelsnap). A user call (the API's auth hook runs), limited to the channels the
 * user's role may see; the stream is opened if it is not running. The channel's stored thumbnail
 * (channelthumb) is made again from the same stream soon after, unless it is fresh.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { ApiError, invalidParam } from '../../http/errors.js';
import { scopeOf } from '../../services/inventory/scope.js';
import { SnapshotError, SnapshotService } from '../../media/snapshot.js';
import { channelId, deviceId } from '../api/inventory-schemas.js';

const query = z.object({
  device: deviceId,
  channel: channelId,
  stream: z
    .union([z.enum(['main', 'sub']), z.coerce.number().int().min(0).max(1)])
    .transform((f): 0 | 1 => (f === 'sub' || f === 1 ? 1 : 0))
    .default(0),
});

export async function snapshotRoutes(
  app: FastifyInstance,
  { ctx, snapshots = new SnapshotService() }: { ctx: AppContext; snapshots?: SnapshotService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/v1/devices/channelsnap', { schema: { tags: ['streams'], querystring: query } }, async (req, reply) => {
    const q = req.query;
    const c = await ctx.inventory.channels.requireVisible(await scopeOf(ctx.db, req.user!), q.device, q.channel);
    const d = await ctx.inventory.devices.require(q.device);
    if (!c.enable || !d.enable) throw new ApiError(400, 'channelDisabled');
    const hub = ctx.streams.open(d, c, q.stream);
    if (!hub)
      throw invalidParam('channel', 'noStreamSource');
    try {
      const jpeg = await snapshots.jpeg(hub);
      ctx.thumbnails.snapped(hub);
      return reply.header('Cache-Control', 'no-cache').type('image/jpeg').send(jpeg);
    } catch (err) {
      if (err instanceof SnapshotError) {
        req.log.warn({ err, stream: hub.key }, 'snapshot failed');
        throw new ApiError(503, 'channelOffline');
      }
      throw err;
    }
  });
}
