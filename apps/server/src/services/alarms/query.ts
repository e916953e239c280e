/** The one query behind listing, counting and deleting alarms, so every call filters the same way. */
import type { Kysely } from 'kysely';
import type { AlarmItem } from '@opencvr/shared';
import type { Database } from '../../db/schema.js';

export interface AlarmFilter {
  ids?: number[];
  /** Spec 3 alarm type; 0 or absent = all types. */
  type?: number;
  /** ISO UTC bounds of the alarm time, both inclusive. */
  from?: string;
  to?: string;
  device?: string;
  channel?: string;
  priority?: number;
  method?: number;
}

export function alarmQuery(db: Kysely<Database>, f: AlarmFilter) {
  let q = db
    .selectFrom('alarms')
    .leftJoin('devices', 'devices.device_id', 'alarms.device_id')
    .leftJoin('channels', (j) =>
      j.onRef('channels.parent_device_id', '=', 'alarms.device_id').onRef('channels.channel_id', '=', 'alarms.channel_id'),
    )
    .select([
      'alarms.id',
      'alarms.device_id',
      'alarms.channel_id',
      'alarms.priority',
      'alarms.method',
      'alarms.type',
      'alarms.alarm_time',
      'alarms.description',
      'alarms.longitude',
      'alarms.latitude',
      'alarms.snapshot',
      'alarms.created_at',
      'devices.device_name',
      'channels.name as channel_name',
    ]);
  if (f.ids) q = q.where('alarms.id', 'in', f.ids.length ? f.ids : [-1]);
  if (f.type) q = q.where('alarms.type', '=', f.type);
  if (f.from) q = q.where('alarms.alarm_time', '>=', f.from);
  if (f.to) q = q.where('alarms.alarm_time', '<=', f.to);
  if (f.device) q = q.where('alarms.device_id', '=', f.device);
  if (f.channel) q = q.where('alarms.channel_id', '=', f.channel);
  if (f.priority) q = q.where('alarms.priority', '=', f.priority);
  if (f.method) q = q.where('alarms.method', '=', f.method);
  return q;
}

type Row = Awaited<ReturnType<ReturnType<typeof alarmQuery>['executeTakeFirstOrThrow']>>;

/** URL of an alarm's snapshot (served by GET /api/v1/alarm/snapshot/:id). */
export const snapshotUrl = (id: number) => `/api/v1/alarm/snapshot/${id}`;

export function toAlarmItem(r: Row): AlarmItem {
  return {
    ID: r.id,
    DeviceID: r.device_id,
    ChannelID: r.channel_id,
    DeviceName: r.device_name ?? '',
    ChannelName: r.channel_name ?? '',
    AlarmPriority: r.priority,
    AlarmMethod: r.method,
    AlarmType: r.type,
    AlarmTime: r.alarm_time,
    AlarmDescription: r.description,
    Longitude: r.longitude === null ? null : Number(r.longitude),
    Latitude: r.latitude === null ? null : Number(r.latitude),
    Snapshot: r.snapshot ? snapshotUrl(r.id) : '',
    CreateTime: r.created_at,
  };
}
