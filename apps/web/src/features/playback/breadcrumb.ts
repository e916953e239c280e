/**
 * The recordings breadcrumb (spec 3 recordingBreadcrumb {stime, records}; spec 4): a node is added
 * with its parents (the trail becomes the node's ancestry ending at it), or the trail is cut to a
 * given length. Pure functions plus a small store the playback pages share.
 */
import { create } from 'zustand';

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
