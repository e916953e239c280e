/**
 * LL-HLS (fMP4) routes: /hls/KEY/playlist.m3u8 (blocking reloads with _HLS_msn/_HLS_part), init.mp4
 * (init_N.mp4 after a change of tracks), seg_N.m4s and part_N_I.m4s (a preload-hinted part blocks until
 * it exists). Every request is authorised with authorizeMedia(); the playlist's URIs carry the
 * request's play_token (or token) on. The first playlist request of a stream opens its HLS session,
 * which ends 30 s after the last request. A request of a stream whose hub stopped (a transcoded leg
 * whose camera is H.264 again, a stream stopped on request) is answered 410 with why in
 * STREAM_STOPPED_HEADER, at once where it waited: hls.js retries a 503 twice (1 + 2 s) and no 4xx.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STREAM_STOPPED_HEADER, stoppedCloseReason } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import { ApiError, invalidParam, notFound } from '../../http/errors.js';
import { DEFAULT_HLS_OPTIONS, HlsSessions, type HlsSession, type HlsStopped } from '../../media/outputs/hls.js';
import { authSuffix, renderPlaylist } from '../../media/outputs/hls-playlist.js';
import { outputViewers } from '../../media/stats.js';
import { authorizeMedia, mediaHub } from './index.js';

/** How long a first playlist request waits for the first complete segment. */
const FIRST_SEGMENT_WAIT_MS = 15_000;
/**
 * How long a playlist request waits for the first part of a new init (the camera back, ~0.5 s after
 * its tracks): before it, the playlist has nothing of the new tracks, so EXT-X-START cannot point a
 * new player there and it starts on the old ones (another codec, which this browser may not decode).
 */
const NEW_INIT_WAIT_MS = 2_000;

/** The answer to a request of a stream whose hub stopped: 410, its words in STREAM_STOPPED_HEADER. */
function gone(reply: FastifyReply, stopped: HlsStopped): ApiError {
  reply.header(STREAM_STOPPED_HEADER, stoppedCloseReason(stopped.why));
  return new ApiError(410, 'streamStoppedBecause', { reason: stopped.why ?? stopped.reason });
}

const clientOf = (req: FastifyRequest) => `${req.ip}|${req.headers['user-agent'] ?? ''}`;
const intParam = (v: unknown): number | undefined => {
  if (typeof v !== 'string' || !/^\d{1,9}$/.test(v)) return undefined;
  return Number(v);
};

export async function hlsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const sessions = new HlsSessions(DEFAULT_HLS_OPTIONS, (err) => app.log.warn({ err }, 'hls output dropped a unit'));
  const unprovide = outputViewers(ctx.streams).provide('HLS', (key) => sessions.viewers(key));
  app.addHook('preClose', async () => {
    sessions.closeAll();
    unprovide();
  });

  async function session(req: FastifyRequest, reply: FastifyReply, key: string, create: boolean): Promise<HlsSession> {
    await authorizeMedia(ctx, req, key);
    const hub = await mediaHub(ctx, key);
    const existing = sessions.get(key);
    const s = create ? sessions.open(hub) : existing && !existing.closed && existing.hub === hub ? existing : undefined;
    if (!s) {
      const stopped = sessions.stoppedOf(key);
      throw stopped ? gone(reply, stopped) : notFound('stream', { id: key });
    }
    // A new leg of a camera that is H.264 again ends as it starts.
    if (s.stopped) throw gone(reply, s.stopped);
    s.touch(clientOf(req));
    return s;
  }

  const media = (reply: FastifyReply, data: Uint8Array) =>
    reply
      .header('Cache-Control', 'max-age=60')
      .type('video/mp4')
      .send(Buffer.from(data.buffer, data.byteOffset, data.byteLength));

  app.get<{ Params: { key: string; file: string }; Querystring: Record<string, string | undefined> }>(
    '/hls/:key/:file',
    async (req, reply) => {
      const { key, file } = req.params;
      if (file === 'playlist.m3u8' || file === 'index.m3u8') {
        const s = await session(req, reply, key, true);
        const seg = s.segmenter;
        const ready = await seg.waitFor(() => seg.completeCount > 0 || s.closed, FIRST_SEGMENT_WAIT_MS);
        if (s.stopped) throw gone(reply, s.stopped);
        if (!ready || s.closed) throw new ApiError(503, 'channelOffline');
        if (seg.initPending) {
          await seg.waitFor(() => !seg.initPending || s.closed, NEW_INIT_WAIT_MS);
          if (s.stopped) throw gone(reply, s.stopped);
        }
        const msn = intParam(req.query._HLS_msn);
        const part = intParam(req.query._HLS_part);
        if (req.query._HLS_part !== undefined && msn === undefined)
          throw invalidParam('_HLS_part', 'needsWith', { other: '_HLS_msn' });
        if (msn !== undefined) {
          const last = seg.position.lastPart?.msn ?? -1;
          if (msn > last + 2)
            throw invalidParam('_HLS_msn', 'hlsTooFarAhead');
          // A blocking reload: answer once the playlist has that segment/part, or after 3 target durations.
          await seg.waitFor(() => s.closed || seg.has(msn, part), 3 * seg.model().targetDuration * 1000);
          if (s.stopped) throw gone(reply, s.stopped);
        }
        return reply
          .header('Cache-Control', 'no-cache')
          .type('application/vnd.apple.mpegurl')
          .send(renderPlaylist(seg.model(), authSuffix(req.query)));
      }
      let m: RegExpExecArray | null;
      if ((m = /^init(?:_(\d{1,6}))?\.mp4$/.exec(file))) {
        const s = await session(req, reply, key, false);
        const init = s.segmenter.init(m[1] === undefined ? 0 : Number(m[1]));
        if (!init) throw notFound('file', { id: file });
        return media(reply, init);
      }
      if ((m = /^seg_(\d{1,9})\.m4s$/.exec(file))) {
        const s = await session(req, reply, key, false);
        const data = s.segmenter.segment(Number(m[1]))?.data;
        if (!data) throw notFound('file', { id: file });
        return media(reply, data);
      }
      if ((m = /^part_(\d{1,9})_(\d{1,4})\.m4s$/.exec(file))) {
        const s = await session(req, reply, key, false);
        const seg = s.segmenter;
        const msn = Number(m[1]);
        const index = Number(m[2]);
        const last = seg.position.lastPart?.msn ?? -1;
        if (msn <= last + 1) {
          // The preload hint's part: wait for it (or for its segment to end without it).
          await seg.waitFor(
            () => s.closed || !!seg.part(msn, index) || !!seg.segment(msn) || (seg.position.lastPart?.msn ?? -1) > msn,
            3 * seg.opts.partTarget * 1000 + 2000,
          );
          if (s.stopped) throw gone(reply, s.stopped);
        }
        const part = seg.part(msn, index);
        if (!part) throw notFound('file', { id: file });
        return media(reply, part.data);
      }
      throw new ApiError(404, 'routeNotFound');
    },
  );
}
