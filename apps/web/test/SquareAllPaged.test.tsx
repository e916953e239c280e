/**
 * /video/square/0, 全部通道, at a site's size (1,500 channels): the server pages them, 20 cards a
 * request (the page read every channel, all/channels limit 99999: 1 MB, and again on each change).
 * The same for one NVR's cameras (getchannels limit 9999 read 500 channels, 350 KB, for 20 cards).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import SquarePage from '../src/features/live/pages/SquarePage';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { channelsPage, siteChannels } from './helpers/lists';

vi.mock('../src/lib/ws', () => ({ useWsTopic: () => undefined }));

const CHANNELS = siteChannels(1500);

let api: ReturnType<typeof stubApi>;
beforeEach(() => {
  captureNotices();
  api = stubApi({
    '/api/v1/favorites': () => v1({ Channels: [], ChannelCount: 0 }),
    '/api/v1/devices/1801/channels': (c) => {
      const nvr = CHANNELS.slice(0, 500).map((x, i) => ({ ...x, ParentDeviceID: '1801', ChannelID: String(i + 1), DeviceName: 'NVR-500' }));
      return channelsPage(c, nvr);
    },
    '/api/v1/all/channels': (c) => channelsPage(c, CHANNELS),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SquarePage: every channel of 1,500', { timeout: 60_000 }, () => {
  it('asks the server for the page shown', async () => {
    renderConsole(
      <Routes>
        <Route path="/video/square/:devid" element={<SquarePage />} />
      </Routes>,
      { path: '/video/square/0' },
    );
    fireEvent.click(await screen.findByText('全部通道'));
    expect(await screen.findByText('Camera 20')).toBeInTheDocument();
    expect(screen.queryByText('Camera 21')).not.toBeInTheDocument();
    expect(screen.getByText('共 1500 个通道')).toBeInTheDocument();
    fireEvent.click(screen.getByTitle('75'));
    expect(await screen.findByText('Camera 1500')).toBeInTheDocument();
    const calls = api.callsTo('/api/v1/all/channels');
    expect(calls.at(-1)!.query.get('start')).toBe('1480');
    for (const c of calls) expect(c.query.get('limit')).toBe('20');
  });

  it('asks the server for the page of an NVR shown', async () => {
    renderConsole(
      <Routes>
        <Route path="/video/square/:devid" element={<SquarePage />} />
      </Routes>,
      { path: '/video/square/1801' },
    );
    expect(await screen.findByText('Camera 20')).toBeInTheDocument();
    expect(screen.getByText('共 500 个通道')).toBeInTheDocument();
    fireEvent.click(screen.getByTitle('25'));
    expect(await screen.findByText('Camera 500')).toBeInTheDocument();
    expect(api.callsTo('/api/v1/getchannels')).toHaveLength(0);
    const calls = api.callsTo('/api/v1/devices/1801/channels');
    expect(calls.at(-1)!.query.get('start')).toBe('480');
    for (const c of calls) expect(c.query.get('limit')).toBe('20');
  });
});
