/**
 * A device deleted by another user while the sidebar shows it (session 26): the tree kept it until
 * the page was reloaded, and a click on its channel opened a player that said 通道 x/y不存在. The
 * tree now reads what it has loaded again, top down, when a player is refused its channel as gone,
 * when the window gets the focus back (not more often than a gap), and once a period while visible;
 * the levels under a row that went are dropped, not asked for, and nothing of it raises a notice.
 */
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { GroupTree } from '../src/features/video/components/GroupTree';
import { TREE_FOCUS_GAP_MS, TREE_REFRESH_MS } from '../src/features/video/components/useTreeFreshness';
import { VideoTree } from '../src/features/video/components/VideoTree';
import { setLang } from '../src/i18n';
import { channelGone } from '../src/lib/channelsGone';
import { clearEarly } from '../src/lib/early';
import { captureNotices } from './helpers/console';
import { envelope } from './helpers/tree-server';

vi.mock('../src/lib/ws', () => ({ useWsTopic: () => undefined }));

const device = (id: string) => ({ DeviceID: id, DeviceName: `NVR ${id}`, DeviceType: 'RTSP', Online: 1, ChannelNum: 1, onlineChannelNums: 1 });
const channel = (dev: string) => ({ ChannelID: '1', ParentDeviceID: dev, DeviceName: `NVR ${dev}`, Name: `门口 ${dev}`, Parental: 0, GBID: '', Online: 1, Enable: 1, FavoritesChannel: 0 });

/** The devices on the server now; a deleted device's channels answer 404 as the server's do. */
let devices: string[];
let asked: URL[];
let notices: string[];
beforeEach(() => {
  setLang('zh-CN');
  notices = captureNotices();
  devices = ['A', 'B'];
  asked = [];
  vi.stubGlobal('ResizeObserver', class {
    observe() {}
    unobserve() {}
    disconnect() {}
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      asked.push(url);
      const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      if (url.pathname === '/api/v1/devices') return json(200, envelope({ Devices: devices.map(device), TotalCount: devices.length }));
      const dev = url.searchParams.get('device') ?? url.searchParams.get('deviceid') ?? '';
      if (url.pathname === '/api/v1/channels') {
        return devices.includes(dev) ? json(200, envelope({ Channels: [channel(dev)], ChannelCount: 1 })) : json(404, { code: 404, msg: `设备 ${dev} 不存在` });
      }
      if (url.pathname === '/api/v1/group/children') {
        return json(200, envelope({ Nodes: devices.map((d) => ({ NodeType: 'camera', ID: `${d}:1`, DeviceID: d, ChannelID: '1', Name: `门口 ${d}`, Online: 1 })), Count: devices.length }));
      }
      return json(200, envelope({}));
    }),
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  clearEarly();
});

const at = (el: React.ReactElement) =>
  render(
    <MemoryRouter initialEntries={['/video/square/0']}>
      <Routes>
        <Route path="*" element={el} />
      </Routes>
    </MemoryRouter>,
  );
const deviceReads = () => asked.filter((u) => u.pathname === '/api/v1/devices').length;
const passes = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('the video tree after a device is deleted elsewhere', () => {
  it('drops it when a player is refused its channel as gone, without asking for what was under it', async () => {
    at(<VideoTree />);
    const line = (await screen.findByText('NVR A')).closest('.ant-tree-treenode')!;
    fireEvent.click(line.querySelector('.ant-tree-switcher')!);
    await screen.findByText('门口 A');
    devices = ['B'];
    const before = asked.length;
    act(() => channelGone());
    await waitFor(() => expect(screen.queryByText('NVR A')).toBeNull());
    expect(screen.queryByText('门口 A')).toBeNull();
    expect(screen.getByText('NVR B')).toBeInTheDocument();
    // One read of the devices; A's channels were not asked for (the server would say 404).
    expect(asked.slice(before).map((u) => u.pathname)).toEqual(['/api/v1/devices']);
    expect(notices).toEqual([]);
  });

  it('reads again when the window gets the focus back (not sooner than the gap), and once a period while visible', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], shouldAdvanceTime: true });
    at(<VideoTree />);
    await screen.findByText('NVR A');
    await waitFor(() => expect(deviceReads()).toBe(1));
    devices = ['B', 'C'];
    // A focus right after the tree was read asks nothing.
    act(() => void window.dispatchEvent(new Event('focus')));
    await passes(100);
    expect(deviceReads()).toBe(1);
    await passes(TREE_FOCUS_GAP_MS);
    act(() => void window.dispatchEvent(new Event('focus')));
    await waitFor(() => expect(screen.queryByText('NVR A')).toBeNull());
    expect(screen.getByText('NVR C')).toBeInTheDocument();
    expect(deviceReads()).toBe(2);
    // No focus: the period's read drops B.
    devices = ['C'];
    await passes(TREE_REFRESH_MS);
    await waitFor(() => expect(screen.queryByText('NVR B')).toBeNull());
    expect(deviceReads()).toBe(3);
    expect(notices).toEqual([]);
  });
});

describe('the group tree (operators) after a channel is deleted elsewhere', () => {
  it('drops it when a player is refused it as gone', async () => {
    at(<GroupTree />);
    await screen.findByText('门口 A');
    devices = ['B'];
    act(() => channelGone());
    await waitFor(() => expect(screen.queryByText('门口 A')).toBeNull());
    expect(screen.getByText('门口 B')).toBeInTheDocument();
  });
});
