/**
 * GB28181 Alarm NOTIFY/MESSAGE → a stored protocol alarm. The SIP server has already answered 200
 * (devices expect a quick answer); this maps the MANSCDP fields to ctx.alarms.record(). The body's
 * DeviceID names the alarm source: a channel of the sending device, or the device itself. An alarm
 * sent as MESSAGE also gets the standard's alarm notification response (Response/Alarm, Result OK);
 * one sent as NOTIFY (a subscription) needs only the 200.
 */
import { consoleAlarmType, encodeAlarmResponse, type BodyEncoding } from '@opencvr/manscdp';
import type { GbService } from '../../gb/index.js';
import type { Alarms } from './index.js';

/** A GB time (local, no zone: "2026-03-01T08:00:00") as a Date; undefined when absent or unreadable. */
export function gbLocalTime(text: string | undefined): Date | undefined {
  if (!text) return undefined;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

const ENCODINGS: BodyEncoding[] = ['GB2312', 'GB18030', 'UTF-8'];

export function attachGbAlarms(gb: Pick<GbService, 'onMessage' | 'sendRequest'>, alarms: Pick<Alarms, 'record'>, log?: { warn(o: object, m: string): void }): () => void {
  return gb.onMessage('Alarm', async (m) => {
    if (m.message.kind !== 'alarm') return;
    const a = m.message;
    const source = a.deviceId && a.deviceId !== m.deviceId ? a.deviceId : '';
    if (m.method === 'MESSAGE') {
      const encoding = ENCODINGS.find((e) => e === m.charset.toUpperCase()) ?? 'GB2312';
      const body = encodeAlarmResponse({ sn: a.sn, deviceId: a.deviceId || m.deviceId }, { encoding });
      gb.sendRequest(m.deviceId, { method: 'MESSAGE', body: body.bytes, contentType: body.contentType }).catch((err: Error) =>
        log?.warn({ err: err.message, device: m.deviceId }, 'gb: alarm response not delivered'),
      );
    }
    try {
      await alarms.record({
        deviceId: m.deviceId,
        channelId: source,
        priority: a.alarmPriority,
        method: a.alarmMethod,
        type: consoleAlarmType(a.alarmMethod, a.alarmType) ?? 0,
        time: gbLocalTime(a.alarmTime),
        description: a.alarmDescription,
        longitude: a.longitude,
        latitude: a.latitude,
      });
    } catch (err) {
      log?.warn({ err, device: m.deviceId }, 'gb: alarm not stored');
    }
  });
}
