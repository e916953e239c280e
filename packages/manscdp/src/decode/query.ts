/**
 * Bodies the platform sends, decoded for the other side: device test doubles (and a cascaded
 * platform later) read Query and Control with these. A PTZCmd is decoded to its action.
 */
import { ManscdpError } from '../errors.js';
import { decodePtzCmd, type PtzAction } from '../ptz.js';
import { child, childText, type XmlElement } from '../xml.js';
import { looseInt, looseTime } from './fields.js';
import type { ManscdpHeader } from './header.js';

export interface QueryMessage extends ManscdpHeader {
  kind: 'query';
  /** Catalog/RecordInfo/Alarm time range, when given. */
  startTime?: string;
  endTime?: string;
  /** RecordInfo. */
  type?: string;
  secrecy?: number;
  filePath?: string;
  address?: string;
  recorderId?: string;
  /** MobilePosition subscription interval (s). */
  interval?: number;
  /** ConfigDownload: the blocks asked for. */
  configTypes?: string[];
  /** Alarm subscription filters. */
  startAlarmPriority?: number;
  endAlarmPriority?: number;
  alarmMethod?: string;
  alarmType?: string;
}

export function decodeQuery(h: ManscdpHeader, root: XmlElement): QueryMessage {
  const configType = childText(root, 'ConfigType');
  return {
    ...h,
    kind: 'query',
    startTime: looseTime(root, 'StartTime') ?? looseTime(root, 'StartAlarmTime'),
    endTime: looseTime(root, 'EndTime') ?? looseTime(root, 'EndAlarmTime'),
    type: childText(root, 'Type')?.toLowerCase(),
    secrecy: looseInt(root, 'Secrecy'),
    filePath: childText(root, 'FilePath'),
    address: childText(root, 'Address'),
    recorderId: childText(root, 'RecorderID'),
    interval: looseInt(root, 'Interval'),
    configTypes: configType?.split('/').filter(Boolean),
    startAlarmPriority: looseInt(root, 'StartAlarmPriority'),
    endAlarmPriority: looseInt(root, 'EndAlarmPriority'),
    alarmMethod: childText(root, 'AlarmMethod'),
    alarmType: childText(root, 'AlarmType'),
  };
}

export interface DragZoomFields {
  length?: number;
  width?: number;
  midPointX?: number;
  midPointY?: number;
  lengthX?: number;
  lengthY?: number;
}

export interface ControlMessage extends ManscdpHeader {
  kind: 'control';
  /** PTZCmd as written and the action it asks for (a malformed PTZCmd fails the message). */
  ptzCmd?: string;
  ptz?: PtzAction;
  teleBoot?: boolean;
  guardCmd?: 'SetGuard' | 'ResetGuard';
  alarmCmd?: string;
  recordCmd?: 'Record' | 'StopRecord';
  dragZoomIn?: DragZoomFields;
  dragZoomOut?: DragZoomFields;
  controlPriority?: number;
}

function dragZoom(e: XmlElement | undefined): DragZoomFields | undefined {
  if (!e) return undefined;
  return {
    length: looseInt(e, 'Length'),
    width: looseInt(e, 'Width'),
    midPointX: looseInt(e, 'MidPointX'),
    midPointY: looseInt(e, 'MidPointY'),
    lengthX: looseInt(e, 'LengthX'),
    lengthY: looseInt(e, 'LengthY'),
  };
}

export function decodeControl(h: ManscdpHeader, root: XmlElement): ControlMessage {
  const ptzCmd = childText(root, 'PTZCmd');
  const guard = childText(root, 'GuardCmd');
  const record = childText(root, 'RecordCmd');
  if (guard !== undefined && guard !== 'SetGuard' && guard !== 'ResetGuard')
    throw new ManscdpError('bad-field', `Control: <GuardCmd> "${guard.slice(0, 20)}" is not SetGuard or ResetGuard`);
  if (record !== undefined && record !== 'Record' && record !== 'StopRecord')
    throw new ManscdpError('bad-field', `Control: <RecordCmd> "${record.slice(0, 20)}" is not Record or StopRecord`);
  const info = child(root, 'Info');
  return {
    ...h,
    kind: 'control',
    ptzCmd,
    ptz: ptzCmd === undefined ? undefined : decodePtzCmd(ptzCmd),
    teleBoot: childText(root, 'TeleBoot') === undefined ? undefined : true,
    guardCmd: guard,
    alarmCmd: childText(root, 'AlarmCmd'),
    recordCmd: record,
    dragZoomIn: dragZoom(child(root, 'DragZoomIn')),
    dragZoomOut: dragZoom(child(root, 'DragZoomOut')),
    controlPriority: info ? looseInt(info, 'ControlPriority') : undefined,
  };
}
