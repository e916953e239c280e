/**
 * The in-memory window of one HLS stream: fMP4 fragments (from @opencvr/fmp4's Fragmenter) come in as
 * parts; parts are grouped into segments cut before a keyframe part once the segment is long enough
 * (about the target duration), and the last `windowSegments` complete segments are kept. Waiters
 * (blocking playlist reloads, preload-hinted part requests) are woken when a part or segment lands.
 */
import type { PlaylistModel, PlaylistSegment } from './hls-playlist.js';

export interface HlsPart {
  msn: number;
  index: number;
  duration: number;
  independent: boolean;
  data: Uint8Array;
}

export interface HlsSegment {
  msn: number;
  parts: HlsPart[];
  duration: number;
  complete: boolean;
  /** Init generation (0, 1, ... after each change of tracks). */
  init: number;
  discontinuity: boolean;
  startedAt: Date;
  data?: Uint8Array;
}

export interface HlsSegmenterOptions {
  /** Wanted segment duration, seconds (cut at the first keyframe after ~this). */
  targetSegment: number;
  /** Part target duration, seconds (the fragmenter's maximum fragment duration). */
  partTarget: number;
  windowSegments: number;
  /** Complete segments (at the end of the window) whose parts are still listed. */
  partSegments: number;
  /** A segment with no keyframe for this long is cut anyway. */
  maxSegment: number;
}

export const DEFAULT_SEGMENTER_OPTIONS: HlsSegmenterOptions = {
  targetSegment: 2,
  partTarget: 0.5,
  windowSegments: 6,
  partSegments: 2,
  maxSegment: 10,
};

type Waiter = { ready: () => boolean; resolve: (ok: boolean) => void; timer: NodeJS.Timeout };

/** The media sequence number of a stream's first segment (see HlsSegmenter.nextMsn). */
export const FIRST_MSN = 1;

export const initUri = (gen: number) => (gen === 0 ? 'init.mp4' : `init_${gen}.mp4`);
export const segmentUri = (msn: number) => `seg_${msn}.m4s`;
export const partUri = (msn: number, index: number) => `part_${msn}_${index}.m4s`;

export class HlsSegmenter {
  private segments: HlsSegment[] = [];
  private inits: Uint8Array[] = [];
  /**
   * The first segment's media sequence number is 1, not 0 (RFC 8216 allows any start). hls.js (1.7.4)
   * takes the parts of segment 0 for no parts at all while it appends them (its fragment tracker reads
   * the appended part's `sn || -1`), unregisters that segment as evicted and loads its parts again,
   * from its cache, over and over until the playlist stops listing them: every stream's start over
   * HLS made ~100-300 requests in 1-2 s with the picture playing (docs/architecture.md, session 25).
   */
  private nextMsn = FIRST_MSN;
  private discontinuitySequence = 0;
  private pendingDiscontinuity = false;
  private waiters = new Set<Waiter>();
  private maxSegmentSeen = 0;

  constructor(readonly opts: HlsSegmenterOptions = DEFAULT_SEGMENTER_OPTIONS) {}

  /** A new init segment (first tracks, or the source came back with other ones). */
  setInit(init: Uint8Array) {
    this.closeCurrent();
    if (this.inits.length) this.pendingDiscontinuity = true;
    this.inits.push(init);
    // Only the generations still referenced by the window are kept.
    this.wake();
  }

  get initGeneration() {
    return this.inits.length - 1;
  }

  /** A new init segment (after the first) has no part yet: the window ends in the tracks before it. */
  get initPending(): boolean {
    const last = this.segments.at(-1);
    return !!last && last.init < this.inits.length - 1;
  }

  init(gen = this.inits.length - 1): Uint8Array | undefined {
    return this.inits[gen];
  }

  /** One fMP4 fragment (moof+mdat) as a part. */
  addPart(f: { data: Uint8Array; duration: number; keyframe: boolean }) {
    if (!this.inits.length) return;
    let cur = this.current();
    if (
      cur &&
      ((f.keyframe && cur.duration >= this.opts.targetSegment * 0.75) ||
        cur.duration + f.duration > this.opts.maxSegment)
    ) {
      this.closeCurrent();
      cur = undefined;
    }
    if (!cur) {
      cur = {
        msn: this.nextMsn++,
        parts: [],
        duration: 0,
        complete: false,
        init: this.inits.length - 1,
        discontinuity: this.pendingDiscontinuity,
        startedAt: new Date(),
      };
      if (cur.discontinuity) this.pendingDiscontinuity = false;
      this.segments.push(cur);
    }
    cur.parts.push({
      msn: cur.msn,
      index: cur.parts.length,
      duration: f.duration,
      independent: f.keyframe,
      data: f.data,
    });
    cur.duration += f.duration;
    this.trim();
    this.wake();
  }

