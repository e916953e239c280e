/** DeviceControl commands (GB/T 28181-2016 A.2.3) and the platform's answer to an Alarm notify. */
import { ManscdpError } from '../errors.js';
import { ptzBytes } from '../ptz.js';
import { el, header, intInRange, writeManscdp, type EncodeOptions, type ManscdpBody, type XmlOut } from './writer.js';
import type { QueryTarget } from './query.js';

const control = (q: QueryTarget, children: (XmlOut | undefined)[], opts?: EncodeOptions) =>
  writeManscdp({ name: 'Control', children: [...header('DeviceControl', q.sn, q.deviceId), ...children] }, opts);

/**
 * PTZCmd (from encodePtzCmd). ControlPriority (1-5, 5 lowest) goes in <Info> as -2016 lets a platform
 * say how its commands rank against other users'.
 */
export function encodePtzControl(
  q: QueryTarget & { ptzCmd: string; controlPriority?: number },
  opts?: EncodeOptions,
): ManscdpBody {
  ptzBytes(q.ptzCmd);
  const info =
    q.controlPriority === undefined
      ? undefined
      : { name: 'Info', children: [intInRange('ControlPriority', q.controlPriority, 1, 5)] };
  return control(q, [el('PTZCmd', q.ptzCmd.toUpperCase()), info], opts);
}

export function encodeTeleBoot(q: QueryTarget, opts?: EncodeOptions): ManscdpBody {
  return control(q, [el('TeleBoot', 'Boot')], opts);
}

export function encodeGuardControl(
  q: QueryTarget & { guard: 'SetGuard' | 'ResetGuard' },
  opts?: EncodeOptions,
): ManscdpBody {
  if (q.guard !== 'SetGuard' && q.guard !== 'ResetGuard')
    throw new ManscdpError('bad-argument', `GuardCmd "${q.guard}" is not SetGuard or ResetGuard`);
  return control(q, [el('GuardCmd', q.guard)], opts);
}

/** AlarmCmd ResetAlarm; Info AlarmMethod/AlarmType narrow which alarm (optional). */
export function encodeResetAlarm(
  q: QueryTarget & { alarmMethod?: number; alarmType?: number },
  opts?: EncodeOptions,
): ManscdpBody {
  const info =
    q.alarmMethod === undefined && q.alarmType === undefined
      ? undefined
      : {
          name: 'Info',
          children: [intInRange('AlarmMethod', q.alarmMethod, 0, 9), intInRange('AlarmType', q.alarmType, 0, 99)],
        };
  return control(q, [el('AlarmCmd', 'ResetAlarm'), info], opts);
}

export function encodeRecordControl(
  q: QueryTarget & { record: 'Record' | 'StopRecord'; streamNumber?: number },
  opts?: EncodeOptions,
): ManscdpBody {
  if (q.record !== 'Record' && q.record !== 'StopRecord')
    throw new ManscdpError('bad-argument', `RecordCmd "${q.record}" is not Record or StopRecord`);
  return control(q, [el('RecordCmd', q.record), intInRange('StreamNumber', q.streamNumber, 0, 9)], opts);
}

/**
 * Drag zoom (-2016 A.2.3.1.10): a rectangle drawn on the picture. Length/Width are the picture's
 * size in pixels as the viewer shows it; MidPointX/Y the rectangle's centre; LengthX/Y its size.
 */
export interface DragZoom {
  length: number;
  width: number;
  midPointX: number;
  midPointY: number;
  lengthX: number;
  lengthY: number;
}

export function encodeDragZoom(
  q: QueryTarget & { direction: 'in' | 'out'; zoom: DragZoom },
  opts?: EncodeOptions,
): ManscdpBody {
  const z = q.zoom;
  const max = 100000;
  const fields = [
    intInRange('Length', z.length, 1, max),
    intInRange('Width', z.width, 1, max),
    intInRange('MidPointX', z.midPointX, 0, z.length),
    intInRange('MidPointY', z.midPointY, 0, z.width),
    intInRange('LengthX', z.lengthX, 0, z.length),
    intInRange('LengthY', z.lengthY, 0, z.width),
  ];
  return control(q, [{ name: q.direction === 'in' ? 'DragZoomIn' : 'DragZoomOut', children: fields }], opts);
}

/** The platform's Response to a device's Alarm notify (the device resends until it gets one). */
export function encodeAlarmResponse(q: QueryTarget & { result?: 'OK' | 'ERROR' }, opts?: EncodeOptions): ManscdpBody {
  return writeManscdp(
    { name: 'Response', children: [...header('Alarm', q.sn, q.deviceId), el('Result', q.result ?? 'OK')] },
    opts,
  );
}
