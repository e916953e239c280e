/**
 * GB28181 device management calls (issue 6): devices/fetchcatalog (and its progress), remotedevctrl
 * (reboot, guard), and the GB part of deviceinfo. Admin only: each one sends SIP to a device.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { reason, type GbDeviceDetails, type Lang, type Reason } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import { v1 } from '../../http/envelope.js';
import { ApiError, because } from '../../http/errors.js';
import { flag } from '../../http/schemas.js';
import { GB_DEVICE_TYPE } from '../../gb/device-store.js';
import { gbDetails } from '../../gb/device-info.js';
import { DEVICE_COMMANDS } from '../../gb/control.js';
import { GbRefusedError } from '../../gb/manscdp-client.js';
import { GbRequestError } from '../../gb/requests.js';
import { deviceId } from './inventory-schemas.js';
import { statusReasonText } from '../../services/inventory/status-reason.js';

const tags = ['devices'];
const admin = { access: 'admin' as const };

/** A GB device of the inventory, or 404 / 400. */
async function requireGbDevice(ctx: AppContext, id: string) {
  const d = await ctx.inventory.devices.require(id);
  if (d.device_type !== GB_DEVICE_TYPE) throw new ApiError(400, 'gbNotGbDevice', { device: id });
  return d;
}

/** A failure to reach a device as an answer that names the cause. */
export function gbFailure(err: unknown, device: string): ApiError | unknown {
  if (err instanceof GbRequestError) {
    if (err.code === 'not-registered') return new ApiError(409, 'gbNotRegistered', { device });
    const reason = err.why ?? err.message;
    if (err.code === 'timeout') return new ApiError(504, 'gbNoAnswer', { device, reason });
    return new ApiError(502, 'gbNoAnswer', { device, reason });
  }
  // The reason phrase is the device's own words: shown as it wrote them.
  if (err instanceof GbRefusedError) return new ApiError(502, 'gbRefused', { device, reason: because('gbAnswered', { status: err.status, phrase: err.phrase }) });
  return err;
}

/**
 * The GB part of deviceinfo; with `refresh` DeviceInfo and DeviceStatus are asked first (a failure is
 * reported in the answer's language, not thrown).
 */
export async function gbDeviceDetails(ctx: AppContext, id: string, refresh: boolean, lang: Lang = 'zh-CN'): Promise<GbDeviceDetails | undefined> {
  let refreshError: string | undefined;
  if (refresh) {
    await ctx.gbDevices.info.refresh(id).catch((err: Error) => {
      let why: Reason | string;
      if (err instanceof GbRequestError) why = err.why ?? err.message;
      else if (err instanceof GbRefusedError) why = because('gbAnswered', { status: err.status, phrase: err.phrase });
      else {
        why = because('deviceInfoUnreadable');
        ctx.gb.log.warn({ err, device: id }, 'gb: device info refresh failed');
      }
      refreshError = typeof why === 'string' ? why : reason(why.key, lang, why.vars);
    });
  }
  const d = await ctx.inventory.devices.get(id);
  if (!d || d.device_type !== GB_DEVICE_TYPE) return undefined;
  const details = gbDetails(d, !!ctx.gb.session(id));
  // A device's reason has no vars (schema.ts).
  details.StatusReason = statusReasonText(details.StatusReason, '', lang);
  const status = ctx.gbDevices.info.lastStatus(id);
  if (status) details.Status = status;
  const catalog = ctx.gbDevices.catalog.status(id);
  if (catalog) details.Catalog = catalog;
  if (refreshError) details.RefreshError = refreshError;
  return details;
}

export async function gbDeviceRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /**
   * Asks the device for its catalog (or joins the query already running) and answers with the
   * progress at once; wait=1 answers when the catalog has been stored or has timed out.
   */
  r.get(
    '/api/v1/devices/fetchcatalog',
    { config: admin, schema: { tags, querystring: z.object({ device: deviceId, wait: flag.optional() }) } },
    async (req) => {
      const { device, wait } = req.query;
      await requireGbDevice(ctx, device);
      let progress = await ctx.gbDevices.catalog.fetch(device).catch((err) => {
        throw gbFailure(err, device);
      });
      if (wait) progress = (await ctx.gbDevices.catalog.wait(device)) ?? progress;
      return v1('MSG_SC_SERVER_FETCH_CATALOG_ACK', progress);
    },
  );

  /** Progress of the running catalog query of a device, else how the last one ended. */
  r.get('/api/v1/devices/catalogstatus', { config: admin, schema: { tags, querystring: z.object({ device: deviceId }) } }, async (req) => {
    await requireGbDevice(ctx, req.query.device);
    const p = ctx.gbDevices.catalog.status(req.query.device);
    return v1('MSG_SC_SERVER_CATALOG_STATUS_ACK', p ?? { DeviceID: req.query.device, Running: false });
  });

  /** Remote device control: reboot (TeleBoot, the default), setguard / resetguard (GuardCmd), resetalarm. */
  r.get(
    '/api/v1/remotedevctrl',
    {
      config: admin,
      schema: { tags, querystring: z.object({ device: deviceId, command: z.enum(DEVICE_COMMANDS).default('reboot'), channel: deviceId.optional() }) },
    },
    async (req) => {
      const { device, command, channel } = req.query;
      await requireGbDevice(ctx, device);
      const res = await ctx.gbDevices.control.run(device, command, channel).catch((err) => {
        throw gbFailure(err, device);
      });
      if (res.result === 'ERROR') throw new ApiError(502, 'gbRefused', { device, reason: because('gbResultError') });
      return v1('MSG_SC_SERVER_REMOTE_DEV_CTRL_ACK', { DeviceID: device, Command: command, Result: res.result ?? '', Answered: res.answered });
    },
  );
}
