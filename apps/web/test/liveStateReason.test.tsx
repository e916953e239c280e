/**
 * The live WS-fMP4 socket's state message carries the catalogue reason (code, vars) beside the
 * source's English words; the player shows the reason in the console's language, not the words
 * ("connect timeout after 5000 ms" read as it came under a Chinese console before). The socket is a
 * double that delivers the server's messages; the overlay is the LivePlayer's with its stats given.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { setLang } from '../src/i18n';
import { renderConsole, stubApi } from './helpers/console';
import { startWsFmp4 } from '../src/components/player/wsFmp4';
import type { EngineEvents } from '../src/components/player/engine';
import type { PlayerStats } from '../src/components/player/useLiveStream';
import { SocketDouble } from './helpers/mse-doubles';

const live = vi.hoisted(() => ({ stats: { phase: 'loading', reason: '', bytesPerSecond: 0 } as PlayerStats }));
vi.mock('../src/components/player/useLiveStream', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../src/components/player/useLiveStream')>()),
  useLiveStream: () => ({ stats: live.stats, retry: () => {} }),
}));
const { LivePlayer } = await import('../src/components/player/LivePlayer');

function engineEvents() {
  const states: unknown[][] = [];
  const failures: string[] = [];
  const kinds: string[] = [];
  const ev: EngineEvents = {
    onInfo: () => undefined,
    onState: (...args) => void states.push(args),
    onBytes: () => undefined,
    onPlaying: () => undefined,
    onUnsupported: () => undefined,
    onFailure: (kind, reason) => {
      kinds.push(kind);
      failures.push(reason);
    },
  };
  return { ev, states, failures, kinds };
}

const timeout = { type: 'state', state: 'retrying', reason: 'connect timeout after 5000 ms', code: 'streamConnectTimeout', vars: { ms: 5000 } };

afterEach(() => {
  vi.unstubAllGlobals();
  setLang('zh-CN');
});

describe('a live state message with its catalogue reason', () => {
  it('the engine hands the reason on with the words; "stopped" fails with it in the console’s language', () => {
    vi.stubGlobal('WebSocket', SocketDouble);
    vi.stubGlobal('MediaSource', undefined);
    const { ev, states, failures } = engineEvents();
    const engine = startWsFmp4(document.createElement('video'), 'ws://server/ws_m4s/live/1_0.mp4', ev);
    const ws = SocketDouble.last!;
    ws.say(timeout);
    expect(states).toEqual([['retrying', 'connect timeout after 5000 ms', { key: 'streamConnectTimeout', vars: { ms: 5000 } }]]);
    // A code this console does not know: the words only.
    ws.say({ type: 'state', state: 'retrying', reason: 'something new', code: 'notAReasonKey' });
    expect(states[1]).toEqual(['retrying', 'something new', undefined]);
    ws.say({ type: 'state', state: 'stopped', reason: 'stopped by request', code: 'streamStoppedByRequest' });
    expect(failures).toEqual(['直播已按请求停止']);
    engine.stop();

    // No track this transport plays (G.711 audio only): fatal here, with why, so another transport is tried.
    const g711 = engineEvents();
    startWsFmp4(document.createElement('video'), 'ws://server/ws_m4s/live/1_0.mp4', g711.ev);
    SocketDouble.last!.say({ type: 'state', state: 'unsupported', reason: 'no track a browser can play', code: 'streamNoBrowserTrack' });
    expect(g711.kinds).toEqual(['fatal']);
    expect(g711.failures).toEqual(['该流没有浏览器能播放的轨道（浏览器可播放 H.264、H.265 和 AAC）']);

    setLang('en-US');
    const en = engineEvents();
    startWsFmp4(document.createElement('video'), 'ws://server/ws_m4s/live/1_0.mp4', en.ev);
    SocketDouble.last!.say({ type: 'state', state: 'stopped', reason: 'channel deleted', code: 'streamChannelDeleted' });
    expect(en.failures).toEqual(['The channel was deleted']);
  });

  it('the player shows the reason, not the words, in Chinese and in English', () => {
    stubApi({});
    live.stats = { phase: 'reconnecting', reason: 'connect timeout after 5000 ms', why: { key: 'streamConnectTimeout', vars: { ms: 5000 } }, bytesPerSecond: 0 };
    const player = () => <LivePlayer device="1" channel="1" flow={0} name="Gate" open={async () => ({ URL: '', request_id: '' }) as never} />;
    renderConsole(player());
    expect(screen.getByText('连接摄像机超时（5000 毫秒）')).toBeInTheDocument();
    expect(screen.queryByText(/connect timeout/)).toBeNull();
    act(() => setLang('en-US'));
    expect(screen.getByText('The camera did not answer within 5000 ms')).toBeInTheDocument();
  });
});
