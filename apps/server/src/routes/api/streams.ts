/**
 * Live stream calls (issue 4): open a channel's stream and get its play URLs, keep it alive, stop it,
 * and make a signed link that plays without login until it expires.
 */
import { reason, streamReasonText } from '@opencvr/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { isAdmin } from '../../http/auth.js';
import { v1 } from '../../http/envelope.js';
import { ApiError, invalidParam } from '../../http/errors.js';
import { scopeOf } from '../../services/inventory/scope.js';
import { PROTOCOLS, streamKey, type Flow, type PlayProtocol } from '../../services/media/streams.js';
import { channelId, deviceId } from './inventory-schemas.js';

const tags = ['streams'];

/** EasyCVR's protocol names, mapped to ours (ws_m4s is the WebSocket fMP4 output). */
const protocol = z
  .string()
  .trim()
  .toUpperCase()
  .transform((p) => (p === 'WS_M4S' || p === 'FMP4' || p === 'MSE' ? 'WS_FMP4' : p))
  .pipe(z.enum(PROTOCOLS))
  .default('WS_FMP4');
/** "main"/"sub" as EasyCVR sends it, or 0/1 as the console's routes carry it. */
const flow = z
  .union([z.enum(['main', 'sub']), z.coerce.number().int().min(0).max(1)])
  .transform((f): Flow => (f === 'sub' || f === 1 ? 1 : 0))
  .default(0);

export const target = z.object({ device: deviceId, channel: channelId, stream: flow });

