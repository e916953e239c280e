/** The schedule editor's model against the shared conversion (packages/shared schedule.ts). */
import { describe, expect, it } from 'vitest';
import { fromNormal, toDayLists, WEEKDAYS } from '@opencvr/shared';
import { addSlot, cellOn, clearDay, copyToAll, daySlots, emptyModel, hourCovered, isEmpty, modelOf, paintBlock, paintCells, removeSlot, scheduleSummary, toggleHour } from '../src/features/recording/scheduleModel';

const lists = (m: ReturnType<typeof emptyModel>) => toDayLists(fromNormal(m));

describe('schedule editor model', () => {
  it('painting cells yields the per-day list of the shared conversion', () => {
    // Cells 16..20 of Monday: 08:00 to 10:30.
    const m = paintCells(emptyModel(), 'Monday', 16, 20, true);
    expect(lists(m).Monday).toEqual([{ sTime: '08:00:00', eTime: '10:30:00', enable: 1, number: 0, type: 1 }]);
    expect(lists(m).Tuesday).toEqual([]);
    expect(cellOn(m, 'Monday', 16)).toBe(true);
    expect(cellOn(m, 'Monday', 21)).toBe(false);
  });

  it('paints backwards, joins touching slots and erases inside a slot', () => {
    let m = paintCells(emptyModel(), 'Friday', 5, 2, true); // 01:00-03:00
    m = paintCells(m, 'Friday', 6, 7, true); // touches: 01:00-04:00
    expect(fromNormal(m).Friday).toEqual([{ StartTime: '01:00:00', EndTime: '04:00:00' }]);
    m = paintCells(m, 'Friday', 4, 4, false); // erase 02:00-02:30
    expect(lists(m).Friday.map((s) => [s.sTime, s.eTime, s.number])).toEqual([
      ['01:00:00', '02:00:00', 0],
      ['02:30:00', '04:00:00', 1],
    ]);
  });

  it('paints the whole day up to 24:00 and a block over several days', () => {
    const m = paintBlock(emptyModel(), 0, 2, 0, 47, true);
    for (const d of ['Monday', 'Tuesday', 'Wednesday'] as const) expect(lists(m)[d]).toEqual([{ sTime: '00:00:00', eTime: '24:00:00', enable: 1, number: 0, type: 1 }]);
    expect(lists(m).Thursday).toEqual([]);
  });

  it('a slot across midnight is split into the next day (Sunday into Monday)', () => {
    let m = addSlot(emptyModel(), 'Wednesday', '22:00', '02:00');
    expect(lists(m).Wednesday).toEqual([{ sTime: '22:00:00', eTime: '24:00:00', enable: 1, number: 0, type: 1 }]);
    expect(lists(m).Thursday).toEqual([{ sTime: '00:00:00', eTime: '02:00:00', enable: 1, number: 0, type: 1 }]);
    m = addSlot(m, 'Sunday', '23:30', '00:30');
    expect(lists(m).Sunday.map((s) => [s.sTime, s.eTime])).toEqual([['23:30:00', '24:00:00']]);
    expect(lists(m).Monday.map((s) => [s.sTime, s.eTime])).toEqual([['00:00:00', '00:30:00']]);
  });

  it('lists a slot across midnight as one slot of its day; removing, copying and clearing act on it whole', () => {
    const m = addSlot(addSlot(emptyModel(), 'Monday', '08:00', '09:00'), 'Monday', '22:00', '02:00');
    expect(daySlots(m, 'Monday')).toEqual([
      [28800, 32400],
      [79200, 7200],
    ]);
    expect(daySlots(m, 'Tuesday')).toEqual([]);
    expect(cellOn(m, 'Tuesday', 3)).toBe(true);
    // Removing it takes its Tuesday part too (the Tuesday hours were left as a slot of their own).
    const removed = removeSlot(m, 'Monday', 1);
    expect(fromNormal(removed)).toMatchObject({ Monday: [{ StartTime: '08:00:00', EndTime: '09:00:00' }], Tuesday: [] });
    // Copied to every day it runs past every midnight (copied were Monday's parts: 22:00-24:00 each day).
    const every = copyToAll(m, 'Monday');
    for (const d of WEEKDAYS) expect(daySlots(every, d)).toEqual([
      [28800, 32400],
      [79200, 7200],
    ]);
    expect(lists(every).Monday.map((s) => [s.sTime, s.eTime])).toEqual([['00:00:00', '02:00:00'], ['08:00:00', '09:00:00'], ['22:00:00', '24:00:00']]);
    // Clearing Monday leaves no 00:00-02:00 behind on Tuesday; clearing Tuesday cuts Monday's at midnight.
    expect(isEmpty(clearDay(removeSlot(m, 'Monday', 0), 'Monday'))).toBe(true);
    expect(fromNormal(clearDay(m, 'Tuesday')).Monday).toEqual([
      { StartTime: '08:00:00', EndTime: '09:00:00' },
      { StartTime: '22:00:00', EndTime: '24:00:00' },
    ]);
  });

  it('refuses an empty or malformed slot', () => {
    expect(() => addSlot(emptyModel(), 'Monday', '08:00', '08:00')).toThrow();
    expect(() => addSlot(emptyModel(), 'Monday', '25:00', '08:00')).toThrow();
  });

  it('copies a day to all days, removes a slot, loads a saved schedule', () => {
    const m = copyToAll(addSlot(emptyModel(), 'Tuesday', '09:00', '17:30'), 'Tuesday');
    for (const d of WEEKDAYS) expect(fromNormal(m)[d]).toEqual([{ StartTime: '09:00:00', EndTime: '17:30:00' }]);
    const r = removeSlot(m, 'Monday', 0);
    expect(r.Monday).toEqual([]);
    expect(isEmpty(emptyModel())).toBe(true);
    expect(modelOf({ Monday: [{ StartTime: '08:00', EndTime: '12:00' }] }).Monday).toEqual([[28800, 43200]]);
    expect(isEmpty(modelOf({ Monday: [{ StartTime: 'x', EndTime: '12:00' }] }))).toBe(true);
  });
});

