/**
 * The live toolbar names the codec the same way whatever the transport (issue 4 audit): it showed
 * "H264" over WebRTC (the negotiated payload's MIME subtype) and "avc1.64001e" over WS-fMP4, HLS and
 * WS-FLV (the MSE codec string). Each engine's own report is given here as it sends it; the toolbar
 * says H.264 / H.265 for all of them, and so does the streamstat socket's videoCodec (h264, h265)
 * read the same way.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { renderConsole, stubApi } from './helpers/console';
import { codecName } from '../src/components/player/codecName';
import type { PlayerStats } from '../src/components/player/useLiveStream';
import { liveStats } from './helpers/live-stream-double';

vi.mock('../src/components/player/useLiveStream', async (importOriginal) => (await import('./helpers/live-stream-double')).useLiveStreamDouble(importOriginal));
const live = liveStats;
const { LivePlayer } = await import('../src/components/player/LivePlayer');

afterEach(() => act(() => live.set({ phase: 'loading', reason: '', bytesPerSecond: 0 })));

/** What each engine passes to onInfo for the same camera. */
const REPORTS: { transport: NonNullable<PlayerStats['transport']>; h264: string; h265: string }[] = [
  // The server's track codecString (init segment's avcC/hvcC).
  { transport: 'ws-fmp4', h264: 'avc1.64001e', h265: 'hvc1.1.6.L93.B0' },
  // hls.js's BUFFER_CODECS (the muxed track's video codec; hls.js may upper-case the hex).
  { transport: 'hls', h264: 'avc1.64001E', h265: 'hev1.1.6.L93.B0' },
  // mpegts.js's MEDIA_INFO videoCodec.
  { transport: 'flv', h264: 'avc1.64001e', h265: 'hvc1.1.6.L93.B0' },
  // getStats' codec mimeType less "video/".
  { transport: 'webrtc', h264: 'H264', h265: 'H265' },
];

describe('the codec in the live toolbar', () => {
  for (const r of REPORTS) {
    it(`${r.transport}: H.264 and H.265 by name, not the engine's own form`, () => {
      stubApi({});
      act(() => live.set({ phase: 'playing', reason: '', bytesPerSecond: 3000, transport: r.transport, codec: r.h264, width: 320, height: 240 }));
      const view = renderConsole(<LivePlayer device="1" channel="1" flow={0} name="Gate" />);
      const stats = screen.getByTestId('player-stats');
      expect(stats.textContent).toMatch(/Gate · H\.264 · 320×240 · /);
      expect(stats.textContent).not.toContain(r.h264);
      act(() => live.set({ ...live.stats, codec: r.h265 }));
      expect(stats.textContent).toMatch(/Gate · H\.265 · 320×240 · /);
      view.unmount();
    });
  }

  it("the streamstat socket's videoCodec and its track codecString read the same", () => {
    expect(codecName('h264')).toBe('H.264');
    expect(codecName('h265')).toBe('H.265');
    expect(codecName('video/H264')).toBe('H.264');
    expect(codecName('avc3.42e01f')).toBe('H.264');
    expect(codecName('hevc')).toBe('H.265');
    expect(codecName('av01.0.08M.08')).toBe('AV1');
    expect(codecName('VP8')).toBe('VP8');
    // Nothing known: as reported, and nothing for nothing.
    expect(codecName('mjpeg')).toBe('mjpeg');
    expect(codecName(undefined)).toBe('');
  });
});
