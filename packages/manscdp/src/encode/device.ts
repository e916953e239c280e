/**
 * Bodies a device sends. The platform never sends these; they exist for device test doubles (sipp
 * scenarios, the TypeScript media double) and for round-trip tests of the decoders.
 */
import type { CatalogItem } from '../decode/catalog.js';
import type { RecordItem } from '../decode/record.js';
import type { AlarmDutyStatus, Preset } from '../decode/device.js';
import { el, gbTime, header, writeManscdp, type EncodeOptions, type ManscdpBody, type XmlOut } from './writer.js';
import type { QueryTarget } from './query.js';

const msg = (
  root: 'Response' | 'Notify',
  cmdType: string,
  q: QueryTarget,
  children: (XmlOut | undefined)[],
  opts?: EncodeOptions,
) => writeManscdp({ name: root, children: [...header(cmdType, q.sn, q.deviceId), ...children] }, opts);

export function encodeKeepalive(
  q: QueryTarget & { status?: string; faultyDeviceIds?: string[] },
  opts?: EncodeOptions,
): ManscdpBody {
  const info = q.faultyDeviceIds?.length
    ? { name: 'Info', children: q.faultyDeviceIds.map((id) => el('DeviceID', id)) }
    : undefined;
  return msg('Notify', 'Keepalive', q, [el('Status', q.status ?? 'OK'), info], opts);
}

function catalogItem(i: Partial<CatalogItem> & { deviceId: string }): XmlOut {
  // The typed fields win over the raw <Info> map they were read from.
  const info: Record<string, string | number | undefined> = {
    ...i.info,
    PTZType: i.ptzType,
    PositionType: i.positionType,
    RoomType: i.roomType,
    UseType: i.useType,
    SupplyLightType: i.supplyLightType,
    DirectionType: i.directionType,
    Resolution: i.resolution,
    DownloadSpeed: i.downloadSpeed,
  };
  const infoChildren = Object.entries(info)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => el(k, v));
  return {
    name: 'Item',
    children: [
      el('DeviceID', i.deviceId),
      el('Name', i.name),
      el('Manufacturer', i.manufacturer),
      el('Model', i.model),
      el('Owner', i.owner),
      el('CivilCode', i.civilCode),
      el('Block', i.block),
      el('Address', i.address),
      el('Parental', i.parental),
      el('ParentID', i.parentId),
      el('SafetyWay', i.safetyWay),
      el('RegisterWay', i.registerWay),
      el('CertNum', i.certNum),
      el('Certifiable', i.certifiable),
      el('ErrCode', i.errCode),
      el('EndTime', i.endTime),
      el('Secrecy', i.secrecy),
      el('IPAddress', i.ipAddress),
      el('Port', i.port),
      el('Status', i.status),
      el('Longitude', i.longitude),
      el('Latitude', i.latitude),
      el('BusinessGroupID', i.businessGroupId),
      el('Event', i.event),
      infoChildren.length ? { name: 'Info', children: infoChildren } : undefined,
    ],
  };
}

/** One page of a Catalog response: SumNum for the whole answer, these items in DeviceList. */
export function encodeCatalogResponse(
  q: QueryTarget & { sumNum: number; items: (Partial<CatalogItem> & { deviceId: string })[] },
  opts?: EncodeOptions,
): ManscdpBody {
  return msg(
    'Response',
    'Catalog',
    q,
    [
      el('SumNum', q.sumNum),
      { name: 'DeviceList', attrs: { Num: q.items.length }, children: q.items.map(catalogItem) },
    ],
    opts,
  );
}

/**
 * A whole catalog as the pages a device sends (GB/T 28181-2016 annex N: one MESSAGE each). Pages hold
 * `perPage` items (default 4), or as many as fit in `maxBytes` (RFC 3428 keeps a MESSAGE over UDP under
 * 1300 bytes, so real devices send a few items a page); a page always has at least one item.
 */
export function encodeCatalogPages(
  q: QueryTarget & { items: (Partial<CatalogItem> & { deviceId: string })[]; perPage?: number; maxBytes?: number },
  opts?: EncodeOptions,
): ManscdpBody[] {
  const page = (items: typeof q.items) =>
    encodeCatalogResponse({ sn: q.sn, deviceId: q.deviceId, sumNum: q.items.length, items }, opts);
  if (q.items.length === 0) return [page([])];
  if (q.maxBytes === undefined) {
    const per = Math.max(1, q.perPage ?? 4);
    const pages: ManscdpBody[] = [];
    for (let i = 0; i < q.items.length; i += per) pages.push(page(q.items.slice(i, i + per)));
    return pages;
  }
  const per = Math.max(1, q.perPage ?? Number.MAX_SAFE_INTEGER);
  const pages: ManscdpBody[] = [];
  let start = 0;
  while (start < q.items.length) {
    // Grow the page while it fits; a single item too large still goes out alone.
    let end = start + 1;
    let body = page(q.items.slice(start, end));
    while (end < q.items.length && end - start < per) {
      const next = page(q.items.slice(start, end + 1));
      if (next.bytes.length > q.maxBytes) break;
      body = next;
      end++;
    }
    pages.push(body);
    start = end;
  }
  return pages;
}

export function encodeCatalogNotify(
  q: QueryTarget & { items: (Partial<CatalogItem> & { deviceId: string })[] },
  opts?: EncodeOptions,
): ManscdpBody {
  return msg(
    'Notify',
    'Catalog',
    q,
    [
      el('SumNum', q.items.length),
      { name: 'DeviceList', attrs: { Num: q.items.length }, children: q.items.map(catalogItem) },
    ],
    opts,
  );
}

