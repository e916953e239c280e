/**
 * Favourites changed by the sidebar's star: lists of favourites elsewhere (the /video/square cards)
 * read again. A counter in a store rather than a react-query key, because the sidebar stays free of
 * react-query, and a feature may not import another's keys.
 */
import { create } from 'zustand';

export const useFavouritesVersion = create<{ version: number }>(() => ({ version: 0 }));

export function favouritesChanged(): void {
  useFavouritesVersion.setState((s) => ({ version: s.version + 1 }));
}
