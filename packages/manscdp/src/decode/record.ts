/**
 * RecordInfo response (GB/T 28181-2016 A.2.6.7): the device's own recordings, paged like Catalog
 * (SumNum for the whole answer, RecordList of this page). An item without a usable StartTime/EndTime is
 * rejected with its reason (it still counts toward SumNum in the aggregator).
 */
import { ManscdpError } from '../errors.js';
import { attr, child, childText, children, type XmlElement } from '../xml.js';
import { isDeviceId, looseInt, looseTime, requireUint } from './fields.js';
import type { ManscdpHeader } from './header.js';
import type { RejectedItem } from './catalog.js';

export interface RecordItem {
  deviceId: string;
  name?: string;
  filePath?: string;
  address?: string;
  /** GB local time, `YYYY-MM-DDTHH:MM:SS`. */
  startTime: string;
  endTime: string;
  secrecy?: number;
  /** time / alarm / manual / all, as written (lower-cased). */
  type?: string;
  recorderId?: string;
  /** Bytes, when the device says (-2016 optional). */
  fileSize?: number;
  /** -2022: 0 main stream, 1 sub stream … */
  streamNumber?: number;
}

export interface RecordInfoResponse extends ManscdpHeader {
  kind: 'record-info';
  name?: string;
  sumNum: number;
  listNum?: number;
  items: RecordItem[];
  rejected: RejectedItem[];
}

function decodeRecordItem(e: XmlElement, fallbackId: string): RecordItem {
  const startTime = looseTime(e, 'StartTime');
  const endTime = looseTime(e, 'EndTime');
  if (!startTime || !endTime)
    throw new ManscdpError('bad-field', 'record item without a valid <StartTime> and <EndTime>');
  if (endTime < startTime)
    throw new ManscdpError('bad-field', `record item ends (${endTime}) before it starts (${startTime})`);
  const id = childText(e, 'DeviceID');
  return {
    deviceId: id && isDeviceId(id) ? id : fallbackId,
    name: childText(e, 'Name'),
    filePath: childText(e, 'FilePath'),
    address: childText(e, 'Address'),
    startTime,
    endTime,
    secrecy: looseInt(e, 'Secrecy'),
    type: childText(e, 'Type')?.toLowerCase(),
    recorderId: childText(e, 'RecorderID'),
    fileSize: looseInt(e, 'FileSize'),
    streamNumber: looseInt(e, 'StreamNumber'),
  };
}

export function decodeRecordInfo(h: ManscdpHeader, root: XmlElement): RecordInfoResponse {
  const sumNum = requireUint(root, 'SumNum', 'Response RecordInfo');
  const list = child(root, 'RecordList');
  const items: RecordItem[] = [];
  const rejected: RejectedItem[] = [];
  children(list, 'Item').forEach((e, index) => {
    try {
      items.push(decodeRecordItem(e, h.deviceId));
    } catch (err) {
      rejected.push({ index, deviceId: childText(e, 'DeviceID'), reason: (err as Error).message });
    }
  });
  const num = attr(list, 'Num');
  return {
    ...h,
    kind: 'record-info',
    name: childText(root, 'Name'),
    sumNum,
    listNum: num && /^\d{1,9}$/.test(num) ? Number(num) : undefined,
    items,
    rejected,
  };
}
