/**
 * /video/square/0 when a camera server is lost: the events socket brings one news message per
 * channel (1,500 here) and the page reads its list once for the burst, not once per message (each
 * read cancelled the last and asked again: 418 reads of the whole list in a minute, 380 MB).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import SquarePage from '../src/features/live/pages/SquarePage';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { siteChannels } from './helpers/lists';

const ws = vi.hoisted(() => ({ listeners: new Map<string, (payload: unknown) => void>() }));
vi.mock('../src/lib/ws', () => ({
  useWsTopic: (topic: string, fn: (payload: unknown) => void) => {
    ws.listeners.set(topic, fn);
  },
}));

const CHANNELS = siteChannels(1500);

let api: ReturnType<typeof stubApi>;
beforeEach(() => {
  captureNotices();
  api = stubApi({ '/api/v1/favorites': () => v1({ Channels: CHANNELS, ChannelCount: CHANNELS.length }) });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SquarePage: a burst of 1,500 offline messages', { timeout: 60_000 }, () => {
  it('reads the list once for the burst', async () => {
    renderConsole(
      <Routes>
        <Route path="/video/square/:devid" element={<SquarePage />} />
      </Routes>,
      { path: '/video/square/0' },
    );
    expect(await screen.findByText('Camera 1')).toBeInTheDocument();
    const reads = () => api.callsTo('/api/v1/favorites').length;
    expect(reads()).toBe(1);
    act(() => {
      for (const c of CHANNELS)
        ws.listeners.get('news')?.({ ID: 1, Status: 'OFF', DeviceID: c.ParentDeviceID, ChannelID: '1', ChannelName: c.Name, NewsTime: '2026-11-27 08:00:00', sign: 0 });
    });
    await waitFor(() => expect(reads()).toBe(2));
    await new Promise((r) => setTimeout(r, 1000));
    expect(reads()).toBe(2);
  });
});
