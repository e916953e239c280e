/**
 * The live player's toolbar figures. It showed two bit rates ("23.9 KB/s" measured by the browser
 * beside "143 kbps" from the server: other units, other values): now one, the measured one in
 * kbps/Mbps. The server's "0 viewers · 0 kbps" stood for about a second while the video already
 * played, and "retrying" for about a second after the picture was back: the server's figures now
 * show only while the player plays, from the first message after it started playing.
 *
 * HLS and WebRTC carry no camera state in their media (WS-fMP4 and WS-FLV do): an HLS or WebRTC
 * viewer of a camera that went away saw its picture freeze, and after three seconds only "画面已停止".
 * The player now shows the streamstat socket's word that the camera is away as the other transports
 * show theirs — 正在重新连接 and the server's reason, data-phase reconnecting — until it says live.
 */
import { useSyncExternalStore } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { renderConsole, stubApi } from './helpers/console';
import { setLang } from '../src/i18n';
import { formatBitrate } from '../src/lib/format';
import type { PlayerStats } from '../src/components/player/useLiveStream';
import type { StreamStat } from '../src/lib/streamStat';

/** What the mocked player and status socket say now; set() re-renders whoever reads them. */
const live = vi.hoisted(() => {
  const listeners = new Set<() => void>();
  const state = {
    stats: { phase: 'loading', reason: '', bytesPerSecond: 0 } as PlayerStats,
    stat: undefined as StreamStat | undefined,
    subscribe: (l: () => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    set(patch: { stats?: PlayerStats; stat?: StreamStat }) {
      Object.assign(state, patch);
      for (const l of listeners) l();
    },
  };
  return state;
});
vi.mock('../src/components/player/useLiveStream', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../src/components/player/useLiveStream')>()),
  useLiveStream: () => ({ stats: useSyncExternalStore(live.subscribe, () => live.stats), retry: () => {} }),
}));
vi.mock('../src/lib/streamStat', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../src/lib/streamStat')>()),
  useStreamStat: () => {
    const stat = useSyncExternalStore(live.subscribe, () => live.stat);
    return stat ? { stat } : undefined;
  },
}));
const { LivePlayer } = await import('../src/components/player/LivePlayer');

/** A streamstat message: a new object each time, as each message off the socket is. */
const message = (over: Partial<StreamStat> = {}): StreamStat => ({
  stream: 'stream_1_0',
  state: 'live',
  reason: '',
  totalViewers: 3,
  viewers: { WS_FMP4: 3 },
  bitrateKbps: 143,
  fps: 15,
  width: 320,
  height: 240,
  videoCodec: 'h264',
  audioCodec: '',
  uptime: 10,
  restarts: 0,
  ...over,
});
const playing = (bytesPerSecond = 3000): PlayerStats => ({ phase: 'playing', reason: '', bytesPerSecond, codec: 'H.264', width: 320, height: 240, transport: 'ws-fmp4' });

afterEach(() => {
  act(() => live.set({ stats: { phase: 'loading', reason: '', bytesPerSecond: 0 }, stat: undefined }));
  setLang('zh-CN');
});

const serverFigures = () => screen.queryByTestId('player-server-stats');

