/**
 * WHEP (draft-ietf-wish-whep) for the WebRTC output: POST /webrtc/whep/KEY with an SDP offer
 * (application/sdp) answers 201 with the SDP answer and the session's URL in Location; DELETE on that
 * URL ends the session. No trickle: the answer carries every candidate, so PATCH answers 405. The
 * POST is authorised like every media URL (authorizeMedia); the session URL holds 128 random bits and
 * the stream's key, and DELETE or PATCH with another key finds no session. A session let in by a play
 * token ends when the token expires.
 */
import dns from 'node:dns/promises';
import net from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { reason } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import { ApiError, notFound } from '../../http/errors.js';
import { WhepError, WhepSessions } from '../../media/outputs/webrtc.js';
import { authorizeMedia, mediaHub } from './index.js';
import { endAtExpiry, grantExpiry } from './token-expiry.js';

/** Loopback and the network config's rtc_host (an address, or a name resolved now; several may be listed). */
export async function rtcAddresses(ctx: AppContext): Promise<string[]> {
  const { rtc_host } = await ctx.config.get('network');
  const out = new Set<string>(['127.0.0.1']);
  for (const h of rtc_host.split(/[\s,]+/).filter(Boolean)) {
    if (net.isIP(h)) out.add(h);
    else {
      try {
        for (const a of await dns.lookup(h, { all: true })) out.add(a.address);
      } catch {
        /* an unresolvable name adds nothing */
      }
    }
  }
  return [...out];
}

const KEY = /^[A-Za-z0-9_]{1,64}$/;

const byApp = new WeakMap<AppContext, WhepSessions>();
/** The WHEP sessions of an app (stream status, tests). */
export const whepSessionsOf = (ctx: AppContext) => byApp.get(ctx);

export async function webrtcRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const sessions = new WhepSessions();
  byApp.set(ctx, sessions);
  app.addHook('onClose', async () => sessions.closeAll());
  app.addContentTypeParser('application/sdp', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));

  /** A refused offer, in the asker's language (a library's own words go to the log). */
  const fail = (req: FastifyRequest, reply: FastifyReply, err: WhepError) => {
    if (err.detail) req.log.warn({ detail: err.detail }, `whep: ${err.message}`);
    const msg = reason(err.why.key, req.lang, err.why.vars);
    return reply.status(err.status).type('application/json').send({ code: err.status, msg });
  };

  app.post<{ Params: { key: string } }>('/webrtc/whep/:key', async (req, reply) => {
    const { key } = req.params;
    if (!KEY.test(key)) throw new ApiError(404, 'routeNotFound');
    await authorizeMedia(ctx, req, key);
    if (!/^application\/sdp\b/i.test(req.headers['content-type'] ?? '')) return fail(req, reply, new WhepError(415, { key: 'whepNotSdp' }));
    const offer = typeof req.body === 'string' ? req.body : '';
    if (!offer.startsWith('v=0')) return fail(req, reply, new WhepError(400, { key: 'whepNotOffer' }));
    const hub = await mediaHub(ctx, key);
    try {
      let expire: () => void = () => undefined;
      const { id, answer } = await sessions.create(hub, offer, await rtcAddresses(ctx), { onClose: () => expire(), urlKey: key });
      expire = endAtExpiry(grantExpiry(req), () => void sessions.close(id));
      return reply
        .status(201)
        .header('location', `/webrtc/whep/${key}/${id}`)
        .header('etag', `"${id}"`)
        .type('application/sdp')
        .send(answer);
    } catch (err) {
      if (err instanceof WhepError) return fail(req, reply, err);
      throw err;
    }
  });

  app.delete<{ Params: { key: string; id: string } }>('/webrtc/whep/:key/:id', async (req, reply) => {
    if (!sessions.has(req.params.id, req.params.key) || !(await sessions.close(req.params.id))) throw notFound('webrtcSession');
    return reply.status(200).send();
  });

  app.patch<{ Params: { key: string; id: string } }>('/webrtc/whep/:key/:id', async (req, reply) => {
    if (!sessions.has(req.params.id, req.params.key)) throw notFound('webrtcSession');
    return reply.status(405).header('allow', 'DELETE').send();
  });

  app.options('/webrtc/whep/:key', async (_req, reply) => reply.status(204).header('allow', 'POST, OPTIONS').header('accept-post', 'application/sdp').send());

}
