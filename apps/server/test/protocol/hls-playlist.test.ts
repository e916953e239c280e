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
    expect(readHlsPlaylist('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\na0.ts\n#EXTINF:2.0,\na1.ts\n')).toEqual({ kind: 'media', segments: 2, targetDuration: 2, newest: '1 a1.ts', ended: false });
    expect(readHlsPlaylist('#EXTM3U\n#EXT-X-TARGETDURATION:2\n')).toEqual({ kind: 'media', segments: 0, targetDuration: 2, newest: '', ended: false });
  });

  it('a media playlist’s newest segment: its number from EXT-X-MEDIA-SEQUENCE and its URI (tags between EXTINF and the URI skipped)', () => {
    const live = (seq: number, uris: string[]) => `#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:${seq}\n${uris.map((u) => `#EXTINF:4.0,\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\n${u}\n`).join('')}`;
    expect(readHlsPlaylist(live(41, ['s41.ts', 's42.ts', 's43.ts']))).toMatchObject({ newest: '43 s43.ts', ended: false, targetDuration: 4 });
    // A window that slid by one: another newest segment.
    expect(readHlsPlaylist(live(42, ['s42.ts', 's43.ts', 's44.ts']))).toMatchObject({ newest: '44 s44.ts' });
    // A server that numbers nothing: the URI still tells.
    expect(readHlsPlaylist('#EXTM3U\n#EXTINF:1,\nb.ts\n')).toEqual({ kind: 'media', segments: 1, targetDuration: undefined, newest: '0 b.ts', ended: false });
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
