/**
 * WebSocket /api/v1/ws/streamstat?request_id=…[&playerid=…&stream=KEY]: every second, the status of
 * the streams this client asked about (spec 4/7: each message carries its playerid). Under /api, so
 * the auth hook has already resolved the user (token query parameter for browsers); a stream is only
 * reported if the user's role may see its channel.
 *
 * Client → server (text JSON): {playerid, stream} or {playerid, device, channel, flow?} adds a player
 * (the same playerid again replaces it); {type: 'remove', playerid} drops it.
 * Server → client: {type: 'streamstat', request_id, playerid, stream, state, reason, viewers, bitrateKbps,
 * fps, width, height, videoCodec, audioCodec, uptime, restarts, …, gb?: {DeviceID, ChannelID, Transport, SSRC,
 * AnswerSSRC, DeviceMedia, CallID, Since} for a GB28181 stream, recording (the channel is being recorded
 * now) and manualRecording (by realtimerecord/start)} per player per second, and
 * {type: 'error', request_id, playerid, msg} for a stream it may not see or cannot find.
 *
 * The rights are those of now, not of the socket's opening: every RECHECK_MS the login is resolved
 * again and the players' channels checked against the role as it is then. A channel taken from the
 * role is dropped with an error for its player; a login that ended (logout, expiry, the user disabled
 * or deleted) closes the socket with 1008.
 *
 * WebSocket /api/v1/ws/share/streamstat?device=…&channel=…&stream=0|1&play_token=…: the same every
 * second for the public /share and /players pages, which have no login: a shared link's play token
 * (share/channelstream's) instead, for that link's one stream and nothing else. It sends only what a
 * public viewer needs, {type: 'streamstat', state, reason} (no viewer counts, codecs, GB session or
 * recording), reads nothing the page sends, and closes with 1008 `play token expired` when the link
 * does (token-expiry.ts). A tampered, cut, expired or other stream's token is refused at the upgrade
 * (401), as is a socket without one (400): a login does not open it. A good token whose channel does not
 * exist (deleted, or its device) is let in and closed at once with WS_CHANNEL_GONE_CLOSE (4404), and
 * an open socket is closed so within RECHECK_MS of the channel's deletion: a browser cannot read a
 * refused upgrade's status, so the page took a 404 for a passing failure and asked again every 2 s.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { message, reason, streamReasonText, WS_CHANNEL_GONE_CLOSE } from '@opencvr/shared';
import type { WebSocket } from 'ws';
import type { AppContext } from '../../context.js';
import { ApiError, invalidParam, notFound } from '../../http/errors.js';
import { scopeOf, visibleChannelIds, type Scope } from '../../services/inventory/scope.js';
import { parseStreamKey, streamKey } from '../../services/media/streams.js';
import { outputViewers, StreamStatsSampler, type OutputKind, type StreamStatus } from '../../media/stats.js';
import { H264_VARIANT } from '../../media/transcode.js';
import { endAtExpiry, grantExpiry, grantUntil, TOKEN_EXPIRED_CLOSE } from '../media/token-expiry.js';
import { shareSubject, target } from './streams.js';

const MAX_PLAYERS = 64;
const INTERVAL_MS = 1000;
/** How often an open socket checks its login and its players' channels again. */
const RECHECK_MS = 5000;

interface Player {
  playerid: string;
  stream: string;
}

type Request = {
  type?: string;
  playerid?: unknown;
  stream?: unknown;
  device?: unknown;
  channel?: unknown;
  flow?: unknown;
};

/** The public socket's query: share/channelstream's, without the protocol. */
const shareQuery = target.extend({ play_token: z.string().min(1).max(1024) });

const text = (v: unknown, max = 64) => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined);

