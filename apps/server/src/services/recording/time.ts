/**
 * Server-local times of the record calls (spec 9: YYYYMMDDHHmmss) and of the segment file names; the
 * index stores ISO UTC text.
 */
const p2 = (n: number) => String(n).padStart(2, '0');

/** YYYYMMDDHHmmss in server local time. */
export function localStamp(d: Date): string {
  return `${d.getFullYear()}${p2(d.getMonth() + 1)}${p2(d.getDate())}${p2(d.getHours())}${p2(d.getMinutes())}${p2(d.getSeconds())}`;
}

/**
 * A server-local YYYYMMDDHHmmss as the console shows times (YYYY-MM-DD HH:mm:ss, the server's clock
 * as the playback page's timeline): for the times a message names (通道 1:1 自 2026-11-25 00:00:00
 * 起的录像不存在), which a user reads, not the API's stamp (issue 5 walk, session 26).
 */
export function shownTime(stamp: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(stamp);
  return m ? `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}` : stamp;
}

/** YYYYMMDD of a server-local day. */
export const localDay = (d: Date) => localStamp(d).slice(0, 8);

/** No recording is older: earlier years are refused (Date also reads two-digit years as 19xx). */
const FIRST_YEAR = 1970;
const daysIn = (y: number, month: number) => new Date(Date.UTC(y, month, 0)).getUTCDate();

/**
 * A local YYYYMMDD[HH[mm[ss]]] → Date; undefined when malformed or not a real date and time (31
 * November, hour 24, a year before 1970). A time the clock skips when the zone moves forward is read
 * as the clock set forward shows it (Santiago's first day of summer time has no midnight: 00:30 is
 * 01:30), so such a day still has a start, its first instant; a time shown twice is its first instant.
 */
export function parseLocalStamp(s: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})?(\d{2})?)?$/.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, se] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number);
  if (y < FIRST_YEAR || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || se > 59) return undefined;
  return new Date(y, mo - 1, d, h, mi, se);
}

/** [start, end) of a local day YYYYMMDD. */
export function dayRange(day: string): [Date, Date] | undefined {
  if (!/^\d{8}$/.test(day)) return undefined;
  const start = parseLocalStamp(day);
  if (!start) return undefined;
  return [start, new Date(start.getFullYear(), start.getMonth(), start.getDate() + 1)];
}

/** [start, end) of a local month YYYYMM and its number of days. */
export function monthRange(month: string): { start: Date; end: Date; days: number } | undefined {
  const m = /^(\d{4})(\d{2})$/.exec(month);
  if (!m) return undefined;
  const [y, mo] = [Number(m[1]), Number(m[2])];
  if (y < FIRST_YEAR || mo < 1 || mo > 12) return undefined;
  const start = new Date(y, mo - 1, 1);
  const end = new Date(y, mo, 1);
  return { start, end, days: new Date(y, mo, 0).getDate() };
}