  private current(): HlsSegment | undefined {
    const last = this.segments[this.segments.length - 1];
    return last && !last.complete ? last : undefined;
  }

  private closeCurrent() {
    const cur = this.current();
    if (!cur) return;
    cur.complete = true;
    cur.data = Buffer.concat(cur.parts.map((p) => p.data));
    this.maxSegmentSeen = Math.max(this.maxSegmentSeen, cur.duration);
  }

  private trim() {
    const complete = this.segments.filter((s) => s.complete).length;
    let drop = complete - this.opts.windowSegments;
    while (drop-- > 0) {
      const gone = this.segments.shift()!;
      if (this.segments[0]?.discontinuity) this.discontinuitySequence++;
      void gone;
    }
  }

  get completeCount() {
    return this.segments.filter((s) => s.complete).length;
  }

  /** The last msn with a complete segment, and the last part (msn, index) written. */
  get position(): { lastComplete: number; lastPart?: { msn: number; index: number } } {
    const complete = this.segments.filter((s) => s.complete);
    const last = this.segments[this.segments.length - 1];
    const lp = last?.parts[last.parts.length - 1];
    return {
      lastComplete: complete.length ? complete[complete.length - 1].msn : -1,
      lastPart: lp && { msn: lp.msn, index: lp.index },
    };
  }

  segment(msn: number): HlsSegment | undefined {
    return this.segments.find((s) => s.msn === msn && s.complete);
  }

  part(msn: number, index: number): HlsPart | undefined {
    return this.segments.find((s) => s.msn === msn)?.parts[index];
  }

  /** Whether the playlist already covers msn/part (_HLS_msn/_HLS_part of a blocking reload). */
  has(msn: number, part?: number): boolean {
    const s = this.segments.find((x) => x.msn === msn);
    if (part === undefined) return !!s?.complete || this.segments.some((x) => x.msn > msn);
    if (!s) return this.segments.some((x) => x.msn > msn);
    return s.parts.length > part || s.complete;
  }

  /** Resolves true once `ready()` holds, false after `timeoutMs`. */
  waitFor(ready: () => boolean, timeoutMs: number): Promise<boolean> {
    if (ready()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const w: Waiter = {
        ready,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(w);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.add(w);
    });
  }

  private wake() {
    for (const w of [...this.waiters]) {
      if (!w.ready()) continue;
      clearTimeout(w.timer);
      this.waiters.delete(w);
      w.resolve(true);
    }
  }

  /** Ends every wait (the stream is going away). */
  close() {
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.resolve(false);
    }
    this.waiters.clear();
  }

  /**
   * A new player's start (EXT-X-START, from the end) at the first segment of the newest init, while
   * older ones precede it within 3 target durations of the end: a player starts that far back or
   * nearer (hls.js here 2, RFC 8216's hold-back 3), so without it a player opened just after the
   * camera came back with another codec (H.265 → H.264) began on the old one's segments, which this
   * browser may not decode (hls.js: bufferAddCodecError, fatal), or on the picture from before the
   * outage. A player already playing ignores it and goes on through the discontinuity.
   */
  private startOffset(targetDuration: number): number | undefined {
    const newest = this.segments.at(-1)?.init;
    const from = this.segments.findIndex((s) => s.init === newest);
    if (from <= 0) return undefined;
    const since = this.segments.slice(from).reduce((n, s) => n + s.duration, 0);
    return since < 3 * targetDuration ? -since : undefined;
  }

  model(): PlaylistModel {
    const complete = this.segments.filter((s) => s.complete);
    const partFrom =
      complete.length > this.opts.partSegments ? complete[complete.length - this.opts.partSegments].msn : -1;
    const segments: PlaylistSegment[] = this.segments.map((s) => ({
      msn: s.msn,
      duration: s.complete ? s.duration : undefined,
      uri: segmentUri(s.msn),
      parts:
        s.msn >= partFrom
          ? s.parts.map((p) => ({ duration: p.duration, uri: partUri(p.msn, p.index), independent: p.independent }))
          : undefined,
      discontinuity: s.discontinuity,
      map: initUri(s.init),
      programDateTime: s.startedAt,
    }));
    const last = this.segments[this.segments.length - 1];
    const hint = last ? (last.complete ? partUri(last.msn + 1, 0) : partUri(last.msn, last.parts.length)) : undefined;
    const targetDuration = Math.max(1, Math.ceil(Math.max(this.opts.targetSegment, this.maxSegmentSeen) - 1e-6));
    return {
      targetDuration,
      startOffset: this.startOffset(targetDuration),
      partTarget: this.opts.partTarget,
      mediaSequence: this.segments[0]?.msn ?? 0,
      discontinuitySequence: this.discontinuitySequence,
      segments,
      preloadHint: hint,
    };
  }
}
