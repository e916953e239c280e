/**
 * The sub-channel trail of the channel pages (spec 3: stored locally as sub_channel). A store so
 * the channel list and the breadcrumb share it; mirrored to localStorage so a reload inside a
 * sub-directory keeps its crumbs.
 */
import { create } from 'zustand';
import { STORAGE_KEYS } from '@opencvr/shared';
import { applyCrumbEffect, isDevicePath, trailForSubset, type CrumbEffect, type SubChannel } from './breadcrumb';

function readStored(): SubChannel[] {
  try {
    // A page load outside the device pages drops the trail, as a route change there would.
    if (!isDevicePath(window.location.pathname)) {
      localStorage.removeItem(STORAGE_KEYS.subChannel);
      return [];
    }
    const v = JSON.parse(localStorage.getItem(STORAGE_KEYS.subChannel) ?? '[]') as unknown;
    return Array.isArray(v)
      ? v.filter((e): e is SubChannel => !!e && typeof e === 'object' && typeof (e as SubChannel).subset === 'string')
      : [];
  } catch {
    return [];
  }
}

function store(trail: SubChannel[]): SubChannel[] {
  if (trail.length) localStorage.setItem(STORAGE_KEYS.subChannel, JSON.stringify(trail));
  else localStorage.removeItem(STORAGE_KEYS.subChannel);
  return trail;
}

export interface SubChannelState {
  trail: SubChannel[];
  push: (entry: SubChannel) => void;
  apply: (effect: CrumbEffect) => void;
  /** Brings the trail in line with the level shown (browser back/forward). */
  syncSubset: (subset: string | null) => void;
  clear: () => void;
}

export const useSubChannels = create<SubChannelState>((set, get) => ({
  trail: readStored(),
  push: (entry) => set({ trail: store([...get().trail.filter((e) => e.uuid !== entry.uuid), entry]) }),
  apply: (effect) => set({ trail: store(applyCrumbEffect(get().trail, effect)) }),
  syncSubset: (subset) => {
    const next = trailForSubset(get().trail, subset);
    if (next.length !== get().trail.length) set({ trail: store(next) });
  },
  clear: () => set({ trail: store([]) }),
}));
