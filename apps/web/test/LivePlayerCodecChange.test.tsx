/**
 * A live camera that changes codec while the player plays it (e2e: live-codec-change.spec.ts). In a
 * browser without H.265, an H.264 camera's answer offers no H.264 variant; when the camera comes back
 * as H.265 its socket brings an init MSE refuses. The player asks for the stream again (the server
 * offers the variant now) and plays the variant, saying it is transcoded, instead of stopping on
 * "cannot decode, no transcoding offered". When the camera turns back to H.264 the server ends the
 * variant with streamOriginalNotHevc: the player opens the stream again at once (no back-off, no
 * failure counted) and plays the camera's own stream, no longer transcoded. A server that offers no
 * variant even when asked again leaves the player on its unsupported message, not in a loop.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, waitFor } from '@testing-library/react';
import type { PlayerStats } from '../src/components/player/useLiveStream';
import { closeKind } from '../src/components/player/failureText';
import { clearSession } from '../src/lib/session';
import { captureNotices, renderConsole, stubApi } from './helpers/console';
import { started } from './helpers/engine-starts';

vi.mock('../src/components/player/wsFmp4', async (importOriginal) => ({ ...(await importOriginal<object>()), startWsFmp4: (await import('./helpers/engine-starts')).fakeStart }));
const { LivePlayer } = await import('../src/components/player/LivePlayer');

const HEVC_INIT = 'video/mp4; codecs="hvc1.1.6.L60.90"';
const direct = (n: number) => ({ WS_FMP4: `/ws_m4s/live/stream_1_0.mp4?play_token=t${n}` });
const withLeg = (n: number) => ({ ...direct(n), WS_FMP4_H264: `/ws_m4s/live/stream_1_0_h264.mp4?play_token=t${n}` });

beforeEach(() => {
  started.length = 0;
  vi.useFakeTimers({ shouldAdvanceTime: true });
  // A Chromium without an H.265 decoder.
  vi.stubGlobal('MediaSource', class {
    static isTypeSupported = (t: string) => !/hvc1|hev1/.test(t);
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function render(answers: Record<string, string>[]) {
  clearSession();
  captureNotices();
  stubApi({});
  let n = 0;
  const open = vi.fn(async () => {
    const URLs = answers[Math.min(n, answers.length - 1)]!;
    n++;
    return { URL: URLs.WS_FMP4, URLs, Stream: 'stream_1_0', State: 'live' } as never;
  });
  const seen: PlayerStats[] = [];
  renderConsole(<LivePlayer device="1" channel="1" flow={0} name="Gate" open={open} onStats={(s) => void seen.push(s)} />);
  return { open, seen, last: () => seen.at(-1)! };
}

describe('a live camera that changes codec while playing', () => {
  it('H.264 → H.265 → H.264: the variant asked for and played with its note, then the camera’s own stream again at once', async () => {
    const { open, last } = render([direct(1), withLeg(2), direct(3)]);
    await waitFor(() => expect(started).toHaveLength(1));
    expect(started[0]!.url).toContain('/stream_1_0.mp4?play_token=t1');
    act(() => started[0]!.events.onPlaying());
    expect(last()).toMatchObject({ phase: 'playing', transcoded: false });

    // The camera drops and comes back as H.265 on the same socket: MSE cannot take its init.
    act(() => started[0]!.events.onState('retrying', 'camera gone'));
    expect(last().phase).toBe('reconnecting');
    act(() => started[0]!.events.onUnsupported(HEVC_INIT));
    await waitFor(() => expect(started).toHaveLength(2));
    expect(open).toHaveBeenCalledTimes(2);
    expect(started[0]!.stopped).toBe(true);
    expect(started[1]!.url).toContain('/stream_1_0_h264.mp4?play_token=t2');
    expect(last()).toMatchObject({ phase: 'reconnecting', transcoded: true });
    act(() => started[1]!.events.onPlaying());
    expect(last()).toMatchObject({ phase: 'playing', transcoded: true });

    // Back to H.264: the server ends the leg (wsFmp4 reports it as closeKind's 'expired').
    act(() => started[1]!.events.onState('retrying', 'camera gone'));
    act(() => started[1]!.events.onFailure(closeKind('', { key: 'streamOriginalNotHevc' }), 'no longer needed'));
    // At once: no back-off timer to wait for.
    await waitFor(() => expect(started).toHaveLength(3));
    expect(open).toHaveBeenCalledTimes(3);
    expect(started[2]!.url).toContain('/stream_1_0.mp4?play_token=t3');
    expect(last()).toMatchObject({ transcoded: false, retryInMs: undefined });
    act(() => started[2]!.events.onPlaying());
    expect(last()).toMatchObject({ phase: 'playing', transcoded: false });
  });

  it('a server that offers no variant even when asked again: the unsupported message, asked once only', async () => {
    const { open, last } = render([direct(1)]);
    await waitFor(() => expect(started).toHaveLength(1));
    act(() => started[0]!.events.onPlaying());
    act(() => started[0]!.events.onUnsupported(HEVC_INIT));
    await waitFor(() => expect(started).toHaveLength(2));
    act(() => started[1]!.events.onUnsupported(HEVC_INIT));
    await act(async () => void vi.advanceTimersByTime(5_000));
    expect(open).toHaveBeenCalledTimes(2);
    expect(started).toHaveLength(2);
    expect(last()).toMatchObject({ phase: 'unsupported', reason: HEVC_INIT });
  });

  it('closeKind: a leg no longer needed opens again at once, any other stop is a failure', () => {
    expect(closeKind('', { key: 'streamOriginalNotHevc' })).toBe('expired');
    expect(closeKind('stream stopped (streamOriginalNotHevc)')).toBe('expired');
    expect(closeKind('play token expired')).toBe('expired');
    expect(closeKind('', { key: 'streamOriginalClosed' })).toBe('closed');
    expect(closeKind('stream stopped (streamChannelDisabled)')).toBe('closed');
    expect(closeKind('stream stopped')).toBe('closed');
  });
});
