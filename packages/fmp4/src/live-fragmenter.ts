/**
 * LiveFragmenter: a fragment per access unit, written the moment the unit arrives, for live viewers
 * (the WebSocket fMP4 output). The Fragmenter (fragmenter.ts, used by the recorder) groups units and
 * needs the next unit's dts for each duration, so a unit waits for its fragment to fill; here nothing
 * waits: each sample's duration is the step INTO it (its dts minus the previous unit's of the track),
 * not the step out of it, which is not known yet.
 *
 * Decode time still runs on without gaps (tfdt of a sample = the previous tfdt + the previous
 * duration), so MSE sees one continuous timeline; with durations shifted by one sample, a sample's
 * decode time is off the camera's by at most the difference of two consecutive steps (the camera's
 * jitter), never drifting. With steady steps (and the first duration equal to them) timestamps equal
 * the camera's, rebased to the first unit.
 *
 * `batch` puts several units (a new viewer's cached GOP) into one fragment, one traf per track, on
 * the same timeline as the per-unit fragments that follow, so a viewer starts with one append.
 */
import type { AccessUnit, Track } from '@opencvr/codec';
import { dtsOf, mediaFragment, type FragmentSample, type TrackRun } from './fragment.js';
import type { Fragment } from './fragmenter.js';
import { initSegment, mimeType, timescaleOf } from './init.js';
import { sampleBytes, sampleFragmentSize, writeSampleFragment } from './sample-fragment.js';

export interface LiveFragmenterOptions {
  /** Leave SEI NAL units out of video samples (default false). */
  dropSei?: boolean;
  /** Drop a damaged video unit and what follows up to the next keyframe (default true). */
  dropDamaged?: boolean;
  /** mfhd sequence number of the first fragment (default 1). */
  firstSequence?: number;
  /** Where fragments are written (see FragmentOptions.allocate); default: a new buffer each. */
  allocate?: (size: number) => Uint8Array;
  /**
   * Bytes left free before each fragment in its buffer (default 0): `data` starts this far into what
   * `allocate` gave, so the caller can put a frame header there and send both as one write.
   */
  headroom?: number;
  /**
   * Carry on the timeline of this fragmenter (its tracks replaced: a camera that came back): the first
   * sample goes where its media ended, the hole of the reconnect closed, and the other tracks keep
   * their distance to it; fragment numbers run on too. Default: a timeline from 0.
   */
  after?: LiveFragmenter;
}

interface LiveTrack {
  id: number;
  track: Track;
  timescale: number;
  /** Output decode time of the next sample; unset until the track's first sample. */
  decodeTime?: number;
  /** Input dts of the track's previous sample. */
  lastDts?: number;
  lastDuration: number;
  /** Video: a keyframe has been seen (other tracks start with the primary video track). */
  started: boolean;
  /** A damaged unit was dropped: drop on until a keyframe. */
  broken: boolean;
}

/** Steps between units longer than this are a discontinuity, not a duration. */
const MAX_GAP_SECONDS = 10;

export interface BatchItem {
  /** Track index (as given to the constructor). */
  track: number;
  unit: AccessUnit;
}

export class LiveFragmenter {
  readonly tracks: readonly Track[];
  private readonly states: LiveTrack[];
  private readonly primary: LiveTrack;
  private readonly dropSei: boolean;
  private readonly dropDamaged: boolean;
  private readonly allocate?: (size: number) => Uint8Array;
  private readonly headroom: number;
  private sequence: number;
  /** Decode time of the sample accept() took last (a field, not a returned object: push runs per frame). */
  private acceptedBase = 0;
  /** Seconds: input time that becomes decode time 0. */
  private origin?: number;
  /** Seconds: where the first sample goes (the end of the fragmenter carried on, else 0). */
  private readonly startAt: number;
  private initCache?: Uint8Array;

