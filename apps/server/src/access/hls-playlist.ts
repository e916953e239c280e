/**
 * What the stream checker and the pull source (media/ingest/hls-played.ts) need to know of an HLS
 * playlist (RFC 8216): whether it is one at all (#EXTM3U first), and then either a master
 * playlist's first variant (the URI after an #EXT-X-STREAM-INF) or, for a media playlist, what
 * tells a live one that runs from one that stopped or never was live: its segments, its target
 * duration, the number of its newest segment (EXT-X-MEDIA-SEQUENCE + count - 1) and URI, and
 * whether it has ended (EXT-X-ENDLIST or EXT-X-PLAYLIST-TYPE:VOD: a recording, which never changes
 * again); and what tells how far behind a live one is without waiting for it (hls-liveness.ts): each
 * segment's duration (EXTINF) and, where EXT-X-PROGRAM-DATE-TIME is given, when the newest one ends
 * by the source's clock. Pure text in, answer out.
 */

export type HlsPlaylist =
  | { kind: 'not-hls' }
  | { kind: 'master'; variant?: string }
  | {
      kind: 'media';
      segments: number;
      /** EXT-X-TARGETDURATION in seconds; undefined when absent or unreadable. */
      targetDuration?: number;
      /** What changes when a live playlist gets a new segment: the newest segment's number and URI. */
      newest: string;
      /** The newest segment's media sequence number (EXT-X-MEDIA-SEQUENCE + segments - 1); -1 without segments. */
      sequence: number;
      /** Each listed segment's EXTINF in seconds, oldest first (0 where unreadable). */
      durations: number[];
      /** When the newest segment's media ends (ms since 1970, the source's clock): its EXT-X-PROGRAM-DATE-TIME, or the last one before it plus the durations between; undefined without one. */
      newestEndsAt?: number;
      /** EXT-X-ENDLIST, or a VOD playlist: no segment will be added. */
      ended: boolean;
    };

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
  let sequence = 0;
  let targetDuration: number | undefined;
  let ended = false;
  let inSegment = false;
  let lastUri = '';
  const durations: number[] = [];
  /** By EXT-X-PROGRAM-DATE-TIME: the start of the segment whose URI comes next (the tag dates it), and of the one after that (undated ones follow on). */
  let dated: number | undefined;
  let nextStartsAt: number | undefined;
  let newestEndsAt: number | undefined;
  for (let i = first + 1; i < lines.length; i++) {
    const l = lines[i];
    if (l.startsWith('#EXT-X-STREAM-INF')) {
      master = true;
      // The variant's URI is the next line that is neither empty nor a tag or comment.
      for (let j = i + 1; j < lines.length; j++) {
        if (lines[j] === '' || lines[j].startsWith('#')) continue;
        return { kind: 'master', variant: lines[j] };
      }
    } else if (l.startsWith('#EXTINF')) {
      segments++;
      inSegment = true;
      const d = Number(l.slice('#EXTINF:'.length).split(',')[0]);
      durations.push(Number.isFinite(d) && d > 0 ? d : 0);
    } else if (l.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) {
      const t = Date.parse(l.slice('#EXT-X-PROGRAM-DATE-TIME:'.length));
      dated = Number.isFinite(t) ? t : undefined;
    } else if (l.startsWith('#EXT-X-TARGETDURATION:')) {
      const n = Number(l.slice('#EXT-X-TARGETDURATION:'.length));
      targetDuration = Number.isFinite(n) && n > 0 ? n : undefined;
    } else if (l.startsWith('#EXT-X-MEDIA-SEQUENCE:')) {
      const n = Number(l.slice('#EXT-X-MEDIA-SEQUENCE:'.length));
      sequence = Number.isSafeInteger(n) && n >= 0 ? n : 0;
    } else if (l === '#EXT-X-DISCONTINUITY') {
      // Times do not run on across a discontinuity: only a new EXT-X-PROGRAM-DATE-TIME dates what follows.
      nextStartsAt = undefined;
    } else if (l === '#EXT-X-ENDLIST' || l === '#EXT-X-PLAYLIST-TYPE:VOD') {
      ended = true;
    } else if (inSegment && l !== '' && !l.startsWith('#')) {
      lastUri = l;
      inSegment = false;
      const start = dated ?? nextStartsAt;
      newestEndsAt = start === undefined ? undefined : start + durations[durations.length - 1] * 1000;
      nextStartsAt = newestEndsAt;
      dated = undefined;
    }
  }
  if (master) return { kind: 'master' };
  return {
    kind: 'media',
    segments,
    targetDuration,
    newest: segments ? `${sequence + segments - 1} ${lastUri}` : '',
    sequence: segments ? sequence + segments - 1 : -1,
    durations,
    ...(newestEndsAt === undefined ? {} : { newestEndsAt }),
    ended,
  };
}

/** Whether the bytes so far (at least the first few) begin as a playlist would: "#EXTM3U", maybe after a BOM or blank lines. */
export function looksLikePlaylist(head: Uint8Array): boolean {
  const text = new TextDecoder().decode(head.subarray(0, 64)).replace(/^\uFEFF/, '').trimStart();
  return text.startsWith('#EXTM3U');
}
