/** Queries the platform sends to a device (MESSAGE), and the SUBSCRIBE bodies (GB/T 28181-2016 A.2.4). */
import { ManscdpError } from '../errors.js';
import {
  el,
  gbTime,
  header,
  intInRange,
  writeManscdp,
  type EncodeOptions,
  type ManscdpBody,
  type XmlOut,
} from './writer.js';

export interface QueryTarget {
  sn: number;
  deviceId: string;
}

const query = (children: (XmlOut | undefined)[], opts?: EncodeOptions) =>
  writeManscdp({ name: 'Query', children }, opts);

export function encodeCatalogQuery(
  q: QueryTarget & { startTime?: string; endTime?: string },
  opts?: EncodeOptions,
): ManscdpBody {
  return query(
    [...header('Catalog', q.sn, q.deviceId), gbTime('StartTime', q.startTime), gbTime('EndTime', q.endTime)],
    opts,
  );
}

export function encodeDeviceInfoQuery(q: QueryTarget, opts?: EncodeOptions): ManscdpBody {
  return query(header('DeviceInfo', q.sn, q.deviceId), opts);
}

export function encodeDeviceStatusQuery(q: QueryTarget, opts?: EncodeOptions): ManscdpBody {
  return query(header('DeviceStatus', q.sn, q.deviceId), opts);
}

export function encodePresetQuery(q: QueryTarget, opts?: EncodeOptions): ManscdpBody {
  return query(header('PresetQuery', q.sn, q.deviceId), opts);
}

export const RECORD_TYPES = ['all', 'time', 'alarm', 'manual'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export interface RecordInfoQuery extends QueryTarget {
  startTime: string;
  endTime: string;
  /** Default all. */
  type?: RecordType;
  /** Default 0 (not secret). */
  secrecy?: number;
  filePath?: string;
  address?: string;
  recorderId?: string;
  /** 1: fuzzy match on FilePath/Address (-2016). */
  indistinctQuery?: number;
}

export function encodeRecordInfoQuery(q: RecordInfoQuery, opts?: EncodeOptions): ManscdpBody {
  gbTime('StartTime', q.startTime);
  gbTime('EndTime', q.endTime);
  if (!(q.startTime < q.endTime))
    throw new ManscdpError('bad-argument', `RecordInfo StartTime ${q.startTime} is not before EndTime ${q.endTime}`);
  const type = q.type ?? 'all';
  if (!RECORD_TYPES.includes(type))
    throw new ManscdpError('bad-argument', `record type "${type}" is not one of ${RECORD_TYPES.join('/')}`);
  return query(
    [
      ...header('RecordInfo', q.sn, q.deviceId),
      gbTime('StartTime', q.startTime),
      gbTime('EndTime', q.endTime),
      el('FilePath', q.filePath),
      el('Address', q.address),
      intInRange('Secrecy', q.secrecy ?? 0, 0, 1),
      el('Type', type),
      el('RecorderID', q.recorderId),
      intInRange('IndistinctQuery', q.indistinctQuery, 0, 1),
    ],
    opts,
  );
}

export const CONFIG_TYPES = [
  'BasicParam',
  'VideoParamOpt',
  'SVACEncodeConfig',
  'SVACDecodeConfig',
  'VideoParamAttribute',
  'VideoRecordPlan',
  'VideoAlarmRecord',
  'PictureMask',
  'FrameMirror',
  'AlarmReport',
  'OSDConfig',
  'SnapShotConfig',
] as const;
export type ConfigType = (typeof CONFIG_TYPES)[number];

export function encodeConfigDownloadQuery(
  q: QueryTarget & { configTypes: ConfigType[] },
  opts?: EncodeOptions,
): ManscdpBody {
  if (q.configTypes.length === 0 || q.configTypes.some((t) => !CONFIG_TYPES.includes(t))) {
    throw new ManscdpError('bad-argument', `ConfigType must be one or more of ${CONFIG_TYPES.join('/')}`);
  }
  return query([...header('ConfigDownload', q.sn, q.deviceId), el('ConfigType', q.configTypes.join('/'))], opts);
}

/** SUBSCRIBE (Event: Catalog) body: a Catalog query, optionally limited to changes in a time range. */
export function encodeCatalogSubscribe(
  q: QueryTarget & { startTime?: string; endTime?: string },
  opts?: EncodeOptions,
): ManscdpBody {
  return encodeCatalogQuery(q, opts);
}

export interface AlarmSubscribe extends QueryTarget {
  /** 0 = any; 1 highest … 4. */
  startAlarmPriority?: number;
  endAlarmPriority?: number;
  /** 0 = any; several methods joined with '/' are allowed (`'2/5'`). */
  alarmMethod?: string;
  alarmType?: string;
  startAlarmTime?: string;
  endAlarmTime?: string;
}

/** SUBSCRIBE (Event: presence, Alarm) body. */
export function encodeAlarmSubscribe(q: AlarmSubscribe, opts?: EncodeOptions): ManscdpBody {
  if (q.alarmMethod !== undefined && !/^\d(\/\d)*$/.test(q.alarmMethod))
    throw new ManscdpError('bad-argument', `AlarmMethod "${q.alarmMethod}" is not digits joined by '/'`);
  if (q.alarmType !== undefined && !/^\d{1,3}(\/\d{1,3})*$/.test(q.alarmType))
    throw new ManscdpError('bad-argument', `AlarmType "${q.alarmType}" is not numbers joined by '/'`);
  return query(
    [
      ...header('Alarm', q.sn, q.deviceId),
      intInRange('StartAlarmPriority', q.startAlarmPriority ?? 0, 0, 4),
      intInRange('EndAlarmPriority', q.endAlarmPriority ?? 0, 0, 4),
      el('AlarmMethod', q.alarmMethod ?? '0'),
      el('AlarmType', q.alarmType),
      gbTime('StartAlarmTime', q.startAlarmTime),
      gbTime('EndAlarmTime', q.endAlarmTime),
    ],
    opts,
  );
}

/** SUBSCRIBE (Event: presence, MobilePosition) body; Interval in seconds (default 5). */
export function encodeMobilePositionSubscribe(
  q: QueryTarget & { interval?: number },
  opts?: EncodeOptions,
): ManscdpBody {
  return query([...header('MobilePosition', q.sn, q.deviceId), intInRange('Interval', q.interval ?? 5, 1, 3600)], opts);
}
