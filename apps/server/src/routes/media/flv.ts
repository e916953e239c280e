/**
 * FLV routes: /flv/live/KEY.flv (HTTP-FLV: one long chunked response) and /ws_flv/live/KEY.flv (the
 * same bytes as WebSocket binary messages). Both authorise with authorizeMedia() and start at the
 * hub's cached GOP keyframe. `?hevc=12` writes H.265 with the legacy codec id 12 instead of enhanced
 * FLV's 'hvc1' (see packages/flv/README.md). A connection let in by a play token ends at its expiry.
 * `?state=1` (FLV_STATE_PARAM) on WS-FLV adds the camera's state in text frames, the WS-fMP4 socket's
 * state messages (retrying with the reason during an outage, live when it is back, stopped before a
 * close); without it the socket carries FLV only, as mpegts.js and flv.js expect.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FLV_STATE_PARAM, stoppedCloseReason, stoppedStateMessage } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import { DEFAULT_FLV_OPTIONS, FlvOutput, type FlvOutputOptions } from '../../media/outputs/flv.js';
import { outputViewers } from '../../media/stats.js';
import { authorizeMedia, mediaHub } from './index.js';
import { endAtExpiry, grantExpiry, TOKEN_EXPIRED_CLOSE } from './token-expiry.js';

type Req = FastifyRequest<{ Params: { name: string }; Querystring: Record<string, string | undefined> }>;

const keyOf = (name: string) => name.replace(/\.flv$/, '');
const optionsOf = (req: Req): FlvOutputOptions => ({
  ...DEFAULT_FLV_OPTIONS,
  hevc: req.query.hevc === '12' ? 'codec-id-12' : 'enhanced',
});

export async function flvRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const viewers = outputViewers(ctx.streams);
  /** Open HTTP-FLV responses, ended before the server closes (they would hold close() forever). */
  const live = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const res of live) res.end();
    live.clear();
  });

  const liveHub = async (req: Req) => {
    const key = keyOf(req.params.name);
    await authorizeMedia(ctx, req, key);
    const hub = await mediaHub(ctx, key);
    return hub;
  };

  app.get('/flv/live/:name', async (req: Req, reply) => {
    const hub = await liveHub(req);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'video/x-flv',
      'Cache-Control': 'no-cache, no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    live.add(res);
    const release = viewers.add(hub.key, 'FLV');
    const output = new FlvOutput(
      {
        buffered: () => res.writableLength,
        open: () => !res.writableEnded && !res.destroyed,
        write: (b) => void res.write(b),
        end: () => res.end(),
      },
      optionsOf(req),
      (err) => req.log.warn({ err }, 'flv output dropped a unit'),
    );
    const unsubscribe = hub.subscribe(output);
    // HTTP has no close reason: the response just ends, as when the stream stops.
    const expire = endAtExpiry(grantExpiry(req), () => res.end());
    const done = () => {
      expire();
      unsubscribe();
      release();
      live.delete(res);
    };
    res.on('close', done);
    res.on('error', done);
  });

  app.get(
    '/ws_flv/live/:name',
    {
      websocket: true,
      preValidation: async (req) => {
        await liveHub(req as Req);
      },
    },
    (socket, req) => {
      const hub = ctx.streams.get(keyOf((req as Req).params.name));
      if (!hub || hub.state === 'stopped') {
        socket.close(1011, 'stream not open');
        return;
      }
      const release = viewers.add(hub.key, 'WS_FLV');
      // Text frames only for a viewer that asked (the console's loader): other FLV players fail on one.
      const states = (req as Req).query[FLV_STATE_PARAM] === '1';
      const text = (msg: object) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
      };
      const output = new FlvOutput(
        {
          buffered: () => socket.bufferedAmount,
          open: () => socket.readyState === socket.OPEN,
          write: (b) => socket.send(b),
          // The close reason says why (stoppedCloseReason); a reason's vars, which 123 bytes may not
          // hold, come in a state message just before (stoppedStateMessage) to a viewer that asked.
          end: (why) => {
            if (why && states) text(stoppedStateMessage(why));
            socket.close(1000, stoppedCloseReason(why));
          },
          ...(states ? { state: text } : {}),
        },
        optionsOf(req as Req),
        (err) => req.log.warn({ err }, 'ws-flv output dropped a unit'),
      );
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