describe('schedule editor model: an hour tapped on a phone', () => {
  it('fills an empty or partly set hour, clears a covered one, merging with its neighbours', () => {
    let m = toggleHour(emptyModel(), 'Wednesday', 8);
    expect(fromNormal(m).Wednesday).toEqual([{ StartTime: '08:00:00', EndTime: '09:00:00' }]);
    expect(hourCovered(m, 'Wednesday', 8)).toBe(true);
    m = toggleHour(m, 'Wednesday', 9);
    expect(fromNormal(m).Wednesday).toEqual([{ StartTime: '08:00:00', EndTime: '10:00:00' }]);
    // A half-hour in 10:00-11:00 (cell 21): the hour is only partly set, a tap fills it.
    m = paintCells(m, 'Wednesday', 21, 21, true);
    expect(hourCovered(m, 'Wednesday', 10)).toBe(false);
    m = toggleHour(m, 'Wednesday', 10);
    expect(fromNormal(m).Wednesday).toEqual([{ StartTime: '08:00:00', EndTime: '11:00:00' }]);
    // Covered inside a longer slot: a tap cuts the hour out of it.
    m = toggleHour(m, 'Wednesday', 9);
    expect(fromNormal(m).Wednesday).toEqual([
      { StartTime: '08:00:00', EndTime: '09:00:00' },
      { StartTime: '10:00:00', EndTime: '11:00:00' },
    ]);
    expect(fromNormal(m).Thursday).toEqual([]);
  });

  it('the last hour ends at 24:00', () => {
    const m = toggleHour(emptyModel(), 'Sunday', 23);
    expect(fromNormal(m).Sunday).toEqual([{ StartTime: '23:00:00', EndTime: '24:00:00' }]);
  });
});

describe('schedule summary (the plans list)', () => {
  const name = (d: string) => d.slice(0, 3);
  const sum = (m: ReturnType<typeof emptyModel>) => scheduleSummary(m, name, 'Every day', '; ', (end) => `${end}+1`);
  it('joins runs of equal days, says every day for the whole week, nothing for an empty one', () => {
    expect(sum(emptyModel())).toBe('');
    const week = copyToAll(paintCells(emptyModel(), 'Monday', 16, 35, true), 'Monday');
    expect(sum(week)).toBe('Every day 08:00–18:00');
    let m = emptyModel();
    for (const d of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'] as const) m = paintCells(m, d, 16, 35, true);
    m = paintCells(m, 'Saturday', 18, 23, true);
    expect(sum(m)).toBe('Mon–Fri 08:00–18:00; Sat 09:00–12:00');
    // A slot across midnight reads as the one slot entered: Sunday 22:00 into Monday 06:00.
    expect(sum(addSlot(emptyModel(), 'Sunday', '22:00', '06:00'))).toBe('Sun 22:00–06:00+1');
    expect(sum(copyToAll(addSlot(emptyModel(), 'Friday', '20:00', '04:30'), 'Friday'))).toBe('Every day 20:00–04:30+1');
  });
});
