/** Calls of the protocol alarm page (admin only). Times go as local YYYYMMDDHHmmss (spec 9). */
import type { AlarmPage } from '@opencvr/shared';
import { getV1, postV1 } from '../../lib/request';

export interface AlarmFilter {
  /** Spec 3 alarm type; 0 = all. */
  type: number;
  /** Local YYYYMMDDHHmmss, '' = open. */
  starttime: string;
  endtime: string;
  device: string;
}

export const EMPTY_FILTER: AlarmFilter = { type: 0, starttime: '', endtime: '', device: '' };

const params = (f: AlarmFilter) => ({
  type: f.type || undefined,
  starttime: f.starttime || undefined,
  endtime: f.endtime || undefined,
  device: f.device || undefined,
});

export const fetchAlarms = (f: AlarmFilter, start: number, limit: number) => getV1<AlarmPage>('/api/v1/alarmlist', { ...params(f), start, limit });

export const deleteAlarms = (ids: number[]) => postV1<{ Deleted: number }>('/api/v1/deletealarm', { id: ids.join(',') });

/** Clears every alarm matching the filter (all of them with the empty filter); form-encoded (spec 7). */
export const clearAlarms = (f: AlarmFilter) => postV1<{ Deleted: number }>('/api/v1/clearalarm', params(f));

/** The snapshot URL an <img> can load: images send no token header, so it rides in the query. */
export const snapshotSrc = (url: string, token: string) => (url ? `${url}?token=${encodeURIComponent(token)}` : '');
