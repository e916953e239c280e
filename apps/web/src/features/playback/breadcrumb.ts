/**
 * The recordings breadcrumb (spec 3 recordingBreadcrumb {stime, records}; spec 4): a node is added
 * with its parents (the trail becomes the node's ancestry ending at it), or the trail is cut to a
 * given length. Pure functions plus a small store the playback pages share.
 */
import type { TFunction } from 'i18next';
import { create } from 'zustand';
import type { ChannelRow } from '@opencvr/shared';
import { backchannelPath, backlistPath } from './paths';

export interface Crumb {
  key: string;
  label: string;
  /** Where clicking the crumb goes. */
  to?: string;
}
export interface RecordingBreadcrumb {
  /** The day or time the trail belongs to (YYYYMMDD, or a stamp). */
  stime: string;
  records: Crumb[];
}

export const emptyBreadcrumb = (): RecordingBreadcrumb => ({ stime: '', records: [] });

/**
 * Adds `node` with its `parents` (root first): the trail becomes parents + node. A parent already
 * in the trail keeps its position; anything after the deepest shared ancestor is dropped.
 */
export function addRecord(state: RecordingBreadcrumb, node: Crumb, parents: Crumb[] = [], stime = state.stime): RecordingBreadcrumb {
  const chain = [...parents, node];
  const records: Crumb[] = [];
  for (let i = 0; i < chain.length; i++) {
    const existing = state.records[i];
    records.push(existing && existing.key === chain[i].key ? { ...existing, ...chain[i] } : chain[i]);
  }
  return { stime, records };
}

/** Keeps the first `length` crumbs (negative or zero: none). */
export function cutRecords(state: RecordingBreadcrumb, length: number): RecordingBreadcrumb {
  const n = Math.max(0, Math.min(state.records.length, Math.floor(length)));
  return n === state.records.length ? state : { stime: state.stime, records: state.records.slice(0, n) };
}

interface Store extends RecordingBreadcrumb {
  add: (node: Crumb, parents?: Crumb[], stime?: string) => void;
  cut: (length: number) => void;
}

export const useRecordingBreadcrumb = create<Store>((set) => ({
  ...emptyBreadcrumb(),
  add: (node, parents, stime) => set((s) => addRecord(s, node, parents, stime)),
  cut: (length) => set((s) => cutRecords(s, length)),
}));

/**
 * The trail's crumbs down to a channel (the playback list, its device, the channel), named as the
 * pages name them. A channel the server does not list to the user (outside the role, gone, or still
 * loading: `chan` not a row) is one crumb saying what the page's title says (通道录像), with no
 * device: its bare IDs from the address were the device's and the channel's names (999 / 999_7).
 */
export function channelCrumbs(t: TFunction, device: string, channel: string, chan: Pick<ChannelRow, 'Name' | 'DeviceName'> | null | undefined): Crumb[] {
  const list = { key: 'backlist', label: t('route.videoBacklist'), to: backlistPath('0') };
  const to = backchannelPath(device, channel);
  if (!chan) return [list, { key: `c:${device}:${channel}`, label: t('route.videoBackchannel'), to }];
  return [
    list,
    { key: `d:${device}`, label: chan.DeviceName || device, to: backlistPath(device) },
    { key: `c:${device}:${channel}`, label: chan.Name || `${device}_${channel}`, to },
  ];
}
