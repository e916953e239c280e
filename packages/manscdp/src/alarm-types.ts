/**
 * Alarm kinds: GB/T 28181-2016 A.2.5 names an alarm by AlarmMethod (2 device, 5 video, 6 device fault …)
 * and an AlarmType numbered within that method; the console (spec 3, "Alarm types") numbers them in
 * one list. This maps between the two.
 */

/** The console's alarm type values (spec 3): 0 all … 19 fan fault. */
export const CONSOLE_ALARM_TYPES = {
  1: 'video loss',
  2: 'device tamper',
  3: 'storage full',
  4: 'high temperature',
  5: 'low temperature',
  6: 'manual video alarm',
  7: 'motion detection',
  8: 'left object',
  9: 'object removal',
  10: 'tripwire',
  11: 'intrusion',
  12: 'retrograde',
  13: 'loitering',
  14: 'traffic statistics',
  15: 'density',
  16: 'video anomaly',
  17: 'fast movement',
  18: 'disk fault',
  19: 'fan fault',
} as const;

export type ConsoleAlarmType = keyof typeof CONSOLE_ALARM_TYPES;

/** Where each method's AlarmType 1 lands in the console list, and how many types the method has. */
const METHOD_OFFSETS: Record<number, { first: number; count: number }> = {
  2: { first: 1, count: 5 }, // device alarm: video loss, tamper, storage full, high/low temperature
  5: { first: 6, count: 12 }, // video alarm: manual … fast movement
  6: { first: 18, count: 2 }, // device fault: disk, fan
};

/** AlarmMethod 1-7 as the standard names them. */
export const ALARM_METHODS = {
  1: 'phone',
  2: 'device',
  3: 'SMS',
  4: 'GPS',
  5: 'video',
  6: 'device fault',
  7: 'other',
} as const;

/** The console's alarm type of a (method, type) pair, or undefined when the pair has none. */
export function consoleAlarmType(
  alarmMethod: number | undefined,
  alarmType: number | undefined,
): ConsoleAlarmType | undefined {
  if (alarmMethod === undefined || alarmType === undefined) return undefined;
  const m = METHOD_OFFSETS[alarmMethod];
  if (!m || !Number.isInteger(alarmType) || alarmType < 1 || alarmType > m.count) return undefined;
  return (m.first + alarmType - 1) as ConsoleAlarmType;
}

/** The (method, type) pair of a console alarm type, for ResetAlarm and SUBSCRIBE filters. */
export function gbAlarmOf(type: ConsoleAlarmType): { alarmMethod: number; alarmType: number } {
  for (const [method, m] of Object.entries(METHOD_OFFSETS)) {
    if (type >= m.first && type < m.first + m.count)
      return { alarmMethod: Number(method), alarmType: type - m.first + 1 };
  }
  throw new RangeError(`console alarm type ${type} has no GB method`);
}
