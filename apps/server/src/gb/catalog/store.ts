/**
 * Catalog items into the channels table: one transaction, batched multi-row upserts keyed by
 * (device, channel ID), so a 10,000-item catalog is a few dozen statements instead of 10,000
 * round trips. A complete catalog also removes the catalog channels the device no longer lists
 * (their labels, favourites, grants and recordings go by the foreign keys' cascade); a partial one
 * (timed out) only adds and updates. Channels added by hand (from_catalog 0) are never touched.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { CatalogItem } from '@opencvr/manscdp';
import type { Database } from '../../db/schema.js';
import { placeItems, type PlacedItem } from './tree.js';
import { CHANNEL_DISABLED } from '../../services/inventory/channel-enable.js';

/** Rows per INSERT: ~30 parameters a row stays well under SQLite's 32,766 and PostgreSQL's 65,535. */
const BATCH = 400;

export interface StoreOptions {
  /** The whole catalog: catalog channels not in it are removed. */
  complete: boolean;
  /** Online flag for items that do not say (Status absent). */
  defaultOnline: boolean;
  now?: Date;
}

export interface OnlineChange {
  channelId: string;
  name: string;
  online: boolean;
}

export interface StoreResult {
  added: number;
  updated: number;
  removed: number;
  /** Stored channels whose online flag changed (for the message log). */
  changes: OnlineChange[];
}

const str = (v: string | undefined, max: number) => (v ?? '').slice(0, max);
const int = (v: number | undefined, dflt = 0) => (v !== undefined && Number.isInteger(v) && Math.abs(v) < 2 ** 31 ? v : dflt);
const coord = (v: number | undefined, limit: number) => (v !== undefined && Number.isFinite(v) && Math.abs(v) <= limit && v !== 0 ? v : null);

export async function storeCatalog(db: Kysely<Database>, deviceId: string, items: readonly CatalogItem[], o: StoreOptions): Promise<StoreResult> {
  const now = (o.now ?? new Date()).toISOString();
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('channels')
      .select(['id', 'channel_id', 'online', 'from_catalog', 'enable'])
      .where('parent_device_id', '=', deviceId)
      .execute();
    const byId = new Map(existing.map((e) => [e.channel_id, e]));
    const placed = o.complete
      ? placeItems(deviceId, items)
      : placeItems(deviceId, items, new Set(byId.keys()), await childCounts(trx, deviceId));
    const result = await upsert(trx, deviceId, placed, byId, o.defaultOnline, now);
    if (o.complete) {
      const listed = new Set(items.map((i) => i.deviceId));
      const gone = existing.filter((e) => e.from_catalog === 1 && !listed.has(e.channel_id)).map((e) => e.id);
      for (let i = 0; i < gone.length; i += BATCH) {
        await trx.deleteFrom('channels').where('id', 'in', gone.slice(i, i + BATCH)).execute();
      }
      result.removed = gone.length;
    }
    await trx.updateTable('devices').set({ catalog_at: now, updated_at: now }).where('device_id', '=', deviceId).execute();
    return result;
  });
}

type Existing = { id: number; channel_id: string; online: number; from_catalog: number; enable: number };

