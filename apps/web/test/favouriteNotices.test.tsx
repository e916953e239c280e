/**
 * Issue 3, spec 4/8: the sidebar's favourite star. Adding says ‘name’通道已添加收藏夹! as a success
 * notice and the flag becomes 1; removing says 已移除收藏夹! as a warning and the flag becomes 0; a
 * failed call keeps the old flag and shows neither.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { setLang } from '../src/i18n';
import { useChannelActions } from '../src/features/video/useChannelActions';
import { useSession } from '../src/lib/stores/session';
import { captureNotices, stubApi, v1 } from './helpers/console';

let notices: string[];
beforeEach(() => {
  setLang('zh-CN');
  notices = captureNotices();
  useSession.getState().login('tok-op', { id: 2, name: 'op', nick_name: '', role: 'user', role_name: 'op', role_id: 2, Status: 1, MustChangePassword: false });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().clear();
});

const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={['/video/square/1001']}>{children}</MemoryRouter>;
const lobby = { DeviceID: '1001', ChannelID: '3', Name: 'Lobby' };

describe('favourite star', () => {
  it('adds with the success notice naming the channel, removes with the warning', async () => {
    const api = stubApi({
      '/api/v1/addfavoriteschannel': () => v1({ FavoritesChannel: 1 }),
      '/api/v1/deletefavoriteschannel': () => v1({ FavoritesChannel: 0 }),
    });
    const { result } = renderHook(() => useChannelActions(), { wrapper });

    let flag = -1;
    await act(async () => {
      flag = await result.current.star({ ...lobby, FavoritesChannel: 0 });
    });
    expect(flag).toBe(1);
    expect(api.callsTo('/api/v1/addfavoriteschannel')[0].query.get('device')).toBe('1001');
    expect(api.callsTo('/api/v1/addfavoriteschannel')[0].query.get('channel')).toBe('3');
    expect(notices).toEqual(['success:‘Lobby’通道已添加收藏夹!']);

    await act(async () => {
      flag = await result.current.star({ ...lobby, FavoritesChannel: 1 });
    });
    expect(flag).toBe(0);
    expect(api.callsTo('/api/v1/deletefavoriteschannel')).toHaveLength(1);
    expect(notices).toEqual(['success:‘Lobby’通道已添加收藏夹!', 'warning:已移除收藏夹!']);
  });

  it('keeps the flag and says neither when the call fails', async () => {
    stubApi({}); // every call answers 404
    const { result } = renderHook(() => useChannelActions(), { wrapper });
    let flag = -1;
    await act(async () => {
      flag = await result.current.star({ ...lobby, FavoritesChannel: 0 });
    });
    expect(flag).toBe(0);
    expect(notices.filter((n) => n.startsWith('success:') || n.startsWith('warning:'))).toEqual([]);
  });
});
