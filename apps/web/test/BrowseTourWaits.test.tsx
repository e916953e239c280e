/**
 * The wall's tour counts a page's interval from its pictures: an H.265 channel played through the
 * server's H.264 transcoding took longer than a 5 s interval to its first picture, and the tour
 * moved on with the cell still loading (seen in Chromium with the H.265 test camera: never a
 * picture once the pages outlived the transcoding). A channel that shows nothing holds its page
 * TOUR_MAX_WAIT_MS at most.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { STORAGE_KEYS } from '@opencvr/shared';
import type { EngineEvents } from '../src/components/player/engine';
import { clearSession } from '../src/lib/session';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';

/** The engines started, by the device of their URL (the stub below puts it in the stream name). */
const engines = vi.hoisted(() => new Map<string, EngineEvents>());
vi.mock('../src/components/player/wsFmp4', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  startWsFmp4: (_video: HTMLVideoElement, url: string, events: EngineEvents) => {
    engines.set(/stream_(\w+)_/.exec(url)![1]!, events);
    return { stop: () => undefined };
  },
}));
const { default: BrowsePage } = await import('../src/features/live/pages/BrowsePage');
const { TOUR_MAX_WAIT_MS } = await import('../src/features/live/useTour');

beforeEach(() => {
  engines.clear();
  vi.useFakeTimers({ shouldAdvanceTime: true });
  vi.stubGlobal('MediaSource', class {
    static isTypeSupported = () => true;
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A one-screen wall touring `devices` (channel 1 of each) every 5 s, started. */
async function touring(devices: string[]) {
  clearSession();
  captureNotices();
  stubApi({
    '/api/v1/devices/channelstream': ({ query }) => {
      const url = `/ws_m4s/live/stream_${query.get('device')}_0.mp4`;
      return v1({ URL: url, URLs: { WS_FMP4: url }, Stream: `stream_${query.get('device')}_0`, State: 'live' });
    },
  });
  localStorage.setItem(STORAGE_KEYS.multiScreenLayout, JSON.stringify({ layout: 1, cells: [] }));
  const channels = devices.map((device) => ({ device, channel: '1', name: device }));
  localStorage.setItem(STORAGE_KEYS.loopChannels, JSON.stringify({ channels, interval: 5 }));
  const view = renderConsole(<BrowsePage />);
  act(() => screen.getByTestId('wall-loop').click());
  return view;
}
/** The page reloaded: the wall mounted again from what it stored (the session, stubs and the tour list kept). */
function reload(view: ReturnType<typeof renderConsole>) {
  view.unmount();
  engines.clear();
  renderConsole(<BrowsePage />);
}
const seconds = (s: number) => act(async () => void vi.advanceTimersByTime(s * 1000));
const pageShown = () => /第 (\d)\/\d 页/.exec(document.body.textContent ?? '')?.[1];
const plays = async (device: string) => {
  await waitFor(() => expect(engines.has(device)).toBe(true));
  act(() => engines.get(device)!.onPlaying());
};

describe('the wall tour', () => {
  it('counts a page’s interval from its first picture, however long that takes', async () => {
    await touring(['h264', 'h265']);
    await plays('h264');
    await seconds(5.5);
    expect(pageShown()).toBe('2');
    expect(screen.getByText(/等画面出来后开始计时/)).toBeInTheDocument();
    // The transcoding takes its time: the page waits, its interval not yet counting.
    await waitFor(() => expect(engines.has('h265')).toBe(true));
    await seconds(8);
    expect(pageShown()).toBe('2');
    await plays('h265');
    expect(screen.getByText(/每 5 秒切换/)).toBeInTheDocument();
    await seconds(4);
    expect(pageShown()).toBe('2');
    await seconds(1.5);
    expect(pageShown()).toBe('1');
  });

  it('a tour started again waits for its pictures again (not for those of the last run)', async () => {
    await touring(['h264', 'h265']);
    await plays('h264');
    act(() => screen.getByTestId('wall-loop').click());
    engines.clear();
    act(() => screen.getByTestId('wall-loop').click());
    await waitFor(() => expect(engines.has('h264')).toBe(true));
    await seconds(6);
    expect(pageShown()).toBe('1');
    expect(screen.getByText(/等画面出来后开始计时/)).toBeInTheDocument();
  });

  it('a channel without a picture holds its page only so long', async () => {
    await touring(['h264', 'offline']);
    await plays('h264');
    await seconds(5.5);
    expect(pageShown()).toBe('2');
    await seconds(TOUR_MAX_WAIT_MS / 1000 - 1);
    expect(pageShown()).toBe('2');
    // Waited long enough: the interval counts now.
    await seconds(1.5);
    expect(screen.getByText(/每 5 秒切换/)).toBeInTheDocument();
    await seconds(5);
    expect(pageShown()).toBe('1');
  });

  it('a reload puts a running tour back on the page it showed, counting its interval from its pictures', async () => {
    const before = await touring(['a', 'b', 'c']);
    await plays('a');
    await seconds(5.5);
    expect(pageShown()).toBe('2');
    reload(before);
    expect(pageShown()).toBe('2');
    expect(screen.getByTestId('wall-loop')).toHaveTextContent(/停止轮巡/);
    await waitFor(() => expect(engines.has('b')).toBe(true));
    expect(engines.has('a')).toBe(false);
    await plays('b');
    await seconds(5.5);
    expect(pageShown()).toBe('3');
  });

  it('a tour stopped before a reload stays stopped, the wall showing its own cells', async () => {
    const before = await touring(['a', 'b']);
    await plays('a');
    await seconds(5.5);
    act(() => screen.getByTestId('wall-loop').click());
    reload(before);
    expect(pageShown()).toBeUndefined();
    expect(screen.getByTestId('wall-loop')).toHaveTextContent(/开始轮巡/);
    await seconds(6);
    expect(engines.size).toBe(0);
  });
});