export function encodeDeviceInfoResponse(
  q: QueryTarget & {
    deviceName?: string;
    manufacturer?: string;
    model?: string;
    firmware?: string;
    channel?: number;
    result?: string;
  },
  opts?: EncodeOptions,
): ManscdpBody {
  return msg(
    'Response',
    'DeviceInfo',
    q,
    [
      el('DeviceName', q.deviceName),
      el('Result', q.result ?? 'OK'),
      el('Manufacturer', q.manufacturer),
      el('Model', q.model),
      el('Firmware', q.firmware),
      el('Channel', q.channel),
    ],
    opts,
  );
}

export function encodeDeviceStatusResponse(
  q: QueryTarget & {
    online?: boolean;
    status?: string;
    encode?: boolean;
    record?: boolean;
    deviceTime?: string;
    alarmStatus?: AlarmDutyStatus[];
  },
  opts?: EncodeOptions,
): ManscdpBody {
  const onOff = (v: boolean | undefined) => (v === undefined ? undefined : v ? 'ON' : 'OFF');
  const alarms = q.alarmStatus?.length
    ? {
        name: 'Alarmstatus',
        attrs: { Num: q.alarmStatus.length },
        children: q.alarmStatus.map((a) => ({
          name: 'Item',
          children: [el('DeviceID', a.deviceId), el('DutyStatus', a.dutyStatus)],
        })),
      }
    : undefined;
  return msg(
    'Response',
    'DeviceStatus',
    q,
    [
      el('Result', 'OK'),
      el('Online', q.online === undefined ? undefined : q.online ? 'ONLINE' : 'OFFLINE'),
      el('Status', q.status ?? 'OK'),
      el('Encode', onOff(q.encode)),
      el('Record', onOff(q.record)),
      gbTime('DeviceTime', q.deviceTime),
      alarms,
    ],
    opts,
  );
}

export function encodeRecordInfoResponse(
  q: QueryTarget & { name?: string; sumNum: number; items: RecordItem[] },
  opts?: EncodeOptions,
): ManscdpBody {
  const items = q.items.map((r) => ({
    name: 'Item',
    children: [
      el('DeviceID', r.deviceId),
      el('Name', r.name),
      el('FilePath', r.filePath),
      el('Address', r.address),
      gbTime('StartTime', r.startTime),
      gbTime('EndTime', r.endTime),
      el('Secrecy', r.secrecy),
      el('Type', r.type),
      el('RecorderID', r.recorderId),
      el('FileSize', r.fileSize),
      el('StreamNumber', r.streamNumber),
    ],
  }));
  return msg(
    'Response',
    'RecordInfo',
    q,
    [el('Name', q.name), el('SumNum', q.sumNum), { name: 'RecordList', attrs: { Num: items.length }, children: items }],
    opts,
  );
}

export function encodeAlarmNotify(
  q: QueryTarget & {
    alarmPriority: number;
    alarmMethod: number;
    alarmTime: string;
    alarmDescription?: string;
    longitude?: number;
    latitude?: number;
    alarmType?: number;
    eventType?: number;
  },
  opts?: EncodeOptions,
): ManscdpBody {
  const param =
    q.eventType === undefined ? undefined : { name: 'AlarmTypeParam', children: [el('EventType', q.eventType)] };
  const info =
    q.alarmType === undefined ? undefined : { name: 'Info', children: [el('AlarmType', q.alarmType), param] };
  return msg(
    'Notify',
    'Alarm',
    q,
    [
      el('AlarmPriority', q.alarmPriority),
      el('AlarmMethod', q.alarmMethod),
      gbTime('AlarmTime', q.alarmTime),
      el('AlarmDescription', q.alarmDescription),
      el('Longitude', q.longitude),
      el('Latitude', q.latitude),
      info,
    ],
    opts,
  );
}

export function encodeMobilePosition(
  q: QueryTarget & {
    time: string;
    longitude: number;
    latitude: number;
    speed?: number;
    direction?: number;
    altitude?: number;
  },
  opts?: EncodeOptions,
): ManscdpBody {
  return msg(
    'Notify',
    'MobilePosition',
    q,
    [
      gbTime('Time', q.time),
      el('Longitude', q.longitude),
      el('Latitude', q.latitude),
      el('Speed', q.speed),
      el('Direction', q.direction),
      el('Altitude', q.altitude),
    ],
    opts,
  );
}

/** NotifyType 121: the device's playback or download of a file reached its end. */
export function encodeMediaStatus(q: QueryTarget & { notifyType?: number }, opts?: EncodeOptions): ManscdpBody {
  return msg('Notify', 'MediaStatus', q, [el('NotifyType', q.notifyType ?? 121)], opts);
}

export function encodePresetQueryResponse(q: QueryTarget & { presets: Preset[] }, opts?: EncodeOptions): ManscdpBody {
  const items = q.presets.map((p) => ({
    name: 'Item',
    children: [el('PresetID', p.presetId), el('PresetName', p.presetName)],
  }));
  return msg(
    'Response',
    'PresetQuery',
    q,
    [{ name: 'PresetList', attrs: { Num: items.length }, children: items }],
    opts,
  );
}

export function encodeDeviceControlResponse(
  q: QueryTarget & { result?: 'OK' | 'ERROR' },
  opts?: EncodeOptions,
): ManscdpBody {
  return msg('Response', 'DeviceControl', q, [el('Result', q.result ?? 'OK')], opts);
}
