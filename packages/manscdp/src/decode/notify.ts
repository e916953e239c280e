/** Notifications a device sends on its own: Alarm, MobilePosition, MediaStatus. */
import { ManscdpError } from '../errors.js';
import { child, childText, type XmlElement } from '../xml.js';
import { looseFloat, looseInt, looseTime } from './fields.js';
import type { ManscdpHeader } from './header.js';

export interface AlarmNotify extends ManscdpHeader {
  kind: 'alarm';
  /** 1 first-level (highest) … 4 fourth-level. */
  alarmPriority?: number;
  /** 1 phone, 2 device, 3 SMS, 4 GPS, 5 video, 6 device fault, 7 other. */
  alarmMethod?: number;
  alarmTime?: string;
  alarmDescription?: string;
  longitude?: number;
  latitude?: number;
  /** Info/AlarmType (meaning depends on the method: 1-7 device, 1-11 video analytics …). */
  alarmType?: number;
  /** Info/AlarmTypeParam/EventType (1 entering, 2 leaving for intrusion). */
  eventType?: number;
}

export function decodeAlarmNotify(h: ManscdpHeader, root: XmlElement): AlarmNotify {
  const info = child(root, 'Info');
  const param = child(info, 'AlarmTypeParam');
  return {
    ...h,
    kind: 'alarm',
    alarmPriority: looseInt(root, 'AlarmPriority'),
    alarmMethod: looseInt(root, 'AlarmMethod'),
    alarmTime: looseTime(root, 'AlarmTime'),
    alarmDescription: childText(root, 'AlarmDescription'),
    longitude: looseFloat(root, 'Longitude'),
    latitude: looseFloat(root, 'Latitude'),
    // GB/T 28181-2011 devices put AlarmType beside the other fields instead of inside <Info>.
    alarmType: (info ? looseInt(info, 'AlarmType') : undefined) ?? looseInt(root, 'AlarmType'),
    eventType: param ? looseInt(param, 'EventType') : undefined,
  };
}

export interface MobilePositionNotify extends ManscdpHeader {
  kind: 'mobile-position';
  time?: string;
  longitude: number;
  latitude: number;
  /** km/h. */
  speed?: number;
  /** Degrees from north, clockwise. */
  direction?: number;
  /** Metres. */
  altitude?: number;
}

export function decodeMobilePosition(h: ManscdpHeader, root: XmlElement): MobilePositionNotify {
  const longitude = looseFloat(root, 'Longitude');
  const latitude = looseFloat(root, 'Latitude');
  if (longitude === undefined || longitude < -180 || longitude > 180)
    throw new ManscdpError('bad-field', 'Notify MobilePosition: <Longitude> missing or out of -180..180');
  if (latitude === undefined || latitude < -90 || latitude > 90)
    throw new ManscdpError('bad-field', 'Notify MobilePosition: <Latitude> missing or out of -90..90');
  return {
    ...h,
    kind: 'mobile-position',
    time: looseTime(root, 'Time'),
    longitude,
    latitude,
    speed: looseFloat(root, 'Speed'),
    direction: looseFloat(root, 'Direction'),
    altitude: looseFloat(root, 'Altitude'),
  };
}

export interface MediaStatusNotify extends ManscdpHeader {
  kind: 'media-status';
  /** 121: the playback or download has reached its end. */
  notifyType?: number;
}

export function decodeMediaStatus(h: ManscdpHeader, root: XmlElement): MediaStatusNotify {
  return { ...h, kind: 'media-status', notifyType: looseInt(root, 'NotifyType') };
}
