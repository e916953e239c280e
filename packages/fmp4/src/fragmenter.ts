/**
 * Fragmenter: access units of several tracks in, fragments out. A fragment is cut before each video
 * keyframe of the primary track (the first video track, else the first track) and whenever it would
 * grow past `maxFragmentDuration`. Each track's decode time runs on without gaps from fragment to
 * fragment: the output decode time is the sum of the sample durations, each taken from the next unit's
 * dts (sane values only; otherwise the last good duration or the codec's frame length).
 *
 * Holding back: a sample's duration needs the next unit's dts, so when the primary track cuts a
 * fragment, the other tracks keep their last unit for the next fragment (one audio frame of latency).
 */
import type { AccessUnit, Track } from '@opencvr/codec';
import { dtsOf, mediaFragment, type FragmentSample, type TrackRun } from './fragment.js';
import { initSegment, mimeType, timescaleOf } from './init.js';

export interface FragmenterOptions {
  /**
   * Longest fragment in seconds (default 0.5 for live MSE; ≤ 2 for the recorder). A hard limit on the
   * primary track: a fragment is cut before the sample that would take it past this, keyframe or not.
   */
  maxFragmentDuration?: number;
  /** Start decode times at 0 at the earliest first unit across tracks (default true). */
  rebase?: boolean;
  /** Drop units until the first video keyframe (default true; no effect without video). */
  waitForKeyframe?: boolean;
  /** Leave SEI NAL units out of video samples (default false). */
  dropSei?: boolean;
  /**
   * Drop a video unit marked `damaged` and what follows it up to the next keyframe (default true): the
   * picture freezes on the last good frame instead of showing (or failing on) broken references.
   */
  dropDamaged?: boolean;
  /** mfhd sequence number of the first fragment (default 1). */
  firstSequence?: number;
  /** Where fragments are written (see FragmentOptions.allocate); default: a new buffer each. */
  allocate?: (size: number) => Uint8Array;
}

export interface FragmentTrackInfo {
  trackId: number;
  /** tfdt, in the track's timescale. */
  baseDecodeTime: number;
  sampleCount: number;
  /** Sum of sample durations, in the track's timescale. */
  duration: number;
}

export interface Fragment {
  sequence: number;
  /** moof + mdat. */
  data: Uint8Array;
  /** The fragment starts with a keyframe of the primary video track (always true for audio only). */
  keyframe: boolean;
  /** Decode time of the fragment's first primary sample, in seconds (the recorder's index time). */
  startTime: number;
  /** Presentation time of that sample, in seconds (the keyframe's time when `keyframe`). */
  presentationTime: number;
  /** Seconds covered by the primary track's samples. */
  duration: number;
  tracks: FragmentTrackInfo[];
}

interface TrackState {
  id: number;
  track: Track;
  timescale: number;
  pending: AccessUnit[];
  /** Output decode time of the next sample; unset until the track's first fragment. */
  decodeTime?: number;
  lastDuration: number;
  started: boolean;
  /** A damaged unit was dropped: drop on until a keyframe. */
  broken: boolean;
}

/** Steps between units longer than this are treated as a discontinuity, not a duration. */
const MAX_GAP_SECONDS = 10;

export class Fragmenter {
  readonly tracks: readonly Track[];
  private readonly states: TrackState[];
  private readonly primary: TrackState;
  private readonly maxSeconds: number;
  private readonly rebase: boolean;
  private readonly waitForKeyframe: boolean;
  private readonly dropSei: boolean;
  private readonly dropDamaged: boolean;
  private readonly allocate?: (size: number) => Uint8Array;
  private sequence: number;
  private origin?: number;
  private initCache?: Uint8Array;

  constructor(tracks: readonly Track[], opts: FragmenterOptions = {}) {
    if (!tracks.length) throw new Error('fragmenter needs at least one track');
    this.tracks = tracks;
    this.states = tracks.map((track, i) => ({
      id: i + 1,
      track,
      timescale: timescaleOf(track),
      pending: [],
      lastDuration: track.kind === 'video' ? 3600 : 1024,
      started: track.kind !== 'video',
      broken: false,
    }));
    this.primary = this.states.find((s) => s.track.kind === 'video') ?? this.states[0];
    this.maxSeconds = opts.maxFragmentDuration ?? 0.5;
    if (!(this.maxSeconds > 0)) throw new RangeError('maxFragmentDuration must be > 0');
    this.rebase = opts.rebase ?? true;
    this.waitForKeyframe = opts.waitForKeyframe ?? true;
    this.dropSei = opts.dropSei ?? false;
    this.dropDamaged = opts.dropDamaged ?? true;
    this.sequence = opts.firstSequence ?? 1;
    this.allocate = opts.allocate;
    if (!this.waitForKeyframe) for (const s of this.states) s.started = true;
  }

  /** The initialisation segment for these tracks (ftyp + moov). */
  get init(): Uint8Array {
    return (this.initCache ??= initSegment(this.tracks));
  }

