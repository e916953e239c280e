/** Network choice (spec 3 network form): which address devices and browsers are told to use. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { schemaReason } from '../../http/zod-reason.js';
import { isIPv4, isValidHostName, message, type IpListing } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import { v1 } from '../../http/envelope.js';
import { ApiError } from '../../http/errors.js';
import { localAddresses } from '../../services/system/network.js';

/** An address announced to peers: an IPv4 address or a host name; empty where not used. */
const host = z
  .string()
  .trim()
  .max(255)
  .refine(
    // All digits and dots is meant as an address, so it must be a valid one (999.1.1.1 is not a host name).
    (s) => s === '' || isIPv4(s) || (!/^[\d.]+$/.test(s) && (isValidHostName(s) || s === 'localhost')),
    schemaReason('hostOrIpv4'),
  );

export async function networkRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['network'];

  r.get('/api/v1/ip', { config: { access: 'admin', pending: true }, schema: { tags } }, async () => {
    const { chosen, ...current } = await ctx.config.get('network');
    const body: IpListing = { LocalIPs: localAddresses(), Current: current, CheckIP: !chosen };
    return v1('MSG_SC_SERVER_GET_IP_ACK', body);
  });

  r.get('/api/v1/check_ip', { config: { pending: true }, schema: { tags } }, async () => {
    const { chosen } = await ctx.config.get('network');
    return v1('MSG_SC_SERVER_CHECK_IP_ACK', { CheckIP: !chosen });
  });

  r.post(
    '/api/v1/setip',
    {
      config: { access: 'admin', pending: true },
      schema: {
        tags,
        body: z.object({
          sip_host: host.default(''),
          rtc_host: host.default(''),
          terminal_host: host.default(''),
          ehome_host: host.default(''),
        }),
      },
    },
    async (req) => {
      if (!req.body.sip_host) throw new ApiError(400, 'networkRequired');
      const { chosen, ...saved } = await ctx.config.set('network', { ...req.body, chosen: true });
      void chosen;
      return v1('MSG_SC_SERVER_SET_IP_ACK', saved, 200, message('ipSet', req.lang));
    },
  );
}
