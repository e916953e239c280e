/** Devices (issue 3): the list page, the device form, deletion, and look-ups used by other pages. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { schemaReason } from '../../http/zod-reason.js';
import { DEVICE_TYPES, TREE_HIDDEN_TYPES } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import { isAdmin } from '../../http/auth.js';
import { v1 } from '../../http/envelope.js';
import { notFound } from '../../http/errors.js';
import { flag, text } from '../../http/schemas.js';
import { scopeOf } from '../../services/inventory/scope.js';
import { deviceRow } from '../../services/inventory/rows.js';
import { hostOf, portOf } from '../../services/inventory/channels.js';
import { deviceId, deviceRefs, listWindow, streamUrl } from './inventory-schemas.js';
import { gbDeviceDetails } from './gb-devices.js';
import { applyDeviceEnable, DEVICE_DISABLED } from '../../services/inventory/device-enable.js';
import { GB_DEVICE_TYPE } from '../../gb/device-store.js';

const tags = ['devices'];
const admin = { access: 'admin' as const };

/** Fields of the device form, shared by add and edit. */
const deviceFields = {
  DeviceName: z.string().trim().min(1).max(128),
  DeviceIp: z.string().trim().max(255).optional(),
  DevicePort: z.coerce.number().int().min(0).max(65535).optional(),
  DeviceUserName: text(64).optional(),
  DeviceUserPW: z.string().max(128).optional(),
  Manufacturer: text(64).optional(),
  Enable: flag.optional(),
  Transport: z.enum(['UDP', 'TCP']).optional(),
  TransportMode: z.enum(['passive', 'active']).optional(),
  ServerID: text(64).optional(),
  AlarmSubscribe: flag.optional(),
  CatalogSubscribe: flag.optional(),
  PositionSubscribe: flag.optional(),
};

/** The device columns its channels' ingests are opened with (sources.ts: the credentials a channel lacks): a change restarts their running streams. */
const DEVICE_SOURCE_FIELDS = ['device_username', 'device_password', 'enable'] as const;