  constructor(tracks: readonly Track[], opts: LiveFragmenterOptions = {}) {
    if (!tracks.length) throw new Error('fragmenter needs at least one track');
    this.tracks = tracks;
    this.states = tracks.map((track, i) => ({
      id: i + 1,
      track,
      timescale: timescaleOf(track),
      lastDuration: 0,
      started: track.kind !== 'video',
      broken: false,
    }));
    this.primary = this.states.find((s) => s.track.kind === 'video') ?? this.states[0];
    this.dropSei = opts.dropSei ?? false;
    this.dropDamaged = opts.dropDamaged ?? true;
    this.sequence = opts.after?.sequence ?? opts.firstSequence ?? 1;
    this.startAt = opts.after?.end ?? 0;
    this.allocate = opts.allocate;
    this.headroom = opts.headroom ?? 0;
  }

  /** The initialisation segment for these tracks (ftyp + moov). */
  get init(): Uint8Array {
    return (this.initCache ??= initSegment(this.tracks));
  }

  /** Seconds: where the media written so far ends (the latest track's next decode time). */
  get end(): number {
    let end = this.startAt;
    for (const s of this.states) if (s.decodeTime !== undefined) end = Math.max(end, s.decodeTime / s.timescale);
    return end;
  }

  /** MSE type, e.g. `video/mp4; codecs="avc1.64001f,mp4a.40.2"`. */
  get mimeType(): string {
    return mimeType(this.tracks);
  }

  /**
   * One unit → its own fragment (undefined when the unit is dropped: before the first keyframe, or a
   * damaged unit and those after it). `trackIndex` defaults to the first track of the unit's kind.
   */
  push(unit: AccessUnit, trackIndex?: number): Fragment | undefined {
    const s = this.stateOf(unit, trackIndex);
    const duration = this.accept(s, unit);
    if (duration < 0) return undefined;
    const base = this.acceptedBase;
    const payload = sampleBytes(s.track, unit, this.dropSei);
    const size = sampleFragmentSize(unit, payload);
    const buf = this.buffer(size);
    writeSampleFragment(buf, this.headroom, this.sequence, s.id, s.track, base, unit, duration, this.dropSei, payload);
    const data = buf.subarray(this.headroom, this.headroom + size);
    const ts = s.timescale;
    const fragment: Fragment = {
      sequence: this.sequence,
      data,
      parts: [data],
      byteLength: size,
      keyframe: this.startsOnKeyframe(s, unit),
      startTime: base / ts,
      presentationTime: (base + (unit.kind === 'video' ? unit.pts - unit.dts : 0)) / ts,
      duration: duration / ts,
      tracks: [{ trackId: s.id, baseDecodeTime: base, sampleCount: 1, duration }],
    };
    this.sequence++;
    return fragment;
  }

  /** A fragment led by `first` of track `s` starts on a keyframe of the primary track (always, audio only). */
  private startsOnKeyframe(s: LiveTrack, first: AccessUnit): boolean {
    return s === this.primary && (first.kind === 'video' ? first.keyframe : this.primary.track.kind !== 'video');
  }

  /** A buffer for a fragment of `size` bytes after the headroom. */
  private buffer(size: number): Uint8Array {
    const need = this.headroom + size;
    const buf = this.allocate ? this.allocate(need) : new Uint8Array(need);
    if (buf.length < need) throw new RangeError(`allocate(${need}) gave ${buf.length} bytes`);
    return buf;
  }

  /**
   * Several units (in arrival order) → one fragment, one traf per track; undefined when every unit
   * is dropped. The timeline is the same as if each had been pushed on its own.
   */
  batch(items: readonly BatchItem[]): Fragment | undefined {
    const runs = new Map<LiveTrack, { state: LiveTrack; base: number; samples: FragmentSample[] }>();
    for (const { track, unit } of items) {
      const s = this.stateOf(unit, track);
      const duration = this.accept(s, unit);
      if (duration < 0) continue;
      const run = runs.get(s);
      if (run) run.samples.push({ unit, duration });
      else runs.set(s, { state: s, base: this.acceptedBase, samples: [{ unit, duration }] });
    }
    if (!runs.size) return undefined;
    // Tracks in track order, as a muxer writes them.
    return this.write([...runs.values()].sort((a, b) => a.state.id - b.state.id));
  }

