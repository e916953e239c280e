/** Days of the playback pages: YYYYMMDD in local time, the month grid and its recorded flags. */

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function dayString(d: Date): string {
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}`;
}

export const today = (now = new Date()) => dayString(now);

/** The local midnight of YYYYMMDD, or undefined when it is no real date. */
export function parseDay(day: string | undefined): Date | undefined {
  const m = day ? /^(\d{4})(\d{2})(\d{2})$/.exec(day) : null;
  if (!m) return undefined;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return dayString(d) === day ? d : undefined;
}

/** YYYYMMDD → YYYYMM. */
export const monthOf = (day: string) => day.slice(0, 6);

/** YYYYMM moved by `delta` months. */
export function shiftMonth(month: string, delta: number): string {
  const d = new Date(Number(month.slice(0, 4)), Number(month.slice(4, 6)) - 1 + delta, 1);
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}`;
}

export function daysInMonth(month: string): number {
  return new Date(Number(month.slice(0, 4)), Number(month.slice(4, 6)), 0).getDate();
}

/**
 * The days of a month that have recordings, from querymonthly's answer: one character per day,
 * '1' recorded, anything else not. A short or missing string flags nothing beyond its length.
 */
export function recordedDays(flags: string | null | undefined, month: string): Set<string> {
  const out = new Set<string>();
  const n = daysInMonth(month);
  const s = typeof flags === 'string' ? flags.trim() : '';
  for (let i = 0; i < n && i < s.length; i++) if (s[i] === '1') out.add(`${month}${pad(i + 1)}`);
  return out;
}

export interface CalendarCell {
  day: string;
  date: number;
  inMonth: boolean;
}

/** A 6×7 grid for the month, weeks starting on Monday. */
export function monthGrid(month: string): CalendarCell[] {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(4, 6)) - 1;
  const first = new Date(y, m, 1);
  const lead = (first.getDay() + 6) % 7;
  const cells: CalendarCell[] = [];
  for (let i = 0; i < 42; i++) {
    const d = new Date(y, m, 1 - lead + i);
    cells.push({ day: dayString(d), date: d.getDate(), inMonth: d.getMonth() === m });
  }
  return cells;
}

/** Local YYYYMMDDHHmmss → Date. */
export function parseStamp(s: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(s);
  if (!m) return undefined;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

/** Local time YYYYMMDDHHmmss of `day` + seconds since its midnight. */
export function stampAt(day: string, seconds: number): string {
  const base = parseDay(day) ?? new Date();
  const d = new Date(base.getFullYear(), base.getMonth(), base.getDate(), 0, 0, Math.round(seconds));
  return `${dayString(d)}${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
}

/** Seconds since the midnight of `day` of a local stamp (may be outside 0..86400 for other days). */
export function secondsOfDay(day: string, stamp: string): number | undefined {
  const base = parseDay(day);
  const t = parseStamp(stamp);
  if (!base || !t) return undefined;
  return Math.round((t.getTime() - base.getTime()) / 1000);
}

/** HH:mm:ss of seconds since midnight. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}
