/**
 * Catalog (GB/T 28181-2016 A.2.6.4 response, A.2.5 notify; -2022 adds fields inside <Info>).
 * A response page carries SumNum (items in the whole answer) and a DeviceList of this page's items.
 * An item that cannot be used (no or malformed DeviceID, unknown Event) is listed in `rejected` with
 * its reason instead of failing the page, so the aggregator still counts it toward SumNum.
 */
import { ManscdpError } from '../errors.js';
import { attr, child, childText, children, type XmlElement } from '../xml.js';
import { clip, isCatalogItemId, looseFloat, looseInt, onOff, optUint, requireUint } from './fields.js';
import type { ManscdpHeader } from './header.js';

export const CATALOG_EVENTS = ['ON', 'OFF', 'VLOST', 'DEFECT', 'ADD', 'DEL', 'UPDATE'] as const;
export type CatalogEvent = (typeof CATALOG_EVENTS)[number];

export interface CatalogItem {
  /** 20-digit code, or a 2/4/6/8-digit civil code for an administrative-region directory. */
  deviceId: string;
  /** Digits 11-13 of a 20-digit ID: 131/132 camera, 111-130 devices, 215 business group, 216 virtual org … */
  typeCode?: number;
  name?: string;
  manufacturer?: string;
  model?: string;
  owner?: string;
  civilCode?: string;
  block?: string;
  address?: string;
  /** 1 when the item has children (a directory or an NVR), 0 otherwise. */
  parental?: number;
  /** Parent as written; -2022 allows several separated by '/'. */
  parentId?: string;
  safetyWay?: number;
  registerWay?: number;
  certNum?: string;
  certifiable?: number;
  errCode?: number;
  endTime?: string;
  secrecy?: number;
  ipAddress?: string;
  port?: number;
  /** As written, upper-cased: ON / OFF / ONLINE / OFFLINE (some devices write OK). */
  status?: string;
  online?: boolean;
  longitude?: number;
  latitude?: number;
  /** 1 dome, 2 half-dome, 3 fixed box, 4 fixed remote-controlled (-2016 A.2.6.4 Info). */
  ptzType?: number;
  positionType?: number;
  roomType?: number;
  useType?: number;
  supplyLightType?: number;
  directionType?: number;
  resolution?: string;
  businessGroupId?: string;
  downloadSpeed?: string;
  /** Catalog NOTIFY only. */
  event?: CatalogEvent;
  /** Every child of <Info> as written. */
  info: Record<string, string>;
}

export interface RejectedItem {
  /** Position of the item in its page, from 0. */
  index: number;
  deviceId?: string;
  reason: string;
}

export interface CatalogResponse extends ManscdpHeader {
  kind: 'catalog';
  sumNum: number;
  /** DeviceList's Num attribute when present (items on this page, as the device counted them). */
  listNum?: number;
  items: CatalogItem[];
  rejected: RejectedItem[];
}

export interface CatalogNotify extends ManscdpHeader {
  kind: 'catalog-notify';
  sumNum?: number;
  items: CatalogItem[];
  rejected: RejectedItem[];
}

/** A descriptive text field; the literal `null` that Java platforms write for a missing value reads as absent. */
function text(e: XmlElement | undefined, name: string): string | undefined {
  const v = childText(e, name);
  return v === undefined || v.toLowerCase() === 'null' ? undefined : v;
}

/** Reads a field from the item, or from its <Info> where -2016/-2022 devices put it. */
function either(item: XmlElement, info: XmlElement | undefined, name: string): string | undefined {
  return text(item, name) ?? text(info, name);
}

function intOf(item: XmlElement, info: XmlElement | undefined, name: string): number | undefined {
  return looseInt(item, name) ?? (info ? looseInt(info, name) : undefined);
}

export function typeCodeOf(id: string): number | undefined {
  return id.length === 20 ? Number(id.slice(10, 13)) : undefined;
}

