/** Groups (labels) and the group tree of the video sidebar (issue 3). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TREE_HIDDEN_TYPES, type GroupNode } from '@opencvr/shared';
import type { AppContext } from '../../context.js';
import { isAdmin } from '../../http/auth.js';
import { v1 } from '../../http/envelope.js';
import { notFound } from '../../http/errors.js';
import { flag, id, text } from '../../http/schemas.js';
import { directOnlyChannelIds, scopeOf, type Scope } from '../../services/inventory/scope.js';
import { contains } from '../../db/text-match.js';
import { withCdnPush } from '../../services/media/cdn-status.js';
import { channelNode, deviceNode, labelNode } from '../../services/inventory/group-nodes.js';
import { channelId, channelRefs, deviceId, deviceRefs, listWindow } from './inventory-schemas.js';

const tags = ['labels'];
const admin = { access: 'admin' as const };
const labelName = z.string().trim().min(1).max(128);
const parentId = z.coerce.number().int().min(0).default(0);

const mode = z.enum(['add', 'remove', 'set']).default('set');

export async function labelRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { labels, channels, devices } = ctx.inventory;

  async function visibleLabel(scope: Scope, labelId: number) {
    await labels.require(labelId);
    if (!labels.visible(scope, labelId)) throw notFound('label', { id: labelId });
  }

  r.get('/api/v1/labellist', { schema: { tags, querystring: z.object({ parentid: parentId, q: text(128).optional() }) } }, async (req) => {
    const scope = await scopeOf(ctx.db, req.user!);
    const rows = await labels.children(scope, req.query.parentid, req.query.q);
    return v1('MSG_SC_SERVER_LABEL_LIST_ACK', { Labels: rows, Count: rows.length });
  });
  r.get('/api/v1/alllabel', { schema: { tags } }, async (req) => {
    const rows = await labels.all(await scopeOf(ctx.db, req.user!));
    return v1('MSG_SC_SERVER_ALL_LABEL_ACK', { Labels: rows, Count: rows.length });
  });

  r.post('/api/v1/addlabel', { config: admin, schema: { tags, body: z.object({ name: labelName, parentid: parentId }) } }, async (req) => {
    const l = await labels.create(req.body.name, req.body.parentid);
    return v1('MSG_SC_SERVER_ADD_LABEL_ACK', { ID: l.id });
  });
  r.post('/api/v1/updatelabelName', { config: admin, schema: { tags, body: z.object({ id, name: labelName }) } }, async (req) => {
    await labels.rename(req.body.id, req.body.name);
    return v1('MSG_SC_SERVER_UPDATE_LABEL_ACK', {});
  });
  r.post(
    '/api/v1/updatelabel',
    { config: admin, schema: { tags, body: z.object({ id, name: labelName.optional(), parentid: z.coerce.number().int().min(0).optional() }) } },
    async (req) => {
      await labels.update(req.body.id, { name: req.body.name, parentId: req.body.parentid });
      return v1('MSG_SC_SERVER_UPDATE_LABEL_ACK', {});
    },
  );
  r.post('/api/v1/deletelabel', { config: admin, schema: { tags, body: z.object({ id }) } }, async (req) => {
    await labels.remove(req.body.id);
    return v1('MSG_SC_SERVER_DELETE_LABEL_ACK', {});
  });

  r.post(
    '/api/v1/label/updatechannels',
    { config: admin, schema: { tags, body: z.object({ id, channels: channelRefs, mode }) } },
    async (req) => {
      await labels.updateChannels(req.body.id, req.body.channels, req.body.mode);
      return v1('MSG_SC_SERVER_LABEL_UPDATE_CHANNELS_ACK', {});
    },
  );
  r.post(
    '/api/v1/label/updatedevices',
    { config: admin, schema: { tags, body: z.object({ id, devices: deviceRefs, mode }) } },
    async (req) => {
      await labels.updateDevices(req.body.id, req.body.devices, req.body.mode);
      return v1('MSG_SC_SERVER_LABEL_UPDATE_DEVICES_ACK', {});
    },
  );

  /** Channels placed directly in a label, paged. */
  r.get(
    '/api/v1/label/channelsconfig',
    { schema: { tags, querystring: listWindow.extend({ id, q: text(128).optional() }) } },
    async (req) => {
      const scope = await scopeOf(ctx.db, req.user!);
      await visibleLabel(scope, req.query.id);
      const admin = isAdmin(req.user!);
      const page = await channels.list(scope, { ...req.query, inLabel: req.query.id }, req.user!.id, admin, req.lang);
      // The same Channel rows as channelsconfig: an administrator's carry the push state.
      const rows = admin ? withCdnPush(page.rows, ctx.cdn, req.lang) : page.rows;
      return v1('MSG_SC_SERVER_LABEL_CHANNELS_ACK', { Channels: rows, ChannelCount: page.total });
    },
  );

  r.get('/api/v1/label/devicesconfig', { schema: { tags, querystring: listWindow.extend({ id }) } }, async (req) => {
    const scope = await scopeOf(ctx.db, req.user!);
    await visibleLabel(scope, req.query.id);
    const page = await devices.list(scope, { ...req.query, inLabel: req.query.id }, isAdmin(req.user!));
    return v1('MSG_SC_SERVER_LABEL_DEVICES_ACK', { Devices: page.rows, TotalCount: page.total });
  });

  r.get('/api/v1/labelowninfo', { config: admin, schema: { tags, querystring: z.object({ device: deviceId, channel: channelId }) } }, async (req) =>
    v1('MSG_SC_SERVER_LABEL_OWN_ACK', { Labels: await labels.ofChannel(req.query.device, req.query.channel) }),
  );
  r.get('/api/v1/labeldeviceowninfo', { config: admin, schema: { tags, querystring: z.object({ device: deviceId }) } }, async (req) =>
    v1('MSG_SC_SERVER_LABEL_DEVICE_OWN_ACK', { Labels: await labels.ofDevice(req.query.device) }),
  );

  /** Labels and labelled channels whose name contains the key. */
  r.get('/api/v1/labels/search', { schema: { tags, querystring: z.object({ key: text(128).min(1) }) } }, async (req) => {
    const scope = await scopeOf(ctx.db, req.user!);
    const all = await labels.all(scope);
    const key = req.query.key.toLowerCase();
    const matched = all.filter((l) => l.Name.toLowerCase().includes(key));
    const nodes: GroupNode[] = matched.map(labelNode);
    const labelIds = all.map((l) => l.ID);
    if (labelIds.length) {
      const hits = await ctx.db
        .selectFrom('label_channels')
        .innerJoin('channels', 'channels.id', 'label_channels.channel_pk')
        .select(['label_channels.label_id', 'channels.parent_device_id', 'channels.channel_id', 'channels.name', 'channels.online', 'channels.enable', 'channels.parental'])
        .where('label_channels.label_id', 'in', labelIds)
        .where((eb) => contains(ctx.engine, eb.ref('channels.name'), req.query.key))
        .limit(500)
        .execute();
      for (const h of hits) {
        nodes.push(
          channelNode(
            { device: h.parent_device_id, channel: h.channel_id, name: h.name, online: h.online, enable: h.enable, parental: h.parental },
            String(h.label_id),
          ),
        );
      }
    }
    return v1('MSG_SC_SERVER_LABELS_SEARCH_ACK', { Nodes: nodes });
  });

  /** Every channel under a label, at any depth: its channels, its devices' channels, its sub-labels'. */
  r.get('/api/v1/labels/:id/channels', { schema: { tags, params: z.object({ id }), querystring: listWindow } }, async (req) => {
    const scope = await scopeOf(ctx.db, req.user!);
    await visibleLabel(scope, req.params.id);
    const ids = [req.params.id, ...(await labels.descendants(req.params.id))];
    const labelScope: Scope = { all: false, roleId: -1, labelIds: ids };
    // Intersect the label's content with what the user may see.
    const mine = await channels.list(labelScope, { start: 0, limit: 99999, camerasOnly: true }, req.user!.id, isAdmin(req.user!), req.lang);
    let rows = mine.rows;
    if (!scope.all) {
      const visible = await channels.list(scope, { start: 0, limit: 99999, camerasOnly: true }, req.user!.id, false, req.lang);
      const keys = new Set(visible.rows.map((c) => `${c.ParentDeviceID}/${c.ChannelID}`));
      rows = rows.filter((c) => keys.has(`${c.ParentDeviceID}/${c.ChannelID}`));
    }
    const shown = rows.slice(req.query.start, req.query.start + req.query.limit);
    return v1('MSG_SC_SERVER_LABEL_ALL_CHANNELS_ACK', {
      Channels: isAdmin(req.user!) ? withCdnPush(shown, ctx.cdn, req.lang) : shown,
      ChannelCount: rows.length,
    });
  });

  /**
   * The group tree: the children of a label as nodes. Sub-labels are directories, devices placed in
   * the label are device nodes (IsSearchDevice 1: expand with group/devicechannels), channels placed
   * in it are cameras, GB directories are deviceDirectory nodes.
   */
  r.get(
    '/api/v1/group/children',
    {
      schema: {
        tags,
        querystring: z.object({
          labelid: parentId,
          isSearchDevice: flag.optional(),
          // Optional paging (a group of a site's 1,500 cameras answered them all, 230 KB, to a tree
          // that shows 50); without it the whole level, as before.
          start: z.coerce.number().int().min(0).optional(),
          limit: z.coerce.number().int().min(1).max(99999).optional(),
        }),
      },
    },
    async (req) => {
      const scope = await scopeOf(ctx.db, req.user!);
      const labelId = req.query.labelid;
      if (labelId) await visibleLabel(scope, labelId);
      const nodes: GroupNode[] = (await labels.children(scope, labelId)).map(labelNode);
      if (labelId) {
        const devs = await ctx.db
          .selectFrom('label_devices')
          .innerJoin('devices', 'devices.id', 'label_devices.device_pk')
          .select(['devices.device_id', 'devices.device_name', 'devices.online', 'devices.enable', 'devices.device_type'])
          .where('label_devices.label_id', '=', labelId)
          .where('devices.device_type', 'not in', [...TREE_HIDDEN_TYPES])
          .orderBy('devices.id')
          .execute();
        for (const d of devs) nodes.push(deviceNode(d, String(labelId)));
        const members = await ctx.db
          .selectFrom('label_channels')
          .innerJoin('channels', 'channels.id', 'label_channels.channel_pk')
          .innerJoin('devices', 'devices.device_id', 'channels.parent_device_id')
          // The user's favourites: the group tree stars its cameras (an operator has no other tree).
          .leftJoin('favorites', (j) => j.onRef('favorites.channel_pk', '=', 'channels.id').on('favorites.user_id', '=', req.user!.id))
          .select(['channels.id', 'channels.parent_device_id', 'channels.channel_id', 'channels.name', 'channels.online', 'channels.enable', 'channels.parental', 'favorites.channel_pk as fav'])
          .where('label_channels.label_id', '=', labelId)
          .where('devices.device_type', 'not in', [...TREE_HIDDEN_TYPES])
          .orderBy('channels.id')
          .execute();
        for (const c of members) {
          nodes.push(
            channelNode(
              { device: c.parent_device_id, channel: c.channel_id, name: c.name, online: c.online, enable: c.enable, parental: c.parental, favorite: c.fav === null ? 0 : 1 },
              String(labelId),
            ),
          );
        }
      }
      else if (!scope.all) {
        // A user of a role: the devices of the channels given to the role one by one, after its
        // labels (a role given only channels had an empty tree). Each opens with group/devicechannels
        // at labelid 0, which lists those channels.
        // From the role's own grants (a few rows), not a scan of every channel.
        const devs = await ctx.db
          .selectFrom('role_channels')
          .innerJoin('channels', 'channels.id', 'role_channels.channel_pk')
          .innerJoin('devices', 'devices.device_id', 'channels.parent_device_id')
          .select(['devices.id', 'devices.device_id', 'devices.device_name', 'devices.online', 'devices.enable'])
          .distinct()
          .where('role_channels.role_id', '=', scope.roleId)
          .where('channels.parental', '=', 0)
          .where('devices.device_type', 'not in', [...TREE_HIDDEN_TYPES])
          .where((eb) => directOnlyChannelIds(eb as never, scope))
          .orderBy('devices.id')
          .execute();
        for (const d of devs) nodes.push(deviceNode(d, '0'));
      }
      const { start = 0, limit } = req.query;
      const page = start || limit !== undefined ? nodes.slice(start, limit === undefined ? undefined : start + limit) : nodes;
      return v1('MSG_SC_SERVER_GROUP_CHILDREN_ACK', { Nodes: page, Count: nodes.length });
    },
  );

  /** A device node's channels inside the group tree (top level, or a GB directory's children). */
  r.get(
    '/api/v1/group/devicechannels',
    { schema: { tags, querystring: listWindow.extend({ deviceid: deviceId, labelid: parentId, subset: channelId.optional() }) } },
    async (req) => {
      const scope = await scopeOf(ctx.db, req.user!);
      if (req.query.labelid) await visibleLabel(scope, req.query.labelid);
      // A device at the top of a role user's tree (no label) holds the channels given to the role
      // one by one, at whatever depth of the device they sit: its cameras, flat.
      const direct = !req.query.labelid && !scope.all;
      const p = await channels.list(
        scope,
        direct
          ? { start: req.query.start, limit: req.query.limit, device: req.query.deviceid, flat: true, camerasOnly: true, directOnly: true }
          : { start: req.query.start, limit: req.query.limit, device: req.query.deviceid, subset: req.query.subset },
        req.user!.id,
        isAdmin(req.user!),
        req.lang,
      );
      const nodes: GroupNode[] = p.rows.map((c) =>
        channelNode(
          { device: c.ParentDeviceID, channel: c.ChannelID, name: c.Name, online: c.Online, enable: c.Enable, parental: c.Parental, childNum: c.SubChannelNum, favorite: c.FavoritesChannel },
          req.query.subset ?? c.ParentDeviceID,
        ),
      );
      return v1('MSG_SC_SERVER_GROUP_DEVICE_CHANNELS_ACK', { Nodes: nodes, Count: p.total });
    },
  );
}
