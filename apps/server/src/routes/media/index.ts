/**
 * Media outputs served to players (issue 4). Outside /api, so the API's auth hook does not apply:
 * each output authorises its own requests. With play authentication on, a request needs either the
 * play_token handed out with the URL (signed, for this stream, not expired) or a logged-in user's
 * token whose role may see the channel. A connection let in by a play token ends when the token
 * expires (token-expiry.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { tokenOf } from '../../http/auth.js';
import { ApiError, notFound } from '../../http/errors.js';
import { scopeOf } from '../../services/inventory/scope.js';
import { parseStreamKey } from '../../services/media/streams.js';
import { LIVE_MAX_BUFFERED_BYTES, WsFmp4Output } from '../../media/outputs/ws-fmp4.js';
import { sendInPlace } from '../../media/outputs/ws-in-place.js';
import type { StreamHub } from '../../media/hub.js';
import { outputViewers } from '../../media/stats.js';
import { flvRoutes } from './flv.js';
import { hlsRoutes } from './hls.js';
import { playbackMediaRoutes } from './playback.js';
import { snapshotRoutes } from './snapshot.js';
import { thumbnailRoutes } from './thumbnail.js';
import { webrtcRoutes } from './webrtc.js';
import { endAtExpiry, grantExpiry, grantUntil, TOKEN_EXPIRED_CLOSE } from './token-expiry.js';

export async function authorizeMedia(ctx: AppContext, req: FastifyRequest, key: string) {
  const parsed = parseStreamKey(key);
  if (!parsed) throw new ApiError(404, 'routeNotFound');
  const { PlayAuth } = await ctx.config.get('play');
  if (!PlayAuth) return parsed;
  const playToken = (req.query as Record<string, unknown>)?.play_token;
  if (typeof playToken === 'string' && playToken) {
    const check = await ctx.streams.checkToken(playToken, key);
    if (check.ok) {
      grantUntil(req, check.claims.e);
      return parsed;
    }
    throw new ApiError(401, 'playTokenInvalid');
  }
  const token = tokenOf(req);
  const found = token ? await ctx.tokens.resolve(token) : undefined;
  if (!found?.user.enable) throw new ApiError(401, 'unauthorized');
  const scope = await scopeOf(ctx.db, found.user);
  if (!scope.all) {
    const ch = await ctx.db.selectFrom('channels').select(['parent_device_id', 'channel_id']).where('id', '=', parsed.channelPk).executeTakeFirst();
    if (!ch) throw new ApiError(404, 'routeNotFound');
    await ctx.inventory.channels.requireVisible(scope, ch.parent_device_id, ch.channel_id);
  }
  return parsed;
}

/**
 * The hub behind an authorised media URL. A URL stays good while its token does: if the stream
 * stopped meanwhile (an on-demand grace ran out before the player connected, a restart of the
 * server), it is opened again here instead of answering 404.
 */
export async function mediaHub(ctx: AppContext, key: string): Promise<StreamHub> {
  const running = ctx.streams.get(key);
  if (running && running.state !== 'stopped') return running;
  const parsed = parseStreamKey(key);
  if (parsed && !parsed.variant) {
    const c = await ctx.db.selectFrom('channels').selectAll().where('id', '=', parsed.channelPk).executeTakeFirst();
    const d = c ? await ctx.inventory.devices.get(c.parent_device_id) : undefined;
    if (c && d && c.enable && d.enable) {
      const hub = ctx.streams.open(d, c, parsed.flow);
      if (hub) return hub;
    }
  }
  throw notFound('stream', { id: key });
}

export async function mediaRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  await app.register(hlsRoutes, { ctx });
  await app.register(flvRoutes, { ctx });
  await app.register(snapshotRoutes, { ctx });
  await app.register(thumbnailRoutes, { ctx });
  await app.register(webrtcRoutes, { ctx });
  await app.register(playbackMediaRoutes, { ctx });
  app.get<{ Params: { name: string } }>(
    '/ws_m4s/live/:name',
    {
      websocket: true,
      preValidation: async (req) => {
        const key = req.params.name.replace(/\.mp4$/, '');
        await authorizeMedia(ctx, req, key);
        await mediaHub(ctx, key);
      },
    },
    (socket, req) => {
      const key = req.params.name.replace(/\.mp4$/, '');
      const hub = ctx.streams.get(key);
      if (!hub) {
        socket.close(1011, 'stream not open');
        return;
      }
      const output = new WsFmp4Output(socket, {
        maxBufferedBytes: LIVE_MAX_BUFFERED_BYTES,
        sendInPlace: (payload, done) => sendInPlace(socket, payload, done),
      });
      const release = outputViewers(ctx.streams).add(key, 'WS_FMP4');
      const unsubscribe = hub.subscribe(output);
      const expire = endAtExpiry(grantExpiry(req), () => socket.close(TOKEN_EXPIRED_CLOSE.code, TOKEN_EXPIRED_CLOSE.reason));
      const done = () => {
        expire();
        unsubscribe();
        release();
      };
      socket.on('close', done);
      socket.on('error', done);
      socket.on('message', () => undefined);
    },
  );
}
