/** Calls of the GB28181 settings and the registration whitelist/blacklist pages (admin only). */
import type { GbBaseConfig, GbListItem, GbListPage } from '@opencvr/shared';
import { getV1, postV1 } from '../../lib/request';

export type ListKind = 'white' | 'black';

export interface ListEntryInput {
  ID?: number;
  DeviceID: string;
  IP: string;
  Name: string;
  Description: string;
}

export const fetchGbConfig = () => getV1<GbBaseConfig>('/api/v1/getbaseconfig');

/** Sends only what changed; the server validates the merged result. */
export const saveGbConfig = (patch: Partial<GbBaseConfig>) => postV1<GbBaseConfig>('/api/v1/setbaseconfig', patch);

export const fetchList = (kind: ListKind, p: { start: number; limit: number; q?: string }) =>
  getV1<GbListPage>(`/api/v1/${kind}`, { start: p.start, limit: p.limit, q: p.q || undefined });

export const addEntry = (kind: ListKind, e: ListEntryInput) =>
  postV1<GbListItem>(`/api/v1/add${kind}`, { DeviceID: e.DeviceID, IP: e.IP, Name: e.Name, Description: e.Description });

export const editEntry = (kind: ListKind, e: ListEntryInput & { ID: number }) =>
  postV1<GbListItem>(`/api/v1/edit${kind}`, { ID: e.ID, DeviceID: e.DeviceID, IP: e.IP, Name: e.Name, Description: e.Description });

/** delwhite is a GET in EasyCVR's console (spec 7), delblack a POST. */
export const deleteEntry = (kind: ListKind, id: number) =>
  kind === 'white' ? getV1<{ Deleted: number }>('/api/v1/delwhite', { ID: id }) : postV1<{ Deleted: number }>('/api/v1/delblack', { ID: id });

export const deleteEntries = (kind: ListKind, ids: number[]) => postV1<{ Deleted: number }>(`/api/v1/del${kind}s`, { ids: ids.join(',') });

export const setWhiteSwitch = (on: boolean) => postV1<{ WhiteSwitch: boolean }>('/api/v1/white/switch', { WhiteSwitch: on ? 1 : 0 });