  private stateOf(unit: AccessUnit, trackIndex: number | undefined): LiveTrack {
    const s = trackIndex === undefined ? this.states.find((t) => t.track.kind === unit.kind) : this.states[trackIndex];
    if (!s || s.track.kind !== unit.kind) throw new Error(`no ${unit.kind} track${trackIndex === undefined ? '' : ` at ${trackIndex}`}`);
    return s;
  }

  /**
   * The sample's duration, its decode time left in acceptedBase (advancing the track); -1 when the
   * unit is dropped.
   */
  private accept(s: LiveTrack, unit: AccessUnit): number {
    if (unit.kind === 'video' && this.dropDamaged) {
      if (unit.damaged) {
        s.broken = true;
        return -1;
      }
      if (s.broken) {
        if (!unit.keyframe) return -1;
        s.broken = false;
      }
    }
    if (!s.started) {
      if (unit.kind !== 'video' || !unit.keyframe) return -1;
      s.started = true;
    }
    if (!this.primary.started) return -1; // before the first keyframe nothing is kept
    const dts = dtsOf(unit);
    this.origin ??= dts / s.timescale - this.startAt;
    const duration = this.duration(s, unit, dts);
    const base = s.decodeTime ?? Math.max(Math.ceil(this.startAt * s.timescale), Math.round(dts - this.origin * s.timescale));
    s.decodeTime = base + duration;
    s.lastDts = dts;
    this.acceptedBase = base;
    return duration;
  }

  /** The step from the track's previous unit when sane, else the last good step or the codec's frame length. */
  private duration(s: LiveTrack, unit: AccessUnit, dts: number): number {
    if (s.lastDts !== undefined) {
      const d = Math.round(dts - s.lastDts);
      if (d > 0 && d <= MAX_GAP_SECONDS * s.timescale) {
        s.lastDuration = d;
        return d;
      }
    }
    if (s.lastDuration > 0) return s.lastDuration;
    const t = s.track;
    if (t.kind === 'video') return Math.round(s.timescale / 25);
    if (t.codec === 'aac') return 1024;
    return unit.kind === 'audio' ? Math.max(1, Math.floor(unit.data.length / Math.max(1, t.channels))) : 1024;
  }

  private write(runs: { state: LiveTrack; base: number; samples: FragmentSample[] }[]): Fragment {
    const trackRuns: TrackRun[] = runs.map((r) => ({ trackId: r.state.id, track: r.state.track, baseDecodeTime: r.base, samples: r.samples }));
    const lead = runs.find((r) => r.state === this.primary) ?? runs[0];
    const first = lead.samples[0].unit;
    const keyframe = this.startsOnKeyframe(lead.state, first);
    const ts = lead.state.timescale;
    const cts = first.kind === 'video' ? first.pts - first.dts : 0;
    const data = mediaFragment(this.sequence, trackRuns, { dropSei: this.dropSei, allocate: (n) => this.buffer(n).subarray(this.headroom) });
    const fragment: Fragment = {
      sequence: this.sequence,
      data,
      parts: [data],
      byteLength: data.byteLength,
      keyframe,
      startTime: lead.base / ts,
      presentationTime: (lead.base + cts) / ts,
      duration: lead.samples.reduce((n, x) => n + x.duration, 0) / ts,
      tracks: runs.map((r) => ({
        trackId: r.state.id,
        baseDecodeTime: r.base,
        sampleCount: r.samples.length,
        duration: r.samples.reduce((n, x) => n + x.duration, 0),
      })),
    };
    this.sequence++;
    return fragment;
  }
}
