/**
 * A channel deleted (or its device) while a public /share or /players page plays it: the page said
 * 通道 x/y不存在 inside a player with a 重试 button and kept its status socket, which after any drop
 * was refused (404) and opened again every 2 s until the page closed. The page now ends as a refused
 * link does, the server's words instead of the player, and asks nothing more; a failure that can
 * pass (the server down for a moment) is still asked again.
 *
 * Opening such a page asks share/channelstream once (session 26): the page's first answer, which it
 * needs for the channel's name and the link's end, is the one its player plays; it asked again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import type { EngineEvents } from '../src/components/player/engine';
import { renderConsole, v1 } from './helpers/console';
import { FakeWebSocket } from './helpers/fake-websocket';

/** The player engines started, in order (their events drive the player as the media socket would). */
const engines = vi.hoisted(() => [] as EngineEvents[]);
vi.mock('../src/components/player/wsFmp4', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  startWsFmp4: (_video: HTMLVideoElement, _url: string, events: EngineEvents) => {
    engines.push(events);
    return { stop: () => undefined };
  },
}));
const { default: SharedPlayerPage } = await import('../src/features/live/pages/SharedPlayerPage');

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const stream = () => json(200, v1({ URL: '/ws_m4s/live/stream_5_0.mp4', URLs: { WS_FMP4: '/ws_m4s/live/stream_5_0.mp4' }, Stream: 'stream_5_0', Name: 'Gate', ExpiresAt: Math.floor(Date.now() / 1000) + 3600 }));

/** The page of a shared link to 5/1 playing, the stream call answered by `answer` from then on. */
async function playing(answer: { now: () => Response }) {
  const fetchMock = vi.fn(async () => answer.now());
  vi.stubGlobal('fetch', fetchMock);
  renderConsole(
    <Routes>
      <Route path="/share/:devid/:chnid/:flow" element={<SharedPlayerPage />} />
    </Routes>,
    { path: '/share/5/1/0?play_token=tok' },
  );
  await waitFor(() => expect(engines).toHaveLength(1));
  act(() => engines[0]!.onPlaying());
  return fetchMock;
}
const seconds = (s: number) => act(async () => void (await vi.advanceTimersByTimeAsync(s * 1000)));

beforeEach(() => {
  localStorage.clear();
  engines.length = 0;
  FakeWebSocket.instances.length = 0;
  vi.useFakeTimers({ shouldAdvanceTime: true });
  vi.stubGlobal('WebSocket', FakeWebSocket);
  vi.stubGlobal('MediaSource', class {
    static isTypeSupported = () => true;
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a public page whose channel is deleted while it plays', () => {
  it('says the channel no longer exists instead of the player, and asks nothing more', async () => {
    const answer = { now: stream };
    const fetchMock = await playing(answer);
    const statusSocket = FakeWebSocket.instances.find((w) => w.url.includes('/api/v1/ws/share/streamstat'))!;
    expect(statusSocket.closed).toBe(false);
    // Deleted: the hub's end closes the media socket, and the stream call is refused.
    answer.now = () => json(404, { EasyDarwin: { Header: { ErrorNum: '404', ErrorString: '通道 5/1不存在' }, Body: {} } });
    act(() => engines[0]!.onFailure('closed', 'stream stopped'));
    expect(await screen.findByTestId('share-error', {}, { timeout: 5000 })).toHaveTextContent('通道 5/1不存在');
    expect(screen.queryByTestId('live-player')).toBeNull();
    await waitFor(() => expect(statusSocket.closed).toBe(true));
    const asked = fetchMock.mock.calls.length;
    const sockets = FakeWebSocket.instances.length;
    await seconds(60);
    expect(fetchMock.mock.calls.length).toBe(asked);
    expect(FakeWebSocket.instances.length).toBe(sockets);
    expect(engines).toHaveLength(1);
  });

  it('a failure that can pass (the server down for a moment) is asked again, the player kept', async () => {
    const answer = { now: stream };
    await playing(answer);
    answer.now = () => json(502, { msg: 'Bad Gateway' });
    act(() => engines[0]!.onFailure('closed', 'socket closed'));
    await seconds(4);
    expect(screen.getByTestId('live-player')).toHaveAttribute('data-phase', 'reconnecting');
    expect(screen.queryByTestId('share-error')).toBeNull();
    answer.now = stream;
    await seconds(5);
    await waitFor(() => expect(engines).toHaveLength(2));
  });
});

describe('a public page opening', () => {
  it('asks for the stream once: the page’s answer is the one its player plays; a reconnect asks again', async () => {
    const fetchMock = await playing({ now: stream });
    const streamCalls = () => fetchMock.mock.calls.filter((c: unknown[]) => String(c[0]).includes('/api/v1/share/channelstream')).length;
    expect(streamCalls()).toBe(1);
    expect(screen.getByTestId('share-name')).toHaveTextContent('Gate');
    act(() => engines[0]!.onFailure('closed', 'socket closed'));
    await waitFor(() => expect(engines).toHaveLength(2), { timeout: 5000 });
    expect(streamCalls()).toBe(2);
  });
});
