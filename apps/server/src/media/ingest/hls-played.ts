/**
 * Where a pulled live HLS playlist was when its last run ended, so the next run does not play old
 * segments again. ffmpeg's HLS demuxer starts a live playlist 3 segments from its end: after a source
 * stopped (its playlist still served, unchanged), every retry replayed those 3 segments as if live and
 * then stalled, and the channel looked alive. The pull source records the playlist's newest segment
 * when a run ends (hlsRunEnded) and, before the next run, compares (hlsResume): unchanged is stale (no
 * ffmpeg run, statusHlsStale, the hub keeps retrying with its back-off), advanced starts ffmpeg at the
 * first new segment. Kept per address for the process (a retry is a new source), bounded.
 */
import type { HlsPlaylist } from '../../access/hls-playlist.js';

interface Played {
  /** The newest segment when the run ended: "<media sequence number> <URI>" (readHlsPlaylist's newest). */
  newest: string;
  /** When that was recorded: how long the playlist has not changed. */
  at: number;
}

const played = new Map<string, Played>();
/** ffmpeg's own live start (its HLS demuxer's default live_start_index -3). */
const LIVE_START_MAX = 3;
const MEMORY = 1000;

/** Whether the address is an HLS playlist (what ffmpeg will open with its HLS demuxer). */
export function isHlsAddress(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'http:' || u.protocol === 'https:') && /\.m3u8?$/i.test(u.pathname);
  } catch {
    return false;
  }
}

/** A run of `address` ended while the playlist read `list`: its newest segment counts as played. */
export function hlsRunEnded(address: string, list: HlsPlaylist | undefined, now = Date.now()) {
  if (list?.kind !== 'media' || !list.newest || list.ended) return;
  if (played.get(address)?.newest === list.newest) return;
  if (played.size >= MEMORY) played.clear();
  played.set(address, { newest: list.newest, at: now });
}

export type HlsResume =
  /** Nothing known (a first run, or unreadable): ffmpeg starts where it would. */
  | { kind: 'play' }
  /** New segments since the last run: ffmpeg starts at the first of them (-live_start_index -count). */
  | { kind: 'from'; liveStartIndex: number }
  /** The newest segment is the one the last run ended on, `seconds` ago. */
  | { kind: 'stale'; seconds: number };

/** What the next run of `address` should do, with the playlist as it reads now. */
export function hlsResume(address: string, list: HlsPlaylist | undefined, now = Date.now()): HlsResume {
  const last = played.get(address);
  if (!last || list?.kind !== 'media' || !list.newest || list.ended) return { kind: 'play' };
  if (list.newest === last.newest) return { kind: 'stale', seconds: Math.max(1, Math.round((now - last.at) / 1000)) };
  const before = Number(last.newest.split(' ')[0]);
  const after = Number(list.newest.split(' ')[0]);
  // A sequence that went back (the source restarted its numbering): all of it is new. At most as far
  // back as ffmpeg starts a live playlist anyway (3 segments): older new ones would come as a burst
  // and leave the viewer that much behind live.
  const count = Math.min(after > before ? after - before : list.segments, list.segments, LIVE_START_MAX);
  played.delete(address);
  return { kind: 'from', liveStartIndex: -count };
}
