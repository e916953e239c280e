/** Issue 3, spec 9: the sidebar's channel search waits 500 ms after the last key and never searches an empty query. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { VideoTree } from '../src/features/video/components/VideoTree';
import { setLang } from '../src/i18n';
import { clearEarly } from '../src/lib/early';
import { stubTreeServer } from './helpers/tree-server';

const device = { DeviceID: '34020000001320000001', DeviceName: 'NVR east', DeviceType: 'GB28181', Online: 1, ChannelNum: 1, onlineChannelNums: 1 };
const channel = { ChannelID: '9', ParentDeviceID: device.DeviceID, DeviceName: 'NVR east', Name: 'Lobby', Parental: 0, GBID: '9', Online: 1, Enable: 1, FavoritesChannel: 0 };

let calls: URL[];
const searches = () => calls.filter((u) => u.pathname === '/api/v1/all/channels');

beforeEach(() => {
  setLang('zh-CN');
  calls = stubTreeServer((url) =>
    url.pathname === '/api/v1/devices'
      ? { Devices: [device], TotalCount: 1 }
      : url.pathname === '/api/v1/all/channels'
        ? { Channels: [channel], ChannelCount: 1 }
        : {},
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  clearEarly();
});

/** The tree with its first level loaded (real timers), then the clock frozen for the typing. */
async function treeWithFrozenClock() {
  render(
    <MemoryRouter>
      <VideoTree />
    </MemoryRouter>,
  );
  await screen.findByText('NVR east');
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  return screen.getByPlaceholderText('搜索通道');
}

describe('video tree search debounce', () => {
  it('sends no search before 500 ms after the last key, and exactly one after', async () => {
    const input = await treeWithFrozenClock();
    fireEvent.change(input, { target: { value: 'l' } });
    await act(async () => vi.advanceTimersByTime(300));
    fireEvent.change(input, { target: { value: 'lo' } });
    await act(async () => vi.advanceTimersByTime(300));
    fireEvent.change(input, { target: { value: 'lob' } });
    // 600 ms since the first key, 499 since the last: still nothing.
    await act(async () => vi.advanceTimersByTime(499));
    expect(searches()).toHaveLength(0);
    await act(async () => vi.advanceTimersByTime(1));
    vi.useRealTimers();
    await waitFor(() => expect(searches()).toHaveLength(1));
    expect(searches()[0].searchParams.get('q')).toBe('lob');
    // Nothing more once the answer is in: the debounce fired once.
    await new Promise((r) => setTimeout(r, 100));
    expect(searches()).toHaveLength(1);
  });

  it('never searches channels for an empty or blank query', async () => {
    const input = await treeWithFrozenClock();
    const before = calls.length;
    fireEvent.change(input, { target: { value: '   ' } });
    await act(async () => vi.advanceTimersByTime(2000));
    fireEvent.change(input, { target: { value: '' } });
    await act(async () => vi.advanceTimersByTime(2000));
    vi.useRealTimers();
    await new Promise((r) => setTimeout(r, 50));
    expect(searches()).toHaveLength(0);
    expect(calls.slice(before).map((u) => u.pathname).filter((p) => p !== '/api/v1/devices')).toEqual([]);
    expect(screen.getByText('NVR east')).toBeInTheDocument();
  });
});
