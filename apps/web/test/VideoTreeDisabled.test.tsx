/**
 * A disabled device in the video tree: its line says 未开启 / not enabled beside its counts (the
 * server counts none of its channels online), and a click on one of its channels says it is not
 * enabled rather than opening the player. A channel switched off itself says 未开启 on its own line.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { VideoTree } from '../src/features/video/components/VideoTree';
import { setLang } from '../src/i18n';
import { clearEarly } from '../src/lib/early';
import { captureNotices } from './helpers/console';
import { stubTreeServer } from './helpers/tree-server';

vi.mock('../src/lib/ws', () => ({ useWsTopic: () => undefined }));

const device = (id: string, name: string, enable: number) => ({
  DeviceID: id,
  DeviceName: name,
  DeviceType: 'RTSP',
  Enable: enable,
  Online: enable,
  ChannelNum: 1,
  onlineChannelNums: enable,
});
const channel = { ChannelID: '1', ParentDeviceID: '1', DeviceName: 'Gate', Name: 'Gate cam', Parental: 0, GBID: '1', Online: 0, Enable: 1, DeviceEnable: 0, FavoritesChannel: 0 };
// Hall's cameras: one switched off (offline, as the server says: services/inventory/channel-enable.ts), one on line.
const hallChannels = [
  { ...channel, ParentDeviceID: '2', DeviceName: 'Hall', Name: 'Hall door', DeviceEnable: 1, Enable: 0, Online: 0 },
  { ...channel, ChannelID: '2', GBID: '2', ParentDeviceID: '2', DeviceName: 'Hall', Name: 'Hall desk', DeviceEnable: 1, Enable: 1, Online: 1 },
];

let notices: string[];
beforeEach(() => {
  notices = captureNotices();
  stubTreeServer((url) =>
    url.pathname === '/api/v1/devices'
      ? { Devices: [device('1', 'Gate', 0), device('2', 'Hall', 1)], TotalCount: 2 }
      : url.pathname === '/api/v1/channels'
        ? url.searchParams.get('device') === '2'
          ? { Channels: hallChannels, ChannelCount: 2 }
          : { Channels: [channel], ChannelCount: 1 }
        : {},
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearEarly();
  setLang('zh-CN');
});

const tree = () =>
  render(
    <MemoryRouter initialEntries={['/video/square/0']}>
      <Routes>
        <Route path="*" element={<VideoTree />} />
      </Routes>
    </MemoryRouter>,
  );
const line = async (name: string) => (await screen.findByText(name)).closest('.ant-tree-treenode')!;

describe('a disabled device in the video tree', () => {
  it('says 未开启 on its line, and its channel does not open', async () => {
    setLang('zh-CN');
    tree();
    expect(await line('Gate')).toHaveTextContent('(0/1)未开启');
    expect(await line('Hall')).toHaveTextContent('(1/1)');
    expect(await line('Hall')).not.toHaveTextContent('未开启');
    fireEvent.click((await line('Gate')).querySelector('.ant-tree-switcher')!);
    fireEvent.click(await screen.findByText('Gate cam'));
    await waitFor(() => expect(notices).toContain('warning:通道未开启!'));
  });

  it('a channel switched off says 未开启 on its own line, offline, and does not open', async () => {
    setLang('zh-CN');
    tree();
    fireEvent.click((await line('Hall')).querySelector('.ant-tree-switcher')!);
    const off = await line('Hall door');
    expect(off).toHaveTextContent('Hall door未开启');
    expect(off.querySelector('[data-online]')).toHaveAttribute('data-online', '0');
    expect(await line('Hall desk')).not.toHaveTextContent('未开启');
    fireEvent.click(await screen.findByText('Hall door'));
    await waitFor(() => expect(notices).toContain('warning:通道未开启!'));
  });

  it('says not enabled in English', async () => {
    setLang('en-US');
    tree();
    expect(await line('Gate')).toHaveTextContent('(0/1)not enabled');
  });
});
