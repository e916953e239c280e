/**
 * The server ends a live connection when its play token expires. Only the WS-fMP4 socket can say
 * why; HTTP-FLV, WebRTC and HLS just stop, and WS-FLV's reason stays inside mpegts.js: they showed
 * 正在重新连接… and backed off. The stream answer says how long its URLs last (UrlsExpireIn, the
 * server's count) and the player renews them before that over whatever transport plays, going on
 * showing as playing: no overlay, no back-off.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, waitFor } from '@testing-library/react';
import type { PlayerStats } from '../src/components/player/useLiveStream';
import type { Transport } from '../src/components/player/transport';
import { clearSession } from '../src/lib/session';
import { captureNotices, renderConsole, stubApi } from './helpers/console';
import { started } from './helpers/engine-starts';

// Every engine, whichever transport, is the double: `started` has its URL, events and whether it was stopped.
vi.mock('../src/components/player/wsFmp4', async (importOriginal) => ({ ...(await importOriginal<object>()), startWsFmp4: (await import('./helpers/engine-starts')).fakeStart }));
vi.mock('../src/components/player/flv', async () => ({ startFlv: (await import('./helpers/engine-starts')).fakeStart }));
vi.mock('../src/components/player/hls', async () => ({ startHls: (await import('./helpers/engine-starts')).fakeStart }));
vi.mock('../src/components/player/webrtc', async () => ({ startWebrtc: (await import('./helpers/engine-starts')).fakeStart }));
const { LivePlayer } = await import('../src/components/player/LivePlayer');
const { renewDelayMs } = await import('../src/components/player/useLiveStream');

beforeEach(() => {
  started.length = 0;
  vi.useFakeTimers({ shouldAdvanceTime: true });
  // jsdom has neither MediaSource nor RTCPeerConnection: every transport needs one of them.
  vi.stubGlobal('MediaSource', class {
    static isTypeSupported = () => true;
  });
  vi.stubGlobal('RTCPeerConnection', class {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The URLs of answer number `n`: each answer's token differs, as the server's do. */
const urlsOf = (n: number) => ({
  WS_FMP4: `/ws_m4s/live/stream_1_0.mp4?play_token=t${n}`,
  WS_FLV: `/ws_flv/live/stream_1_0.flv?play_token=t${n}`,
  HLS: `/hls/stream_1_0/playlist.m3u8?play_token=t${n}`,
  WEBRTC: `/webrtc/whep/stream_1_0?play_token=t${n}`,
});

/** The path each transport plays (the engine double does not care, the player's choice does). */
const PATH_OF: Record<Transport, string> = { 'ws-fmp4': '/ws_m4s/', flv: '/ws_flv/', hls: '/hls/', webrtc: '/webrtc/' };
const pathOf = (transport: Transport) => PATH_OF[transport];

describe('live URLs renewed before their play token expires', () => {
  it('renews two minutes before the end, never before half the URLs’ life', () => {
    expect(renewDelayMs(3600)).toBe(3_480_000);
    expect(renewDelayMs(60)).toBe(30_000);
    expect(renewDelayMs(240)).toBe(120_000);
  });

  it('a player that found no transport stays on its error: nothing renews it later', async () => {
    clearSession();
    captureNotices();
    // HLS chosen, and the server does not serve it (the probe finds nothing).
    stubApi({});
    const open = vi.fn(async () => ({ URL: urlsOf(1).WS_FMP4, URLs: urlsOf(1), Stream: 'stream_1_0', State: 'live', UrlsExpireIn: 60 }) as never);
    const phases: string[] = [];
    renderConsole(<LivePlayer device="1" channel="1" flow={0} name="Gate" open={open} transport="hls" onStats={(s) => void phases.push(s.phase)} />);
    await waitFor(() => expect(phases.at(-1)).toBe('error'));
    await act(async () => void vi.advanceTimersByTime(61_000));
    expect(open).toHaveBeenCalledTimes(1);
    expect(started).toHaveLength(0);
  });

  for (const transport of ['ws-fmp4', 'flv', 'hls', 'webrtc'] as Transport[]) {
    it(`${transport}: asks for fresh URLs before the end and plays on them, never showing a reconnect`, async () => {
      clearSession();
      captureNotices();
      // The server's probes of the HTTP outputs: served.
      stubApi({ 'HEAD /hls/stream_1_0/playlist.m3u8': () => ({}), 'OPTIONS /webrtc/whep/stream_1_0': () => ({}) });
      let answers = 0;
      const open = vi.fn(async () => {
        answers++;
        return { URL: urlsOf(answers).WS_FMP4, URLs: urlsOf(answers), Stream: 'stream_1_0', State: 'live', UrlsExpireIn: 60 } as never;
      });
      const phases: string[] = [];
      const onStats = (s: PlayerStats) => void (phases.at(-1) !== s.phase && phases.push(s.phase));
      renderConsole(<LivePlayer device="1" channel="1" flow={0} name="Gate" open={open} transport={transport} onStats={onStats} />);
      await waitFor(() => expect(started).toHaveLength(1));
      act(() => started[0]!.events.onPlaying());
      expect(started[0]!.url).toMatch(new RegExp(`${pathOf(transport)}.*play_token=t1$`));

      // Just before the renewal (half of 60 s): the first URLs still play.
      await act(async () => void vi.advanceTimersByTime(29_000));
      expect(open).toHaveBeenCalledTimes(1);
      await act(async () => void vi.advanceTimersByTime(1_500));
      await waitFor(() => expect(started).toHaveLength(2));
      expect(open).toHaveBeenCalledTimes(2);
      expect(started[0]!.stopped).toBe(true);
      expect(started[1]!.url).toContain('play_token=t2');
      act(() => started[1]!.events.onPlaying());
      // Loading before the first picture, then playing throughout the renewal.
      expect(phases).toEqual(['loading', 'playing']);
    });
  }
});
