/**
 * The bit rate an HLS viewer is shown. The server's LL-HLS is loaded part by part, and hls.js emits
 * FRAG_LOADED for every part with the fragment's stats, which it adds each part to (its
 * updateStatsFromPart): counting frag.stats.loaded at every part counted the first parts again and
 * again, and a 190 kbps camera showed 350-650 kbps over HLS (audit, session 24: Chromium, the same
 * camera 190 kbps over WS-fMP4, 218 kbps of HTTP bodies over HLS with its playlists). A part counts
 * its own bytes; a whole fragment (no part) its own.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvents } from '../src/components/player/engine';
import { hlsPlayers } from './helpers/hls-double';

vi.mock('hls.js', async () => (await import('./helpers/hls-double')).hlsDoubleModule());
const players = hlsPlayers;
const { startHls } = await import('../src/components/player/hls');

beforeEach(() => {
  players.length = 0;
  vi.stubGlobal('MediaSource', class {
    static isTypeSupported = () => true;
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('the HLS engine counts the bytes it loads once', () => {
  it('a part counts its own bytes, not its fragment’s running total; a whole fragment counts once', async () => {
    let bytes = 0;
    const events = { onInfo() {}, onState() {}, onBytes: (n: number) => (bytes += n), onPlaying() {}, onUnsupported() {}, onFailure() {} } as EngineEvents;
    await startHls(document.createElement('video'), '/hls/stream_1_0/playlist.m3u8', events);
    const hls = players[0]!;
    // Three parts of 1000 bytes: hls.js adds each to the fragment's stats before it emits.
    const frag = { stats: { loaded: 0 } };
    for (let i = 0; i < 3; i++) {
      const part = { stats: { loaded: 1000 } };
      frag.stats.loaded += part.stats.loaded;
      hls.emit('hlsFragLoaded', { frag, part });
    }
    expect(bytes).toBe(3000);
    hls.emit('hlsFragLoaded', { frag: { stats: { loaded: 5000 } }, part: null });
    expect(bytes).toBe(8000);
  });
});
