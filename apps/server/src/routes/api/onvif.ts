/**
 * ONVIF (issue 3): read a device's information, profiles and stream URIs before adding it, and find
 * devices on the local network with one WS-Discovery probe.
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { schemaReason } from '../../http/zod-reason.js';
import type { AppContext } from '../../context.js';
import { v1 } from '../../http/envelope.js';
import { ApiError } from '../../http/errors.js';
import { text } from '../../http/schemas.js';
import { OnvifError, probeOnvif } from '../../access/onvif/probe.js';
import { discoverOnvif } from '../../access/onvif/discovery.js';

const tags = ['onvif'];
const admin = { access: 'admin' as const };

/** An IPv4/IPv6 address or a host name; no scheme, path or port. */
const host = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .refine((s) => net.isIP(s) !== 0 || /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(s), schemaReason('hostOrIp'));

const probeFields = z.object({
  ip: host,
  port: z.coerce.number().int().min(1).max(65535).default(80),
  username: text(64).optional(),
  password: z.string().max(128).optional(),
  /** How long to wait for the device, ms. */
  timeout: z.coerce.number().int().min(500).max(30000).default(5000),
});

export async function onvifRoutes(app: FastifyInstance, _opts: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  const probe = async (q: z.infer<typeof probeFields>) => {
    const address = q.port === 80 ? q.ip : `${q.ip}:${q.port}`;
    try {
      const body = await probeOnvif({ hostname: q.ip, port: q.port, username: q.username, password: q.password, timeoutMs: q.timeout });
      return v1('MSG_SC_PROBE_DEVICE_ACK', body);
    } catch (err) {
      if (!(err instanceof OnvifError)) throw err;
      switch (err.kind) {
        case 'timeout':
          throw new ApiError(504, 'onvifTimeout', { address, ms: q.timeout });
        case 'auth':
          // 400, not 401: the console's session is fine, the device's credentials are not.
          throw new ApiError(400, 'onvifAuthFailed', { address });
        case 'unreachable':
          throw new ApiError(502, 'onvifUnreachable', { address, reason: err.why ?? err.detail });
        default:
          throw new ApiError(502, 'onvifNotOnvif', { address, reason: err.why ?? err.detail.slice(0, 200) });
      }
    }
  };

  r.get('/api/v1/probedevice', { config: admin, schema: { tags, querystring: probeFields } }, async (req) => probe(req.query));
  r.post('/api/v1/probedevice', { config: admin, schema: { tags, body: probeFields } }, async (req) => probe(req.body));

  r.get(
    '/api/v1/discoverdevices',
    { config: admin, schema: { tags, querystring: z.object({ timeout: z.coerce.number().int().min(500).max(5000).default(3000) }) } },
    async (req) => v1('MSG_SC_DISCOVER_DEVICES_ACK', { Devices: await discoverOnvif(req.query.timeout) }),
  );
}
