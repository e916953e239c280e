/** The record calls' views of the index: day lists with merged ranges, month flags. */
import type { SegmentRow } from './store.js';

export interface MergedRange {
  start: Date;
  end: Date;
  ids: number[];
  important: boolean;
  recording: boolean;
}

/** Contiguous segments (gap ≤ `toleranceMs`) become one range; gaps are kept. Rows sorted by start. */
export function mergeRanges(rows: SegmentRow[], toleranceMs = 2000): MergedRange[] {
  const out: MergedRange[] = [];
  for (const r of [...rows].sort((a, b) => a.startAt.getTime() - b.startAt.getTime())) {
    const last = out[out.length - 1];
    if (last && r.startAt.getTime() - last.end.getTime() <= toleranceMs) {
      if (r.endAt > last.end) last.end = r.endAt;
      last.ids.push(r.id);
      last.important ||= r.important;
      last.recording ||= r.status === 'recording';
    } else {
      out.push({ start: r.startAt, end: r.endAt, ids: [r.id], important: r.important, recording: r.status === 'recording' });
    }
  }
  return out;
}

/** '0'/'1' per day of the month starting at `monthStart` (local), '1' where a row overlaps that day. */
export function monthFlags(rows: Pick<SegmentRow, 'startAt' | 'endAt'>[], monthStart: Date, days: number): string {
  const flags = new Array<string>(days).fill('0');
  // Day d covers [bounds[d], bounds[d + 1]) (local midnights: a DST day is 23 or 25 hours).
  const bounds = Array.from({ length: days + 1 }, (_, d) => new Date(monthStart.getFullYear(), monthStart.getMonth(), d + 1).getTime());
  const dayOf = (t: number) => {
    let lo = 0;
    let hi = days;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (bounds[mid] <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  for (const r of rows) {
    const s = r.startAt.getTime();
    const e = r.endAt.getTime();
    if (e <= bounds[0] || s >= bounds[days] || e < s) continue;
    const first = s < bounds[0] ? 0 : dayOf(s);
    const last = e > s ? Math.min(days - 1, dayOf(e - 1)) : first; // a row just opened has no length yet
    for (let d = first; d <= last; d++) flags[d] = '1';
  }
  return flags.join('');
}