export async function streamStatRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const sampler = new StreamStatsSampler();
  const viewers = outputViewers(ctx.streams);

  /**
   * Viewers of a stream: its own, and those of its H.264 variant (an H.265 camera watched by a browser
   * without H.265 through the server's transcoding): the same camera to whoever reads the count.
   */
  const viewersOf = (key: string) => {
    const own = viewers.of(key);
    for (const [kind, n] of Object.entries(viewers.of(key + H264_VARIANT)) as [OutputKind, number][]) own[kind] = (own[kind] ?? 0) + n;
    return own;
  };

  /** The status of a stream key now (a stopped one when no hub runs it). */
  const statusOf = (key: string): StreamStatus => {
    const hub = ctx.streams.get(key);
    if (hub) return sampler.status(hub, viewersOf(key));
    return {
      stream: key,
      state: 'stopped',
      reason: '',
      subscribers: 0,
      viewers: {},
      totalViewers: 0,
      bitrateKbps: 0,
      fps: 0,
      width: 0,
      height: 0,
      videoCodec: '',
      audioCodec: '',
      tracks: [],
      uptime: 0,
      restarts: 0,
      lastUnitAgo: -1,
    };
  };

  async function resolve(scope: Scope, m: Request): Promise<string> {
    let key = text(m.stream);
    if (!key || !parseStreamKey(key)) {
      const device = text(m.device);
      const channel = text(m.channel);
      if (!device || !channel)
        throw invalidParam('stream', 'giveOneOf', { first: 'stream', second: 'device + channel' });
      const flow = m.flow === 1 || m.flow === '1' || m.flow === 'sub' || m.stream === 'sub' ? 1 : 0;
      if (m.flow !== undefined && flow === 0 && m.flow !== 0 && m.flow !== '0' && m.flow !== 'main')
        throw invalidParam('flow', 'oneOf', { values: '0, 1, main, sub' });
      const c = await ctx.inventory.channels.requireVisible(scope, device, channel);
      return streamKey(c.id, flow);
    }
    const parsed = parseStreamKey(key)!;
    const ch = await ctx.db
      .selectFrom('channels')
      .select(['parent_device_id', 'channel_id'])
      .where('id', '=', parsed.channelPk)
      .executeTakeFirst();
    if (!ch) throw notFound('stream', { id: key });
    await ctx.inventory.channels.requireVisible(scope, ch.parent_device_id, ch.channel_id);
    key = streamKey(parsed.channelPk, parsed.flow);
    return key;
  }

  app.get('/api/v1/ws/streamstat', { websocket: true }, (socket: WebSocket, req: FastifyRequest) => {
    const query = (req.query ?? {}) as Record<string, unknown>;
    const requestId = text(query.request_id, 128) ?? '';
    const players = new Map<string, Player>();
    let scopeP = scopeOf(ctx.db, req.user!);
    const send = (msg: object) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ request_id: requestId, ...msg }));
    };
    // A GB28181 stream also says which INVITE session feeds it (transport, SSRCs, the device's media address).
    const push = (p: Player) => {
      const gb = ctx.gbInvite.byStream(p.stream)?.summary();
      const pk = parseStreamKey(p.stream)!.channelPk;
      const engine = ctx.recording.engine;
      const status = statusOf(p.stream);
      send({
        type: 'streamstat',
        playerid: p.playerid,
        ...status,
        // Why it is not playing, in the connection's language (the hub keeps its source's words).
        reason: streamReasonText(status.reason, req.lang, ctx.streams.get(p.stream)?.why),
        recording: engine.isRecording(pk),
        manualRecording: engine.isManual(pk),
        ...(gb ? { gb } : {}),
      });
    };

    const add = async (m: Request) => {
      const playerid = text(m.playerid) ?? '';
      if (m.type === 'remove') {
        players.delete(playerid);
        return;
      }
      try {
        const stream = await resolve(await scopeP, m);
        if (!players.has(playerid) && players.size >= MAX_PLAYERS)
          throw invalidParam('playerid', 'atMostPlayers', { max: MAX_PLAYERS });
        const p = { playerid, stream };
        players.set(playerid, p);
        push(p);
      } catch (err) {
        if (!(err instanceof ApiError)) req.log.error({ err }, 'streamstat: a player could not be added');
        send({ type: 'error', playerid, msg: err instanceof ApiError ? err.text(req.lang) : message('internalError', req.lang) });
      }
    };

    if (query.stream !== undefined || query.device !== undefined) void add(query as Request);
    const timer = setInterval(() => {
      for (const p of players.values()) push(p);
    }, INTERVAL_MS);
    /** The login still good and each player's channel still visible, else the player (or the socket) goes. */
    let checking = false;
    const recheck = async () => {
      if (checking) return;
      checking = true;
      try {
        const found = req.token ? await ctx.tokens.resolve(req.token) : undefined;
        if (!found?.user.enable) {
          socket.close(1008, 'unauthorized');
          return;
        }
        const scope = await scopeOf(ctx.db, found.user);
        scopeP = Promise.resolve(scope);
        if (!players.size) return;
        // Still there (an administrator sees every channel, but not one deleted since) and still the role's.
        const pks = [...new Set([...players.values()].map((p) => parseStreamKey(p.stream)!.channelPk))];
        let q = ctx.db.selectFrom('channels').select('id').where('id', 'in', pks);
        if (!scope.all) q = q.where((eb) => visibleChannelIds(eb, scope)!);
        const rows = await q.execute();
        const visible = new Set(rows.map((r) => r.id));
        for (const p of [...players.values()]) {
          if (visible.has(parseStreamKey(p.stream)!.channelPk)) continue;
          players.delete(p.playerid);
          send({ type: 'error', playerid: p.playerid, msg: notFound('stream', { id: p.stream }).text(req.lang) });
        }
      } catch (err) {
        req.log.warn({ err }, 'streamstat: rights not checked again');
      } finally {
        checking = false;
      }
    };
    const rechecks = setInterval(() => void recheck(), RECHECK_MS);
    const stop = () => {
      clearInterval(timer);
      clearInterval(rechecks);
    };
    socket.on('close', stop);
    socket.on('error', stop);
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary || data.length > 4096) return;
      let m: unknown;
      try {
        m = JSON.parse(String(data));
      } catch {
        return send({ type: 'error', playerid: '', msg: reason('notJson', req.lang) });
      }
      for (const one of Array.isArray(m) ? m.slice(0, MAX_PLAYERS) : [m])
        if (one && typeof one === 'object') void add(one as Request);
    });
  });

  /**
   * The stream key each public socket was let in for, and its channel's row id (found at the upgrade,
   * so the socket's handler waits for nothing); null: the link's channel does not exist.
   */
  const sharedKeys = new WeakMap<object, { key: string; channelPk: number } | null>();
  const closeGone = (socket: WebSocket) => socket.close(WS_CHANNEL_GONE_CLOSE, 'channel not found');
  /** The camera's state of one shared stream, for a public page holding the link's play token. */
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v1/ws/share/streamstat',
    {
      websocket: true,
      config: { access: 'public' },
      schema: { querystring: shareQuery },
      // After the query's validation (preValidation runs before it).
      preHandler: async (req) => {
        const q = req.query;
        const check = await ctx.streams.checkToken(q.play_token, shareSubject(q.device, q.channel, q.stream));
        if (!check.ok) throw new ApiError(401, check.reason === 'expired' ? 'shareExpired' : 'shareInvalid');
        const c = await ctx.inventory.channels.find(q.device, q.channel);
        sharedKeys.set(req.raw, c ? { key: streamKey(c.id, q.stream), channelPk: c.id } : null);
        grantUntil(req, check.claims.e);
      },
    },
    (socket: WebSocket, req) => {
      const shared = sharedKeys.get(req.raw);
      if (shared === undefined) {
        socket.close(1011, 'stream not found');
        return;
      }
      if (shared === null) {
        closeGone(socket);
        return;
      }
      const { key, channelPk } = shared;
      const push = () => {
        if (socket.readyState !== socket.OPEN) return;
        const hub = ctx.streams.get(key);
        const state = hub?.state ?? 'stopped';
        socket.send(JSON.stringify({ type: 'streamstat', state, reason: hub ? streamReasonText(hub.reason, req.lang, hub.why) : '' }));
      };
      push();
      const timer = setInterval(push, INTERVAL_MS);
      const expire = endAtExpiry(grantExpiry(req), () => socket.close(TOKEN_EXPIRED_CLOSE.code, TOKEN_EXPIRED_CLOSE.reason));
      // The channel deleted (or its device) while the page is open: nothing more will come of it.
      const recheck = setInterval(() => {
        ctx.db
          .selectFrom('channels')
          .select('id')
          .where('id', '=', channelPk)
          .executeTakeFirst()
          .then((row) => {
            if (!row && socket.readyState === socket.OPEN) closeGone(socket);
          })
          .catch((err: unknown) => req.log.warn({ err }, 'share streamstat: channel not checked again'));
      }, RECHECK_MS);
      const stop = () => {
        clearInterval(timer);
        clearInterval(recheck);
        expire();
      };
      socket.on('close', stop);
      socket.on('error', stop);
      // Nothing the page sends is read: the socket is its one stream's, whatever it asks.
      socket.on('message', () => undefined);
    },
  );
}
