/**
 * The video tree while a stream check brings a site's cameras back: the news messages trickle in
 * (one every few hundred ms for a minute), and the tree reads its rows again at most every few
 * seconds instead of after every pause (61 reads of its devices in 75 s at 1,500 cameras).
 */
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { NewsItem } from '@opencvr/shared';
import { VideoTree } from '../src/features/video/components/VideoTree';
import { setLang } from '../src/i18n';
import { clearEarly } from '../src/lib/early';
import { NEWS_REFRESH_GAP_MS } from '../src/lib/newsSettle';
import { captureNotices } from './helpers/console';
import { stubTreeServer } from './helpers/tree-server';

const ws = vi.hoisted(() => ({ listeners: new Map<string, (payload: unknown) => void>() }));
vi.mock('../src/lib/ws', () => ({
  useWsTopic: (topic: string, fn: (payload: unknown) => void) => {
    ws.listeners.set(topic, fn);
  },
}));

const DEVICES = Array.from({ length: 50 }, (_, i) => ({ DeviceID: String(i + 1), DeviceName: `cam-${i + 1}`, DeviceType: 'RTSP', Online: 1, ChannelNum: 1, onlineChannelNums: 1 }));
const news = (n: number): NewsItem => ({ ID: n, Status: 'ON', DeviceID: String(n), ChannelID: '1', ChannelName: `cam-${n}`, NewsTime: '2026-11-27 10:40:00', sign: 0 });

let deviceReads = 0;
beforeEach(() => {
  setLang('zh-CN');
  captureNotices();
  deviceReads = 0;
  stubTreeServer((url) => {
    if (url.pathname !== '/api/v1/devices') return {};
    deviceReads += 1;
    return { Devices: DEVICES, TotalCount: 1500 };
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  clearEarly();
});

describe('video tree: news that trickle in', { timeout: 60_000 }, () => {
  it('reads the devices again at most once per gap', async () => {
    render(
      <MemoryRouter initialEntries={['/video/square/0']}>
        <Routes>
          <Route path="*" element={<VideoTree />} />
        </Routes>
      </MemoryRouter>,
    );
    await screen.findByText('cam-1');
    await waitFor(() => expect(deviceReads).toBe(1));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    // Two gaps' worth of messages, one every 600 ms (longer than the settle time).
    const count = Math.ceil((2 * NEWS_REFRESH_GAP_MS) / 600);
    for (let i = 1; i <= count; i++) {
      act(() => ws.listeners.get('news')?.(news(i)));
      await act(async () => {
        await vi.advanceTimersByTimeAsync(600);
      });
    }
    await act(async () => {
      await vi.advanceTimersByTimeAsync(NEWS_REFRESH_GAP_MS);
    });
    vi.useRealTimers();
    // The first read after the settle time, then one a gap: never one per pause.
    await waitFor(() => expect(deviceReads).toBeGreaterThan(1));
    expect(deviceReads - 1).toBeLessThanOrEqual(4);
  });
});
