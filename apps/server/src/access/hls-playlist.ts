/**
 * What the stream checker needs to know of an HLS playlist (RFC 8216): whether it is one at all
 * (#EXTM3U first), and then either a master playlist's first variant (the URI after an
 * #EXT-X-STREAM-INF) or whether a media playlist lists any segment (#EXTINF). Pure text in, answer out.
 */

export type HlsPlaylist =
  | { kind: 'not-hls' }
  | { kind: 'master'; variant?: string }
  | { kind: 'media'; segments: number };

export function readHlsPlaylist(text: string): HlsPlaylist {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => l.trim());
  let first = 0;
  while (first < lines.length && lines[first] === '') first++;
  if (lines[first] !== '#EXTM3U') return { kind: 'not-hls' };
  let master = false;
  let segments = 0;
  for (let i = first + 1; i < lines.length; i++) {
    const l = lines[i];
    if (l.startsWith('#EXT-X-STREAM-INF')) {
      master = true;
      // The variant's URI is the next line that is neither empty nor a tag or comment.
      for (let j = i + 1; j < lines.length; j++) {
        if (lines[j] === '' || lines[j].startsWith('#')) continue;
        return { kind: 'master', variant: lines[j] };
      }
    } else if (l.startsWith('#EXTINF')) segments++;
  }
  return master ? { kind: 'master' } : { kind: 'media', segments };
}

/** Whether the bytes so far (at least the first few) begin as a playlist would: "#EXTM3U", maybe after a BOM or blank lines. */
export function looksLikePlaylist(head: Uint8Array): boolean {
  const text = new TextDecoder().decode(head.subarray(0, 64)).replace(/^\uFEFF/, '').trimStart();
  return text.startsWith('#EXTM3U');
}
