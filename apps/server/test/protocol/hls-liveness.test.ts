/** Whether a live HLS playlist moves, from the earlier looks at it rather than by waiting (access/hls-liveness.ts). */
import { describe, expect, it } from 'vitest';
import { readHlsPlaylist } from '../../src/access/hls-playlist.js';
import { lookAtPlaylist, type MediaPlaylist } from '../../src/access/hls-liveness.js';

/** A window of `count` segments of `seconds` each ending at number `newest`, target 10 s; `dated`: the first one's EXT-X-PROGRAM-DATE-TIME. */
function live(newest: number, o: { count?: number; seconds?: number; dated?: number } = {}): MediaPlaylist {
  const count = o.count ?? 3;
  const first = newest - count + 1;
  const lines = ['#EXTM3U', '#EXT-X-TARGETDURATION:10', `#EXT-X-MEDIA-SEQUENCE:${first}`];
  if (o.dated !== undefined) lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(o.dated).toISOString()}`);
  for (let i = first; i <= newest; i++) lines.push(`#EXTINF:${o.seconds ?? 10},`, `s${i}.ts`);
  return readHlsPlaylist(lines.join('\n')) as MediaPlaylist;
}

const s = 1000;

describe('lookAtPlaylist', () => {
  it('a first look cannot tell: look again every half target duration until 1.5 target durations have passed; unchanged by then is stale', () => {
    const a = 'http://h/first.m3u8';
    expect(lookAtPlaylist(a, live(5), 100 * s)).toEqual({ kind: 'unknown', decideAt: 115 * s, reloadMs: 5 * s });
    expect(lookAtPlaylist(a, live(5), 105 * s)).toMatchObject({ kind: 'unknown', decideAt: 115 * s });
    expect(lookAtPlaylist(a, live(5), 115 * s)).toEqual({ kind: 'stale', seconds: 15 });
    // And from then on at once, with how long at least.
    expect(lookAtPlaylist(a, live(5), 145 * s)).toEqual({ kind: 'stale', seconds: 45 });
  });

  it('a segment that came between two close looks is live at once, and stays so until 1.5 target durations after the look before it', () => {
    const a = 'http://h/moving.m3u8';
    lookAtPlaylist(a, live(5), 100 * s);
    expect(lookAtPlaylist(a, live(6), 104 * s)).toEqual({ kind: 'live' });
    // Unchanged, but it came after 100 s: less than 15 s ago at 112 s.
    expect(lookAtPlaylist(a, live(6), 112 * s)).toEqual({ kind: 'live' });
    // At 116 s it may be 16 s old: look again until 119 s (published by 104 s + 15 s).
    expect(lookAtPlaylist(a, live(6), 116 * s)).toMatchObject({ kind: 'unknown', decideAt: 119 * s });
    expect(lookAtPlaylist(a, live(6), 119 * s)).toEqual({ kind: 'stale', seconds: 15 });
  });

  it('a checker round later: segments that account for the time since the last look are live at once; too few for it are stale at once', () => {
    const a = 'http://h/rounds.m3u8';
    lookAtPlaylist(a, live(5), 100 * s);
    // 30 s later, three new segments of 10 s: it kept up.
    expect(lookAtPlaylist(a, live(8), 130 * s)).toEqual({ kind: 'live' });
    // 30 s later, one new segment: published by 140 s at most, 20 s without one since.
    expect(lookAtPlaylist(a, live(9), 160 * s)).toEqual({ kind: 'stale', seconds: 20 });
    // Segments that slid out of the window count at the listed ones' mean: 6 new in a window of 3 over 60 s kept up.
    expect(lookAtPlaylist(a, live(15), 220 * s)).toEqual({ kind: 'live' });
    // EXTINF rounded down (9 s each for 10 s of time): 30 s short over 300 s, within the tenth of it allowed.
    expect(lookAtPlaylist(a, live(45, { seconds: 9 }), 520 * s)).toEqual({ kind: 'live' });
    // A numbering that went back (the source restarted) is live.
    expect(lookAtPlaylist(a, live(2), 600 * s)).toEqual({ kind: 'live' });
  });

  it('EXT-X-PROGRAM-DATE-TIME near now says live at a first look; far from now (an old segment or a clock that is off) it waits as without', () => {
    const now = Date.parse('2026-06-01T12:00:00Z');
    // The newest of three 10 s segments ends 4 s ago.
    expect(lookAtPlaylist('http://h/dated.m3u8', live(5, { dated: now - 34 * s }), now)).toEqual({ kind: 'live' });
    expect(lookAtPlaylist('http://h/old.m3u8', live(5, { dated: now - 3600 * s }), now)).toMatchObject({ kind: 'unknown' });
    expect(lookAtPlaylist('http://h/ahead.m3u8', live(5, { dated: now + 8 * 3600 * s }), now)).toMatchObject({ kind: 'unknown' });
  });

  it('each address is remembered apart', () => {
    lookAtPlaylist('http://h/one.m3u8', live(5), 100 * s);
    expect(lookAtPlaylist('http://h/two.m3u8', live(5), 200 * s)).toMatchObject({ kind: 'unknown' });
    expect(lookAtPlaylist('http://h/one.m3u8', live(5), 200 * s)).toEqual({ kind: 'stale', seconds: 100 });
  });
});
