/**
 * The playback socket: /ws_m4s/playback/<request id>.mp4?play_token=... (the URL devices/record/playback
 * answers). The token is signed for "playback:<id>"; without one, the session's own user (by its
 * login token) may connect. One socket per session; closing it ends the session. A socket let in by
 * a play token is closed at the token's expiry (token-expiry.ts), which ends the session too.
 * /ws_m4s/playback/<request id>_h264.mp4 (URLs.WS_FMP4_H264 of an H.265 recording, the platform's or
 * a GB device's; same token) plays the same session with its video transcoded to H.264, for browsers
 * without H.265 (a device's session decides once its stream shows the codec: an H.264 one passes
 * through). Both kinds of legs count against one bound (PlaybackService.transcodeSlot).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { isAdmin, tokenOf } from '../../http/auth.js';
import { ApiError, duplicate, notFound } from '../../http/errors.js';
import { playbackOf } from '../../services/playback/index.js';
import { gbRecordsOf } from '../../gb/records/index.js';
import { endAtExpiry, grantExpiry, grantUntil, TOKEN_EXPIRED_CLOSE } from './token-expiry.js';

const idOf = (name: string) => /^([0-9a-f]{32})(?:_h264)?\.mp4$/.exec(name)?.[1];
/** The H.264 leg's name (the live variant's suffix: H264_VARIANT). */
const wantsH264 = (name: string) => name.endsWith('_h264.mp4');

export async function playbackMediaRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const playback = playbackOf(ctx, app.log);
  /** The platform's own playback session, or one of a recording kept on a GB device (same protocol). */
  const sessionOf = (id: string) => playback.get(id) ?? gbRecordsOf(ctx).get(id);
  playback.otherLegs = () => gbRecordsOf(ctx).transcoding;

  async function authorize(req: FastifyRequest<{ Params: { name: string } }>) {
    const id = idOf(req.params.name);
    const session = id ? sessionOf(id) : undefined;
    if (!id || !session) throw notFound('playbackSession');
    if (session.attached) throw duplicate('playbackSocket');
    const playToken = (req.query as Record<string, unknown>)?.play_token;
    if (typeof playToken === 'string' && playToken) {
      const check = await ctx.streams.checkToken(playToken, `playback:${id}`);
      if (check.ok) {
        grantUntil(req, check.claims.e);
        return session;
      }
      throw new ApiError(401, 'playTokenInvalid');
    }
    const token = tokenOf(req);
    const found = token ? await ctx.tokens.resolve(token) : undefined;
    if (!found?.user.enable) throw new ApiError(401, 'unauthorized');
    if (found.user.id !== session.userId && !isAdmin(found.user)) throw notFound('playbackSession');
    return session;
  }

  app.get<{ Params: { name: string } }>(
    '/ws_m4s/playback/:name',
    { websocket: true, preValidation: async (req) => void (await authorize(req)) },
    (socket, req) => {
      const id = idOf(req.params.name)!;
      const session = sessionOf(id);
      if (!session || session.attached) {
        socket.close(1011, 'playback session gone');
        return;
      }
      const expire = endAtExpiry(grantExpiry(req), () => socket.close(TOKEN_EXPIRED_CLOSE.code, TOKEN_EXPIRED_CLOSE.reason));
      const done = () => {
        expire();
        session.close();
      };
      socket.on('close', done);
      socket.on('error', done);
      socket.on('message', () => undefined);
      const own = playback.get(id);
      if (!wantsH264(req.params.name)) session.attach(socket);
      else if (own) own.attach(socket, { h264: true });
      else session.attach(socket, { h264: true, transcodeSlot: () => playback.transcodeSlot() });
    },
  );
}
