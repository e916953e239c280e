/**
 * The FLV engine (player/flv.ts) while its camera is away: the WS-FLV socket's state messages
 * (asked for with ?state=1) reach the player as on WS-fMP4 — retrying with the camera's reason — and
 * the camera's media playing again past where the picture froze is told as a start (onPlaying), which
 * ends the player's "reconnecting", on the same socket. mpegts.js is replaced by a player that only
 * opens the engine's loader; the socket is a fake the test speaks through.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveStateMessage } from '@opencvr/shared';
import type { EngineEvents } from '../src/components/player/engine';

/** Every WebSocket the loader opened. */
const sockets = vi.hoisted(() => [] as FakeSocket[]);
interface FakeSocket {
  url: string;
  onmessage: ((e: { data: unknown }) => void) | null;
  onclose: ((e: { code: number; reason: string }) => void) | null;
}

vi.mock('mpegts.js', () => {
  const Events = { MEDIA_INFO: 'media_info', STATISTICS_INFO: 'statistics_info', ERROR: 'error', LOADING_COMPLETE: 'loading_complete' };
  return {
    default: {
      Events,
      ErrorTypes: { NETWORK_ERROR: 'NetworkError' },
      getFeatureList: () => ({ mseLivePlayback: true }),
      LoggingControl: { applyConfig: () => undefined },
      createPlayer: (source: { url: string }, config: { customLoader: new (...a: unknown[]) => { open(s: { url: string }): void } }) => ({
        on: () => undefined,
        attachMediaElement: () => undefined,
        detachMediaElement: () => undefined,
        load: () => new config.customLoader({}, {}).open({ url: source.url }),
        unload: () => undefined,
        pause: () => undefined,
        destroy: () => undefined,
      }),
    },
  };
});
const { startFlv, RESUMED_PAST_S } = await import('../src/components/player/flv');

beforeEach(() => {
  sockets.length = 0;
  vi.stubGlobal(
    'WebSocket',
    class {
      static CONNECTING = 0;
      static OPEN = 1;
      readyState = 1;
      binaryType = 'blob';
      onopen = null;
      onmessage = null;
      onerror = null;
      onclose = null;
      constructor(public url: string) {
        sockets.push(this as unknown as FakeSocket);
      }
      close() {
        this.readyState = 3;
      }
    },
  );
  vi.stubGlobal('MediaSource', class {
    static isTypeSupported = () => true;
  });
});
afterEach(() => vi.unstubAllGlobals());

/** A video element whose buffered end and playhead the test sets. */
function videoAt() {
  const video = document.createElement('video');
  let end = 0;
  let now = 0;
  Object.defineProperty(video, 'buffered', { get: () => ({ length: end ? 1 : 0, start: () => 0, end: () => end }) });
  Object.defineProperty(video, 'currentTime', { get: () => now, set: (t: number) => void (now = t) });
  Object.defineProperty(video, 'paused', { get: () => false });
  return {
    video,
    /** Media up to `bufferedEnd` appended, the playhead at `time`, a timeupdate. */
    play(time: number, bufferedEnd = end) {
      end = bufferedEnd;
      now = time;
      video.dispatchEvent(new Event('timeupdate'));
    },
  };
}

function recordingEvents() {
  const seen: string[] = [];
  const events: EngineEvents = {
    onInfo: () => undefined,
    onState: (state, reason, why) => seen.push(`state ${state} ${reason}${why ? ` ${why.key}` : ''}`),
    onBytes: () => undefined,
    onPlaying: () => seen.push('playing'),
    onUnsupported: (mime) => seen.push(`unsupported ${mime}`),
    onFailure: (kind, reason) => seen.push(`failure ${kind} ${reason}`),
  };
  return { events, seen };
}

describe('the FLV engine while its camera is away', () => {
  it('tells retrying with the reason over the frozen picture, and playing once the media moves past where it froze, on the same socket', async () => {
    const { video, play } = videoAt();
    const { events, seen } = recordingEvents();
    const engine = await startFlv(video, 'ws://127.0.0.1:23001/ws_flv/live/1_1_0.flv?play_token=t', events);
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.url).toBe('ws://127.0.0.1:23001/ws_flv/live/1_1_0.flv?play_token=t&state=1');
    const say = (msg: object) => sockets[0]!.onmessage!({ data: JSON.stringify(msg) });

    say(liveStateMessage('live', ''));
    play(0.5, 1);
    video.dispatchEvent(new Event('playing'));
    expect(seen).toEqual(['state live ', 'playing']);

    // The camera goes away with 4 s of media in the element; the picture plays to its end and stops.
    play(3.6, 4);
    say(liveStateMessage('retrying', 'connect ECONNREFUSED', { key: 'streamRefused' }));
    play(3.9);
    play(4);
    say(liveStateMessage('connecting', ''));
    say(liveStateMessage('retrying', 'connect ECONNREFUSED', { key: 'streamRefused' }));
    // The element's own 'playing' (e.g. after a seek) is no sign of the camera's media.
    video.dispatchEvent(new Event('playing'));
    expect(seen.slice(2)).toEqual(['state retrying connect ECONNREFUSED streamRefused', 'state connecting ', 'state retrying connect ECONNREFUSED streamRefused']);

    // Back: live is said at once, the picture is told playing only once it has moved on.
    say(liveStateMessage('connecting', ''));
    say(liveStateMessage('live', ''));
    expect(seen.at(-1)).toBe('state live ');
    play(4 + RESUMED_PAST_S / 2, 4.5);
    expect(seen.filter((s) => s === 'playing')).toHaveLength(1);
    play(4 + RESUMED_PAST_S + 0.05, 5);
    expect(seen.slice(-2)).toEqual(['state live ', 'playing']);
    play(4.6, 6);
    expect(seen.filter((s) => s === 'playing')).toHaveLength(2);
    expect(sockets).toHaveLength(1);
    expect(seen.some((s) => s.startsWith('failure'))).toBe(false);
    engine.stop();
  });

  it("states before the first picture (the camera connecting) are passed on, and the element's own first 'playing' is the start", async () => {
    const { video, play } = videoAt();
    const { events, seen } = recordingEvents();
    const engine = await startFlv(video, 'ws://127.0.0.1:23001/ws_flv/live/1_1_0.flv', events);
    sockets[0]!.onmessage!({ data: JSON.stringify(liveStateMessage('connecting', '')) });
    sockets[0]!.onmessage!({ data: JSON.stringify(liveStateMessage('retrying', 'timeout', { key: 'streamRefused' })) });
    sockets[0]!.onmessage!({ data: JSON.stringify(liveStateMessage('live', '')) });
    play(1, 2);
    expect(seen).toEqual(['state connecting ', 'state retrying timeout streamRefused', 'state live ']);
    video.dispatchEvent(new Event('playing'));
    expect(seen.at(-1)).toBe('playing');
    engine.stop();
  });
});
