/** Channels: listing (by device, by sub-channel level, by search), edits, and online transitions. */
import type { Kysely } from 'kysely';
import type { ChannelRow, Lang, Reason } from '@opencvr/shared';
import type { Channel, Database } from '../../db/schema.js';
import type { Engine } from '../../db/index.js';
import { contains } from '../../db/text-match.js';
import { duplicate, invalidParam, notFound } from '../../http/errors.js';
import type { NewsService } from '../news/news.js';
import { channelRow } from './rows.js';
import { storedReason } from './status-reason.js';
import { directOnlyChannelIds, visibleChannelIds, type Scope } from './scope.js';
import { totalOf } from './paging.js';
import { belowFolder } from './folder-below.js';
import { deviceFollowsChannels } from './device-online.js';
import { isPinnedTlsUrl } from './tls-cert-status.js';

export interface ChannelQuery {
  start: number;
  limit: number;
  device?: string;
  /** List the children of this channel (its GBID); without it, a device's top level. */
  subset?: string;
  /** With a device and no subset: every channel of the device, not only the top level. */
  flat?: boolean;
  /** With a device: only channels below this folder (its GBID), at every depth. */
  under?: string;
  /**
   * Only the channel of this exact ID, at whatever level it sits (a page's one channel, not a search).
   * Not `channel`: routes spread their query in, and channelchild's `channel` is a parent.
   */
  channelId?: string;
  q?: string;
  online?: boolean;
  enable?: boolean;
  excludeDeviceTypes?: readonly string[];
  /** Only cameras (no directories). */
  camerasOnly?: boolean;
  /** A user of a role: only the channels given to the role one by one that none of its labels reaches. */
  directOnly?: boolean;
  favoritesOf?: number;
  /** Only channels placed directly in this label. */
  inLabel?: number;
  /** Leave out channels already in this label (a number) or in any label ('any'). */
  notInLabel?: number | 'any';
}

export interface ChannelInput {
  ChannelID?: string;
  Name?: string;
  Enable?: boolean;
  OnDemand?: boolean;
  IP?: string;
  Port?: number;
  Username?: string;
  Password?: string;
  Protocol?: string;
  RtspUrl?: string;
  RecordUrl?: string;
  SnapUrl?: string;
  CdnUrl?: string;
  EnableCdn?: boolean;
  EnableRecord?: boolean;
  EnableAudio?: boolean;
  EnableH265ToH264?: boolean;
  Onvif?: string;
  Transport?: string;
  Longitude?: number | null;
  Latitude?: number | null;
  ParentID?: string;
  Parental?: boolean;
  Manufacturer?: string;
  Model?: string;
  /** rtsps://: the camera certificate's SHA-256 to trust ('AB:CD:…', normalised), '' to pin afresh at first use. */
  TlsPin?: string;
}

const bit = (b: boolean | undefined) => (b === undefined ? undefined : b ? 1 : 0);

