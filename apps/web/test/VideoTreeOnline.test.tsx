/**
 * The video tree follows channels going on and off line (a GB28181 device registering again): the
 * events socket's news message makes it fetch its loaded rows of that device again, so the device
 * line's colour and counts and the channel's colour change without a reload, and a click on a
 * channel that came back opens the player instead of saying it is offline.
 */
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { NewsItem } from '@opencvr/shared';
import { VideoTree } from '../src/features/video/components/VideoTree';
import { setLang } from '../src/i18n';
import { clearEarly } from '../src/lib/early';
import { captureNotices } from './helpers/console';
import { stubTreeServer } from './helpers/tree-server';
import { Where } from './helpers/where';

const ws = vi.hoisted(() => ({ listeners: new Map<string, (payload: unknown) => void>() }));
vi.mock('../src/lib/ws', () => ({
  useWsTopic: (topic: string, fn: (payload: unknown) => void) => {
    ws.listeners.set(topic, fn);
  },
}));

const DEV = '34020000001180000001';
const CH = '34020000001310000001';
let online = 0;
const device = () => ({ DeviceID: DEV, DeviceName: 'NVR 一号楼', DeviceType: 'GB28181', Online: online, ChannelNum: 1, onlineChannelNums: online });
const channel = () => ({ ChannelID: CH, ParentDeviceID: DEV, DeviceName: 'NVR 一号楼', Name: '大门口', Parental: 0, GBID: CH, Online: online, Enable: 1, FavoritesChannel: 0 });
const news = (Status: 'ON' | 'OFF'): NewsItem => ({ ID: 1, Status, DeviceID: DEV, ChannelID: CH, ChannelName: '大门口', NewsTime: '2026-11-27 10:40:00', sign: 0 });

let notices: string[];
beforeEach(() => {
  setLang('zh-CN');
  online = 0;
  notices = captureNotices();
  stubTreeServer((url) =>
    url.pathname === '/api/v1/devices' ? { Devices: [device()], TotalCount: 1 } : url.pathname === '/api/v1/channels' ? { Channels: [channel()], ChannelCount: 1 } : {},
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearEarly();
});

describe('video tree online states', () => {
  it('a device that registers again turns its rows online, and its channel then opens', async () => {
    render(
      <MemoryRouter initialEntries={['/video/square/0']}>
        <Routes>
          <Route path="*" element={<VideoTree />} />
        </Routes>
        <Where />
      </MemoryRouter>,
    );
    const line = (await screen.findByText('NVR 一号楼')).closest('.ant-tree-treenode')!;
    expect(line).toHaveTextContent('(0/1)');
    fireEvent.click(line.querySelector('.ant-tree-switcher')!);
    fireEvent.click(await screen.findByText('大门口'));
    await waitFor(() => expect(notices).toContain('warning:通道已离线!'));

    online = 1;
    act(() => ws.listeners.get('news')?.(news('ON')));
    await waitFor(() => expect(screen.getByText('NVR 一号楼').closest('.ant-tree-treenode')).toHaveTextContent('(1/1)'));
    // Still expanded, with the channel's fresh state: a click opens the player.
    fireEvent.click(await screen.findByText('大门口'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(`/video/player/${DEV}/${CH}/0`));
  });
});
