/** The record calls' views of the index: day lists with merged ranges, month flags. */
import type { SegmentSpan } from './store.js';

export interface MergedRange {
  start: Date;
  end: Date;
  ids: number[];
  /** The files' bytes (whole segments, also where the range is clipped to a day). */
  bytes: number;
  important: boolean;
  recording: boolean;
}

/**
 * Contiguous segments (gap ≤ `toleranceMs`) become one range; gaps are kept, and so is the edge
 * between important segments and others (the day view shows which part is kept for good, and a mark
 * or unmark acts on that part only). Rows sorted by start.
 */
export function mergeRanges(rows: SegmentSpan[], toleranceMs = 2000): MergedRange[] {
  const out: MergedRange[] = [];
  for (const r of [...rows].sort((a, b) => a.startAt.getTime() - b.startAt.getTime())) {
    const last = out[out.length - 1];
    if (last && r.startAt.getTime() - last.end.getTime() <= toleranceMs && last.important === r.important) {
      if (r.endAt > last.end) last.end = r.endAt;
      last.ids.push(r.id);
      last.bytes += r.bytes;
      last.recording ||= r.status === 'recording';
    } else {
      out.push({ start: r.startAt, end: r.endAt, ids: [r.id], bytes: r.bytes, important: r.important, recording: r.status === 'recording' });
    }
  }
  return out;
}

/** Local midnights of the `days` days from `monthStart`, and the one after (days + 1 bounds). */
export function dayBounds(monthStart: Date, days: number): Date[] {
  return Array.from({ length: days + 1 }, (_, d) => new Date(monthStart.getFullYear(), monthStart.getMonth(), d + 1));
}
