/**
 * How far behind live the HLS player plays: the real hls.js with the player's settings, on the
 * server's LL-HLS playlist (apps/server/src/media/outputs/hls-playlist.ts), targets the playlist's
 * PART-HOLD-BACK (1.5 s). With `liveSyncDurationCount: 2` in the settings hls.js took 2 target
 * durations (4 s) over it, and an LL-HLS viewer played ~3.8 s behind live (Chromium, session 26).
 * A playlist without parts keeps hls.js's own rule: HOLD-BACK, else 3 target durations.
 */
import Hls, { M3U8Parser, PlaylistLevelType } from 'hls.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HLS_CONFIG } from '../src/components/player/hls';

/** The server's playlist of a 2 s GOP camera: four segments, then the parts of the one being written. */
function llPlaylist(): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:9', '#EXT-X-TARGETDURATION:2'];
  lines.push('#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.5', '#EXT-X-PART-INF:PART-TARGET=0.5');
  lines.push('#EXT-X-MEDIA-SEQUENCE:8', '#EXT-X-MAP:URI="init.mp4"');
  for (let msn = 8; msn < 12; msn++) lines.push('#EXTINF:2.0,', `seg_${msn}.m4s`);
  for (let i = 0; i < 3; i++) lines.push(`#EXT-X-PART:DURATION=0.46667,URI="part_12_${i}.m4s"${i ? '' : ',INDEPENDENT=YES'}`);
  lines.push('#EXT-X-PRELOAD-HINT:TYPE=PART,URI="part_12_3.m4s"');
  return `${lines.join('\n')}\n`;
}

function plainPlaylist(holdBack?: number): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:6', '#EXT-X-TARGETDURATION:2'];
  if (holdBack) lines.push(`#EXT-X-SERVER-CONTROL:HOLD-BACK=${holdBack}`);
  lines.push('#EXT-X-MEDIA-SEQUENCE:8', '#EXT-X-MAP:URI="init.mp4"');
  for (let msn = 8; msn < 14; msn++) lines.push('#EXTINF:2.0,', `seg_${msn}.m4s`);
  return `${lines.join('\n')}\n`;
}

/** hls.js's target latency with the player's settings once it has loaded this media playlist. */
function targetLatency(playlist: string): number | null {
  const hls = new Hls(HLS_CONFIG);
  const details = M3U8Parser.parseLevelPlaylist(playlist, 'http://127.0.0.1/hls/stream_1_0/playlist.m3u8', 0, PlaylistLevelType.MAIN, 0, null);
  vi.spyOn(hls, 'latestLevelDetails', 'get').mockReturnValue(details);
  const target = hls.targetLatency;
  hls.destroy();
  return target;
}

afterEach(() => vi.restoreAllMocks());

describe('the HLS player plays as far behind live as the playlist says', () => {
  it('LL-HLS: the server’s PART-HOLD-BACK, not a count of target durations', () => {
    expect(targetLatency(llPlaylist())).toBe(1.5);
  });

  it('a playlist without parts: its HOLD-BACK, else three target durations', () => {
    expect(targetLatency(plainPlaylist(5))).toBe(5);
    expect(targetLatency(plainPlaylist())).toBe(6);
  });
});
