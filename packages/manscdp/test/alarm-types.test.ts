import { describe, expect, it } from 'vitest';
import { CONSOLE_ALARM_TYPES, consoleAlarmType, gbAlarmOf, type ConsoleAlarmType } from '../src/index.js';

describe('alarm types', () => {
  it('maps method and type to the console list (spec 3)', () => {
    expect(consoleAlarmType(2, 1)).toBe(1); // device: video loss
    expect(consoleAlarmType(2, 5)).toBe(5); // device: low temperature
    expect(consoleAlarmType(5, 2)).toBe(7); // video: motion detection
    expect(consoleAlarmType(5, 6)).toBe(11); // video: intrusion
    expect(consoleAlarmType(5, 12)).toBe(17); // video: fast movement
    expect(consoleAlarmType(6, 2)).toBe(19); // fault: fan
    expect(consoleAlarmType(1, 1)).toBeUndefined(); // phone alarms have no type
    expect(consoleAlarmType(5, 13)).toBeUndefined();
    expect(consoleAlarmType(5, undefined)).toBeUndefined();
  });

  it('round-trips every console type', () => {
    for (const t of Object.keys(CONSOLE_ALARM_TYPES).map(Number) as ConsoleAlarmType[]) {
      const { alarmMethod, alarmType } = gbAlarmOf(t);
      expect(consoleAlarmType(alarmMethod, alarmType)).toBe(t);
    }
  });
});
