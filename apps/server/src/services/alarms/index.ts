/**
 * Protocol alarms (GB28181 Alarm NOTIFY/MESSAGE, issue 6): stored, pushed to every console on the
 * events socket (topic 'alarm'), and given a snapshot of the channel when it has a live stream at
 * alarm time. The row is stored and pushed first; the snapshot follows (a decode takes a moment and
 * the device's answer must not wait for it) and the item is pushed again with its Snapshot URL.
 */
import path from 'node:path';
import type { Kysely } from 'kysely';
import { ALARM_TYPE_MAX, type AlarmItem, type AlarmPage } from '@opencvr/shared';
import type { Database } from '../../db/schema.js';
import type { EventBus } from '../events.js';
import type { StreamService } from '../media/streams.js';
import { streamKey } from '../media/streams.js';
import { SnapshotService } from '../../media/snapshot.js';
import { localDay } from '../recording/time.js';
import { AlarmSnapshots } from './snapshots.js';
import { alarmQuery, toAlarmItem, type AlarmFilter } from './query.js';

export type { AlarmFilter } from './query.js';

export interface AlarmInput {
  deviceId: string;
  channelId?: string;
  /** AlarmPriority 1-4. */
  priority?: number;
  /** AlarmMethod 1-7. */
  method?: number;
  /** Spec 3 alarm type 1-19 (consoleAlarmType of @opencvr/manscdp maps a GB method + AlarmType); 0 = other. */
  type?: number;
  time?: Date | string;
  description?: string;
  longitude?: number | null;
  latitude?: number | null;
}

export interface AlarmsDeps {
  db: Kysely<Database>;
  events: EventBus;
  streams: StreamService;
  dataDir: string;
  log?: { warn(o: object, m: string): void };
  /** Decoder for snapshots; a short keyframe wait since the stream is already live. */
  snapshots?: SnapshotService;
}

const clampInt = (v: number | undefined, min: number, max: number) =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : 0;
const coord = (v: number | null | undefined, limit: number) =>
  typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= limit ? v : null;

export class Alarms {
  readonly files: AlarmSnapshots;
  private readonly snapshots: SnapshotService;
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly deps: AlarmsDeps) {
    this.files = new AlarmSnapshots(path.join(deps.dataDir, 'alarms'));
    this.snapshots = deps.snapshots ?? new SnapshotService({ keyframeWaitMs: 3000, cacheMs: 1000 });
  }

  /** Stores an alarm and pushes it; a snapshot is taken in the background when the channel is live. */
  async record(input: AlarmInput): Promise<AlarmItem> {
    const deviceId = String(input.deviceId ?? '').trim().slice(0, 64);
    if (!deviceId) throw new Error('alarm without a device ID');
    const channelId = String(input.channelId ?? '').trim().slice(0, 64);
    const when = input.time instanceof Date ? input.time : input.time ? new Date(input.time) : new Date();
    const alarmTime = (Number.isNaN(when.getTime()) ? new Date() : when).toISOString();
    const row = await this.deps.db
      .insertInto('alarms')
      .values({
        device_id: deviceId,
        channel_id: channelId,
        priority: clampInt(input.priority, 1, 4),
        method: clampInt(input.method, 1, 7),
        type: clampInt(input.type, 1, ALARM_TYPE_MAX),
        alarm_time: alarmTime,
        description: String(input.description ?? '').slice(0, 1024),
        longitude: coord(input.longitude, 180),
        latitude: coord(input.latitude, 90),
        snapshot: '',
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const item = await this.get(row.id);
    this.deps.events.publish({ topic: 'alarm', payload: item });
    const hub = await this.liveHub(deviceId, channelId);
    if (hub) this.track(this.snapshot(item, hub));
    return item;
  }

  /** Resolves when every snapshot started so far has been written or given up (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  async get(id: number): Promise<AlarmItem> {
    const row = await alarmQuery(this.deps.db, { ids: [id] }).executeTakeFirst();
    if (!row) throw new Error(`alarm ${id} not found`);
    return toAlarmItem(row);
  }

  async list(filter: AlarmFilter, start: number, limit: number): Promise<AlarmPage> {
    const base = alarmQuery(this.deps.db, filter);
    const { total } = await base
      .clearSelect()
      .select((eb) => eb.fn.countAll<string | number>().as('total'))
      .executeTakeFirstOrThrow();
    const rows = await base.orderBy('alarms.alarm_time', 'desc').orderBy('alarms.id', 'desc').limit(limit).offset(start).execute();
    return { Total: Number(total), Alarms: rows.map(toAlarmItem) };
  }

  /** Deletes alarms by id (and their snapshots); returns how many existed. */
  async remove(ids: number[]): Promise<number> {
    return this.removeWhere({ ids });
  }

  /** Deletes every alarm matching a filter (all of them without one); returns how many. */
  async clear(filter: AlarmFilter): Promise<number> {
    return this.removeWhere(filter);
  }

  /** The absolute file of an alarm's snapshot, or undefined. */
  async snapshotFile(id: number): Promise<string | undefined> {
    const row = await this.deps.db.selectFrom('alarms').select('snapshot').where('id', '=', id).executeTakeFirst();
    return row?.snapshot ? this.files.resolve(row.snapshot) : undefined;
  }

  private async removeWhere(filter: AlarmFilter): Promise<number> {
    if (filter.ids && !filter.ids.length) return 0;
    const victims = await alarmQuery(this.deps.db, filter).clearSelect().select(['alarms.id', 'alarms.snapshot']).execute();
    let removed = 0;
    for (let i = 0; i < victims.length; i += 500) {
      const chunk = victims.slice(i, i + 500);
      const res = await this.deps.db.deleteFrom('alarms').where('id', 'in', chunk.map((v) => v.id)).executeTakeFirst();
      removed += Number(res.numDeletedRows);
    }
    await Promise.all(victims.filter((v) => v.snapshot).map((v) => this.files.remove(v.snapshot)));
    return removed;
  }

  private async liveHub(deviceId: string, channelId: string) {
    if (!channelId) return undefined;
    const channel = await this.deps.db
      .selectFrom('channels')
      .select('id')
      .where('parent_device_id', '=', deviceId)
      .where('channel_id', '=', channelId)
      .executeTakeFirst();
    if (!channel) return undefined;
    const hub = this.deps.streams.hubs.get(streamKey(channel.id, 0));
    return hub && hub.state === 'live' ? hub : undefined;
  }

  private async snapshot(item: AlarmItem, hub: Parameters<SnapshotService['jpeg']>[0]) {
    try {
      const jpeg = await this.snapshots.jpeg(hub);
      const rel = `${localDay(new Date(item.AlarmTime))}/${item.ID}.jpg`;
      await this.files.write(rel, jpeg);
      const res = await this.deps.db.updateTable('alarms').set({ snapshot: rel }).where('id', '=', item.ID).executeTakeFirst();
      // Deleted while the snapshot was being taken: do not leave the file behind.
      if (!Number(res.numUpdatedRows)) return await this.files.remove(rel);
      this.deps.events.publish({ topic: 'alarm', payload: await this.get(item.ID) });
    } catch (err) {
      this.deps.log?.warn({ err, alarm: item.ID, stream: hub.key }, 'alarm snapshot failed');
    }
  }

  private track(p: Promise<unknown>) {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }
}
