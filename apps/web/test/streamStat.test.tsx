/**
 * The streaming-status websocket (spec 4, 7): one socket to /api/v1/ws/streamstat with a generated
 * request_id and the token, players keyed by playerid, and a reconnect 2000 ms (WS_RECONNECT_MS)
 * after a close, re-sending every watched player. The live player shows the server's figures.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { WS_RECONNECT_MS } from '@opencvr/shared';
import { stopStreamStats, streamStatUrl, useStreamStat, useStreamStatStore, watchStream } from '../src/lib/streamStat';
import { LivePlayer } from '../src/components/player/LivePlayer';
import { clearSession } from '../src/lib/session';
import { useSession } from '../src/lib/stores/session';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { FakeWebSocket } from './helpers/fake-websocket';

const sockets = FakeWebSocket.instances;
const last = () => sockets[sockets.length - 1]!;

const user = { id: 1, name: 'admin', nick_name: '', role: 'admin', role_name: 'admin', role_id: 1, Status: 1, MustChangePassword: false };
const stat = (playerid: string, over: object = {}) => ({
  type: 'streamstat',
  request_id: 'x',
  playerid,
  stream: 'stream_1_0',
  state: 'live',
  reason: '',
  subscribers: 2,
  viewers: { ws_fmp4: 2, hls: 1 },
  totalViewers: 3,
  bitrateKbps: 812.4,
  fps: 15,
  width: 320,
  height: 240,
  videoCodec: 'avc1.42c01e',
  audioCodec: '',
  tracks: [],
  uptime: 12,
  restarts: 0,
  lastUnitAgo: 10,
  ...over,
});

beforeEach(() => {
  sockets.length = 0;
  vi.stubGlobal('WebSocket', FakeWebSocket);
  clearSession();
  useSession.getState().login('tok en', user);
});
afterEach(() => {
  stopStreamStats();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  clearSession();
});

describe('streamstat socket', () => {
  it('builds the URL with the request id and the token', () => {
    expect(streamStatUrl('a b', 'r-1', { protocol: 'https:', host: 'cvr:8443' }, 'zh-CN')).toBe('wss://cvr:8443/api/v1/ws/streamstat?request_id=r-1&token=a%20b&lang=zh-CN');
    expect(streamStatUrl('t', 'r', { protocol: 'http:', host: 'h' }, 'en-US')).toBe('ws://h/api/v1/ws/streamstat?request_id=r&token=t&lang=en-US');
  });

  it('opens one socket for all players, registers them by playerid and keeps the last status per player', () => {
    const stopA = watchStream('pA', { device: 'dev1', channel: '1', flow: 0 });
    watchStream('pB', { device: 'dev1', channel: '2', flow: 1 });
    expect(sockets).toHaveLength(1);
    const ws = last();
    expect(ws.url).toMatch(/^ws:\/\/[^/]+\/api\/v1\/ws\/streamstat\?request_id=[^&]+&token=tok%20en&lang=zh-CN$/);
    expect(ws.requestId).toBeTruthy();
    ws.serverOpen();
    expect(ws.sent).toEqual([
      [
        { playerid: 'pA', device: 'dev1', channel: '1', flow: 0 },
        { playerid: 'pB', device: 'dev1', channel: '2', flow: 1 },
      ],
    ]);
    expect(useStreamStatStore.getState().connected).toBe(true);

    ws.serverSend(stat('pA'));
    ws.serverSend(stat('pB', { state: 'connecting', totalViewers: 0 }));
    ws.serverSend(stat('someone-else'));
    ws.serverSend({ type: 'error', request_id: 'x', playerid: 'pB', msg: '通道不存在' });
    const by = useStreamStatStore.getState().byPlayer;
    expect(by.pA?.stat).toMatchObject({ state: 'live', totalViewers: 3, bitrateKbps: 812.4, width: 320, height: 240 });
    expect(by.pB).toEqual({ error: '通道不存在' });
    expect(by['someone-else']).toBeUndefined();

    // A player added later is sent at once; one that leaves is removed on the server.
    watchStream('pC', { device: 'dev2', channel: '1', flow: 0 });
    expect(ws.sent.at(-1)).toEqual({ playerid: 'pC', device: 'dev2', channel: '1', flow: 0 });
    stopA();
    expect(ws.sent.at(-1)).toEqual({ type: 'remove', playerid: 'pA' });
    expect(useStreamStatStore.getState().byPlayer.pA).toBeUndefined();
    expect(sockets).toHaveLength(1);
  });

  it(`reconnects ${WS_RECONNECT_MS} ms after a close with a new request id, and re-sends the players`, () => {
    vi.useFakeTimers();
    watchStream('pA', { device: 'dev1', channel: '1', flow: 0 });
    const first = last();
    first.serverOpen();
    first.serverClose();
    expect(useStreamStatStore.getState().connected).toBe(false);
    vi.advanceTimersByTime(WS_RECONNECT_MS - 1);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    const second = last();
    expect(second.requestId).not.toBe(first.requestId);
    second.serverOpen();
    expect(second.sent).toEqual([[{ playerid: 'pA', device: 'dev1', channel: '1', flow: 0 }]]);

    // A socket that never opened (server down) retries on the same rhythm.
    second.serverClose();
    vi.advanceTimersByTime(WS_RECONNECT_MS);
    expect(sockets).toHaveLength(3);
    last().serverClose();
    vi.advanceTimersByTime(WS_RECONNECT_MS);
    expect(sockets).toHaveLength(4);
  });

  it('closes with the last player and does not reconnect then', () => {
    vi.useFakeTimers();
    const stop = watchStream('pA', { device: 'dev1', channel: '1', flow: 0 });
    const ws = last();
    ws.serverOpen();
    stop();
    expect(ws.closed).toBe(true);
    ws.serverClose();
    vi.advanceTimersByTime(WS_RECONNECT_MS * 3);
    expect(sockets).toHaveLength(1);
  });

  it('a player leaving during the reconnect wait cancels it', () => {
    vi.useFakeTimers();
    const stop = watchStream('pA', { device: 'dev1', channel: '1', flow: 0 });
    last().serverClose();
    stop();
    vi.advanceTimersByTime(WS_RECONNECT_MS * 2);
    expect(sockets).toHaveLength(1);
  });

  it('opens nothing without a token', () => {
    clearSession();
    watchStream('pA', { device: 'dev1', channel: '1', flow: 0 });
    expect(sockets).toHaveLength(0);
  });
});

describe('useStreamStat and the live player', { timeout: 30_000 }, () => {
  function Probe({ target }: { target: { device: string; channel: string; flow: number } | null }) {
    const s = useStreamStat(target);
    return <div data-testid="probe">{s?.stat ? `${s.stat.state}/${s.stat.totalViewers}` : s?.error ?? 'none'}</div>;
  }

  it('watches while mounted, under its own playerid; a null target watches nothing', () => {
    captureNotices();
    const view = renderConsole(<Probe target={{ device: 'dev1', channel: '1', flow: 0 }} />);
    const ws = last();
    act(() => ws.serverOpen());
    const [[add]] = ws.sent as [[{ playerid: string }]];
    expect(add).toMatchObject({ device: 'dev1', channel: '1', flow: 0 });
    act(() => ws.serverSend(stat(add.playerid)));
    expect(screen.getByTestId('probe')).toHaveTextContent('live/3');
    view.unmount();
    expect(ws.closed).toBe(true);

    renderConsole(<Probe target={null} />);
    expect(sockets).toHaveLength(1);
  });

  // What the player shows of these figures, and when: LivePlayerFigures.test.tsx.
  it('LivePlayer watches its stream, and shows no server figures before it plays', async () => {
    captureNotices();
    stubApi({ '/api/v1/devices/channelstream': () => v1({ URL: '', URLs: {}, Stream: 'stream_1_0', State: 'connecting', Reason: '', ExpiresAt: 0 }) });
    renderConsole(<LivePlayer device="dev1" channel="1" flow={0} name="Gate" />);
    await waitFor(() => expect(sockets).toHaveLength(1));
    const ws = last();
    act(() => ws.serverOpen());
    const [[add]] = ws.sent as [[{ playerid: string; device: string; channel: string; flow: number }]];
    expect(add).toMatchObject({ device: 'dev1', channel: '1', flow: 0 });
    act(() => ws.serverSend(stat(add.playerid)));
    expect(useStreamStatStore.getState().byPlayer[add.playerid]?.stat?.state).toBe('live');
    // This player has no picture (no URLs to play): the server's figures are not about what it shows.
    expect(screen.queryByTestId('player-server-stats')).toBeNull();
  });

  it('LivePlayer on a public page (own opener) opens no status socket', async () => {
    captureNotices();
    clearSession();
    const open = vi.fn(async () => ({ URL: '', URLs: {}, Stream: 'stream_1_0', State: 'connecting', Reason: '', ExpiresAt: 0 }) as never);
    renderConsole(<LivePlayer device="dev1" channel="1" flow={0} open={open} ptz={false} />);
    await waitFor(() => expect(open).toHaveBeenCalled());
    expect(sockets).toHaveLength(0);
    expect(screen.queryByTestId('player-server-stats')).toBeNull();
  });
});
