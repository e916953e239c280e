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
  for (let d = 0; d < days; d++) {
    const from = new Date(monthStart.getFullYear(), monthStart.getMonth(), d + 1).getTime();
    const to = new Date(monthStart.getFullYear(), monthStart.getMonth(), d + 2).getTime();
    if (rows.some((r) => r.startAt.getTime() < to && r.endAt.getTime() > from)) flags[d] = '1';
  }
  return flags.join('');
}
