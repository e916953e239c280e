/**
 * GET /api/v1/devices/channelthumb?device&channel: the channel's stored thumbnail (see
 * services/media/thumbnails.ts), for the video square's cards. Unlike channelsnap it never opens a
 * stream nor decodes: it reads a file, so a page of 20 cards costs 20 file reads. 204 (no content)
 * when the channel has none yet: the card's <img> fails as on a 404 and keeps its placeholder, but
 * Chromium logs no "Failed to load resource" for it, where a 404 logged one per card and retry, and
 * one per card every 2 min after (useThumbRefresh) on a square left open all day. Cached by the
 * browser (ETag, Last-Modified): a page looked at again within a minute costs no request, later a
 * 304. Limited, like channelsnap, to the channels the user's role may see.
 */
import fs from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../http/errors.js';
import { scopeOf } from '../../services/inventory/scope.js';
import type { StoredThumbnail } from '../../services/media/thumbnail-store.js';
import { channelId, deviceId } from '../api/inventory-schemas.js';

const query = z.object({ device: deviceId, channel: channelId });

/** None yet: nothing the browser should keep, so a later ask reaches the server. */
const noPicture = (reply: FastifyReply) =>
  reply.removeHeader('ETag').removeHeader('Last-Modified').header('Cache-Control', 'no-store').status(204).send();

/** A new file (size or time) is a new tag. */
const etagOf = (t: StoredThumbnail) => `"${Math.floor(t.mtimeMs).toString(36)}-${t.size.toString(36)}"`;

/** Whether the browser's copy is the stored one (If-None-Match wins over If-Modified-Since, RFC 9110 13.2.2). */
function unchanged(req: FastifyRequest, t: StoredThumbnail, etag: string): boolean {
  const match = req.headers['if-none-match'];
  if (match) return match.split(',').some((m) => m.trim().replace(/^W\//, '') === etag);
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  // HTTP dates have whole seconds.
  return Number.isFinite(since) && Math.floor(t.mtimeMs / 1000) * 1000 <= since;
}

export async function thumbnailRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/v1/devices/channelthumb', { schema: { tags: ['streams'], querystring: query } }, async (req, reply) => {
    const q = req.query;
    const c = await ctx.inventory.channels.requireVisible(await scopeOf(ctx.db, req.user!), q.device, q.channel);
    const d = await ctx.inventory.devices.require(q.device);
    if (!c.enable || !d.enable) throw new ApiError(400, 'channelDisabled');
    // Without a running stream, the channel's own snapshot address (if any) gives the picture; the
    // credentials as the stream's (sources.ts): the channel's, else the device's.
    const snapshot = c.snap_url ? { url: c.snap_url, username: c.username || d.device_username, password: c.password || d.device_password } : undefined;
    ctx.thumbnails.asked(c.id, snapshot);
    const stored = await ctx.thumbnails.store.stat(c.id);
    if (!stored) return noPicture(reply);
    const etag = etagOf(stored);
    reply
      .header('Cache-Control', 'private, max-age=60')
      .header('ETag', etag)
      .header('Last-Modified', new Date(stored.mtimeMs).toUTCString());
    if (unchanged(req, stored, etag)) return reply.status(304).send();
    // Replaced by a rename, never written in place: what is read is one whole JPEG.
    const jpeg = await fs.readFile(stored.file).catch(() => undefined);
    if (!jpeg) return noPicture(reply);
    return reply.type('image/jpeg').send(jpeg);
  });
}
