import { describe, expect, it, vi } from 'vitest';
import { channelClick, todayYmd } from '../src/lib/channelClick';
import { toggleFavourite } from '../src/features/video/favourite';
import { RequestError } from '../src/lib/request';

const ch = { DeviceID: '3402', ChannelID: '7' };

describe('channel click rule', () => {
  it('online and enabled: the player, main stream', () => {
    expect(channelClick({ ...ch, Online: 1, Enable: 1 })).toEqual({ kind: 'play', to: '/video/player/3402/7/0' });
  });
  it('offline: the offline notice', () => {
    expect(channelClick({ ...ch, Online: 0, Enable: 1 })).toEqual({ kind: 'offline' });
  });
  it('not enabled: the not-enabled notice, also when offline', () => {
    expect(channelClick({ ...ch, Online: 1, Enable: 0 })).toEqual({ kind: 'disabled' });
    expect(channelClick({ ...ch, Online: 0, Enable: 0 })).toEqual({ kind: 'disabled' });
    // Its device disabled (the row's DeviceEnable): not enabled either; rows without the field play as before.
    expect(channelClick({ ...ch, Online: 1, Enable: 1, DeviceEnable: 0 })).toEqual({ kind: 'disabled' });
    expect(channelClick({ ...ch, Online: 1, Enable: 1, DeviceEnable: 1 })).toEqual({ kind: 'play', to: '/video/player/3402/7/0' });
    // on the playback pages: the channel's recordings for today, online or not
    for (const pathname of ['/video/backlist/0', '/video/backchannel/1/2/20260101']) {
      expect(channelClick({ ...ch, Online: 0, Enable: 1 }, { pathname, today: '20261121' })).toEqual({ kind: 'play', to: '/video/backchannel/3402/7/20261121' });
    }
    expect(todayYmd(new Date(2026, 0, 5))).toBe('20260105');
  });
  it('escapes IDs in the path', () => {
    expect(channelClick({ DeviceID: 'a b', ChannelID: 'c/d', Online: 1, Enable: 1 })).toEqual({ kind: 'play', to: '/video/player/a%20b/c%2Fd/0' });
  });
});

describe('favourite flag', () => {
  it('0 → 1 after the add call answered', async () => {
    const add = vi.fn(async () => ({ FavoritesChannel: 1 }));
    const remove = vi.fn(async () => ({ FavoritesChannel: 0 }));
    await expect(toggleFavourite({ ...ch, FavoritesChannel: 0 }, add, remove)).resolves.toBe(1);
    expect(add).toHaveBeenCalledWith('3402', '7');
    expect(remove).not.toHaveBeenCalled();
  });
  it('1 → 0 after the remove call answered', async () => {
    const add = vi.fn(async () => ({}));
    const remove = vi.fn(async () => ({}));
    await expect(toggleFavourite({ ...ch, FavoritesChannel: 1 }, add, remove)).resolves.toBe(0);
    expect(remove).toHaveBeenCalledWith('3402', '7');
    expect(add).not.toHaveBeenCalled();
  });
  it('a failed call changes nothing', async () => {
    const fail = vi.fn(async () => {
      throw new RequestError(404, 'not found');
    });
    await expect(toggleFavourite({ ...ch, FavoritesChannel: 0 }, fail, fail)).rejects.toBeInstanceOf(RequestError);
  });
  it('the flag changes only once the answer arrived', async () => {
    let answer!: () => void;
    const add = vi.fn(() => new Promise<void>((r) => (answer = r)));
    let flag = 0;
    const pending = toggleFavourite({ ...ch, FavoritesChannel: flag }, add, vi.fn()).then((f) => (flag = f));
    await Promise.resolve();
    expect(flag).toBe(0);
    answer();
    await pending;
    expect(flag).toBe(1);
  });
});
