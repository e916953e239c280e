/**
 * The weekly schedule editor's model: the normalised schedule of packages/shared (per day, sorted
 * disjoint [start, end) seconds). Painting works in 30-minute cells; slots typed with time pickers
 * may cross midnight and are split by the shared conversion. Saving sends `fromNormal(model)`.
 * A day's slots as listed (tags, the plans list, remove, copy, clear) are the slots as entered
 * (`daySlots`): one across midnight is one slot of the day it starts on, not two days' parts.
 */
import { DAY_SECONDS, WEEKDAYS, enteredSlots, fromNormal, normaliseSchedule, parseClock, type NormalSchedule, type Weekday, type WeeklySchedule } from '@opencvr/shared';

export const CELL_SECONDS = 1800;
export const CELLS_PER_DAY = DAY_SECONDS / CELL_SECONDS;

export function emptyModel(): NormalSchedule {
  return Object.fromEntries(WEEKDAYS.map((d) => [d, []])) as unknown as NormalSchedule;
}

/** The model of a schedule in the API form (invalid input gives an empty week). */
export function modelOf(schedule: WeeklySchedule | undefined | null): NormalSchedule {
  try {
    return schedule ? normaliseSchedule(schedule) : emptyModel();
  } catch {
    return emptyModel();
  }
}

function subtract(list: [number, number][], s: number, e: number): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of list) {
    if (b <= s || a >= e) out.push([a, b]);
    else {
      if (a < s) out.push([a, s]);
      if (b > e) out.push([e, b]);
    }
  }
  return out;
}

/** Sets (on) or clears (off) [start, end) seconds of one day. */
export function setRange(model: NormalSchedule, day: Weekday, start: number, end: number, on: boolean): NormalSchedule {
  const s = Math.max(0, Math.min(start, end));
  const e = Math.min(DAY_SECONDS, Math.max(start, end));
  if (s === e) return model;
  const kept = subtract(model[day], s, e);
  const next = { ...model, [day]: on ? [...kept, [s, e] as [number, number]] : kept };
  return normaliseSchedule(fromNormal(next));
}

/** Paints the cells from `fromCell` to `toCell` (either order, both included). */
export function paintCells(model: NormalSchedule, day: Weekday, fromCell: number, toCell: number, on: boolean): NormalSchedule {
  const a = Math.max(0, Math.min(fromCell, toCell));
  const b = Math.min(CELLS_PER_DAY - 1, Math.max(fromCell, toCell));
  return setRange(model, day, a * CELL_SECONDS, (b + 1) * CELL_SECONDS, on);
}

/** Paints a rectangle of days × cells (a drag across rows). */
export function paintBlock(model: NormalSchedule, fromDay: number, toDay: number, fromCell: number, toCell: number, on: boolean): NormalSchedule {
  let m = model;
  for (let d = Math.min(fromDay, toDay); d <= Math.max(fromDay, toDay); d++) m = paintCells(m, WEEKDAYS[d], fromCell, toCell, on);
  return m;
}

/** Whether a cell is (at least partly) in a slot. */
export function cellOn(model: NormalSchedule, day: Weekday, cell: number): boolean {
  const s = cell * CELL_SECONDS;
  const e = s + CELL_SECONDS;
  return model[day].some(([a, b]) => a < e && b > s);
}

/** Whether the whole hour `hour` (0-23) of a day is in one slot (slots are merged: one is enough). */
export function hourCovered(model: NormalSchedule, day: Weekday, hour: number): boolean {
  const s = hour * 3600;
  return model[day].some(([a, b]) => a <= s && b >= s + 3600);
}

/**
 * A tap on an hour (the phone's editor): a covered hour is cleared, any other (empty or partly
 * in a slot) is filled, as starting a drag on an empty or painted cell does on a desktop.
 */
export function toggleHour(model: NormalSchedule, day: Weekday, hour: number): NormalSchedule {
  return setRange(model, day, hour * 3600, (hour + 1) * 3600, !hourCovered(model, day, hour));
}

