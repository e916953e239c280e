/**
 * Groups (labels): a tree of any depth. A label holds sub-labels, whole devices and single channels;
 * a channel may sit in several labels. Roles are given labels (with their sub-labels) and channels.
 */
import type { Kysely } from 'kysely';
import type { LabelRow } from '@opencvr/shared';
import type { Database, Label } from '../../db/schema.js';
import { duplicate, invalidParam, notFound } from '../../http/errors.js';
import type { Scope } from './scope.js';

export type MemberMode = 'add' | 'remove' | 'set';

export interface ChannelRef {
  device: string;
  channel: string;
}

export class LabelService {
  constructor(private readonly db: Kysely<Database>) {}

  async require(id: number): Promise<Label> {
    const l = await this.db.selectFrom('labels').selectAll().where('id', '=', id).executeTakeFirst();
    if (!l) throw notFound('label', { id });
    return l;
  }

  /** Whether the scope may see this label (a non-admin: labels given to its role and below). */
  visible(scope: Scope, id: number) {
    return scope.all || scope.labelIds.includes(id);
  }

  /** Child labels of `parentId` (0 = the top). A non-admin's top is the labels given to its role. */
  async children(scope: Scope, parentId: number, q?: string): Promise<LabelRow[]> {
    let query = this.db.selectFrom('labels').selectAll();
    if (scope.all || parentId !== 0) query = query.where('parent_id', '=', parentId);
    if (!scope.all) {
      if (!scope.labelIds.length) return [];
      query = query.where('id', 'in', scope.labelIds);
      if (parentId === 0) {
        // The role's own top: given labels whose parent the role was not given.
        query = query.where((eb) => eb.or([eb('parent_id', '=', 0), eb('parent_id', 'not in', scope.labelIds)]));
      }
    }
    if (q) query = query.where('name', 'like', `%${q}%`);
    const labels = await query.orderBy('sort').orderBy('id').execute();
    return this.rows(labels);
  }

  async all(scope: Scope): Promise<LabelRow[]> {
    let q = this.db.selectFrom('labels').selectAll();
    if (!scope.all) {
      if (!scope.labelIds.length) return [];
      q = q.where('id', 'in', scope.labelIds);
    }
    return this.rows(await q.orderBy('parent_id').orderBy('sort').orderBy('id').execute());
  }

  private async rows(labels: Label[]): Promise<LabelRow[]> {
    if (!labels.length) return [];
    const ids = labels.map((l) => l.id);
    const count = async (table: 'label_channels' | 'label_devices') => {
      const rows = await this.db
        .selectFrom(table)
        .select(['label_id', (eb) => eb.fn.countAll<string | number>().as('n')])
        .where('label_id', 'in', ids)
        .groupBy('label_id')
        .execute();
      return new Map(rows.map((r) => [r.label_id, Number(r.n)]));
    };
    const ch = await count('label_channels');
    const dev = await count('label_devices');
    const kids = new Map(
      (
        await this.db
          .selectFrom('labels')
          .select(['parent_id', (eb) => eb.fn.countAll<string | number>().as('n')])
          .where('parent_id', 'in', ids)
          .groupBy('parent_id')
          .execute()
      ).map((r) => [r.parent_id, Number(r.n)]),
    );
    return labels.map((l) => ({
      ID: l.id,
      Name: l.name,
      ParentID: l.parent_id,
      ChannelNum: ch.get(l.id) ?? 0,
      DeviceNum: dev.get(l.id) ?? 0,
      ChildNum: kids.get(l.id) ?? 0,
    }));
  }

  async create(name: string, parentId: number): Promise<Label> {
    if (parentId) await this.require(parentId);
    await this.assertFreeName(name, parentId);
    const row = await this.db
      .insertInto('labels')
      .values({ name, parent_id: parentId, created_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return this.require(row.id);
  }

  async rename(id: number, name: string) {
    const l = await this.require(id);
    await this.assertFreeName(name, l.parent_id, id);
    await this.db.updateTable('labels').set({ name }).where('id', '=', id).execute();
  }

  /** Renames and/or moves a label; moving under itself or its own descendant is refused. */
  async update(id: number, change: { name?: string; parentId?: number }) {
    const l = await this.require(id);
    const parentId = change.parentId ?? l.parent_id;
    if (parentId !== l.parent_id && parentId !== 0) {
      await this.require(parentId);
      if ((await this.descendants(id)).includes(parentId) || parentId === id) {
        throw invalidParam('parentid', 'labelUnderItself');
      }
    }
    const name = change.name ?? l.name;
    await this.assertFreeName(name, parentId, id);
    await this.db.updateTable('labels').set({ name, parent_id: parentId }).where('id', '=', id).execute();
  }

  /** Deletes a label with its sub-labels; their device and channel entries go with them. */
  async remove(id: number) {
    await this.require(id);
    const ids = [id, ...(await this.descendants(id))];
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('label_channels').where('label_id', 'in', ids).execute();
      await trx.deleteFrom('label_devices').where('label_id', 'in', ids).execute();
      await trx.deleteFrom('role_labels').where('label_id', 'in', ids).execute();
      await trx.deleteFrom('labels').where('id', 'in', ids).execute();
    });
  }

