/**
 * What the stream checker reads of an HLS playlist (access/hls-playlist.ts): a master playlist's
 * first variant, a media playlist's segment count, newest segment and end, anything else is not a playlist.
 */
import { describe, expect, it } from 'vitest';
import { looksLikePlaylist, readHlsPlaylist } from '../../src/access/hls-playlist.js';

describe('readHlsPlaylist', () => {
  it('a master playlist: the URI after the first #EXT-X-STREAM-INF (tags and blank lines between skipped)', () => {
    const text = '\uFEFF#EXTM3U\r\n#EXT-X-VERSION:3\r\n#EXT-X-STREAM-INF:BANDWIDTH=800000\r\n\r\n#EXT-X-FOO\r\nlow/index.m3u8\r\n#EXT-X-STREAM-INF:BANDWIDTH=3000000\r\nhigh/index.m3u8\r\n';
    expect(readHlsPlaylist(text)).toEqual({ kind: 'master', variant: 'low/index.m3u8' });
    expect(readHlsPlaylist('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n')).toEqual({ kind: 'master' });
  });

  it('a media playlist counts its segments; an empty live one has none', () => {
    expect(readHlsPlaylist('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\na0.ts\n#EXTINF:2.0,\na1.ts\n')).toEqual({ kind: 'media', segments: 2, targetDuration: 2, newest: '1 a1.ts', sequence: 1, durations: [2, 2], ended: false });
    expect(readHlsPlaylist('#EXTM3U\n#EXT-X-TARGETDURATION:2\n')).toEqual({ kind: 'media', segments: 0, targetDuration: 2, newest: '', sequence: -1, durations: [], ended: false });
  });

  it('a media playlist’s newest segment: its number from EXT-X-MEDIA-SEQUENCE and its URI (tags between EXTINF and the URI skipped)', () => {
    const live = (seq: number, uris: string[]) => `#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:${seq}\n${uris.map((u) => `#EXTINF:4.0,\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\n${u}\n`).join('')}`;
    expect(readHlsPlaylist(live(41, ['s41.ts', 's42.ts', 's43.ts']))).toMatchObject({ newest: '43 s43.ts', ended: false, targetDuration: 4 });
    // A window that slid by one: another newest segment.
    expect(readHlsPlaylist(live(42, ['s42.ts', 's43.ts', 's44.ts']))).toMatchObject({ newest: '44 s44.ts' });
    // A server that numbers nothing: the URI still tells.
    expect(readHlsPlaylist('#EXTM3U\n#EXTINF:1,\nb.ts\n')).toEqual({ kind: 'media', segments: 1, targetDuration: undefined, newest: '0 b.ts', sequence: 0, durations: [1], ended: false });
  });

  it('each segment’s EXTINF, and when the newest ends by EXT-X-PROGRAM-DATE-TIME (the tag dates the segment whose URI follows; undated ones run on; a discontinuity stops that)', () => {
    const text = [
      '#EXTM3U', '#EXT-X-TARGETDURATION:4', '#EXT-X-MEDIA-SEQUENCE:10',
      '#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z', '#EXTINF:4.0,', 's10.ts',
      '#EXTINF:3.5,title', 's11.ts',
      '#EXTINF:2,', '#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:01:00Z', 's12.ts',
    ].join('\n'); // prettier-ignore
    expect(readHlsPlaylist(text)).toMatchObject({ sequence: 12, durations: [4, 3.5, 2], newestEndsAt: Date.parse('2026-01-01T00:01:02Z') });
    expect(readHlsPlaylist(text + '\n#EXTINF:1,\ns13.ts\n')).toMatchObject({ newestEndsAt: Date.parse('2026-01-01T00:01:03Z') });
    expect(readHlsPlaylist(text + '\n#EXT-X-DISCONTINUITY\n#EXTINF:1,\ns13.ts\n')).not.toHaveProperty('newestEndsAt');
    expect(readHlsPlaylist('#EXTM3U\n#EXT-X-PROGRAM-DATE-TIME:yesterday\n#EXTINF:x,\na.ts\n')).toEqual(expect.not.objectContaining({ newestEndsAt: expect.anything() }));
    expect(readHlsPlaylist('#EXTM3U\n#EXTINF:x,\na.ts\n')).toMatchObject({ durations: [0] });
  });

  it('EXT-X-ENDLIST or EXT-X-PLAYLIST-TYPE:VOD: the playlist has ended (a recording); EVENT is live', () => {
    expect(readHlsPlaylist('#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\na.ts\n#EXT-X-ENDLIST\n')).toMatchObject({ kind: 'media', ended: true });
    expect(readHlsPlaylist('#EXTM3U\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:1,\na.ts\n')).toMatchObject({ kind: 'media', ended: true });
    expect(readHlsPlaylist('#EXTM3U\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:1,\na.ts\n')).toMatchObject({ kind: 'media', ended: false });
  });

  it('anything not starting with #EXTM3U is not a playlist', () => {
    for (const t of ['', '<html>#EXTM3U</html>', '#EXTINF:2,\na.ts', 'FLV\x01']) expect(readHlsPlaylist(t), t).toEqual({ kind: 'not-hls' });
    expect(looksLikePlaylist(new TextEncoder().encode('\n\n#EXTM3U\n'))).toBe(true);
    expect(looksLikePlaylist(new TextEncoder().encode('FLV\x01\x05'))).toBe(false);
  });
});