/**
 * Adds a slot typed as HH:mm(:ss) times; an end before the start runs across midnight into the
 * next day (Sunday into Monday). Throws ScheduleError on a malformed or empty slot.
 */
export function addSlot(model: NormalSchedule, day: Weekday, start: string, end: string): NormalSchedule {
  const api = fromNormal(model);
  api[day] = [...(api[day] ?? []), { StartTime: start, EndTime: end }];
  return normaliseSchedule(api);
}

/** A day's slots as entered, [start, end) seconds; end < start runs past midnight into the next day. */
export function daySlots(model: NormalSchedule, day: Weekday): [number, number][] {
  return enteredSlots(model)[day];
}

/** Removes the `index`th of a day's slots as listed (daySlots): one across midnight with its next-day part. */
export function removeSlot(model: NormalSchedule, day: Weekday, index: number): NormalSchedule {
  const api = fromNormal(model);
  api[day] = (api[day] ?? []).filter((_, i) => i !== index);
  return normaliseSchedule(api);
}

/** Every day gets the slots of `day` as listed (one across midnight runs past every midnight). */
export function copyToAll(model: NormalSchedule, day: Weekday): NormalSchedule {
  const src = fromNormal(model)[day] ?? [];
  return normaliseSchedule(Object.fromEntries(WEEKDAYS.map((d) => [d, src.map((x) => ({ ...x }))])));
}

/**
 * Empties a day: its hours, and the next-day part of its slot across midnight (listed as the day's,
 * it would otherwise be left behind as a slot of the next day). A slot of the day before running
 * into this one ends at midnight.
 */
export function clearDay(model: NormalSchedule, day: Weekday): NormalSchedule {
  const api = fromNormal(model);
  api[day] = [];
  return setRange(normaliseSchedule(api), day, 0, DAY_SECONDS, false);
}

export function clearAll(): NormalSchedule {
  return emptyModel();
}

export function isEmpty(model: NormalSchedule): boolean {
  return WEEKDAYS.every((d) => model[d].length === 0);
}

/** HH:mm of seconds (24:00 for the end of the day). */
export function hhmm(seconds: number): string {
  return `${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}`;
}

export const validClock = (s: string, end = false) => parseClock(s, end) !== undefined;

/** A slot as the console writes it: 08:00–18:00, one across midnight with `nextDay` around its end (次日02:00). */
export function slotText([s, e]: [number, number], nextDay: (end: string) => string): string {
  return `${hhmm(s)}–${e < s ? nextDay(hhmm(e)) : hhmm(e)}`;
}

/**
 * A week in a line, for the plans list: runs of consecutive days with the same slots joined
 * ("星期一–星期五 08:00–18:00；星期六 09:00–12:00"), the whole week as `everyDay`; '' when empty.
 * Slots are as entered: one across midnight is its day's ("星期一 22:00–次日02:00").
 */
export function scheduleSummary(model: NormalSchedule, dayName: (d: Weekday) => string, everyDay: string, sep: string, nextDay: (end: string) => string): string {
  const slots = enteredSlots(model);
  const key = (d: Weekday) => slots[d].map((x) => slotText(x, nextDay)).join(', ');
  if (WEEKDAYS.every((d) => key(d) === key(WEEKDAYS[0])) && key(WEEKDAYS[0])) return `${everyDay} ${key(WEEKDAYS[0])}`;
  const parts: string[] = [];
  for (let i = 0; i < WEEKDAYS.length; ) {
    let j = i;
    while (j + 1 < WEEKDAYS.length && key(WEEKDAYS[j + 1]) === key(WEEKDAYS[i])) j++;
    if (key(WEEKDAYS[i])) parts.push(`${dayName(WEEKDAYS[i])}${j > i ? `–${dayName(WEEKDAYS[j])}` : ''} ${key(WEEKDAYS[i])}`);
    i = j + 1;
  }
  return parts.join(sep);
}
