/** Channels (issue 3): lists for the device pages, the tree, the map and search; the channel form. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { channelPosition, TREE_HIDDEN_TYPES } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import { isAdmin } from '../../http/auth.js';
import { v1, v2 } from '../../http/envelope.js';
import { invalidParam } from '../../http/errors.js';
import { schemaReason } from '../../http/zod-reason.js';
import { flag, text } from '../../http/schemas.js';
import { scopeOf } from '../../services/inventory/scope.js';
import type { ChannelQuery } from '../../services/inventory/channels.js';
import { channelId, channelInput, deviceId, listWindow, tlsPin } from './inventory-schemas.js';
import { applyChannelEnable } from '../../services/inventory/channel-enable.js';
import { withCdnPush } from '../../services/media/cdn-status.js';

const tags = ['channels'];
const admin = { access: 'admin' as const };

/**
 * The channel columns an ingest is opened with (sources.ts): a change restarts its running streams.
 * tls_pin: an rtsps:// camera's certificate is checked against it at every connection.
 */
const SOURCE_FIELDS = ['rtsp_url', 'username', 'password', 'transport', 'enable', 'enable_audio', 'tls_pin'] as const;

const idsOf = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);
/** One channel ID or a comma list of them; a bad one is a 400 naming the rule (a thrown ZodError in the handler was a 500). */
const channelIdList = z
  .string()
  .trim()
  .min(1)
  .max(100000)
  .refine((s) => idsOf(s).every((id) => channelId.safeParse(id).success), schemaReason('idList'));

