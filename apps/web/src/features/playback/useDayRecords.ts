/** A channel's recordings of one day (querydaily) as timeline ranges of seconds since midnight. */
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { fetchDaily, type DailyRange } from './api';
import type { RecordSource } from './source';
import { secondsOfDay } from './day';
import { DAY, mergeRanges, type Range } from './timeline';

export interface DayRange extends DailyRange {
  start: number;
  end: number;
}

/** querydaily's list → ranges clipped to the day (startAt/endAt are local YYYYMMDDHHmmss). */
export function dayRanges(list: DailyRange[], day: string): DayRange[] {
  const out: DayRange[] = [];
  for (const r of list) {
    const s = secondsOfDay(day, r.startAt);
    const e = secondsOfDay(day, r.endAt);
    if (s === undefined || e === undefined || e <= 0 || s >= DAY) continue;
    out.push({ ...r, start: Math.max(0, s), end: Math.min(DAY, Math.max(e, s + 1)) });
  }
  return out.sort((a, b) => a.start - b.start);
}

export function useDayRecords(device: string, channel: string, day: string, refetchMs?: number, source: RecordSource = 'Cloud') {
  const q = useQuery({
    queryKey: ['playback', 'daily', device, channel, day, source],
    queryFn: () => fetchDaily(device, channel, day, source),
    enabled: !!device && !!channel && /^\d{8}$/.test(day),
    refetchInterval: refetchMs,
  });
  const list = useMemo(() => dayRanges(q.data?.list ?? [], day), [q.data, day]);
  const ranges = useMemo<Range[]>(() => mergeRanges(list.map((r) => [r.start, r.end])), [list]);
  const important = useMemo<Range[]>(() => list.filter((r) => r.important === 1).map((r) => [r.start, r.end]), [list]);
  return { query: q, list, ranges, important };
}
