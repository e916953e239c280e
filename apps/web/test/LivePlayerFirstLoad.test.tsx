/**
 * A first view whose stream the server is still opening (a camera not yet connected, an H.265
 * camera's H.264 transcoding starting: ~5 s) said 正在重新连接… from its first second, as if the
 * picture had been lost, because the socket's "connecting" state was taken for a reconnect. It now
 * says 正在加载视频… until the first picture; "connecting" after a picture, and "retrying" at any
 * time, still say it reconnects.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import type { EngineEvents } from '../src/components/player/engine';
import { LivePlayer } from '../src/components/player/LivePlayer';
import { clearSession } from '../src/lib/session';
import { captureNotices, renderConsole } from './helpers/console';

const engine = vi.hoisted(() => ({ events: null as EngineEvents | null }));
vi.mock('../src/components/player/wsFmp4', () => ({
  startWsFmp4: (_video: HTMLVideoElement, _url: string, events: EngineEvents) => {
    engine.events = events;
    return { stop: () => undefined };
  },
}));

beforeEach(() => {
  engine.events = null;
  // jsdom has no MediaSource: the WS-fMP4 transport needs one to be chosen.
  vi.stubGlobal('MediaSource', class {
    static isTypeSupported = () => true;
  });
});
afterEach(() => vi.unstubAllGlobals());

const open = async () => ({ URL: '/ws_m4s/live/stream_1_0.mp4', URLs: { WS_FMP4: '/ws_m4s/live/stream_1_0.mp4' }, Stream: 'stream_1_0', State: 'idle' }) as never;

async function started() {
  clearSession();
  captureNotices();
  renderConsole(<LivePlayer device="1" channel="1" flow={0} name="Gate" open={open} />);
  await waitFor(() => expect(engine.events).not.toBeNull());
  return engine.events!;
}

const status = () => screen.getByTestId('player-status');
const phase = () => screen.getByTestId('live-player').dataset.phase;

describe('the live player before its first picture', () => {
  it('says it loads while the server connects to the camera, not that it reconnects', async () => {
    const ev = await started();
    act(() => ev.onState('idle', ''));
    act(() => ev.onState('connecting', ''));
    expect(phase()).toBe('loading');
    expect(status()).toHaveTextContent('正在加载视频…');
    expect(status()).not.toHaveTextContent('正在重新连接');
  });

  it('says it reconnects when the server retries the camera, even before a picture', async () => {
    const ev = await started();
    act(() => ev.onState('retrying', 'connection refused'));
    expect(phase()).toBe('reconnecting');
    expect(status()).toHaveTextContent('正在重新连接…');
  });

  it('says it reconnects when the stream connects again after a picture', async () => {
    const ev = await started();
    act(() => ev.onPlaying());
    expect(phase()).toBe('playing');
    act(() => ev.onState('connecting', ''));
    expect(phase()).toBe('reconnecting');
    expect(status()).toHaveTextContent('正在重新连接…');
  });
});
