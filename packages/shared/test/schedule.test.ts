import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  alwaysSchedule,
  DAY_SECONDS,
  enteredSlots,
  fromDayLists,
  fromNormal,
  isScheduledAt,
  nextEdge,
  normaliseSchedule,
  parseClock,
  ScheduleError,
  toDayLists,
  WEEKDAYS,
  type WeeklySchedule,
} from '../src/index.js';

/** A UTC instant for a local wall time at a fixed offset (minutes east). 2024-01-01 is a Monday. */
const at = (day: number, hhmmss: string, offset = 0) => {
  const s = parseClock(hhmmss)!;
  return new Date(Date.UTC(2024, 0, 1 + day) + s * 1000 - offset * 60_000);
};

describe('weekly schedule conversion', () => {
  it('converts the API form to per-day lists and back', () => {
    const weekly: WeeklySchedule = { Monday: [{ StartTime: '08:00:00', EndTime: '18:00:00' }], Wednesday: [{ StartTime: '9:30', EndTime: '10:00' }] };
    const lists = toDayLists(weekly);
    expect(lists.Monday).toEqual([{ sTime: '08:00:00', eTime: '18:00:00', enable: 1, number: 0, type: 1 }]);
    expect(lists.Wednesday).toEqual([{ sTime: '09:30:00', eTime: '10:00:00', enable: 1, number: 0, type: 1 }]);
    expect(lists.Sunday).toEqual([]);
    expect(fromDayLists(lists)).toEqual({
      Monday: [{ StartTime: '08:00:00', EndTime: '18:00:00' }],
      Tuesday: [],
      Wednesday: [{ StartTime: '09:30:00', EndTime: '10:00:00' }],
      Thursday: [],
      Friday: [],
      Saturday: [],
      Sunday: [],
    });
  });

  it('splits a slot across midnight into two days; Sunday runs on into Monday', () => {
    const lists = toDayLists({ Friday: [{ StartTime: '22:00', EndTime: '02:00' }], Sunday: [{ StartTime: '23:00:00', EndTime: '01:30:00' }] });
    expect(lists.Friday.map((s) => [s.sTime, s.eTime])).toEqual([['22:00:00', '24:00:00']]);
    expect(lists.Saturday.map((s) => [s.sTime, s.eTime])).toEqual([['00:00:00', '02:00:00']]);
    expect(lists.Sunday.map((s) => [s.sTime, s.eTime])).toEqual([['23:00:00', '24:00:00']]);
    expect(lists.Monday.map((s) => [s.sTime, s.eTime])).toEqual([['00:00:00', '01:30:00']]);
    // a slot ending at midnight stays on its day
    expect(toDayLists({ Tuesday: [{ StartTime: '20:00', EndTime: '00:00' }] }).Wednesday).toEqual([]);
  });

  it('reads a slot across midnight back as the one slot entered (per-day lists still split)', () => {
    const entered: WeeklySchedule = { Monday: [{ StartTime: '08:00', EndTime: '12:00' }, { StartTime: '22:00', EndTime: '02:00' }], Sunday: [{ StartTime: '23:30', EndTime: '00:30' }] };
    const back = fromNormal(normaliseSchedule(entered));
    expect(back.Monday).toEqual([
      { StartTime: '08:00:00', EndTime: '12:00:00' },
      { StartTime: '22:00:00', EndTime: '02:00:00' },
    ]);
    expect(back.Tuesday).toEqual([]);
    // Sunday's slot runs into Monday: Monday's 00:00-00:30 part is Sunday's slot, not a slot of its own.
    expect(back.Sunday).toEqual([{ StartTime: '23:30:00', EndTime: '00:30:00' }]);
    expect(enteredSlots(normaliseSchedule(entered)).Monday).toEqual([
      [28800, 43200],
      [79200, 7200],
    ]);
    expect(toDayLists(back)).toEqual(toDayLists(entered));
    // Parts no one slot makes stay apart: whole days, a next-day part running past the start.
    const apart = fromNormal(normaliseSchedule({ Monday: [{ StartTime: '00:00', EndTime: '24:00' }], Tuesday: [{ StartTime: '00:00', EndTime: '01:00' }], Wednesday: [{ StartTime: '20:00', EndTime: '24:00' }], Thursday: [{ StartTime: '00:00', EndTime: '21:00' }] }));
    expect(apart.Monday).toEqual([{ StartTime: '00:00:00', EndTime: '24:00:00' }]);
    expect(apart.Tuesday).toEqual([{ StartTime: '00:00:00', EndTime: '01:00:00' }]);
    expect(apart.Wednesday).toEqual([{ StartTime: '20:00:00', EndTime: '24:00:00' }]);
    expect(apart.Thursday).toEqual([{ StartTime: '00:00:00', EndTime: '21:00:00' }]);
    // Every night 22:00-06:00: each day one slot.
    const nights = fromNormal(normaliseSchedule(Object.fromEntries(WEEKDAYS.map((d) => [d, [{ StartTime: '22:00', EndTime: '06:00' }]]))));
    for (const d of WEEKDAYS) expect(nights[d]).toEqual([{ StartTime: '22:00:00', EndTime: '06:00:00' }]);
  });

  it('merges overlapping and touching slots and numbers them', () => {
    const lists = toDayLists({
      Monday: [
        { StartTime: '10:00', EndTime: '12:00' },
        { StartTime: '08:00', EndTime: '10:30' },
        { StartTime: '12:00', EndTime: '13:00' },
        { StartTime: '20:00', EndTime: '21:00' },
      ],
    });
    expect(lists.Monday.map((s) => [s.sTime, s.eTime, s.number])).toEqual([
      ['08:00:00', '13:00:00', 0],
      ['20:00:00', '21:00:00', 1],
    ]);
  });

  it.each([
    [{ Monday: [{ StartTime: '25:00', EndTime: '26:00' }] }, 'Monday[0].StartTime'],
    [{ Monday: [{ StartTime: '08:00', EndTime: '8h' }] }, 'Monday[0].EndTime'],
    [{ Monday: [{ StartTime: '24:00', EndTime: '01:00' }] }, 'StartTime'],
    [{ Monday: [{ StartTime: '08:60', EndTime: '09:00' }] }, 'StartTime'],
    [{ Tuesday: [{ StartTime: '08:00', EndTime: '08:00:00' }] }, 'same time'],
    [{ Funday: [] }, 'unknown day'],
    [{ Monday: 'all' }, 'list'],
    [[], 'object'],
    [null, 'object'],
  ])('refuses %j', (input, msg) => {
    expect(() => toDayLists(input)).toThrow(ScheduleError);
    expect(() => toDayLists(input)).toThrow(msg);
  });

  it('per-day lists drop disabled slots on the way back', () => {
    const weekly = fromDayLists({ Monday: [{ sTime: '01:00:00', eTime: '02:00:00', enable: 0, number: 0, type: 1 }, { sTime: '03:00:00', eTime: '04:00:00', enable: 1, number: 1, type: 1 }] });
    expect(weekly.Monday).toEqual([{ StartTime: '03:00:00', EndTime: '04:00:00' }]);
  });

  it('round trip: normalising the per-day lists again changes nothing (property)', () => {
    const clock = fc.integer({ min: 0, max: DAY_SECONDS - 1 }).map((s) => `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`);
    const slot = fc.record({ StartTime: clock, EndTime: clock }).filter((s) => s.StartTime !== s.EndTime);
    const week = fc.record(Object.fromEntries(WEEKDAYS.map((d) => [d, fc.array(slot, { maxLength: 4 })])) as Record<string, fc.Arbitrary<{ StartTime: string; EndTime: string }[]>>);
    fc.assert(
      fc.property(week, (w) => {
        const lists = toDayLists(w);
        expect(toDayLists(fromDayLists(lists))).toEqual(lists);
        // The API form read back (slots across midnight joined) is the same schedule.
        expect(normaliseSchedule(fromNormal(normaliseSchedule(w)))).toEqual(normaliseSchedule(w));
        for (const d of WEEKDAYS) {
          const ranges = normaliseSchedule(w)[d];
          for (let i = 1; i < ranges.length; i++) expect(ranges[i][0]).toBeGreaterThan(ranges[i - 1][1]);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('isScheduledAt and nextEdge', () => {
  const plan = normaliseSchedule({ Monday: [{ StartTime: '08:00', EndTime: '18:00' }], Friday: [{ StartTime: '22:00', EndTime: '02:00' }] });

  it('answers in local wall time at a fixed offset', () => {
    expect(isScheduledAt(plan, at(0, '07:59:59'), 0)).toBe(false);
    expect(isScheduledAt(plan, at(0, '08:00:00'), 0)).toBe(true);
    expect(isScheduledAt(plan, at(0, '17:59:59'), 0)).toBe(true);
    expect(isScheduledAt(plan, at(0, '18:00:00'), 0)).toBe(false);
    // the same local times in UTC+8
    expect(isScheduledAt(plan, at(0, '08:00:00', 480), 480)).toBe(true);
    expect(isScheduledAt(plan, at(0, '08:00:00', 480), 0)).toBe(false);
    // across midnight: Friday 23:00 and Saturday 01:59 on, Saturday 02:00 off
    expect(isScheduledAt(plan, at(4, '23:00:00', -300), -300)).toBe(true);
    expect(isScheduledAt(plan, at(5, '01:59:59', -300), -300)).toBe(true);
    expect(isScheduledAt(plan, at(5, '02:00:00', -300), -300)).toBe(false);
  });

  it('finds the next edge, skipping midnight inside a split slot and wrapping the week', () => {
    expect(nextEdge(plan, at(0, '07:00:00'), 0)).toEqual(at(0, '08:00:00'));
    expect(nextEdge(plan, at(0, '08:00:00'), 0)).toEqual(at(0, '18:00:00'));
    expect(nextEdge(plan, at(0, '18:00:00'), 0)).toEqual(at(4, '22:00:00'));
    // Friday 23:00 → Saturday 02:00, not Saturday 00:00
    expect(nextEdge(plan, at(4, '23:00:00', 60), 60)).toEqual(at(5, '02:00:00', 60));
    // Sunday → next Monday 08:00
    expect(nextEdge(plan, at(6, '12:00:00'), 0)).toEqual(at(7, '08:00:00'));
    expect(nextEdge(alwaysSchedule(), at(2, '12:00:00'), 0)).toBeUndefined();
    expect(nextEdge(normaliseSchedule({}), at(2, '12:00:00'), 0)).toBeUndefined();
  });

  it('a whole week of contiguous days never has an edge; Sunday 22:00-02:00 wraps to Monday', () => {
    const wrap = normaliseSchedule({ Sunday: [{ StartTime: '22:00', EndTime: '02:00' }] });
    expect(isScheduledAt(wrap, at(0, '01:00:00'), 0)).toBe(true);
    expect(nextEdge(wrap, at(6, '21:00:00'), 0)).toEqual(at(6, '22:00:00'));
    expect(nextEdge(wrap, at(6, '23:00:00'), 0)).toEqual(at(7, '02:00:00'));
  });

  it('defaults to the server offset (DST-free arithmetic)', () => {
    const d = new Date();
    expect(isScheduledAt(alwaysSchedule(), d)).toBe(true);
    expect(isScheduledAt(normaliseSchedule({}), d)).toBe(false);
  });
});