  /** MSE type, e.g. `video/mp4; codecs="avc1.64001f,mp4a.40.2"`. */
  get mimeType(): string {
    return mimeType(this.tracks);
  }

  /**
   * Feeds one unit; `trackIndex` defaults to the first track of the unit's kind. Returns the fragments
   * completed by this unit (usually none or one).
   */
  push(unit: AccessUnit, trackIndex?: number): Fragment[] {
    const s = trackIndex === undefined ? this.states.find((t) => t.track.kind === unit.kind) : this.states[trackIndex];
    if (!s || s.track.kind !== unit.kind)
      throw new Error(`no ${unit.kind} track${trackIndex === undefined ? '' : ` at ${trackIndex}`}`);
    if (unit.kind === 'video' && this.dropDamaged) {
      if (unit.damaged) {
        s.broken = true;
        return [];
      }
      if (s.broken) {
        if (!unit.keyframe) return [];
        s.broken = false;
      }
    }
    if (!s.started) {
      if (unit.kind !== 'video' || !unit.keyframe) return [];
      s.started = true;
    }
    if (!this.primary.started) return []; // before the first keyframe nothing is kept
    const dts = dtsOf(unit);
    const out: Fragment[] = [];
    if (s.pending.length) {
      // Cut now if one more sample (about as long as the last step) would take the run past the limit.
      const span = (dts - dtsOf(s.pending[0])) / s.timescale;
      const step = (dts - dtsOf(s.pending[s.pending.length - 1])) / s.timescale;
      const limit = s === this.primary ? this.maxSeconds : 2 * this.maxSeconds; // others: the primary stalled
      const full = span + Math.max(0, step) > limit + 1e-9;
      if (full || (s === this.primary && unit.kind === 'video' && unit.keyframe)) out.push(...this.emit(s, dts));
    }
    s.pending.push(unit);
    return out;
  }

  /** End of stream: everything pending goes out (last durations estimated). */
  flush(): Fragment[] {
    return this.emit(undefined, undefined);
  }

  private emit(trigger: TrackState | undefined, triggerDts: number | undefined): Fragment[] {
    if (this.origin === undefined) {
      const firsts = this.states.filter((s) => s.pending.length).map((s) => dtsOf(s.pending[0]) / s.timescale);
      if (!firsts.length) return [];
      this.origin = this.rebase ? Math.min(...firsts) : 0;
    }
    const runs: TrackRun[] = [];
    for (const s of this.states) {
      const hold = trigger !== undefined && s !== trigger ? 1 : 0;
      const take = s.pending.length - hold;
      if (take <= 0) continue;
      const units = s.pending.splice(0, take);
      const next = s === trigger ? triggerDts : s.pending.length ? dtsOf(s.pending[0]) : undefined;
      const base = s.decodeTime ?? Math.max(0, Math.round(dtsOf(units[0]) - this.origin * s.timescale));
      let t = base;
      const samples: FragmentSample[] = units.map((unit, i) => {
        const duration = this.duration(s, unit, i + 1 < units.length ? dtsOf(units[i + 1]) : next);
        t += duration;
        return { unit, duration };
      });
      s.decodeTime = t;
      runs.push({ trackId: s.id, track: s.track, baseDecodeTime: base, samples });
    }
    if (!runs.length) return [];
    const lead = runs.find((r) => r.trackId === this.primary.id) ?? runs[0];
    const leadState = this.states[lead.trackId - 1];
    const first = lead.samples[0].unit;
    const hasVideo = this.primary.track.kind === 'video';
    const keyframe = first.kind === 'video' ? first.keyframe : !hasVideo;
    const cts = first.kind === 'video' ? first.pts - first.dts : 0;
    const ts = leadState.timescale;
    const fragment: Fragment = {
      sequence: this.sequence,
      data: mediaFragment(this.sequence, runs, { dropSei: this.dropSei, allocate: this.allocate }),
      keyframe,
      startTime: lead.baseDecodeTime / ts,
      presentationTime: (lead.baseDecodeTime + cts) / ts,
      duration: lead.samples.reduce((n, x) => n + x.duration, 0) / ts,
      tracks: runs.map((r) => ({
        trackId: r.trackId,
        baseDecodeTime: r.baseDecodeTime,
        sampleCount: r.samples.length,
        duration: r.samples.reduce((n, x) => n + x.duration, 0),
      })),
    };
    this.sequence++;
    return [fragment];
  }

  /** Duration of `unit` from the next dts when sane, else an estimate. */
  private duration(s: TrackState, unit: AccessUnit, next: number | undefined): number {
    if (next !== undefined) {
      const d = Math.round(next - dtsOf(unit));
      if (d > 0 && d <= MAX_GAP_SECONDS * s.timescale) {
        if (unit.kind === 'video') s.lastDuration = d;
        return d;
      }
    }
    if (unit.kind === 'video') return s.lastDuration;
    const t = s.track;
    if (t.kind === 'audio' && t.codec !== 'aac')
      return Math.max(1, Math.floor(unit.data.length / Math.max(1, t.channels)));
    return 1024;
  }
}
