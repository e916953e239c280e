/**
 * What the stream checker reads of an HLS playlist (access/hls-playlist.ts): a master playlist's
 * first variant, a media playlist's segment count, anything else is not a playlist.
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
    expect(readHlsPlaylist('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\na0.ts\n#EXTINF:2.0,\na1.ts\n')).toEqual({ kind: 'media', segments: 2 });
    expect(readHlsPlaylist('#EXTM3U\n#EXT-X-TARGETDURATION:2\n')).toEqual({ kind: 'media', segments: 0 });
  });

  it('anything not starting with #EXTM3U is not a playlist', () => {
    for (const t of ['', '<html>#EXTM3U</html>', '#EXTINF:2,\na.ts', 'FLV\x01']) expect(readHlsPlaylist(t), t).toEqual({ kind: 'not-hls' });
    expect(looksLikePlaylist(new TextEncoder().encode('\n\n#EXTM3U\n'))).toBe(true);
    expect(looksLikePlaylist(new TextEncoder().encode('FLV\x01\x05'))).toBe(false);
  });
});