export async function streamRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { channels, devices } = ctx.inventory;

  async function visible(req: FastifyRequest, device: string, channel: string) {
    const c = await channels.requireVisible(await scopeOf(ctx.db, req.user!), device, channel);
    const d = await devices.require(device);
    return { d, c };
  }

  /**
   * The play URLs of a channel's stream as both the console (channelstream) and the public share
   * pages (share/channelstream) get them: an H.265 stream also offers its transcoded H.264 variant
   * (URLs.WS_FMP4_H264, ...), and the channel's "H.265 to H.264" switch (EnableH265ToH264) gives every
   * player the variant under the plain names, for players and integrations that cannot decode H.265.
   * `notAfter` (unix seconds): the URLs' tokens expire no later (a shared link's end).
   */
  async function playUrls(c: { enable_h265_to_h264: number }, key: string, protocol: PlayProtocol, notAfter?: number) {
    const { urls, expiresAt } = await ctx.streams.urls(key, notAfter);
    const variants = await ctx.streams.variantUrls(key, { notAfter });
    const forced = !!c.enable_h265_to_h264 && Object.keys(variants).length > 0;
    const h264 = forced ? (Object.fromEntries(Object.entries(variants).map(([k, u]) => [k.replace(/_H264$/, ''), u])) as typeof urls) : undefined;
    return { URL: (h264 ?? urls)[protocol], URLs: h264 ?? { ...urls, ...variants }, expiresAt };
  }

  async function answer(req: FastifyRequest, q: z.infer<typeof target> & { protocol: PlayProtocol }) {
    const { d, c } = await visible(req, q.device, q.channel);
    if (!c.enable || !d.enable) throw new ApiError(400, 'channelDisabled');
    const hub = ctx.streams.open(d, c, q.stream);
    if (!hub) throw invalidParam('channel', 'noStreamSource');
    const key = streamKey(c.id, q.stream);
    const { URL, URLs, expiresAt } = await playUrls(c, key, q.protocol);
    return v1('MSG_SC_SERVER_CHANNEL_STREAM_ACK', {
      URL,
      URLs,
      Stream: key,
      State: hub.state,
      // In the asker's language; the hub and the log keep the source's own words. The reason's code and
      // vars too, as the live socket's state message sends them, so the console renders it in its
      // language again when it switches (shared reasonOfState reads them).
      Reason: streamReasonText(hub.reason, req.lang, hub.why),
      ...(hub.why ? { ReasonCode: hub.why.key, ReasonVars: hub.why.vars ?? {} } : {}),
      ExpiresAt: expiresAt ?? 0,
      ...urlsExpireIn(expiresAt),
    });
  }

  const openQuery = target.extend({
    protocol,
    request_id: z.string().max(64).optional(),
    playerid: z.string().max(64).optional(),
    type: z.enum(['keepalive']).optional(),
  });
  const open = async (req: FastifyRequest, q: z.infer<typeof openQuery>) => {
    if (q.type === 'keepalive') {
      const { c } = await visible(req, q.device, q.channel);
      ctx.streams.get(streamKey(c.id, q.stream))?.touch();
      return v1('MSG_SC_SERVER_CHANNEL_STREAM_ACK', {});
    }
    return answer(req, q);
  };
  r.get('/api/v1/devices/channelstream', { schema: { tags, querystring: openQuery } }, (req) => open(req, req.query));
  r.get('/api/v1/getchannelstream', { schema: { tags, querystring: openQuery } }, (req) => open(req, req.query));

  /**
   * Every protocol's URL of a channel's stream (opened as by channelstream). The URLs carry a play
   * token that expires: ExpiresAt (Unix seconds, 0 without play authentication) says when to ask again,
   * UrlsExpireIn the same as seconds left by the server's clock.
   */
  r.get('/api/v1/devices/channelstreamalladdr', { schema: { tags, querystring: target } }, async (req) => {
    const { URLs, Stream, ExpiresAt, UrlsExpireIn } = (await answer(req, { ...req.query, protocol: 'WS_FMP4' })).EasyDarwin.Body;
    return v1('MSG_SC_SERVER_CHANNEL_STREAM_ALL_ACK', { URLs, Stream, ExpiresAt, ...(UrlsExpireIn === undefined ? {} : { UrlsExpireIn }) });
  });

  r.get('/api/v1/touchchannelstream', { schema: { tags, querystring: target } }, async (req) => {
    const { c } = await visible(req, req.query.device, req.query.channel);
    const hub = ctx.streams.get(streamKey(c.id, req.query.stream));
    hub?.touch();
    return v1('MSG_SC_SERVER_TOUCH_STREAM_ACK', { State: hub?.state ?? 'stopped' });
  });

  /**
   * Stops a channel's stream. On an always-on channel's main stream the stop holds: the always-on
   * pass would open it again within 10 s, so the channel is on-demand until it is edited, disabled
   * and enabled, its device comes back online, or the server restarts (AlwaysOnChannels.hold); the
   * answer says so (AlwaysOn 1 and Note, in the asker's language).
   */
  const stop = async (req: FastifyRequest, q: z.infer<typeof target>) => {
    const { c } = await visible(req, q.device, q.channel);
    const held = q.stream === 0 && c.on_demand === 0 && !c.parental;
    if (held) ctx.alwaysOn.hold(c.id);
    ctx.streams.get(streamKey(c.id, q.stream))?.stop('stopped by request', { key: 'streamStoppedByRequest' });
    return v1('MSG_SC_SERVER_STOP_STREAM_ACK', held ? { AlwaysOn: 1, Note: reason('alwaysOnStopped', req.lang) } : {});
  };
  r.get('/api/v1/stopstream', { config: { access: 'admin' }, schema: { tags, querystring: target } }, (req) => stop(req, req.query));
  r.get(
    '/api/v1/devices/stopchannelstream',
    { config: { access: 'admin' }, schema: { tags, querystring: target.extend({ stream_type: z.string().optional(), url: z.string().optional() }) } },
    (req) => stop(req, req.query),
  );

  /** A link to /share/{dev}/{chn}/{flow} that plays without login until it expires. */
  r.get(
    '/api/v1/devices/sharelink',
    { schema: { tags, querystring: target.extend({ expire: z.coerce.number().int().min(60).optional() }) } },
    async (req) => {
      const q = req.query;
      await visible(req, q.device, q.channel);
      const { ShareMaxTimeout, TokenTimeout } = await ctx.config.get('play');
      const seconds = Math.min(q.expire ?? TokenTimeout, isAdmin(req.user!) ? ShareMaxTimeout : TokenTimeout);
      const { token, expiresAt } = await ctx.streams.signShare(shareSubject(q.device, q.channel, q.stream), seconds);
      return v1('MSG_SC_SERVER_SHARE_LINK_ACK', {
        URL: `/share/${encodeURIComponent(q.device)}/${encodeURIComponent(q.channel)}/${q.stream}?play_token=${token}`,
        ExpiresAt: expiresAt,
      });
    },
  );

  /** What the public /share and /players pages call: the stream URLs for a valid shared-link token. */
  r.get(
    '/api/v1/share/channelstream',
    { config: { access: 'public' }, schema: { tags, querystring: target.extend({ protocol, play_token: z.string().min(1).max(1024) }) } },
    async (req) => {
      const q = req.query;
      const check = await ctx.streams.checkToken(q.play_token, shareSubject(q.device, q.channel, q.stream));
      if (!check.ok) throw new ApiError(401, check.reason === 'expired' ? 'shareExpired' : 'shareInvalid');
      const c = await channels.require(q.device, q.channel);
      const d = await devices.require(q.device);
      if (!c.enable || !d.enable) throw new ApiError(400, 'channelDisabled');
      const hub = ctx.streams.open(d, c, q.stream);
      if (!hub) throw invalidParam('channel', 'noStreamSource');
      const key = streamKey(c.id, q.stream);
      // The URLs end with the link: their connections are closed when their token expires.
      const { URL, URLs, expiresAt } = await playUrls(c, key, q.protocol, check.claims.e);
      return v1('MSG_SC_SERVER_CHANNEL_STREAM_ACK', { URL, URLs, Stream: key, Name: c.name, ExpiresAt: check.claims.e, ...urlsExpireIn(expiresAt) });
    },
  );
}

/**
 * UrlsExpireIn: the seconds the answer's play URLs have left, counted by the server's clock. A player
 * renews its URLs shortly before (every transport alike, also those whose connection end carries no
 * reason: HTTP-FLV, WebRTC, HLS), and a count, unlike ExpiresAt, means the same on a console whose
 * clock differs from the server's. On a shared link it can be shorter than the link (ExpiresAt): the
 * URLs live TokenTimeout at most. Absent without play authentication (the URLs do not expire).
 */
const urlsExpireIn = (expiresAt: number | undefined) =>
  expiresAt === undefined ? {} : { UrlsExpireIn: Math.max(0, expiresAt - Math.floor(Date.now() / 1000)) };

export const shareSubject = (device: string, channel: string, flow: Flow) => `share:${device}/${channel}/${flow}`;