describe('the live toolbar figures', () => {
  it('shows one bit rate, measured in the browser, in kbps or Mbps; the server part has none', () => {
    stubApi({});
    act(() => live.set({ stats: playing(), stat: message() }));
    renderConsole(<LivePlayer device="1" channel="1" flow={0} name="Gate" />);
    act(() => live.set({ stat: message() }));
    const stats = screen.getByTestId('player-stats');
    expect(stats).toHaveTextContent('24 kbps');
    expect(stats.textContent).not.toMatch(/B\/s/);
    expect(serverFigures()).toHaveTextContent('服务端 正常 · 3 人观看');
    expect(serverFigures()!.textContent).not.toMatch(/kbps/);
    act(() => live.set({ stats: playing(300_000) }));
    expect(stats).toHaveTextContent('2.4 Mbps');
    expect(formatBitrate(0)).toBe('0 kbps');
  });

  it("shows the server's figures only from the first message after the player started playing", () => {
    stubApi({});
    renderConsole(<LivePlayer device="1" channel="1" flow={0} name="Gate" />);
    // loading: the server's first message (before this player was counted) is not shown
    act(() => live.set({ stat: message({ totalViewers: 0, bitrateKbps: 0 }) }));
    expect(serverFigures()).toBeNull();
    // playing, still with that message: not shown either
    act(() => live.set({ stats: playing() }));
    expect(serverFigures()).toBeNull();
    // the next message is about what plays
    act(() => live.set({ stat: message({ totalViewers: 1 }) }));
    expect(serverFigures()).toHaveTextContent('服务端 正常 · 1 人观看');
    expect(serverFigures()).toHaveAttribute('data-state', 'live');
  });

  it("after a reconnect the server's last 'retrying' does not stand over the picture that is back", () => {
    stubApi({});
    act(() => live.set({ stats: playing(), stat: message() }));
    renderConsole(<LivePlayer device="1" channel="1" flow={0} name="Gate" />);
    act(() => live.set({ stat: message() }));
    expect(serverFigures()).toHaveAttribute('data-state', 'live');
    act(() => live.set({ stats: { phase: 'reconnecting', reason: '', bytesPerSecond: 0 }, stat: message({ state: 'retrying' }) }));
    expect(serverFigures()).toBeNull();
    act(() => live.set({ stats: playing() }));
    expect(serverFigures()).toBeNull();
    act(() => live.set({ stat: message({ totalViewers: 1 }) }));
    expect(serverFigures()).toHaveAttribute('data-state', 'live');
    // a picture frozen while the server retries: a message after play says so, and is shown
    act(() => live.set({ stat: message({ state: 'retrying', totalViewers: 1 }) }));
    expect(serverFigures()).toHaveTextContent('服务端 重连中 · 1 人观看');
    // in English too, with the state in the console's language and viewers counted
    act(() => setLang('en-US'));
    expect(serverFigures()).toHaveTextContent('server retrying · 1 viewer');
    act(() => live.set({ stat: message({ state: 'someday', totalViewers: 2 }) }));
    expect(serverFigures()).toHaveTextContent('server someday · 2 viewers');
  });
});

const over = (transport: PlayerStats['transport']): PlayerStats => ({ phase: 'playing', reason: '', bytesPerSecond: 3000, transport });
const player = () => screen.getByTestId('live-player');
const status = () => screen.queryByTestId('player-status');

describe('a camera away while an HLS or WebRTC player shows its picture', () => {
  for (const transport of ['webrtc', 'hls'] as const) {
    it(`${transport}: the server's retrying is shown as reconnecting with its reason, and cleared when it says live`, () => {
      stubApi({});
      act(() => live.set({ stats: over(transport), stat: message() }));
      renderConsole(<LivePlayer device="1" channel="1" flow={0} name="Gate" />);
      act(() => live.set({ stat: message() }));
      expect(player()).toHaveAttribute('data-phase', 'playing');
      act(() => live.set({ stat: message({ state: 'retrying', reason: '摄像机断开了连接' }) }));
      expect(player()).toHaveAttribute('data-phase', 'reconnecting');
      expect(status()).toHaveTextContent('正在重新连接');
      expect(status()).toHaveTextContent('摄像机断开了连接');
      act(() => live.set({ stat: message({ state: 'live' }) }));
      expect(player()).toHaveAttribute('data-phase', 'playing');
      expect(status()).toBeNull();
    });
  }

  it("WS-fMP4 and FLV keep their own state (their sockets carry it): the server's retrying is not laid over it", () => {
    stubApi({});
    act(() => live.set({ stats: over('ws-fmp4'), stat: message() }));
    renderConsole(<LivePlayer device="1" channel="1" flow={0} name="Gate" />);
    act(() => live.set({ stat: message({ state: 'retrying', reason: '摄像机断开了连接' }) }));
    expect(player()).toHaveAttribute('data-phase', 'playing');
    expect(status()).toBeNull();
  });

  it("a retrying message from before the picture started is not taken for the camera's state now", () => {
    stubApi({});
    act(() => live.set({ stats: { phase: 'loading', reason: '', bytesPerSecond: 0, transport: 'webrtc' }, stat: message({ state: 'retrying', reason: '摄像机断开了连接' }) }));
    renderConsole(<LivePlayer device="1" channel="1" flow={0} name="Gate" />);
    act(() => live.set({ stats: over('webrtc') }));
    expect(player()).toHaveAttribute('data-phase', 'playing');
  });
});
