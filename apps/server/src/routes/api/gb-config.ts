/**
 * GB28181 access settings (issue 6, /config/platform/gb): EasyCVR's getbaseconfig/setbaseconfig flat
 * object and the v2 config/device/access/gb. Admin only, so the global device password never
 * reaches anyone else. A write goes through the config store, whose onChange('gb') tells the SIP
 * server to apply it (port, SIP ID, realm, addresses) without a restart.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { schemaReason } from '../../http/zod-reason.js';
import net from 'node:net';
import type { GbBaseConfig } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import type { SectionValue } from '../../services/config/sections.js';
import { v1, v2 } from '../../http/envelope.js';
import { ApiError } from '../../http/errors.js';
import { flag } from '../../http/schemas.js';
import { isAdmin } from '../../http/auth.js';

const admin = { access: 'admin' as const };
const tags = ['gb28181'];

/** A host name (RFC 1123 labels) or an IPv4/IPv6 address; '' = use the default. */
const hostOrEmpty = z
  .string()
  .trim()
  .max(255)
  .refine(
    (s) => !s || net.isIP(s) !== 0 || /^(?=.{1,255}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(s),
    schemaReason('hostOrIp'),
  );
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Every field optional: a form may send only what changed. Unknown keys are ignored. */
export const gbConfigInput = z.object({
  Serial: z.string().trim().regex(/^\d{20}$/, schemaReason('digits', { count: 20 })).optional(),
  Realm: z.string().trim().regex(/^\d{10}$/, schemaReason('digits', { count: 10 })).optional(),
  Host: hostOrEmpty.optional(),
  Port: int(1, 65535).optional(),
  DevicePassword: z.string().max(64).optional(),
  MediaIP: hostOrEmpty.optional(),
  RtpPortMin: int(1024, 65535).optional(),
  RtpPortMax: int(1024, 65535).optional(),
  MediaTransport: z.enum(['UDP', 'TCP']).optional(),
  MediaTransportMode: z.enum(['passive', 'active']).optional(),
  KeepaliveTimeout: int(5, 3600).optional(),
  KeepaliveCount: int(1, 10).optional(),
  RegisterExpires: int(60, 86400).optional(),
  AckTimeout: int(1, 120).optional(),
  WhiteSwitch: flag.optional(),
});
export type GbConfigInput = z.infer<typeof gbConfigInput>;

/** The answer: the stored section plus where the SIP server actually listens. */
export function gbAnswer(ctx: AppContext, cfg: SectionValue<'gb'>, isAdmin: boolean): GbBaseConfig {
  return {
    ...cfg,
    DevicePassword: isAdmin ? cfg.DevicePassword : '',
    // The port actually bound; 0 when the SIP server is not listening (port taken, not started).
    ListenPort: ctx.gb?.running ? ctx.gb.port : 0,
    PortFromEnv: ctx.settings.sipPort !== undefined,
  };
}

/** Validates the merged result (the RTP range across two fields) and stores it. */
export async function saveGbConfig(ctx: AppContext, input: GbConfigInput): Promise<SectionValue<'gb'>> {
  const current = await ctx.config.get('gb');
  const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as GbConfigInput;
  const min = patch.RtpPortMin ?? current.RtpPortMin;
  const max = patch.RtpPortMax ?? current.RtpPortMax;
  if (min >= max) throw new ApiError(400, 'gbRtpRangeInvalid', { min, max });
  return ctx.config.set('gb', patch);
}

export async function gbConfigRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/v1/getbaseconfig', { config: admin, schema: { tags } }, async (req) =>
    v1('MSG_SC_SERVER_GET_BASE_CONFIG_ACK', gbAnswer(ctx, await ctx.config.get('gb'), !!req.user && isAdmin(req.user))),
  );
  r.post('/api/v1/setbaseconfig', { config: admin, schema: { tags, body: gbConfigInput } }, async (req) =>
    v1('MSG_SC_SERVER_SET_BASE_CONFIG_ACK', gbAnswer(ctx, await saveGbConfig(ctx, req.body), !!req.user && isAdmin(req.user))),
  );

  r.get('/api/v2/config/device/access/gb', { config: admin, schema: { tags } }, async (req) =>
    v2(gbAnswer(ctx, await ctx.config.get('gb'), !!req.user && isAdmin(req.user))),
  );
  for (const method of ['POST', 'PUT'] as const) {
    r.route({
      method,
      url: '/api/v2/config/device/access/gb',
      config: admin,
      schema: { tags, body: gbConfigInput },
      handler: async (req) => v2(gbAnswer(ctx, await saveGbConfig(ctx, req.body), !!req.user && isAdmin(req.user))),
    });
  }
}
