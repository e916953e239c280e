/** Devices: listing with channel counts, creation, edits and deletion with everything under them. */
import type { Kysely } from 'kysely';
import type { DeviceRow } from '@opencvr/shared';
import type { Database, Device } from '../../db/schema.js';
import type { Engine } from '../../db/index.js';
import { contains } from '../../db/text-match.js';
import { duplicate, notFound } from '../../http/errors.js';
import { deviceRow } from './rows.js';
import { visibleChannelIds, type Scope } from './scope.js';
import { totalOf } from './paging.js';

export interface DeviceQuery {
  start: number;
  limit: number;
  q?: string;
  device?: string;
  type?: string;
  excludeTypes?: readonly string[];
  online?: boolean;
  /** Only devices placed in this label. */
  inLabel?: number;
}

export interface DeviceInput {
  DeviceID?: string;
  DeviceName: string;
  DeviceType: string;
  DeviceIp?: string;
  DevicePort?: number;
  DeviceUserName?: string;
  DeviceUserPW?: string;
  Manufacturer?: string;
  Enable?: boolean;
  Transport?: string;
  TransportMode?: string;
  ServerID?: string;
  AlarmSubscribe?: boolean;
  CatalogSubscribe?: boolean;
  PositionSubscribe?: boolean;
}

const flag = (b: boolean | undefined, dflt: number) => (b === undefined ? dflt : b ? 1 : 0);

