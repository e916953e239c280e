/**
 * The weekly schedule of recording plans (spec 3): Monday to Sunday, each a list of StartTime/EndTime
 * slots, converted to per-day lists of {sTime, eTime, enable, number, type: 1} and back.
 *
 * Rules: times are HH:mm or HH:mm:ss (24:00 / 24:00:00 only as an end); a slot's start must differ
 * from its end; a slot whose end is before its start runs across midnight and is split into two days
 * (Sunday runs on into Monday) in the per-day lists and the normalised form, and is one slot again in
 * the API form read back (fromNormal, enteredSlots); overlapping or touching slots of a day are merged, so the per-day
 * lists never overlap. The engine asks `isScheduledAt` and `nextEdge` in server-local wall time, with
 * a fixed offset from UTC (no DST jumps inside the computation).
 */

import { reason as reasonText, type Reason, type ReasonKey } from './messages.js';

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** One slot of the API form, e.g. {StartTime: '08:00:00', EndTime: '18:00:00'}. */
export interface ScheduleSlot {
  StartTime: string;
  EndTime: string;
}
/** The API form: Monday..Sunday, each a list of slots (a missing day has none). */
export type WeeklySchedule = Partial<Record<Weekday, ScheduleSlot[]>>;

/** One slot of the per-day form (`number` is its index in the day, `type` is always 1). */
export interface DaySlot {
  sTime: string;
  eTime: string;
  enable: number;
  number: number;
  type: 1;
}
export type DayLists = Record<Weekday, DaySlot[]>;

/** Slots of one day as [start, end) seconds since midnight, sorted, disjoint. */
export type NormalSchedule = Record<Weekday, [number, number][]>;

export const DAY_SECONDS = 86400;
const WEEK_SECONDS = 7 * DAY_SECONDS;

/** A schedule that cannot be used: the catalogue reason naming the day and slot (the message is its English). */
export class ScheduleError extends Error {
  constructor(readonly reason: Reason) {
    super(reasonText(reason.key, 'en-US', reason.vars));
  }
}
const refuse = (key: ReasonKey, vars?: Record<string, string | number>) => new ScheduleError({ key, vars });

/** Seconds since midnight of HH:mm(:ss); 24:00(:00) only when `end`. Undefined when malformed. */
export function parseClock(s: string, end = false): number | undefined {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(String(s).trim());
  if (!m) return undefined;
  const [h, min, sec] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (min > 59 || sec > 59) return undefined;
  if (h === 24 && min === 0 && sec === 0) return end ? DAY_SECONDS : undefined;
  if (h > 23) return undefined;
  return h * 3600 + min * 60 + sec;
}

/** HH:mm:ss of seconds since midnight (86400 → 24:00:00). */
export function formatClock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h, m, s].map((n) => String(n).padStart(2, '0')).join(':');
}

function emptyNormal(): NormalSchedule {
  return Object.fromEntries(WEEKDAYS.map((d) => [d, []])) as unknown as NormalSchedule;
}

function mergeDay(slots: [number, number][]): [number, number][] {
  const sorted = [...slots].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/**
 * Validates the API form and returns the normalised schedule (midnight slots split, overlaps
 * merged). Throws ScheduleError naming the day and slot of the first problem.
 */
export function normaliseSchedule(input: unknown): NormalSchedule {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw refuse('scheduleNotWeek');
  const raw = input as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!(WEEKDAYS as readonly string[]).includes(key)) throw refuse('scheduleUnknownDay', { day: key });
  }
  const days = emptyNormal();
  WEEKDAYS.forEach((day, i) => {
    const list = raw[day];
    if (list === undefined || list === null) return;
    if (!Array.isArray(list)) throw refuse('scheduleDayNotList', { day });
    list.forEach((slot: unknown, n) => {
      const o = slot as Partial<ScheduleSlot> | null;
      if (!o || typeof o !== 'object') throw refuse('scheduleSlotNotObject', { slot: `${day}[${n}]` });
      const s = parseClock(String(o.StartTime ?? ''));
      const e = parseClock(String(o.EndTime ?? ''), true);
      if (s === undefined) throw refuse('scheduleBadTime', { slot: `${day}[${n}]`, field: 'StartTime' });
      if (e === undefined) throw refuse('scheduleBadTime', { slot: `${day}[${n}]`, field: 'EndTime' });
      if (s === e) throw refuse('scheduleSameTime', { slot: `${day}[${n}]` });
      if (s < e) days[day].push([s, e]);
      else {
        // Across midnight: the rest of this day, then the next day from 00:00.
        days[day].push([s, DAY_SECONDS]);
        if (e > 0) days[WEEKDAYS[(i + 1) % 7]].push([0, e]);
      }
    });
  });
  for (const day of WEEKDAYS) days[day] = mergeDay(days[day]);
  return days;
}

/** API form → per-day lists (validated and normalised). */
export function toDayLists(schedule: unknown): DayLists {
  const n = normaliseSchedule(schedule);
  return Object.fromEntries(
    WEEKDAYS.map((d) => [d, n[d].map(([s, e], i): DaySlot => ({ sTime: formatClock(s), eTime: formatClock(e), enable: 1, number: i, type: 1 }))]),
  ) as unknown as DayLists;
}