function decodeItem(e: XmlElement, withEvent: boolean): CatalogItem {
  const deviceId = childText(e, 'DeviceID');
  if (deviceId === undefined) throw new ManscdpError('bad-field', 'item without <DeviceID>');
  if (!isCatalogItemId(deviceId))
    throw new ManscdpError('bad-field', `item <DeviceID> "${clip(deviceId)}" is not a 20-digit or civil-code ID`);
  const info = child(e, 'Info');
  const infoMap: Record<string, string> = {};
  for (const c of info?.children ?? []) if (c.text !== '' && !Object.hasOwn(infoMap, c.name)) infoMap[c.name] = c.text;
  const status = childText(e, 'Status')?.toUpperCase();
  let event: CatalogEvent | undefined;
  if (withEvent) {
    const raw = childText(e, 'Event')?.toUpperCase();
    if (raw !== undefined) {
      event = CATALOG_EVENTS.find((v) => v === raw);
      if (!event)
        throw new ManscdpError(
          'bad-field',
          `item ${deviceId}: <Event> "${clip(raw)}" is not one of ${CATALOG_EVENTS.join('/')}`,
        );
    }
  }
  const port = looseInt(e, 'Port');
  return {
    deviceId,
    typeCode: typeCodeOf(deviceId),
    name: text(e, 'Name'),
    manufacturer: text(e, 'Manufacturer'),
    model: text(e, 'Model'),
    owner: text(e, 'Owner'),
    civilCode: text(e, 'CivilCode'),
    block: text(e, 'Block'),
    address: text(e, 'Address'),
    parental: looseInt(e, 'Parental'),
    parentId: text(e, 'ParentID'),
    safetyWay: looseInt(e, 'SafetyWay'),
    registerWay: looseInt(e, 'RegisterWay'),
    certNum: text(e, 'CertNum'),
    certifiable: looseInt(e, 'Certifiable'),
    errCode: looseInt(e, 'ErrCode'),
    endTime: text(e, 'EndTime'),
    secrecy: looseInt(e, 'Secrecy'),
    ipAddress: text(e, 'IPAddress'),
    port: port !== undefined && port >= 0 && port <= 65535 ? port : undefined,
    status,
    online: onOff(status),
    longitude: looseFloat(e, 'Longitude'),
    latitude: looseFloat(e, 'Latitude'),
    ptzType: intOf(e, info, 'PTZType'),
    positionType: intOf(e, info, 'PositionType'),
    roomType: intOf(e, info, 'RoomType'),
    useType: intOf(e, info, 'UseType'),
    supplyLightType: intOf(e, info, 'SupplyLightType'),
    directionType: intOf(e, info, 'DirectionType'),
    resolution: either(e, info, 'Resolution'),
    businessGroupId: either(e, info, 'BusinessGroupID'),
    downloadSpeed: either(e, info, 'DownloadSpeed'),
    event,
    info: infoMap,
  };
}

function decodeItems(
  root: XmlElement,
  withEvent: boolean,
): { items: CatalogItem[]; rejected: RejectedItem[]; listNum?: number } {
  const list = child(root, 'DeviceList');
  const items: CatalogItem[] = [];
  const rejected: RejectedItem[] = [];
  children(list, 'Item').forEach((e, index) => {
    try {
      items.push(decodeItem(e, withEvent));
    } catch (err) {
      rejected.push({ index, deviceId: childText(e, 'DeviceID'), reason: (err as Error).message });
    }
  });
  const num = attr(list, 'Num');
  const listNum = num !== undefined && /^\d{1,9}$/.test(num.trim()) ? Number(num) : undefined;
  return { items, rejected, listNum };
}

export function decodeCatalogResponse(h: ManscdpHeader, root: XmlElement): CatalogResponse {
  const sumNum = requireUint(root, 'SumNum', 'Response Catalog');
  return { ...h, kind: 'catalog', sumNum, ...decodeItems(root, false) };
}

export function decodeCatalogNotify(h: ManscdpHeader, root: XmlElement): CatalogNotify {
  const sumNum = optUint(root, 'SumNum', 'Notify Catalog');
  const { items, rejected } = decodeItems(root, true);
  return { ...h, kind: 'catalog-notify', sumNum, items, rejected };
}
