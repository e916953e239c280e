/**
 * usePlayback and an H.265 recording's H.264 leg (URLs.WS_FMP4_H264): where the browser says it has
 * no H.265 (MediaSource.isTypeSupported) the leg plays at once and the state says transcoded; where it
 * says it has, the recording plays as stored, and if H.265 then fails to decode after all, a new
 * session plays the leg from the same second. An H.264 recording (no leg) keeps the plain message. A
 * device's leg whose socket says it passes H.264 through drops the transcoded note.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { EngineEvents } from '../src/components/player/engine';
import type { WsFmp4Options } from '../src/components/player/wsFmp4';
import { clearSession } from '../src/lib/session';
import { stubApi, v1, type Call } from './helpers/console';
import { loginAdmin } from './helpers/dialogs';

const engines = vi.hoisted(() => [] as { url: string; events: EngineEvents; options: WsFmp4Options }[]);
vi.mock('../src/components/player/wsFmp4', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../src/components/player/wsFmp4')>()),
  startWsFmp4: (_video: HTMLVideoElement, url: string, events: EngineEvents, options: WsFmp4Options = {}) => {
    engines.push({ url, events, options });
    return { stop: () => undefined };
  },
}));
const { usePlayback } = await import('../src/features/playback/usePlayback');

const DAY = '20261127';
const HEVC_MIME = 'video/mp4; codecs="hvc1.1.6.L93.B0"';
let api: ReturnType<typeof stubApi>;
let video: HTMLVideoElement;

function stubMse(hevc: boolean) {
  vi.stubGlobal('MediaSource', Object.assign(function MediaSource() {}, { isTypeSupported: (t: string) => (/hvc1|hev1/.test(t) ? hevc : true) }));
}

function answer(hevcRecording: boolean) {
  let n = 0;
  api = stubApi({
    '/api/v1/devices/record/playback': () => {
      const id = String(++n).padStart(32, '0');
      const ws = `/ws_m4s/playback/${id}.mp4?play_token=t${n}`;
      return v1({ URL: ws, URLs: { WS_FMP4: ws, ...(hevcRecording ? { WS_FMP4_H264: ws.replace('.mp4?', '_h264.mp4?') } : {}) }, request_id: id });
    },
  });
}

beforeEach(() => {
  loginAdmin();
  engines.length = 0;
  video = document.createElement('video');
  Object.defineProperty(video, 'buffered', { value: { length: 0 } });
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

const opened = () => api.callsTo('/api/v1/devices/record/playback').map((c: Call) => c.query.get('stime'));

describe('usePlayback and the H.264 leg', () => {
  it('a browser without H.265 plays the leg of an H.265 recording, and says transcoded', async () => {
    stubMse(false);
    answer(true);
    const hook = renderHook(() => usePlayback({ current: video }, '5', '1', DAY));
    await act(() => hook.result.current.playAt(3600));
    expect(engines[0].url).toMatch(/\/ws_m4s\/playback\/0+1_h264\.mp4\?play_token=t1$/);
    expect(hook.result.current.state.transcoded).toBe(true);
  });

  it('a device recording’s leg that passes H.264 through (its socket says transcoded: false): no transcoded note', async () => {
    stubMse(false);
    answer(true);
    const hook = renderHook(() => usePlayback({ current: video }, '5', '1', DAY, 'Device'));
    await act(() => hook.result.current.playAt(3600));
    expect(engines[0].url).toMatch(/_h264\.mp4\?/);
    expect(hook.result.current.state.transcoded).toBe(true);
    act(() => engines[0].options.onTranscoded?.(false));
    expect(hook.result.current.state.transcoded).toBe(false);
    act(() => engines[0].options.onTranscoded?.(true));
    expect(hook.result.current.state.transcoded).toBe(true);
  });

  it('a browser with H.265 plays it as stored; when it fails to decode after all, the leg from the same second', async () => {
    stubMse(true);
    answer(true);
    const hook = renderHook(() => usePlayback({ current: video }, '5', '1', DAY));
    await act(() => hook.result.current.playAt(3600));
    expect(engines[0].url).toMatch(/\/ws_m4s\/playback\/0+1\.mp4\?play_token=t1$/);
    expect(hook.result.current.state.transcoded).toBe(false);
    act(() => engines[0].events.onUnsupported(HEVC_MIME));
    await waitFor(() => expect(engines).toHaveLength(2));
    expect(opened()).toEqual([`${DAY}010000`, `${DAY}010000`]);
    expect(engines[1].url).toMatch(/\/ws_m4s\/playback\/0+2_h264\.mp4\?play_token=t2$/);
    await waitFor(() => expect(hook.result.current.state.transcoded).toBe(true));
    expect(hook.result.current.state.phase).toBe('loading');
  });

  it('an H.264 recording has no leg: it plays as stored, and an undecodable H.265 one says so', async () => {
    stubMse(false);
    answer(false);
    const hook = renderHook(() => usePlayback({ current: video }, '5', '1', DAY));
    await act(() => hook.result.current.playAt(3600));
    expect(engines[0].url).toMatch(/0+1\.mp4\?/);
    expect(hook.result.current.state.transcoded).toBe(false);
    act(() => engines[0].events.onUnsupported(HEVC_MIME));
    expect(hook.result.current.state).toMatchObject({ phase: 'unsupported', reason: HEVC_MIME });
    expect(engines).toHaveLength(1);
  });
});