export class ChannelService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
    private readonly news: NewsService,
  ) {}

  async find(deviceId: string, channelId: string): Promise<Channel | undefined> {
    return this.db
      .selectFrom('channels')
      .selectAll()
      .where('parent_device_id', '=', deviceId)
      .where('channel_id', '=', channelId)
      .executeTakeFirst();
  }

  async require(deviceId: string, channelId: string): Promise<Channel> {
    const c = await this.find(deviceId, channelId);
    if (!c) throw notFound('channel', { id: `${deviceId}/${channelId}` });
    return c;
  }

  /** A channel the scope may see, else 404 (not 403: its existence is not revealed). */
  async requireVisible(scope: Scope, deviceId: string, channelId: string): Promise<Channel> {
    let q = this.db
      .selectFrom('channels')
      .selectAll()
      .where('parent_device_id', '=', deviceId)
      .where('channel_id', '=', channelId);
    if (!scope.all) q = q.where((eb) => visibleChannelIds(eb, scope)!);
    const c = await q.executeTakeFirst();
    if (!c) throw notFound('channel', { id: `${deviceId}/${channelId}` });
    return c;
  }

  /** A page of channels as the API gives them, StatusReason in `lang`. */
  async list(scope: Scope, query: ChannelQuery, userId: number, admin: boolean, lang: Lang): Promise<{ rows: ChannelRow[]; total: number }> {
    let base = this.db.selectFrom('channels').innerJoin('devices', 'devices.device_id', 'channels.parent_device_id');
    if (query.device) {
      base = base.where('channels.parent_device_id', '=', query.device);
      if (query.subset) base = base.where('channels.parent_id', '=', query.subset);
      else if (!query.flat && !query.q && !query.channelId) {
        // The top level of a device. A parent equal to the device's own ID is stored as '' on write
        // (GB catalogs name the device as parent), so an ID shared by a device and one of its
        // channels cannot be mistaken for the top.
        base = base.where('channels.parent_id', '=', '');
      }
    }
    if (query.device && query.under) {
      const { device, under } = query;
      base = base.where(() => belowFolder(device, under));
    }
    if (query.channelId) base = base.where('channels.channel_id', '=', query.channelId);
    if (query.q) {
      const q = query.q;
      base = base.where((eb) =>
        eb.or([contains(this.engine, eb.ref('channels.name'), q), contains(this.engine, eb.ref('channels.channel_id'), q)]),
      );
    }
    if (query.online !== undefined) base = base.where('channels.online', '=', query.online ? 1 : 0);
    if (query.enable !== undefined) base = base.where('channels.enable', '=', query.enable ? 1 : 0);
    if (query.camerasOnly) base = base.where('channels.parental', '=', 0);
    if (query.excludeDeviceTypes?.length) base = base.where('devices.device_type', 'not in', [...query.excludeDeviceTypes]);
    if (query.favoritesOf !== undefined) {
      const uid = query.favoritesOf;
      base = base.where('channels.id', 'in', (eb) => eb.selectFrom('favorites').select('favorites.channel_pk').where('favorites.user_id', '=', uid));
    }
    if (query.inLabel !== undefined) {
      const lid = query.inLabel;
      base = base.where('channels.id', 'in', (eb) => eb.selectFrom('label_channels').select('label_channels.channel_pk').where('label_channels.label_id', '=', lid));
    }
    if (query.notInLabel !== undefined) {
      const nl = query.notInLabel;
      base = base.where('channels.id', 'not in', (eb) => {
        const q = eb.selectFrom('label_channels').select('label_channels.channel_pk');
        return nl === 'any' ? q : q.where('label_channels.label_id', '=', nl);
      });
    }
    if (!scope.all) base = base.where((eb) => visibleChannelIds(eb as never, scope)!);
    if (query.directOnly && !scope.all) base = base.where((eb) => directOnlyChannelIds(eb as never, scope));

    const rows = await base
      .selectAll('channels')
      .select(['devices.device_name as __device_name', 'devices.device_type as __device_type', 'devices.enable as __device_enable', 'devices.id as __device_pk'])
      .orderBy('devices.id')
      .orderBy('channels.channel_num')
      .orderBy('channels.id')
      .limit(query.limit)
      .offset(query.start)
      .execute();
    const total = await totalOf(rows.length, query, () => base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow());
    return { total, rows: await this.decorate(rows, scope, userId, admin, lang) };
  }

  /** Adds the favourite flag and sub-channel counts to a page of rows. */
  private async decorate(
    rows: (Channel & { __device_name: string; __device_type: string; __device_enable: number })[],
    scope: Scope,
    userId: number,
    admin: boolean,
    lang: Lang,
  ): Promise<ChannelRow[]> {
    if (!rows.length) return [];
    const pks = rows.map((r) => r.id);
    const favs = new Set(
      (await this.db.selectFrom('favorites').select('channel_pk').where('user_id', '=', userId).where('channel_pk', 'in', pks).execute()).map(
        (f) => f.channel_pk,
      ),
    );
    const dirs = rows.filter((r) => r.parental);
    const sub = new Map<string, number>();
    if (dirs.length) {
      let q = this.db
        .selectFrom('channels')
        .select(['channels.parent_device_id as d', 'channels.parent_id as p', (eb) => eb.fn.countAll<string | number>().as('n')])
        .where('channels.parent_device_id', 'in', [...new Set(dirs.map((r) => r.parent_device_id))])
        .where('channels.parent_id', 'in', dirs.map((r) => r.channel_id))
        .groupBy(['channels.parent_device_id', 'channels.parent_id']);
      if (!scope.all) q = q.where((eb) => visibleChannelIds(eb, scope)!);
      for (const r of await q.execute()) sub.set(`${r.d}/${r.p}`, Number(r.n));
    }
    return rows.map((r) =>
      channelRow(
        r,
        {
          deviceName: r.__device_name,
          deviceType: r.__device_type,
          deviceEnable: r.__device_enable,
          favorite: favs.has(r.id),
          subChannels: sub.get(`${r.parent_device_id}/${r.channel_id}`) ?? 0,
        },
        admin,
        lang,
      ),
    );
  }

  async create(deviceId: string, input: ChannelInput): Promise<Channel> {
    const now = new Date().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const device = await trx.selectFrom('devices').select(['device_id', 'device_type']).where('device_id', '=', deviceId).executeTakeFirst();
      if (!device) throw notFound('device', { id: deviceId });
      const { max } = await trx
        .selectFrom('channels')
        .select((eb) => eb.fn.max<number | null>('channel_num').as('max'))
        .where('parent_device_id', '=', deviceId)
        .executeTakeFirstOrThrow();
      const num = Number(max ?? 0) + 1;
      // A parent that names the device itself means the top level, unless the device really has a
      // channel of that ID (platform-numbered devices and channels share small numbers).
      let parentId = input.ParentID ?? '';
      if (parentId === deviceId) {
        const sameId = await trx
          .selectFrom('channels')
          .select('id')
          .where('parent_device_id', '=', deviceId)
          .where('channel_id', '=', deviceId)
          .executeTakeFirst();
        if (!sameId) parentId = '';
      }
      const channelId = input.ChannelID ?? String(num);
      const taken = await trx
        .selectFrom('channels')
        .select('id')
        .where('parent_device_id', '=', deviceId)
        .where('channel_id', '=', channelId)
        .executeTakeFirst();
      if (taken) throw duplicate('channel', { id: `${deviceId}/${channelId}` });
      const row = await trx
        .insertInto('channels')
        .values({
          channel_id: channelId,
          parent_device_id: deviceId,
          name: input.Name || `Channel ${num}`,
          online: 0,
          enable: bit(input.Enable) ?? 1,
          created_at: now,
          updated_at: now,
          channel_num: num,
          parent_id: parentId,
          parental: bit(input.Parental) ?? 0,
          on_demand: bit(input.OnDemand) ?? 1,
          ip: input.IP ?? hostOf(input.RtspUrl),
          port: input.Port ?? portOf(input.RtspUrl),
          username: input.Username ?? '',
          password: input.Password ?? '',
          protocol: input.Protocol ?? (device.device_type === 'ONVIF' ? 'ONVIF' : device.device_type === 'RTSP' ? 'RTSP' : device.device_type),
          rtsp_url: input.RtspUrl ?? '',
          record_url: input.RecordUrl ?? '',
          snap_url: input.SnapUrl ?? '',
          cdn_url: input.CdnUrl ?? '',
          enable_cdn: bit(input.EnableCdn) ?? 0,
          enable_record: bit(input.EnableRecord) ?? 0,
          enable_audio: bit(input.EnableAudio) ?? 1,
          enable_h265_to_h264: bit(input.EnableH265ToH264) ?? 0,
          onvif: input.Onvif ?? '',
          transport: input.Transport ?? 'TCP',
          manufacturer: input.Manufacturer ?? '',
          model: input.Model ?? '',
          longitude: input.Longitude ?? null,
          latitude: input.Latitude ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return trx.selectFrom('channels').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    });
  }

  async update(deviceId: string, channelId: string, input: ChannelInput): Promise<Channel> {
    const c = await this.require(deviceId, channelId);
    const set: Record<string, unknown> = { updated_at: new Date().toISOString() };
    const map: [keyof ChannelInput, string][] = [
      ['Name', 'name'],
      ['IP', 'ip'],
      ['Port', 'port'],
      ['Username', 'username'],
      ['Password', 'password'],
      ['Protocol', 'protocol'],
      ['RtspUrl', 'rtsp_url'],
      ['RecordUrl', 'record_url'],
      ['SnapUrl', 'snap_url'],
      ['CdnUrl', 'cdn_url'],
      ['Onvif', 'onvif'],
      ['Transport', 'transport'],
      ['Longitude', 'longitude'],
      ['Latitude', 'latitude'],
      ['Manufacturer', 'manufacturer'],
      ['Model', 'model'],
    ];
    for (const [k, col] of map) if (input[k] !== undefined) set[col] = input[k];
    const flags: [keyof ChannelInput, string][] = [
      ['Enable', 'enable'],
      ['OnDemand', 'on_demand'],
      ['EnableCdn', 'enable_cdn'],
      ['EnableRecord', 'enable_record'],
      ['EnableAudio', 'enable_audio'],
      ['EnableH265ToH264', 'enable_h265_to_h264'],
    ];
    for (const [k, col] of flags) if (input[k] !== undefined) set[col] = input[k] ? 1 : 0;
    if (input.RtspUrl !== undefined && input.IP === undefined) set.ip = hostOf(input.RtspUrl);
    if (input.RtspUrl !== undefined && input.Port === undefined) set.port = portOf(input.RtspUrl);
    // A new address may be another camera or server: its rtsps:// or https:// certificate is pinned afresh at first use (access/tls/).
    if (input.RtspUrl !== undefined && input.RtspUrl !== c.rtsp_url) set.tls_pin = '';
    // An administrator trusts a certificate (the one the camera now presents, shown on the channel form).
    if (input.TlsPin) {
      if (!isPinnedTlsUrl(input.RtspUrl ?? c.rtsp_url)) throw invalidParam('TlsPin', 'tlsPinNotRtsps');
      set.tls_pin = input.TlsPin;
    } else if (input.TlsPin === '') set.tls_pin = '';
    await this.db.updateTable('channels').set(set).where('id', '=', c.id).execute();
    return (await this.find(deviceId, channelId))!;
  }

  /**
   * Turns the recording switch (EnableRecord) of these channels on or off at once: a plan bound to a
   * site's 1,500 cameras records none of them until each one's switch is on. Returns how many changed.
   */
  async setRecording(channelPks: number[], on: boolean): Promise<number> {
    let changed = 0;
    // In slices: a statement's bound parameters are limited (SQLite 32766, PostgreSQL 65535).
    for (let i = 0; i < channelPks.length; i += 1000) {
      const slice = channelPks.slice(i, i + 1000);
      const r = await this.db
        .updateTable('channels')
        .set({ enable_record: on ? 1 : 0, updated_at: new Date().toISOString() })
        .where('id', 'in', slice)
        .where('enable_record', '=', on ? 0 : 1)
        .executeTakeFirst();
      changed += Number(r.numUpdatedRows);
    }
    return changed;
  }

  /** Deletes channels (and their sub-channels, label entries, favourites, grants) in one transaction. */
  async remove(deviceId: string, channelIds: string[]): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      const failed: string[] = [];
      const pks: number[] = [];
      for (const id of channelIds) {
        const row = await trx
          .selectFrom('channels')
          .select('id')
          .where('parent_device_id', '=', deviceId)
          .where('channel_id', '=', id)
          .executeTakeFirst();
        if (!row) failed.push(id);
        else pks.push(row.id);
      }
      // Sub-channels of deleted directories go too, at any depth.
      let frontier = channelIds.filter((id) => !failed.includes(id));
      while (frontier.length) {
        const children = await trx
          .selectFrom('channels')
          .select(['id', 'channel_id'])
          .where('parent_device_id', '=', deviceId)
          .where('parent_id', 'in', frontier)
          .execute();
        const fresh = children.filter((ch) => !pks.includes(ch.id));
        pks.push(...fresh.map((ch) => ch.id));
        frontier = fresh.map((ch) => ch.channel_id);
      }
      if (pks.length) {
        await trx.deleteFrom('label_channels').where('channel_pk', 'in', pks).execute();
        await trx.deleteFrom('favorites').where('channel_pk', 'in', pks).execute();
        await trx.deleteFrom('role_channels').where('channel_pk', 'in', pks).execute();
        await trx.deleteFrom('channels').where('id', 'in', pks).execute();
      }
      return failed;
    });
  }

  /**
   * Records a channel's reachability and, offline, why (a catalogue reason: status-reason.ts). A
   * change of state writes the message log and pushes it, and the device follows: online while any
   * of its channels is.
   */
  async setOnline(channelPk: number, online: boolean, why?: Reason): Promise<boolean> {
    const c = await this.db
      .selectFrom('channels')
      .leftJoin('devices', 'devices.device_id', 'channels.parent_device_id')
      .selectAll('channels')
      .select('devices.enable as deviceEnable')
      .where('channels.id', '=', channelPk)
      .executeTakeFirst();
    if (!c) return false;
    // A probe that started before its device was disabled answers after: the device stays offline (device-enable.ts).
    if (c.deviceEnable === 0) return false;
    // Or before the channel itself was (channel-enable.ts).
    if (c.enable === 0) return false;
    const now = new Date().toISOString();
    const changed = c.online !== (online ? 1 : 0);
    await this.db
      .updateTable('channels')
      .set({ online: online ? 1 : 0, ...storedReason(online ? undefined : why), checked_at: now })
      .where('id', '=', channelPk)
      .execute();
    if (changed) {
      await this.news.add({ deviceId: c.parent_device_id, channelId: c.channel_id, channelName: c.name, online });
      await deviceFollowsChannels(this.db, c.parent_device_id, now);
    }
    return changed;
  }
}

/** The host of a stream URL ('' when it has none or is not a URL). */
export function hostOf(url?: string): string {
  if (!url) return '';
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
/** The port of a stream URL, its scheme's default when it names none (0 when unknown). */
export function portOf(url?: string): number {
  if (!url) return 0;
  try {
    const u = new URL(url);
    if (u.port) return Number(u.port);
    return u.protocol === 'rtsp:' ? 554 : u.protocol === 'rtsps:' ? 322 : u.protocol === 'rtmp:' ? 1935 : 0;
  } catch {
    return 0;
  }
}