  async descendants(id: number): Promise<number[]> {
    const all = await this.db.selectFrom('labels').select(['id', 'parent_id']).execute();
    const out: number[] = [];
    const stack = [id];
    while (stack.length) {
      const cur = stack.pop()!;
      for (const l of all) {
        if (l.parent_id === cur && !out.includes(l.id)) {
          out.push(l.id);
          stack.push(l.id);
        }
      }
    }
    return out;
  }

  /** Adds, removes or replaces the channels of a label. Unknown channels are refused as a whole. */
  async updateChannels(id: number, refs: ChannelRef[], mode: MemberMode) {
    await this.require(id);
    await this.setMembers('label_channels', 'channel_pk', id, await this.channelPks(refs), mode);
  }

  async updateDevices(id: number, deviceIds: string[], mode: MemberMode) {
    await this.require(id);
    const found = deviceIds.length
      ? await this.db.selectFrom('devices').select(['id', 'device_id']).where('device_id', 'in', deviceIds).execute()
      : [];
    const missing = deviceIds.filter((d) => !found.some((f) => f.device_id === d));
    if (missing.length) throw notFound('device', { id: missing.join(', ') }, 400);
    await this.setMembers('label_devices', 'device_pk', id, found.map((f) => f.id), mode);
  }

  /** Adds, removes or replaces a label's channel or device members in one transaction. */
  private async setMembers(
    table: 'label_channels' | 'label_devices',
    column: 'channel_pk' | 'device_pk',
    id: number,
    pks: number[],
    mode: MemberMode,
  ) {
    // The two tables have the same shape (label_id + one member key); Kysely cannot type a column
    // chosen at run time, hence the casts.
    const db = this.db as unknown as Kysely<Record<string, { label_id: number } & Record<string, number>>>;
    await db.transaction().execute(async (trx) => {
      if (mode === 'set') await trx.deleteFrom(table).where('label_id', '=', id).execute();
      if (mode === 'remove') {
        if (pks.length) await trx.deleteFrom(table).where('label_id', '=', id).where(column, 'in', pks).execute();
        return;
      }
      // Chunks keep each statement well under SQLite's bound-variable limit.
      for (let i = 0; i < pks.length; i += 500) {
        await trx
          .insertInto(table)
          .values(pks.slice(i, i + 500).map((pk) => ({ label_id: id, [column]: pk })))
          .onConflict((oc) => oc.columns(['label_id', column]).doNothing())
          .execute();
      }
    });
  }

  /** Row ids of channel references; refuses the whole list if one does not exist. */
  async channelPks(refs: ChannelRef[]): Promise<number[]> {
    const pks: number[] = [];
    const missing: string[] = [];
    for (const r of refs) {
      const row = await this.db
        .selectFrom('channels')
        .select('id')
        .where('parent_device_id', '=', r.device)
        .where('channel_id', '=', r.channel)
        .executeTakeFirst();
      if (row) pks.push(row.id);
      else missing.push(`${r.device}/${r.channel}`);
    }
    if (missing.length) throw notFound('channel', { id: missing.slice(0, 5).join(', ') }, 400);
    return [...new Set(pks)];
  }

  /** Labels a channel / a device sits in. */
  async ofChannel(device: string, channel: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('label_channels')
      .innerJoin('channels', 'channels.id', 'label_channels.channel_pk')
      .select('label_channels.label_id')
      .where('channels.parent_device_id', '=', device)
      .where('channels.channel_id', '=', channel)
      .execute();
    return rows.map((r) => r.label_id);
  }
  async ofDevice(device: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('label_devices')
      .innerJoin('devices', 'devices.id', 'label_devices.device_pk')
      .select('label_devices.label_id')
      .where('devices.device_id', '=', device)
      .execute();
    return rows.map((r) => r.label_id);
  }

  private async assertFreeName(name: string, parentId: number, exceptId?: number) {
    let q = this.db.selectFrom('labels').select('id').where('name', '=', name).where('parent_id', '=', parentId);
    if (exceptId) q = q.where('id', '!=', exceptId);
    if (await q.executeTakeFirst()) throw duplicate({ name: name });
  }
}
