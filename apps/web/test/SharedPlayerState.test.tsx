/**
 * The public /share and /players pages have no login, so their HLS and WebRTC players (whose media
 * carry no camera state) showed only 画面已停止 through an outage, where a logged-in viewer sees
 * 正在重新连接 and the camera's reason. The page now opens /api/v1/ws/share/streamstat with its link's
 * play token (no login token) and its player shows that socket's retrying as the console's does,
 * until it says live again. A close for the token (1008, the link expired) is not retried.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { WS_CHANNEL_GONE_CLOSE, WS_RECONNECT_MS } from '@opencvr/shared';
import type { PlayerStats } from '../src/components/player/useLiveStream';
import { renderConsole, stubApi, v1 } from './helpers/console';
import { liveStats } from './helpers/live-stream-double';
import { FakeWebSocket } from './helpers/fake-websocket';

vi.mock('../src/components/player/useLiveStream', async (importOriginal) => (await import('./helpers/live-stream-double')).useLiveStreamDouble(importOriginal));
const live = liveStats;
const { default: SharedPlayerPage } = await import('../src/features/live/pages/SharedPlayerPage');

const sockets = FakeWebSocket.instances;
const shareSockets = () => sockets.filter((s) => new URL(s.url).pathname === '/api/v1/ws/share/streamstat');

const playing = (transport: PlayerStats['transport']): PlayerStats => ({ phase: 'playing', reason: '', bytesPerSecond: 3000, transport });
const player = () => screen.getByTestId('live-player');
const status = () => screen.queryByTestId('player-status');

function renderPage(path = '/share/34020000001320000001/1/0?play_token=tok.sig') {
  const api = stubApi({
    '/api/v1/share/channelstream': () =>
      v1({ URL: '/hls/stream_5_0/playlist.m3u8', URLs: {}, Stream: 'stream_5_0', Name: 'Gate', ExpiresAt: Math.floor(Date.now() / 1000) + 3600 }),
  });
  const view = renderConsole(
    <Routes>
      <Route path="/share/:devid/:chnid/:flow" element={<SharedPlayerPage />} />
      <Route path="/players/:devid/:chnid/:flow" element={<SharedPlayerPage />} />
    </Routes>,
    { path },
  );
  return { api, view };
}

beforeEach(() => {
  sockets.length = 0;
  localStorage.clear();
  vi.stubGlobal('WebSocket', FakeWebSocket);
});
afterEach(() => {
  act(() => live.set({ phase: 'loading', reason: '', bytesPerSecond: 0 }));
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("a public page's HLS or WebRTC player through an outage", () => {
  for (const transport of ['hls', 'webrtc'] as const) {
    it(`${transport}: the link's socket says retrying: 正在重新连接 and the reason, cleared when it says live`, async () => {
      act(() => live.set(playing(transport)));
      renderPage();
      await screen.findByTestId('live-player');
      await waitFor(() => expect(shareSockets()).toHaveLength(1));
      const ws = shareSockets()[0]!;
      const url = new URL(ws.url);
      // the link's stream and play token, and no login token
      expect(Object.fromEntries(url.searchParams)).toEqual({ device: '34020000001320000001', channel: '1', stream: '0', play_token: 'tok.sig', lang: 'zh-CN' });
      // the login-only streamstat socket is not opened
      expect(sockets.filter((s) => new URL(s.url).pathname === '/api/v1/ws/streamstat')).toEqual([]);

      act(() => ws.serverSend({ type: 'streamstat', state: 'live', reason: '' }));
      expect(player()).toHaveAttribute('data-phase', 'playing');
      act(() => ws.serverSend({ type: 'streamstat', state: 'retrying', reason: '摄像机断开了连接' }));
      expect(player()).toHaveAttribute('data-phase', 'reconnecting');
      expect(status()).toHaveTextContent('正在重新连接');
      expect(status()).toHaveTextContent('摄像机断开了连接');
      // the same words again, as each second's message brings them: still away
      act(() => ws.serverSend({ type: 'streamstat', state: 'retrying', reason: '摄像机断开了连接' }));
      expect(player()).toHaveAttribute('data-phase', 'reconnecting');
      act(() => ws.serverSend({ type: 'streamstat', state: 'live', reason: '' }));
      expect(player()).toHaveAttribute('data-phase', 'playing');
      expect(status()).toBeNull();
    });
  }

  it('the sub stream of a /players page asks for flow 1', async () => {
    act(() => live.set(playing('hls')));
    renderPage('/players/d1/7/1?play_token=t2');
    await waitFor(() => expect(shareSockets()).toHaveLength(1));
    expect(Object.fromEntries(new URL(shareSockets()[0]!.url).searchParams)).toMatchObject({ device: 'd1', channel: '7', stream: '1', play_token: 't2' });
  });

  it('a retrying sent before the picture started is not taken for the state now', async () => {
    renderPage();
    await waitFor(() => expect(shareSockets()).toHaveLength(1));
    act(() => shareSockets()[0]!.serverSend({ type: 'streamstat', state: 'retrying', reason: '摄像机断开了连接' }));
    act(() => live.set(playing('webrtc')));
    expect(player()).toHaveAttribute('data-phase', 'playing');
  });

  it('a socket closed because the link\'s channel is gone (4404) is not opened again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    act(() => live.set(playing('hls')));
    renderPage();
    await waitFor(() => expect(shareSockets()).toHaveLength(1));
    act(() => shareSockets()[0]!.serverClose(WS_CHANNEL_GONE_CLOSE));
    await act(async () => void (await vi.advanceTimersByTimeAsync(WS_RECONNECT_MS * 5)));
    expect(shareSockets()).toHaveLength(1);
  });

  it('reconnects after a dropped socket, not after a close for its token (the link expired)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    act(() => live.set(playing('hls')));
    renderPage();
    await waitFor(() => expect(shareSockets()).toHaveLength(1));
    const first = shareSockets()[0]!;
    act(() => first.serverSend({ type: 'streamstat', state: 'retrying', reason: 'x' }));
    expect(player()).toHaveAttribute('data-phase', 'reconnecting');
    act(() => first.serverClose(1006));
    // what a gone socket said no longer stands
    expect(player()).toHaveAttribute('data-phase', 'playing');
    await act(async () => void (await vi.advanceTimersByTimeAsync(WS_RECONNECT_MS + 10)));
    expect(shareSockets()).toHaveLength(2);
    act(() => shareSockets()[1]!.serverClose(1008));
    await act(async () => void (await vi.advanceTimersByTimeAsync(WS_RECONNECT_MS * 3)));
    expect(shareSockets()).toHaveLength(2);
  });

  it('a page left closes its socket', async () => {
    act(() => live.set(playing('hls')));
    const { view } = renderPage();
    await waitFor(() => expect(shareSockets()).toHaveLength(1));
    expect(shareSockets()[0]!.closed).toBe(false);
    view.unmount();
    expect(shareSockets()[0]!.closed).toBe(true);
  });
});
