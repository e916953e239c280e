/**
 * A channel the server says is gone while the console shows it: a player's stream call refused with
 * 404 (deleted by another user, or its device). The sidebar's trees read their loaded levels again,
 * so its row goes without a reload. A counter in a store, as favourites.ts: the sidebar is free of
 * react-query, and the player may not import a feature's keys.
 */
import { create } from 'zustand';

export const useChannelsGone = create<{ version: number }>(() => ({ version: 0 }));

export function channelGone(): void {
  useChannelsGone.setState((s) => ({ version: s.version + 1 }));
}
