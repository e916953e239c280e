/**
 * How the console writes a moment: local time as YYYY-MM-DD HH:mm:ss, the same on every page and in
 * either language (the server's ISO times, "2026-11-27T13:24:20.820Z", were shown as they came on the
 * users and roles pages, and toLocaleString() followed the browser's locale, not the console's).
 */
import dayjs from 'dayjs';

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** `empty` for no time; a text that is not a time is shown as it is. */
export function formatDateTime(v: string | number | Date | null | undefined, empty = ''): string {
  if (v === null || v === undefined || v === '') return empty;
  const d = dayjs(v);
  return d.isValid() ? d.format(DATE_TIME_FORMAT) : String(v);
}
