/**
 * The server ends a live connection when its play token expires (an hour by default; the console's
 * players stay open for days). The WS-fMP4 engine tells that close apart ('play token expired'),
 * and the player asks for fresh URLs at once, not after a failure's back-off with 正在重新连接….
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, waitFor, screen } from '@testing-library/react';
import type { EngineEvents } from '../src/components/player/engine';
import { clearSession } from '../src/lib/session';
import { captureNotices, renderConsole } from './helpers/console';

const engine = vi.hoisted(() => ({ events: null as EngineEvents | null }));
vi.mock('../src/components/player/wsFmp4', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../src/components/player/wsFmp4')>()),
  startWsFmp4: (_video: HTMLVideoElement, _url: string, events: EngineEvents) => {
    engine.events = events;
    return { stop: () => undefined };
  },
}));
const { LivePlayer } = await import('../src/components/player/LivePlayer');
const real = await vi.importActual<typeof import('../src/components/player/wsFmp4')>('../src/components/player/wsFmp4');

beforeEach(() => {
  engine.events = null;
  // jsdom has no MediaSource: the WS-fMP4 transport needs one to be chosen.
  vi.stubGlobal('MediaSource', class {
    static isTypeSupported = () => true;
  });
});
afterEach(() => vi.unstubAllGlobals());

async function playing() {
  clearSession();
  captureNotices();
  const open = vi.fn(async () => ({ URL: '/ws_m4s/live/stream_1_0.mp4', URLs: { WS_FMP4: '/ws_m4s/live/stream_1_0.mp4' }, Stream: 'stream_1_0', State: 'live' }) as never);
  renderConsole(<LivePlayer device="1" channel="1" flow={0} name="Gate" open={open} />);
  await waitFor(() => expect(engine.events).not.toBeNull());
  const ev = engine.events!;
  act(() => ev.onPlaying());
  return { ev, open };
}
const phase = () => screen.getByTestId('live-player').dataset.phase;

describe('a live connection ended at its play token expiry', () => {
  it('opens the stream again at once, without the back-off of a failure', async () => {
    const { ev, open } = await playing();
    expect(open).toHaveBeenCalledTimes(1);
    act(() => ev.onFailure('expired', 'play token expired'));
    expect(open).toHaveBeenCalledTimes(2);
    expect(phase()).not.toBe('reconnecting');
    // Nothing to say over the picture while the new connection starts: it goes on as playing.
    await waitFor(() => expect(engine.events).not.toBe(ev));
    expect(phase()).toBe('playing');
  });

  it('a connection that closed otherwise waits its back-off (as before)', async () => {
    const { ev, open } = await playing();
    act(() => ev.onFailure('closed', 'socket closed'));
    expect(open).toHaveBeenCalledTimes(1);
    expect(phase()).toBe('reconnecting');
  });

  it('the WS-fMP4 engine reports the server’s token-expiry close as expired, other closes as closed', () => {
    class SocketDouble {
      static last?: SocketDouble;
      binaryType = '';
      onmessage = null;
      onclose: ((e: { code: number; reason: string }) => void) | null = null;
      constructor() {
        SocketDouble.last = this;
      }
      close() {}
    }
    vi.stubGlobal('WebSocket', SocketDouble);
    vi.stubGlobal('MediaSource', undefined);
    const kinds: string[] = [];
    const ev = { onInfo: () => undefined, onState: () => undefined, onBytes: () => undefined, onPlaying: () => undefined, onUnsupported: () => undefined, onFailure: (k: string) => void kinds.push(k) };
    real.startWsFmp4(document.createElement('video'), 'ws://server/ws_m4s/live/stream_1_0.mp4', ev);
    SocketDouble.last!.onclose!({ code: 1008, reason: 'play token expired' });
    real.startWsFmp4(document.createElement('video'), 'ws://server/ws_m4s/live/stream_1_0.mp4', ev);
    SocketDouble.last!.onclose!({ code: 1006, reason: '' });
    expect(kinds).toEqual(['expired', 'closed']);
  });
});
