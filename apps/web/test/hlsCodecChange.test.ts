/**
 * The HLS engine (player/hls.ts) when the stream's video becomes a codec this browser cannot decode
 * (a camera back as H.265 while watched: the server's playlist goes on with a new init): it stops
 * hls.js and says unsupported with the mime, so the player asks again for the H.264 variant. Before,
 * hls.js reset its MediaSource over and over (bufferAppendingError, mediaSourceRequiresReset) for
 * ~10 s in Debian's Chromium until a fatal error. And a stream whose hub stopped (a request answered
 * 410 with X-Stream-Stopped): said as a socket's close is. hls.js is replaced by an emitter the test drives.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvents } from '../src/components/player/engine';
import { hlsPlayers } from './helpers/hls-double';

vi.mock('hls.js', async () => (await import('./helpers/hls-double')).hlsDoubleModule());
const players = hlsPlayers;
const { startHls } = await import('../src/components/player/hls');

/** This browser decodes H.264 and AAC, not H.265 (Debian's Chromium). */
const decodes = (mime: string) => !/hvc1|hev1/.test(mime);

beforeEach(() => {
  players.length = 0;
  vi.stubGlobal('MediaSource', class {
    static isTypeSupported = decodes;
  });
});
afterEach(() => vi.unstubAllGlobals());

function recordingEvents() {
  const seen: string[] = [];
  const events: EngineEvents = {
    onInfo: (info) => info.codec && seen.push(`info ${info.codec}`),
    onState: () => undefined,
    onBytes: () => undefined,
    onPlaying: () => seen.push('playing'),
    onUnsupported: (mime) => seen.push(`unsupported ${mime}`),
    onFailure: (kind, reason) => seen.push(`failure ${kind} ${reason}`),
  };
  return { events, seen };
}

describe('the HLS engine when the camera changes codec', () => {
  it('H.264 plays; a new init in H.265 stops hls.js and says unsupported at once, and nothing after is told', async () => {
    const video = document.createElement('video');
    const { events, seen } = recordingEvents();
    const engine = await startHls(video, '/hls/stream_1_0/playlist.m3u8', events);
    const hls = players[0]!;
    hls.emit('hlsBufferCodecs', { audiovideo: { codec: 'avc1.42C00C,mp4a.40.2' } });
    hls.emit('hlsFragLoaded', { frag: { stats: { loaded: 1000 } } });
    expect(seen).toEqual(['info avc1.42C00C', 'playing']);

    hls.emit('hlsBufferCodecs', { video: { codec: 'hvc1.4.10.L60.98.8' } });
    expect(seen.at(-1)).toBe('unsupported video/mp4; codecs="hvc1.4.10.L60.98.8"');
    expect(hls.destroyed).toBe(1);
    // What hls.js might still emit is not told: the player has moved on.
    hls.emit('hlsBufferCodecs', { video: { codec: 'hvc1.4.10.L60.98.8' } });
    expect(seen.filter((s) => s.startsWith('unsupported'))).toHaveLength(1);
    engine.stop();
    expect(hls.destroyed).toBe(1);
  });

  it('a request answered 410 with the server\'s words: a leg ended for an H.264 camera opens again at once, another stop says why', async () => {
    const xhr = (words: string | null) => ({ getResponseHeader: (name: string) => (name === 'X-Stream-Stopped' ? words : null) });
    // hls.js says the 410 of a one-level stream's playlist fatal only after two retries (1 + 2 s): told at the first.
    const error = (code: number, words: string | null) => ({ type: 'networkError', details: 'levelLoadError', fatal: code !== 410, response: { code }, networkDetails: xhr(words) });
    const said: string[][] = [];
    for (const [code, words] of [
      [410, 'stream stopped (streamOriginalNotHevc)'],
      [410, 'stream stopped (streamStoppedByRequest)'],
      [503, null],
    ] as const) {
      const { events, seen } = recordingEvents();
      await startHls(document.createElement('video'), '/hls/stream_1_0_h264/playlist.m3u8', events);
      players.at(-1)!.emit('hlsError', { ...error(code, words), fatal: false, response: { code: 503 } });
      expect(seen, 'a retried error is not told').toEqual([]);
      players.at(-1)!.emit('hlsError', error(code, words));
      expect(players.at(-1)!.destroyed).toBe(1);
      said.push(seen);
    }
    expect(said).toEqual([
      ['failure expired 摄像机已改为 H.264，无需转码，改为播放原始流'],
      ['failure closed 直播已按请求停止'],
      ['failure closed HLS 播放出错（levelLoadError）'],
    ]);
  });

  it('a codec the browser decodes is only shown', async () => {
    const { events, seen } = recordingEvents();
    await startHls(document.createElement('video'), '/hls/stream_1_0_h264/playlist.m3u8', events);
    players[0]!.emit('hlsBufferCodecs', { video: { codec: 'avc1.640028' } });
    expect(seen).toEqual(['info avc1.640028']);
  });
});