export async function deviceRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { devices, channels } = ctx.inventory;

  r.get(
    '/api/v1/devicesconfig',
    {
      schema: {
        tags,
        querystring: listWindow.extend({
          q: text(128).optional(),
          device: deviceId.optional(),
          protocol_type: z.enum(DEVICE_TYPES).optional(),
          online: flag.optional(),
        }),
      },
    },
    async (req) => {
      const { start, limit, q, device, protocol_type, online } = req.query;
      const scope = await scopeOf(ctx.db, req.user!);
      const page = await devices.list(scope, { start, limit, q, device, type: protocol_type, online }, isAdmin(req.user!));
      return v1('MSG_SC_SERVER_DEVICES_CONFIG_ACK', { Devices: page.rows, TotalCount: page.total, DeviceCount: page.total });
    },
  );

  /** The video tree's first level: devices that can hold video (GAT1400 excluded), paged. */
  r.get(
    '/api/v1/devices',
    { schema: { tags, querystring: listWindow.extend({ q: text(128).optional(), online: flag.optional() }) } },
    async (req) => {
      const scope = await scopeOf(ctx.db, req.user!);
      const page = await devices.list(
        scope,
        { ...req.query, excludeTypes: TREE_HIDDEN_TYPES },
        isAdmin(req.user!),
      );
      return v1('MSG_SC_SERVER_DEVICES_ACK', { Devices: page.rows, TotalCount: page.total, DeviceCount: page.total });
    },
  );

  r.get('/api/v1/deviceinfo', { schema: { tags, querystring: z.object({ device: deviceId, refresh: flag.optional() }) } }, async (req) => {
    const scope = await scopeOf(ctx.db, req.user!);
    const admin = isAdmin(req.user!);
    const visible = await devices.list(scope, { start: 0, limit: 1, device: req.query.device }, admin);
    if (!visible.rows.length) throw notFound('device', { id: req.query.device });
    // GB28181 devices add what they report (refresh=1, admins: DeviceInfo/DeviceStatus asked first).
    const gb = visible.rows[0].DeviceType === 'GB28181' ? await gbDeviceDetails(ctx, req.query.device, admin && !!req.query.refresh, req.lang) : undefined;
    const page = gb && req.query.refresh ? await devices.list(scope, { start: 0, limit: 1, device: req.query.device }, admin) : visible;
    return v1('MSG_SC_SERVER_DEVICE_INFO_ACK', gb ? { ...page.rows[0], GB: gb } : page.rows[0]);
  });

  /** Whether an ID or a name is still free, for the device form before saving. */
  r.get(
    '/api/v1/checkdeviceinfo',
    { config: admin, schema: { tags, querystring: z.object({ device: deviceId.optional(), name: text(128).optional() }) } },
    async (req) => {
      const byId = req.query.device ? await devices.get(req.query.device) : undefined;
      const byName = req.query.name
        ? await ctx.db.selectFrom('devices').select('device_id').where('device_name', '=', req.query.name).executeTakeFirst()
        : undefined;
      return v1('MSG_SC_SERVER_CHECK_DEVICE_ACK', { IDExists: !!byId, NameExists: !!byName });
    },
  );

  r.get(
    '/api/v1/devicesearch',
    { schema: { tags, querystring: listWindow.extend({ q: text(128).min(1) }) } },
    async (req) => {
      const scope = await scopeOf(ctx.db, req.user!);
      const page = await devices.list(scope, { ...req.query, excludeTypes: TREE_HIDDEN_TYPES }, isAdmin(req.user!));
      return v1('MSG_SC_SERVER_DEVICE_SEARCH_ACK', { Devices: page.rows, TotalCount: page.total });
    },
  );

  r.post(
    '/api/v1/adddevice',
    {
      config: admin,
      schema: {
        tags,
        body: z
          .object({
            ...deviceFields,
            DeviceID: deviceId.optional(),
            DeviceType: z.enum(DEVICE_TYPES),
            /** For RTSP/ONVIF devices: the first channel's stream, created right after the device. */
            RtspUrl: streamUrl.optional(),
          })
          .refine((b) => b.DeviceType !== 'GB28181' || (b.DeviceID && /^\d{20}$/.test(b.DeviceID)), {
            message: schemaReason('gbDeviceIdRequired'),
            path: ['DeviceID'],
          }),
      },
    },
    async (req) => {
      const { RtspUrl, ...input } = req.body;
      // A camera added by its URL is listed (and found by a search) under the URL's address.
      if (RtspUrl && !input.DeviceIp) input.DeviceIp = hostOf(RtspUrl);
      if (RtspUrl && !input.DevicePort) input.DevicePort = portOf(RtspUrl) || undefined;
      const d = await devices.create(input);
      if (RtspUrl) {
        await channels.create(d.device_id, { RtspUrl, Name: d.device_name, Username: input.DeviceUserName, Password: input.DeviceUserPW });
        ctx.inventory.onChannelsChanged();
      }
      // Added disabled: offline, saying why, from the start.
      if (!d.enable) await applyDeviceEnable(ctx.db, ctx.news, d.device_id, false);
      return v1('MSG_SC_SERVER_ADD_DEVICE_ACK', { DeviceID: d.device_id });
    },
  );

  r.post(
    '/api/v1/editdevice',
    { config: admin, schema: { tags, body: z.object({ ...deviceFields, DeviceName: deviceFields.DeviceName.optional(), DeviceID: deviceId }) } },
    async (req) => {
      const { DeviceID, ...change } = req.body;
      const before = await devices.require(DeviceID);
      const d = await devices.update(DeviceID, change);
      if (before.enable !== d.enable) {
        // Disabled: a registered GB device is dropped (its REGISTERs are refused from now on).
        if (!d.enable && d.device_type === GB_DEVICE_TYPE) await ctx.gb.unregister(DeviceID, DEVICE_DISABLED);
        await applyDeviceEnable(ctx.db, ctx.news, DeviceID, !!d.enable);
        // Enabled: the stream checker probes its channels at once (disabled: stops probing them).
        ctx.inventory.onChannelsChanged();
      }
      // The credentials its channels are pulled with, or its enable, changed: their running streams
      // start again from the new settings (sources.ts falls back to the device's credentials).
      if (DEVICE_SOURCE_FIELDS.some((f) => before[f] !== d[f])) {
        const pks = await ctx.db.selectFrom('channels').select('id').where('parent_device_id', '=', DeviceID).execute();
        if (pks.reduce((n, c) => n + ctx.streams.restartChannel(c.id), 0)) void ctx.recording.engine.kick();
        // Its always-on channels start again at once (or, the device disabled, are not opened), those
        // an administrator had stopped too.
        ctx.alwaysOn.release(pks.map((c) => c.id));
        void ctx.alwaysOn.reconcile();
      }
      return v1('MSG_SC_SERVER_EDIT_DEVICE_ACK', deviceRow(d, (await devices.channelCounts({ all: true }, [DeviceID])).get(DeviceID) ?? { total: 0, online: 0 }, true));
    },
  );

  r.get('/api/v1/deldevice', { config: admin, schema: { tags, querystring: z.object({ device: deviceId }) } }, async (req) => {
    const { missing } = await devices.remove([req.query.device]);
    if (missing.length) throw notFound('device', { id: req.query.device });
    ctx.inventory.onChannelsChanged();
    return v1('MSG_SC_SERVER_DELETE_DEVICE_ACK', {});
  });

  const batch = z.object({ devices: deviceRefs.pipe(z.array(deviceId).min(1)) });
  r.delete('/api/v1/devices', { config: admin, schema: { tags, body: batch } }, async (req) => {
    const result = await devices.remove(req.body.devices);
    ctx.inventory.onChannelsChanged();
    return v1('MSG_SC_SERVER_DELETE_DEVICES_ACK', { Deleted: result.deleted, error: result.missing });
  });

  /** Which devices own these channels: `channels` = "device:channel,device:channel". */
  r.get(
    '/api/v1/devicebychannels',
    { schema: { tags, querystring: z.object({ channels: z.string().max(100000) }) } },
    async (req) => {
      const scope = await scopeOf(ctx.db, req.user!);
      const wanted = new Set(req.query.channels.split(',').map((p) => p.split(':')[0]).filter(Boolean));
      const rows = [];
      for (const id of wanted) {
        const page = await devices.list(scope, { start: 0, limit: 1, device: id }, isAdmin(req.user!));
        if (page.rows[0]) rows.push(page.rows[0]);
      }
      return v1('MSG_SC_SERVER_DEVICE_BY_CHANNELS_ACK', { Devices: rows });
    },
  );

}