/** Per-day lists → API form (disabled slots left out); the result validates as the input did. */
export function fromDayLists(lists: Partial<Record<Weekday, DaySlot[]>>): WeeklySchedule {
  const out: WeeklySchedule = {};
  for (const d of WEEKDAYS) {
    out[d] = (lists[d] ?? []).filter((x) => x.enable !== 0).map((x) => ({ StartTime: x.sTime, EndTime: x.eTime }));
  }
  // Normalising checks the times and merges what the lists may have overlapping.
  return fromNormal(normaliseSchedule(out));
}

/**
 * A week's slots as an administrator enters them, per day as [start, end) seconds since midnight,
 * where end < start is one slot across midnight into the next day (Sunday into Monday). The
 * normalised form holds such a slot as two days' parts (the day's up to 24:00, the next day's from
 * 00:00); read back as two it is not what was entered (session 27). A day's part ending at 24:00
 * and the next day's part from 00:00 are one slot when that part ends before the first one starts,
 * as a slot typed with an end before its start always does; otherwise (a whole day, a next-day part
 * running past the start) they stay apart, as no one typed slot makes them. A slot entered as two
 * touching parts reads as one: the same seconds, and the same slot to the engine.
 */
export function enteredSlots(n: NormalSchedule): Record<Weekday, [number, number][]> {
  const out = Object.fromEntries(WEEKDAYS.map((d) => [d, n[d].map(([s, e]) => [s, e] as [number, number])])) as unknown as Record<Weekday, [number, number][]>;
  WEEKDAYS.forEach((day, i) => {
    const next = WEEKDAYS[(i + 1) % 7];
    const last = out[day][out[day].length - 1];
    const head = out[next][0];
    // A joined slot starts after 00:00 and no longer ends at 24:00, so it is never taken for a part again.
    if (!last || !head || last[1] !== DAY_SECONDS || last[0] === 0 || head[0] !== 0 || !(head[1] < last[0])) return;
    last[1] = head[1];
    out[next].shift();
  });
  return out;
}

/** Normalised → API form, each slot as entered (one across midnight is one slot: enteredSlots). */
export function fromNormal(n: NormalSchedule): WeeklySchedule {
  const slots = enteredSlots(n);
  return Object.fromEntries(WEEKDAYS.map((d) => [d, slots[d].map(([s, e]) => ({ StartTime: formatClock(s), EndTime: formatClock(e) }))])) as WeeklySchedule;
}

/** A schedule covering the whole week (what "no plan" means). */
export function alwaysSchedule(): NormalSchedule {
  return Object.fromEntries(WEEKDAYS.map((d) => [d, [[0, DAY_SECONDS]]])) as unknown as NormalSchedule;
}

/** The server's offset from UTC in minutes at `date` (east positive). */
export const localOffsetMinutes = (date: Date): number => -date.getTimezoneOffset();

/** Seconds since Monday 00:00 of the local week at `date`, with a fixed offset. */
function weekSecond(date: Date, offsetMinutes: number): number {
  const local = new Date(date.getTime() + offsetMinutes * 60_000);
  const day = (local.getUTCDay() + 6) % 7; // Monday = 0
  return day * DAY_SECONDS + local.getUTCHours() * 3600 + local.getUTCMinutes() * 60 + local.getUTCSeconds() + local.getUTCMilliseconds() / 1000;
}

function activeAtWeekSecond(n: NormalSchedule, ws: number): boolean {
  const t = ((ws % WEEK_SECONDS) + WEEK_SECONDS) % WEEK_SECONDS;
  const day = WEEKDAYS[Math.floor(t / DAY_SECONDS)];
  const sec = t - Math.floor(t / DAY_SECONDS) * DAY_SECONDS;
  return n[day].some(([s, e]) => sec >= s && sec < e);
}

/** Whether the schedule is on at `date` (local wall time at `offsetMinutes` from UTC; default: the server's). */
export function isScheduledAt(schedule: NormalSchedule, date: Date, offsetMinutes = localOffsetMinutes(date)): boolean {
  return activeAtWeekSecond(schedule, weekSecond(date, offsetMinutes));
}

/**
 * The next instant after `date` at which the schedule turns on or off, or undefined when it never
 * changes (empty or always on).
 */
export function nextEdge(schedule: NormalSchedule, date: Date, offsetMinutes = localOffsetMinutes(date)): Date | undefined {
  const edges = new Set<number>();
  WEEKDAYS.forEach((d, i) => {
    for (const [s, e] of schedule[d]) {
      edges.add(i * DAY_SECONDS + s);
      edges.add((i * DAY_SECONDS + e) % WEEK_SECONDS);
    }
  });
  const now = weekSecond(date, offsetMinutes);
  let best: number | undefined;
  for (const edge of edges) {
    // An edge is real only when the state differs on its two sides (a slot ending at 24:00 that the
    // next day continues from 00:00 is no edge).
    if (activeAtWeekSecond(schedule, edge - 0.5) === activeAtWeekSecond(schedule, edge)) continue;
    let delta = edge - now;
    if (delta <= 0) delta += WEEK_SECONDS;
    if (best === undefined || delta < best) best = delta;
  }
  return best === undefined ? undefined : new Date(date.getTime() + Math.round(best * 1000));
}
