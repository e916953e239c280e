/** Where a pulled live HLS playlist stood when a run ended, and what the next run does (hls-played.ts). */
import { describe, expect, it } from 'vitest';
import { readHlsPlaylist } from '../../src/access/hls-playlist.js';
import { hlsResume, hlsRunEnded, isHlsAddress } from '../../src/media/ingest/hls-played.js';

const live = (first: number, count: number, ended = false) =>
  readHlsPlaylist(
    ['#EXTM3U', '#EXT-X-TARGETDURATION:1', `#EXT-X-MEDIA-SEQUENCE:${first}`, ...Array.from({ length: count }, (_, i) => `#EXTINF:1,\ns${first + i}.ts`), ...(ended ? ['#EXT-X-ENDLIST'] : [])].join('\n'),
  );

describe('hls-played', () => {
  it('knows an HLS address by its .m3u8/.m3u path over http(s)', () => {
    expect(['http://h/a/live.m3u8', 'https://h/x.M3U8?t=1', 'http://h/x.m3u'].map(isHlsAddress)).toEqual([true, true, true]);
    expect(['http://h/x.flv', 'rtmp://h/x.m3u8', 'not a url'].map(isHlsAddress)).toEqual([false, false, false]);
  });

  it('a first run plays; an unchanged playlist after a run is stale for the time since; an advanced one starts at its first new segment', () => {
    const a = 'http://h/stale.m3u8';
    expect(hlsResume(a, live(0, 3))).toEqual({ kind: 'play' });
    hlsRunEnded(a, live(4, 3), 1000);
    expect(hlsResume(a, live(4, 3), 5400)).toEqual({ kind: 'stale', seconds: 4 });
    expect(hlsResume(a, live(6, 3), 6000)).toEqual({ kind: 'from', liveStartIndex: -2 });
    // Consumed: the next run's end records anew.
    expect(hlsResume(a, live(6, 3))).toEqual({ kind: 'play' });
  });

  it('more new segments than the window, or a numbering that restarted: the whole window, 3 segments at most (ffmpeg’s own live start)', () => {
    const a = 'http://h/far.m3u8';
    hlsRunEnded(a, live(4, 3));
    expect(hlsResume(a, live(20, 3))).toEqual({ kind: 'from', liveStartIndex: -3 });
    hlsRunEnded(a, live(20, 3));
    expect(hlsResume(a, live(25, 6))).toEqual({ kind: 'from', liveStartIndex: -3 });
    hlsRunEnded(a, live(20, 3));
    expect(hlsResume(a, live(0, 2))).toEqual({ kind: 'from', liveStartIndex: -2 });
  });

  it('an unreadable or ended playlist records nothing and plays', () => {
    const a = 'http://h/other.m3u8';
    hlsRunEnded(a, undefined);
    hlsRunEnded(a, live(0, 3, true));
    expect(hlsResume(a, live(0, 3))).toEqual({ kind: 'play' });
    hlsRunEnded(a, live(0, 3));
    expect(hlsResume(a, undefined)).toEqual({ kind: 'play' });
  });
});
