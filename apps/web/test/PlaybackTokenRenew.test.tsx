/**
 * The server closes a recording playback socket when its play token expires (24 h; a page left open,
 * paused or at a slow speed, meets it). The playback player takes that close as no failure: it opens
 * a new session (a fresh URL) at once, from where the playhead was, and paused if it was paused. Any
 * other close still shows the error. The engine double empties the <video> before it reports the
 * close, as startWsFmp4's stop does, so the position cannot be read from the <video> then.
 */
import { beforeEach, afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { EngineEvents } from '../src/components/player/engine';
import { clearSession } from '../src/lib/session';
import { stubApi, v1, type Call } from './helpers/console';
import { loginAdmin } from './helpers/dialogs';

const engines = vi.hoisted(() => [] as { url: string; events: EngineEvents }[]);
vi.mock('../src/components/player/wsFmp4', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../src/components/player/wsFmp4')>()),
  startWsFmp4: (video: HTMLVideoElement, url: string, events: EngineEvents) => {
    const failed = events.onFailure;
    // as the real engine: it stops (emptying the <video>) before it reports a failure
    events = { ...events, onFailure: (kind, reason) => ((video.currentTime = 0), failed(kind, reason)) };
    engines.push({ url, events });
    return { stop: () => undefined };
  },
}));
const { usePlayback } = await import('../src/features/playback/usePlayback');

const DAY = '20261127';
let api: ReturnType<typeof stubApi>;
let video: HTMLVideoElement;

beforeEach(() => {
  loginAdmin();
  engines.length = 0;
  let n = 0;
  api = stubApi({
    '/api/v1/devices/record/playback': () => v1({ URL: `/ws_m4s/playback/${String(++n).padStart(32, '0')}.mp4?play_token=t${n}`, request_id: String(n).padStart(32, '0') }),
    '/api/v1/devices/record/playback/control': () => v1({}),
  });
  video = document.createElement('video');
  // jsdom's <video> plays nothing: a playhead the test moves, no buffer
  let now = 0;
  Object.defineProperty(video, 'currentTime', { get: () => now, set: (v: number) => void (now = v) });
  Object.defineProperty(video, 'buffered', { value: { length: 0 } });
  video.pause = () => undefined;
  video.play = async () => undefined;
});
afterEach(() => clearSession());

const opened = () => api.callsTo('/api/v1/devices/record/playback').map((c: Call) => c.query.get('stime'));
const controls = () => api.callsTo('/api/v1/devices/record/playback/control').map((c: Call) => `${c.query.get('request_id')?.replace(/^0+/, '')} ${c.query.get('command')}`);

/** The player at 01:00:00 of the day, its playhead moved 5.4 s on. */
async function playing() {
  const hook = renderHook(() => usePlayback({ current: video }, '5', '1', DAY));
  await act(() => hook.result.current.playAt(3600));
  act(() => engines[0].events.onPlaying());
  video.currentTime = 5.4;
  video.dispatchEvent(new Event('timeupdate'));
  return hook;
}

describe('a playback socket closed at its play token expiry', () => {
  it('opens a new session at once from where the playhead was, with the new URL', async () => {
    const hook = await playing();
    act(() => engines[0].events.onFailure('expired', '播放地址已过期'));
    await waitFor(() => expect(engines).toHaveLength(2));
    expect(opened()).toEqual([`${DAY}010000`, `${DAY}010005`]);
    expect(engines[1].url).toMatch(/\/ws_m4s\/playback\/0+2\.mp4\?play_token=t2$/);
    act(() => engines[1].events.onPlaying());
    expect(hook.result.current.state).toMatchObject({ phase: 'playing', reason: '', requestId: '0'.repeat(31) + '2' });
  });

  it('a paused playback is renewed paused: the new session is paused at its first picture', async () => {
    const hook = await playing();
    act(() => hook.result.current.pause());
    act(() => engines[0].events.onFailure('expired', '播放地址已过期'));
    await waitFor(() => expect(engines).toHaveLength(2));
    expect(opened()[1]).toBe(`${DAY}010005`);
    act(() => engines[1].events.onPlaying());
    await waitFor(() => expect(controls()).toEqual(['1 pause', '2 pause']));
    expect(hook.result.current.state.phase).toBe('paused');
  });

  it('any other close still ends in the error, without a new session (as before)', async () => {
    const hook = await playing();
    act(() => engines[0].events.onFailure('closed', '与服务器的视频连接已断开（1006）'));
    expect(hook.result.current.state).toMatchObject({ phase: 'error', reason: '与服务器的视频连接已断开（1006）' });
    expect(engines).toHaveLength(1);
    expect(opened()).toHaveLength(1);
  });
});
