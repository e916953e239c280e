/** The sidebar's channel actions: open (player or notice) and the favourite star. */
import { useCallback } from 'react';
import { msg } from '../../i18n';
import { useOpenChannel } from '../../lib/channelClick';
import { favouritesChanged } from '../../lib/favourites';
import { notify } from '../../lib/notify';
import { addFavorite, deleteFavorite } from './api';
import { toggleFavourite, type FavouriteTarget } from './favourite';

export function useChannelActions() {
  const open = useOpenChannel();

  /** Resolves with the new flag, or the old one when the call failed (the request layer said why). */
  const star = useCallback(async (c: FavouriteTarget & { Name: string }): Promise<number> => {
    try {
      const flag = await toggleFavourite(c, addFavorite, deleteFavorite);
      favouritesChanged();
      if (flag === 1) notify.success(msg('favouriteAdded', { name: c.Name }));
      else notify.warning(msg('favouriteRemoved'));
      return flag;
    } catch {
      return c.FavoritesChannel;
    }
  }, []);

  return { open, star };
}
