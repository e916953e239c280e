/**
 * The toolbar after the stream is gone (session 26): a player whose stream failed, was refused or
 * whose camera went away went on showing the last codec and size ("Gate H.264 · 320×240 · WS-fMP4"
 * beside the error). They describe the picture: shown while it plays, cleared when the stream is
 * gone, and shown again when it plays on, from what its engine reports then. A stream refused as
 * gone (404) tells the sidebar's trees (channelsGone.ts), which then drop the channel.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { useChannelsGone } from '../src/lib/channelsGone';
import { RequestError } from '../src/lib/request';
import { clearSession } from '../src/lib/session';
import { captureNotices, renderConsole, stubApi } from './helpers/console';
import { started } from './helpers/engine-starts';

vi.mock('../src/components/player/wsFmp4', async (importOriginal) => ({ ...(await importOriginal<object>()), startWsFmp4: (await import('./helpers/engine-starts')).fakeStart }));
const { LivePlayer } = await import('../src/components/player/LivePlayer');

beforeEach(() => {
  started.length = 0;
  vi.useFakeTimers({ shouldAdvanceTime: true });
  vi.stubGlobal('MediaSource', class {
    static isTypeSupported = () => true;
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const answer = { URL: '/ws_m4s/live/stream_1_0.mp4', URLs: { WS_FMP4: '/ws_m4s/live/stream_1_0.mp4' }, Stream: 'stream_1_0', State: 'live' } as never;
const toolbar = () => screen.getByTestId('player-stats');

/** The last engine started plays a 320×240 H.264 picture at 3000 bytes a second. */
async function plays(n: number, codec = 'avc1.42C016', width = 320) {
  await waitFor(() => expect(started).toHaveLength(n));
  const ev = started[n - 1]!.events;
  act(() => {
    ev.onInfo({ codec, width, height: 240 });
    ev.onPlaying();
    ev.onBytes(3000);
  });
  await act(() => vi.advanceTimersByTimeAsync(1000));
  return ev;
}

function render(open: () => Promise<never>) {
  clearSession();
  captureNotices();
  stubApi({});
  renderConsole(<LivePlayer device="1" channel="1" flow={0} name="Gate" open={open} />);
}

describe('the toolbar of a stream that is gone', () => {
  it('a failed stream: no codec, size or bit rate beside the reconnect or the error; back with the stream', async () => {
    let refuse = false;
    render(vi.fn(async () => {
      if (refuse) throw new RequestError(404, '通道 1/1不存在');
      return answer;
    }));
    const ev = await plays(1);
    // The name set apart like the figures (its two spaces collapsed: "Gate H.264" read as one name).
    expect(toolbar()).toHaveTextContent(/^Gate · H\.264 · 320×240 · 24 kbps · WS-FMP4$/);
    act(() => ev.onFailure('closed', 'socket closed'));
    expect(screen.getByTestId('live-player')).toHaveAttribute('data-phase', 'reconnecting');
    expect(toolbar().textContent).not.toMatch(/H\.264|320×240|kbps/);
    // It plays again, now 640 wide: its own figures, not the last stream's.
    await plays(2, 'avc1.42C016', 640);
    expect(toolbar()).toHaveTextContent(/H\.264 · 640×240 · 24 kbps/);
    // Refused (the channel deleted): the error, without the figures; the sidebar's trees are told.
    const gone = useChannelsGone.getState().version;
    refuse = true;
    act(() => started[1]!.events.onFailure('closed', 'stream stopped'));
    await waitFor(() => expect(screen.getByTestId('live-player')).toHaveAttribute('data-phase', 'error'), { timeout: 5000 });
    expect(screen.getByTestId('player-status')).toHaveTextContent('通道 1/1不存在');
    expect(toolbar().textContent).not.toMatch(/H\.264|640×240|kbps/);
    await waitFor(() => expect(useChannelsGone.getState().version).toBe(gone + 1));
  });

  it('the camera away on a socket that stays open: hidden while it retries, shown again when it is live', async () => {
    render(vi.fn(async () => answer));
    const ev = await plays(1);
    act(() => ev.onState('retrying', 'camera gone'));
    expect(toolbar().textContent).not.toMatch(/H\.264|320×240|kbps/);
    act(() => {
      ev.onState('live', '');
      ev.onPlaying();
    });
    expect(toolbar()).toHaveTextContent(/H\.264 · 320×240/);
  });
});
