/**
 * HLS and WebRTC carry no camera state in their media (WS-fMP4 and WS-FLV do): an HLS or WebRTC
 * viewer of a camera that went away saw its picture freeze, and after three seconds only "画面已停止".
 * The player now shows the streamstat socket's word that the camera is away as the other transports
 * show theirs — 正在重新连接 and the server's reason, data-phase reconnecting — until it says live.
 */
import { useSyncExternalStore } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { renderConsole, stubApi } from './helpers/console';
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

afterEach(() => {
  act(() => live.set({ stats: { phase: 'loading', reason: '', bytesPerSecond: 0 }, stat: undefined }));
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
