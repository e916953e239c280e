/**
 * GB28181 record times: `YYYY-MM-DDTHH:MM:SS` in local time without a zone (the platform and the
 * device agree on the clock through the Date header of REGISTER). Read and written here as Dates of
 * the server's zone, as the rest of the platform's record calls are.
 */
const p2 = (n: number) => String(n).padStart(2, '0');

export function gbTimeOf(d: Date): string {
  return `${d.getFullYear()}-${p2(d.getMonth() + 1)}-${p2(d.getDate())}T${p2(d.getHours())}:${p2(d.getMinutes())}:${p2(d.getSeconds())}`;
}

/** A decoded RecordItem time (already normalised by the package to `YYYY-MM-DDTHH:MM:SS`); undefined if not a real time. */
export function dateOfGbTime(s: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number);
  const date = new Date(y, mo - 1, d, h, mi, se);
  return Number.isNaN(date.getTime()) || date.getDate() !== d ? undefined : date;
}
