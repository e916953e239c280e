/** Responses about the device itself: DeviceInfo, DeviceStatus, DeviceControl, PresetQuery, ConfigDownload. */
import { attr, child, childText, children, type XmlElement } from '../xml.js';
import { isDeviceId, looseInt, looseTime, onOff } from './fields.js';
import type { ManscdpHeader } from './header.js';

/** OK unless the device says ERROR; `ok` undefined when no Result was sent. */
function result(root: XmlElement): { result?: string; ok?: boolean } {
  const r = childText(root, 'Result')?.toUpperCase();
  return { result: r, ok: r === undefined ? undefined : r === 'OK' };
}

export interface DeviceInfoResponse extends ManscdpHeader {
  kind: 'device-info';
  result?: string;
  ok?: boolean;
  deviceName?: string;
  manufacturer?: string;
  model?: string;
  firmware?: string;
  /** Number of video channels the device has. */
  channel?: number;
  maxCamera?: number;
  maxAlarm?: number;
}

export function decodeDeviceInfo(h: ManscdpHeader, root: XmlElement): DeviceInfoResponse {
  return {
    ...h,
    kind: 'device-info',
    ...result(root),
    deviceName: childText(root, 'DeviceName'),
    manufacturer: childText(root, 'Manufacturer'),
    model: childText(root, 'Model'),
    firmware: childText(root, 'Firmware'),
    channel: looseInt(root, 'Channel'),
    maxCamera: looseInt(root, 'MaxCamera'),
    maxAlarm: looseInt(root, 'MaxAlarm'),
  };
}

export interface AlarmDutyStatus {
  deviceId: string;
  /** ONDUTY / OFFDUTY / ALARM. */
  dutyStatus?: string;
}

export interface DeviceStatusResponse extends ManscdpHeader {
  kind: 'device-status';
  result?: string;
  ok?: boolean;
  /** ONLINE/OFFLINE as written; `online` its meaning. */
  onlineText?: string;
  online?: boolean;
  /** OK/ERROR: whether the device works normally. */
  status?: string;
  reason?: string;
  encode?: boolean;
  record?: boolean;
  deviceTime?: string;
  alarmStatus: AlarmDutyStatus[];
}

export function decodeDeviceStatus(h: ManscdpHeader, root: XmlElement): DeviceStatusResponse {
  const onlineText = childText(root, 'Online')?.toUpperCase();
  const alarmStatus = children(child(root, 'Alarmstatus'), 'Item')
    .map((e) => ({ deviceId: childText(e, 'DeviceID') ?? '', dutyStatus: childText(e, 'DutyStatus')?.toUpperCase() }))
    .filter((a) => isDeviceId(a.deviceId));
  return {
    ...h,
    kind: 'device-status',
    ...result(root),
    onlineText,
    online: onOff(onlineText),
    status: childText(root, 'Status')?.toUpperCase(),
    reason: childText(root, 'Reason'),
    encode: onOff(childText(root, 'Encode')),
    record: onOff(childText(root, 'Record')),
    deviceTime: looseTime(root, 'DeviceTime'),
    alarmStatus,
  };
}

export interface DeviceControlResponse extends ManscdpHeader {
  kind: 'device-control';
  result?: string;
  ok?: boolean;
}

export function decodeDeviceControlResponse(h: ManscdpHeader, root: XmlElement): DeviceControlResponse {
  return { ...h, kind: 'device-control', ...result(root) };
}

export interface Preset {
  presetId: number;
  presetName?: string;
}

export interface PresetQueryResponse extends ManscdpHeader {
  kind: 'preset-query';
  listNum?: number;
  presets: Preset[];
}

export function decodePresetQuery(h: ManscdpHeader, root: XmlElement): PresetQueryResponse {
  const list = child(root, 'PresetList');
  const presets: Preset[] = [];
  for (const e of children(list, 'Item')) {
    const presetId = looseInt(e, 'PresetID');
    if (presetId !== undefined && presetId >= 0 && presetId <= 255)
      presets.push({ presetId, presetName: childText(e, 'PresetName') });
  }
  const num = attr(list, 'Num');
  return { ...h, kind: 'preset-query', listNum: num && /^\d{1,6}$/.test(num) ? Number(num) : undefined, presets };
}

export interface ConfigDownloadResponse extends ManscdpHeader {
  kind: 'config-download';
  result?: string;
  ok?: boolean;
  /** Each configuration block (BasicParam, VideoParamOpt, SVACEncodeConfig …) as name → its fields. */
  configs: Record<string, Record<string, string>>;
  /** The common BasicParam fields, read as numbers where they are numbers. */
  basic?: { name?: string; expiration?: number; heartBeatInterval?: number; heartBeatCount?: number };
}

export function decodeConfigDownload(h: ManscdpHeader, root: XmlElement): ConfigDownloadResponse {
  const configs: Record<string, Record<string, string>> = {};
  const header = new Set(['cmdtype', 'sn', 'deviceid', 'result']);
  for (const block of root.children) {
    if (header.has(block.name.toLowerCase()) || block.children.length === 0 || Object.hasOwn(configs, block.name))
      continue;
    const fields: Record<string, string> = {};
    for (const f of block.children) if (!Object.hasOwn(fields, f.name)) fields[f.name] = f.text;
    configs[block.name] = fields;
  }
  const b = child(root, 'BasicParam');
  const basic = b
    ? {
        name: childText(b, 'Name'),
        expiration: looseInt(b, 'Expiration'),
        heartBeatInterval: looseInt(b, 'HeartBeatInterval'),
        heartBeatCount: looseInt(b, 'HeartBeatCount'),
      }
    : undefined;
  return { ...h, kind: 'config-download', ...result(root), configs, basic };
}
