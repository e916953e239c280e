/**
 * LL-HLS media playlists (RFC 8216bis): a pure function from the segmenter's window to the text, so
 * its syntax is tested apart from timing. Every URI gets the request's query suffix (the play token),
 * so segment, part and init requests carry the same authorisation as the playlist request.
 */

export interface PlaylistPart {
  duration: number;
  uri: string;
  independent: boolean;
}

export interface PlaylistSegment {
  msn: number;
  /** Absent for the segment still being written (only its parts are listed). */
  duration?: number;
  uri: string;
  parts?: PlaylistPart[];
  /** A new init segment starts here (source reconnected with other tracks). */
  discontinuity: boolean;
  /** EXT-X-MAP URI in effect for this segment. */
  map: string;
  /** Wall-clock time of the segment's first sample (EXT-X-PROGRAM-DATE-TIME). */
  programDateTime?: Date;
}

export interface PlaylistModel {
  targetDuration: number;
  partTarget: number;
  mediaSequence: number;
  discontinuitySequence: number;
  segments: PlaylistSegment[];
  /** URI of the next part, which the server will block on until it exists. */
  preloadHint?: string;
  /**
   * Where a player starts (EXT-X-START TIME-OFFSET, seconds, negative: from the end of the last part),
   * when the window's newest init began too near the end for a player's own live start to miss the
   * segments before it.
   */
  startOffset?: number;
}

const num = (x: number) => x.toFixed(5).replace(/0+$/, '').replace(/\.$/, '.0');
const withQuery = (uri: string, suffix: string) =>
  suffix ? `${uri}${uri.includes('?') ? '&' : '?'}${suffix.replace(/^[?&]/, '')}` : uri;

export function renderPlaylist(m: PlaylistModel, querySuffix = ''): string {
  const q = (uri: string) => withQuery(uri, querySuffix);
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:9',
    `#EXT-X-TARGETDURATION:${m.targetDuration}`,
    `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=${num(m.partTarget * 3)}`,
    `#EXT-X-PART-INF:PART-TARGET=${num(m.partTarget)}`,
    `#EXT-X-MEDIA-SEQUENCE:${m.mediaSequence}`,
  ];
  if (m.discontinuitySequence) lines.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${m.discontinuitySequence}`);
  if (m.startOffset !== undefined) lines.push(`#EXT-X-START:TIME-OFFSET=${num(m.startOffset)},PRECISE=YES`);
  let map: string | undefined;
  m.segments.forEach((s, i) => {
    if (s.discontinuity && i > 0) lines.push('#EXT-X-DISCONTINUITY');
    if (s.map !== map) {
      map = s.map;
      lines.push(`#EXT-X-MAP:URI="${q(s.map)}"`);
    }
    if (s.programDateTime) lines.push(`#EXT-X-PROGRAM-DATE-TIME:${s.programDateTime.toISOString()}`);
    for (const p of s.parts ?? [])
      lines.push(`#EXT-X-PART:DURATION=${num(p.duration)},URI="${q(p.uri)}"${p.independent ? ',INDEPENDENT=YES' : ''}`);
    if (s.duration !== undefined) lines.push(`#EXTINF:${num(s.duration)},`, q(s.uri));
  });
  if (m.preloadHint) lines.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${q(m.preloadHint)}"`);
  return `${lines.join('\n')}\n`;
}

/** The query suffix that carries a request's authorisation on to the playlist's URIs. */
export function authSuffix(query: Record<string, unknown> | undefined): string {
  const pt = query?.play_token;
  if (typeof pt === 'string' && pt) return `play_token=${encodeURIComponent(pt)}`;
  const t = query?.token;
  if (typeof t === 'string' && t) return `token=${encodeURIComponent(t)}`;
  return '';
}
