/** GB28181 Date header / time fields: local time `YYYY-MM-DDTHH:mm:ss.SSS` without a zone (devices set their clocks from it). */
export function gbDate(d: Date = new Date()): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}