export async function channelRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { channels } = ctx.inventory;

  /**
   * A page of channels. `cameras` (an optional parameter of the list calls) lists what can be played:
   * cameras only, at every level of the device (GB cameras sit under civil-code, business-group and
   * virtual-organisation folders), so a list of cameras is paged on the server, 20 cameras a page and
   * the count theirs, not folders dropped in the browser after the server paged them.
   */
  async function page(req: FastifyRequest, { cameras, ...query }: ChannelQuery & { cameras?: boolean }) {
    const scope = await scopeOf(ctx.db, req.user!);
    const q: ChannelQuery = cameras ? { ...query, flat: true, camerasOnly: true } : query;
    const admin = isAdmin(req.user!);
    const p = await channels.list(scope, q, req.user!.id, admin, req.lang);
    // The push's state is the channel settings' (the CDN account's): administrators only.
    return admin ? { ...p, rows: withCdnPush(p.rows, ctx.cdn, req.lang) } : p;
  }

  const listQuery = listWindow.extend({
    device: deviceId.optional(),
    subset: channelId.optional(),
    q: text(128).optional(),
    online: flag.optional(),
    enable: flag.optional(),
    cameras: flag.optional(),
  });

  /** The channel list page: one device's channels at one sub-channel level (`subset`). */
  r.get('/api/v1/channelsconfig', { schema: { tags, querystring: listQuery } }, async (req) => {
    const p = await page(req, req.query);
    return v1('MSG_SC_SERVER_CHANNELS_CONFIG_ACK', { Channels: p.rows, ChannelCount: p.total });
  });

  /** The video tree's expand: like channelsconfig, never a GAT1400 device; with cameras=1 the playback list's cameras. */
  r.get('/api/v1/channels', { schema: { tags, querystring: listQuery } }, async (req) => {
    const p = await page(req, { ...req.query, excludeDeviceTypes: TREE_HIDDEN_TYPES });
    return v1('MSG_SC_SERVER_CHANNELS_ACK', { Channels: p.rows, ChannelCount: p.total });
  });

  r.get('/api/v1/subchannels', { schema: { tags, querystring: listWindow.extend({ device: deviceId, subset: channelId }) } }, async (req) => {
    const p = await page(req, req.query);
    return v1('MSG_SC_SERVER_SUB_CHANNELS_ACK', { Channels: p.rows, ChannelCount: p.total });
  });
  r.get('/api/v1/channelchild', { schema: { tags, querystring: listWindow.extend({ device: deviceId, channel: channelId }) } }, async (req) => {
    const p = await page(req, { ...req.query, subset: req.query.channel });
    return v1('MSG_SC_SERVER_CHANNEL_CHILD_ACK', { Channels: p.rows, ChannelCount: p.total });
  });

  /** Every channel of one device at every level. */
  r.get('/api/v1/getchannels', { schema: { tags, querystring: listWindow.extend({ device: deviceId, online: flag.optional() }) } }, async (req) => {
    const p = await page(req, { ...req.query, flat: true });
    return v1('MSG_SC_SERVER_GET_CHANNELS_ACK', { Channels: p.rows, ChannelCount: p.total });
  });

  /**
   * One device's cameras at every level for pickers: `online` filters by state; `not_repeat` leaves
   * out channels already in the label `labelid` (or, without it, in any label), so a group editor
   * offers only what is not there yet; `channel` (optional) the one camera of that exact ID, for a
   * page showing one channel (a search by its ID matched hundreds: "5" is in 15, 25, 150…); `under`
   * (optional) only the cameras below that folder, at every depth (a picker's folder box takes them
   * all); a folder the user cannot see is a 404, not an empty list that looks like an empty folder.
   */
  r.get(
    '/api/v1/devices/:id/channels',
    {
      schema: {
        tags,
        params: z.object({ id: deviceId }),
        querystring: listWindow.extend({
          online: flag.optional(),
          not_repeat: flag.optional(),
          labelid: z.coerce.number().int().positive().optional(),
          q: text(128).optional(),
          channel: channelId.optional(),
          under: channelId.optional(),
        }),
      },
    },
    async (req) => {
      const { online, not_repeat, labelid, channel, under, ...w } = req.query;
      if (under) await channels.requireVisible(await scopeOf(ctx.db, req.user!), req.params.id, under);
      const p = await page(req, {
        ...w,
        under,
        channelId: channel,
        device: req.params.id,
        flat: true,
        camerasOnly: true,
        online,
        notInLabel: not_repeat ? (labelid ?? 'any') : undefined,
      });
      return v1('MSG_SC_SERVER_DEVICE_CHANNELS_ACK', { Channels: p.rows, ChannelCount: p.total });
    },
  );

  /** Search across every device (sidebar search, up to 99999); with cameras=1 the video square's cards. */
  r.get('/api/v1/all/channels', { schema: { tags, querystring: listQuery } }, async (req) => {
    const p = await page(req, { ...req.query, excludeDeviceTypes: TREE_HIDDEN_TYPES });
    return v1('MSG_SC_SERVER_ALL_CHANNELS_ACK', { Channels: p.rows, ChannelCount: p.total });
  });

  r.get('/api/v2/channels', { schema: { tags, querystring: listQuery } }, async (req) => {
    const p = await page(req, req.query);
    return v2({ list: p.rows, total: p.total });
  });

  /** Channels with a position, for the map. */
  r.get('/api/v1/channelsmap', { schema: { tags, querystring: listWindow.extend({ q: text(128).optional() }) } }, async (req) => {
    const p = await page(req, { ...req.query, camerasOnly: true, excludeDeviceTypes: TREE_HIDDEN_TYPES });
    const placed = p.rows.flatMap((c) => {
      const pos = channelPosition(c);
      return pos ? [{ DeviceID: c.ParentDeviceID, ChannelID: c.ChannelID, Name: c.Name, Online: c.Online, Longitude: pos.lng, Latitude: pos.lat }] : [];
    });
    return v1('MSG_SC_SERVER_CHANNELS_MAP_ACK', { Channels: placed, ChannelCount: placed.length });
  });

  r.post(
    '/api/v1/addchannel',
    {
      config: admin,
      schema: {
        tags,
        body: channelInput.extend({
          ParentDeviceID: deviceId.optional(),
          DeviceID: deviceId.optional(),
          ChannelID: channelId.optional(),
          ParentID: channelId.optional(),
          Parental: flag.optional(),
        }),
      },
    },
    async (req) => {
      const { ParentDeviceID, DeviceID, ...input } = req.body;
      const device = ParentDeviceID ?? DeviceID;
      if (!device) throw invalidParam('ParentDeviceID', 'required');
      if (input.ParentID && input.ParentID !== device) await channels.require(device, input.ParentID);
      const c = await channels.create(device, input);
      // Added switched off: offline, saying why, from the start.
      if (!c.enable) await applyChannelEnable(ctx.db, ctx.news, c.id, false);
      ctx.inventory.onChannelsChanged();
      return v1('MSG_SC_SERVER_ADD_CHANNEL_ACK', { ChannelID: c.channel_id, DeviceID: device });
    },
  );

  r.post(
    '/api/v1/editchannel',
    {
      config: admin,
      // TlsPin (ours): an administrator trusts an rtsps:// camera's new certificate (the channel form's "trust the new certificate").
      schema: { tags, body: channelInput.extend({ ParentDeviceID: deviceId.optional(), DeviceID: deviceId.optional(), ChannelID: channelId, TlsPin: tlsPin.optional() }) },
    },
    async (req) => {
      const { ParentDeviceID, DeviceID, ChannelID, ...input } = req.body;
      const device = ParentDeviceID ?? DeviceID;
      if (!device) throw invalidParam('ParentDeviceID', 'required');
      const before = await channels.require(device, ChannelID);
      const after = await channels.update(device, ChannelID, input);
      // Switched off: offline saying why (not probed, played or recorded); on again: probed at once
      // (the inventory change below), or, a GB channel, on line with its device.
      if (before.enable !== after.enable) await applyChannelEnable(ctx.db, ctx.news, after.id, !!after.enable);
      // An edit ends an administrator's stop of the always-on stream (the pass below opens it again).
      ctx.alwaysOn.release([after.id]);
      ctx.inventory.onChannelsChanged();
      // What the ingest was opened with changed: running streams start again from the new settings.
      // Switched off, its viewers are told so (it does not open again).
      const stop = () =>
        before.enable && !after.enable ? ctx.streams.restartChannel(after.id, 'channel disabled', { key: 'streamChannelDisabled' }) : ctx.streams.restartChannel(after.id);
      if (SOURCE_FIELDS.some((f) => before[f] !== after[f]) && stop()) void ctx.recording.engine.kick();
      // The checker re-probes edited addresses by itself; a new pin alone is no new address to it.
      if (before.tls_pin !== after.tls_pin) ctx.streamChecker.checkNow(after.id);
      return v1('MSG_SC_SERVER_EDIT_CHANNEL_ACK', { ChannelID, DeviceID: device });
    },
  );

  /** Deletes channels: `channel` one ID or a comma list; answers the IDs that failed (EasyCVR shape). */
  r.get(
    '/api/v1/delchannel',
    { config: admin, schema: { tags, querystring: z.object({ device: deviceId, channel: channelIdList }) } },
    async (req) => {
      const ids = idsOf(req.query.channel);
      const failed = await channels.remove(req.query.device, ids);
      ctx.inventory.onChannelsChanged();
      return v1('MSG_SC_SERVER_DELETE_CHANNEL_ACK', { error: failed });
    },
  );
}