export class DeviceService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {}

  async get(deviceId: string): Promise<Device | undefined> {
    return this.db.selectFrom('devices').selectAll().where('device_id', '=', deviceId).executeTakeFirst();
  }

  async require(deviceId: string): Promise<Device> {
    const d = await this.get(deviceId);
    if (!d) throw notFound('device', { id: deviceId });
    return d;
  }

  /** One page of devices the scope may see, with the count of all matches. */
  async list(scope: Scope, query: DeviceQuery, admin: boolean): Promise<{ rows: DeviceRow[]; total: number }> {
    let base = this.db.selectFrom('devices');
    if (query.q) {
      const q = query.q;
      base = base.where((eb) =>
        eb.or([
          contains(this.engine, eb.ref('devices.device_name'), q),
          contains(this.engine, eb.ref('devices.device_id'), q),
          contains(this.engine, eb.ref('devices.device_ip'), q),
        ]),
      );
    }
    if (query.device) base = base.where('devices.device_id', '=', query.device);
    if (query.type) base = base.where('devices.device_type', '=', query.type);
    if (query.excludeTypes?.length) base = base.where('devices.device_type', 'not in', [...query.excludeTypes]);
    if (query.online !== undefined) base = base.where('devices.online', '=', query.online ? 1 : 0);
    if (query.inLabel !== undefined) {
      const lid = query.inLabel;
      base = base.where('devices.id', 'in', (eb) => eb.selectFrom('label_devices').select('label_devices.device_pk').where('label_devices.label_id', '=', lid));
    }
    if (!scope.all) {
      base = base.where('devices.device_id', 'in', (eb) =>
        eb
          .selectFrom('channels')
          .select('channels.parent_device_id')
          .where((e) => visibleChannelIds(e, scope)!),
      );
    }
    const devices = await base.selectAll('devices').orderBy('devices.id').limit(query.limit).offset(query.start).execute();
    const total = await totalOf(devices.length, query, () => base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow());
    const counts = await this.channelCounts(
      scope,
      devices.map((d) => d.device_id),
    );
    return {
      total,
      rows: devices.map((d) => deviceRow(d, counts.get(d.device_id) ?? { total: 0, online: 0 }, admin)),
    };
  }

  /** Cameras (not directories) per device, and how many are online, within the scope. */
  async channelCounts(scope: Scope, deviceIds: string[]) {
    const out = new Map<string, { total: number; online: number }>();
    if (!deviceIds.length) return out;
    let q = this.db
      .selectFrom('channels')
      .select([
        'channels.parent_device_id as device',
        (eb) => eb.fn.countAll<string | number>().as('total'),
        (eb) => eb.fn.sum<string | number>('channels.online').as('online'),
      ])
      .where('channels.parent_device_id', 'in', deviceIds)
      .where('channels.parental', '=', 0)
      .groupBy('channels.parent_device_id');
    if (!scope.all) q = q.where((eb) => visibleChannelIds(eb, scope)!);
    for (const r of await q.execute()) out.set(r.device, { total: Number(r.total), online: Number(r.online ?? 0) });
    return out;
  }

  async create(input: DeviceInput): Promise<Device> {
    const now = new Date().toISOString();
    return this.db.transaction().execute(async (trx) => {
      if (input.DeviceID) {
        const taken = await trx.selectFrom('devices').select('id').where('device_id', '=', input.DeviceID).executeTakeFirst();
        if (taken) throw duplicate('device', { id: input.DeviceID });
      }
      const sameName = await trx.selectFrom('devices').select('id').where('device_name', '=', input.DeviceName).executeTakeFirst();
      if (sameName) throw duplicate({ name: input.DeviceName });
      // Devices the platform pulls get a number for an ID (as EasyCVR does); the row id is unique, so
      // insert under a temporary ID and then take the row's own number.
      const provisional = input.DeviceID ?? `new-${now}-${Math.random().toString(36).slice(2)}`;
      const row = await trx
        .insertInto('devices')
        .values({
          device_id: provisional,
          device_name: input.DeviceName,
          device_type: input.DeviceType,
          device_ip: input.DeviceIp ?? '',
          device_port: input.DevicePort ?? 0,
          device_username: input.DeviceUserName ?? '',
          device_password: input.DeviceUserPW ?? '',
          manufacturer: input.Manufacturer ?? '',
          enable: flag(input.Enable, 1),
          online: 0,
          transport: input.Transport ?? 'UDP',
          transport_mode: input.TransportMode ?? 'passive',
          server_id: input.ServerID ?? '',
          alarm_subscribe: flag(input.AlarmSubscribe, 0),
          catalog_subscribe: flag(input.CatalogSubscribe, 0),
          position_subscribe: flag(input.PositionSubscribe, 0),
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (!input.DeviceID) {
        let candidate = String(row.id);
        // A GB device may already use that number as its ID; step past it.
        while (await trx.selectFrom('devices').select('id').where('device_id', '=', candidate).executeTakeFirst()) {
          candidate = `${candidate}0`;
        }
        await trx.updateTable('devices').set({ device_id: candidate }).where('id', '=', row.id).execute();
      }
      return trx.selectFrom('devices').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    });
  }

  async update(deviceId: string, input: Partial<DeviceInput>): Promise<Device> {
    const d = await this.require(deviceId);
    if (input.DeviceName && input.DeviceName !== d.device_name) {
      const sameName = await this.db
        .selectFrom('devices')
        .select('id')
        .where('device_name', '=', input.DeviceName)
        .where('id', '!=', d.id)
        .executeTakeFirst();
      if (sameName) throw duplicate({ name: input.DeviceName });
    }
    const set: Record<string, unknown> = { updated_at: new Date().toISOString() };
    if (input.DeviceName !== undefined) set.device_name = input.DeviceName;
    if (input.DeviceIp !== undefined) set.device_ip = input.DeviceIp;
    if (input.DevicePort !== undefined) set.device_port = input.DevicePort;
    if (input.DeviceUserName !== undefined) set.device_username = input.DeviceUserName;
    if (input.DeviceUserPW !== undefined) set.device_password = input.DeviceUserPW;
    if (input.Manufacturer !== undefined) set.manufacturer = input.Manufacturer;
    if (input.Enable !== undefined) set.enable = input.Enable ? 1 : 0;
    if (input.Transport !== undefined) set.transport = input.Transport;
    if (input.TransportMode !== undefined) set.transport_mode = input.TransportMode;
    if (input.ServerID !== undefined) set.server_id = input.ServerID;
    if (input.AlarmSubscribe !== undefined) set.alarm_subscribe = input.AlarmSubscribe ? 1 : 0;
    if (input.CatalogSubscribe !== undefined) set.catalog_subscribe = input.CatalogSubscribe ? 1 : 0;
    if (input.PositionSubscribe !== undefined) set.position_subscribe = input.PositionSubscribe ? 1 : 0;
    await this.db.updateTable('devices').set(set).where('id', '=', d.id).execute();
    return (await this.get(deviceId))!;
  }

  /**
   * Deletes devices and, through the foreign keys' cascades, their channels and every label entry,
   * favourite and role grant of those channels: all or nothing.
   */
  async remove(deviceIds: string[]): Promise<{ deleted: string[]; missing: string[] }> {
    return this.db.transaction().execute(async (trx) => {
      const found = await trx.selectFrom('devices').select(['id', 'device_id']).where('device_id', 'in', deviceIds).execute();
      const ids = found.map((f) => f.device_id);
      if (ids.length) {
        // Explicit deletes in dependency order, so the result does not depend on an engine's cascade settings.
        const chPks = trx.selectFrom('channels').select('id').where('parent_device_id', 'in', ids);
        await trx.deleteFrom('label_channels').where('channel_pk', 'in', chPks).execute();
        await trx.deleteFrom('favorites').where('channel_pk', 'in', chPks).execute();
        await trx.deleteFrom('role_channels').where('channel_pk', 'in', chPks).execute();
        await trx.deleteFrom('channels').where('parent_device_id', 'in', ids).execute();
        await trx.deleteFrom('label_devices').where('device_pk', 'in', found.map((f) => f.id)).execute();
        await trx.deleteFrom('devices').where('device_id', 'in', ids).execute();
      }
      return { deleted: ids, missing: deviceIds.filter((d) => !ids.includes(d)) };
    });
  }

  async setOnline(deviceId: string, online: boolean) {
    await this.db
      .updateTable('devices')
      .set({ online: online ? 1 : 0, ...(online ? { last_seen_at: new Date().toISOString() } : {}) })
      .where('device_id', '=', deviceId)
      .execute();
  }
}