async function upsert(
  trx: Transaction<Database>,
  deviceId: string,
  placed: PlacedItem[],
  existing: Map<string, Existing>,
  defaultOnline: boolean,
  now: string,
): Promise<StoreResult> {
  const { max } = await trx
    .selectFrom('channels')
    .select((eb) => eb.fn.max<number | null>('channel_num').as('max'))
    .where('parent_device_id', '=', deviceId)
    .executeTakeFirstOrThrow();
  let nextNum = Number(max ?? 0);
  const changes: OnlineChange[] = [];
  let added = 0;
  const rows = placed.map(({ item: i, parentId, parental, subCount }) => {
    const before = existing.get(i.deviceId);
    // A channel switched off here stays offline, saying so, whatever the catalog says (channel-enable.ts).
    const disabled = before?.enable === 0;
    const online = disabled ? 0 : i.online === undefined ? (defaultOnline ? 1 : 0) : i.online ? 1 : 0;
    if (!before) added++;
    else if (before.online !== online) changes.push({ channelId: i.deviceId, name: i.name || i.deviceId, online: online === 1 });
    return {
      channel_id: i.deviceId,
      parent_device_id: deviceId,
      name: str(i.name, 255) || i.deviceId,
      online,
      enable: 1,
      created_at: now,
      updated_at: now,
      checked_at: now,
      channel_num: before ? 0 : ++nextNum,
      parent_id: parentId,
      parental,
      sub_count: subCount,
      protocol: 'GB28181',
      ip: str(i.ipAddress, 255),
      port: i.port ?? 0,
      manufacturer: str(i.manufacturer, 64),
      model: str(i.model, 64),
      owner: str(i.owner, 64),
      civil_code: str(i.civilCode, 32),
      block: str(i.block, 64),
      address: str(i.address, 255),
      business_group_id: str(i.businessGroupId, 64),
      safety_way: int(i.safetyWay),
      register_way: int(i.registerWay, 1),
      cert_num: str(i.certNum, 64),
      certifiable: int(i.certifiable),
      err_code: int(i.errCode),
      secrecy: int(i.secrecy),
      status: str(i.status, 16),
      ptz_type: int(i.ptzType),
      longitude: coord(i.longitude, 180),
      latitude: coord(i.latitude, 90),
      from_catalog: 1,
      // A catalogue reason (status-reason.ts): 设备报告通道离线（OFF）.
      status_reason: disabled ? CHANNEL_DISABLED : online ? '' : 'statusCatalogOff',
      status_reason_vars: '',
    };
  });
  for (let i = 0; i < rows.length; i += BATCH) {
    await trx
      .insertInto('channels')
      .values(rows.slice(i, i + BATCH))
      .onConflict((oc) =>
        oc.columns(['parent_device_id', 'channel_id']).doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          online: eb.ref('excluded.online'),
          updated_at: eb.ref('excluded.updated_at'),
          checked_at: eb.ref('excluded.checked_at'),
          parent_id: eb.ref('excluded.parent_id'),
          parental: eb.ref('excluded.parental'),
          sub_count: eb.ref('excluded.sub_count'),
          protocol: eb.ref('excluded.protocol'),
          ip: eb.ref('excluded.ip'),
          port: eb.ref('excluded.port'),
          manufacturer: eb.ref('excluded.manufacturer'),
          model: eb.ref('excluded.model'),
          owner: eb.ref('excluded.owner'),
          civil_code: eb.ref('excluded.civil_code'),
          block: eb.ref('excluded.block'),
          address: eb.ref('excluded.address'),
          business_group_id: eb.ref('excluded.business_group_id'),
          safety_way: eb.ref('excluded.safety_way'),
          register_way: eb.ref('excluded.register_way'),
          cert_num: eb.ref('excluded.cert_num'),
          certifiable: eb.ref('excluded.certifiable'),
          err_code: eb.ref('excluded.err_code'),
          secrecy: eb.ref('excluded.secrecy'),
          status: eb.ref('excluded.status'),
          ptz_type: eb.ref('excluded.ptz_type'),
          // A position set by hand stays when the catalog has none.
          longitude: sql<number | null>`coalesce(excluded.longitude, channels.longitude)`,
          latitude: sql<number | null>`coalesce(excluded.latitude, channels.latitude)`,
          from_catalog: eb.ref('excluded.from_catalog'),
          status_reason: eb.ref('excluded.status_reason'),
          status_reason_vars: eb.ref('excluded.status_reason_vars'),
        })),
      )
      .execute();
  }
  return { added, updated: placed.length - added, removed: 0, changes };
}

async function childCounts(trx: Transaction<Database>, deviceId: string): Promise<Map<string, number>> {
  const rows = await trx
    .selectFrom('channels')
    .select(['parent_id', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('parent_device_id', '=', deviceId)
    .where('parent_id', '!=', '')
    .groupBy('parent_id')
    .execute();
  return new Map(rows.map((r) => [r.parent_id, Number(r.n)]));
}
