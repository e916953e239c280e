/** The favourite flag of a channel (spec 4): 0 → 1 on add, 1 → 0 on remove, only once the call answered 200. */

export type FavouriteCall = (device: string, channel: string) => Promise<unknown>;

export interface FavouriteTarget {
  DeviceID: string;
  ChannelID: string;
  FavoritesChannel: number;
}

/**
 * Calls add or remove for the current flag and returns the new flag. The request layer resolves
 * only for a successful (200) answer; a failure rejects and the caller keeps the old flag.
 */
export async function toggleFavourite(c: FavouriteTarget, add: FavouriteCall, remove: FavouriteCall): Promise<number> {
  if (c.FavoritesChannel === 1) {
    await remove(c.DeviceID, c.ChannelID);
    return 0;
  }
  await add(c.DeviceID, c.ChannelID);
  return 1;
}
