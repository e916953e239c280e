/**
 * Fragmenter: access units of several tracks in, fragments out. A fragment is cut before each video
 * keyframe of the primary track (the first video track, else the first track) and whenever it would
 * grow past `maxFragmentDuration`. Each track's decode time runs on without gaps from fragment to
 * fragment: the output decode time is the sum of the sample durations, each taken from the next unit's
 * dts (sane values only; otherwise the last good duration or the codec's frame length).
 *
 * Holding back: a sample's duration needs the next unit's dts, so when the primary track cuts a
 * fragment, the other tracks keep their last unit for the next fragment (one audio frame of latency).
 *
 * A pushed unit is copied (sample-queue.ts): the caller's buffers are free once push() returns. With
 * 'parts' output a video unit may be pushed by reference instead (push(unit, track, true)): its bytes
 * must then stay as they are until its fragment is out or detach() is called.
 */
import type { AccessUnit, Track } from '@opencvr/codec';
import { BoxWriter } from './box.js';
import { dtsOf, fragmentHeaderSize, writeFragmentHeader, type RunHeader } from './fragment.js';
import { initSegment, mimeType, timescaleOf } from './init.js';
import { SampleQueue } from './sample-queue.js';

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
  /**
   * 'parts': a fragment is handed out as `parts` (its moof + mdat header, then views of the held sample
   * bytes) without copying them into one buffer, for a writer with writev (the recorder). The parts
   * (and `data`, built from them on demand) are valid until the next push() or flush(). Default 'buffer'.
   */
  output?: 'buffer' | 'parts';
  /**
   * Per track, the bytes its sample buffers start with (default 64 KiB, grown by doubling as needed):
   * sampleCapacities() of a previous fragmenter of the same stream.
   */
  sampleCapacity?: readonly number[];
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
  readonly data: Uint8Array;
  /** The same bytes in pieces (output 'parts'; otherwise [data]). */
  parts: readonly Uint8Array[];
  byteLength: number;
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
  /** The samples of the fragment being filled. */
  pending: SampleQueue;
  /** Output decode time of the next sample; unset until the track's first fragment. */
  decodeTime?: number;
  lastDuration: number;
  started: boolean;
  /** A damaged unit was dropped: drop on until a keyframe. */
  broken: boolean;
}

/**
 * What push() returns when no fragment is cut (nearly every unit): one shared empty array, not a new
 * one per unit (the recorder at 64 streams: ~80 KB/s of young garbage).
 */
const NONE: readonly Fragment[] = Object.freeze([]);

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
  private readonly parts: boolean;
  private sequence: number;
  private origin?: number;
  private initCache?: Uint8Array;
  /** Where 'parts' output writes each fragment's moof + mdat header. */
  private headerBuf?: Uint8Array;
  /**
   * The parts of the last fragment ('parts' output), refilled for the next one (parts are valid until
   * the next push): a new array per fragment grew through several backing stores (~50 parts a second
   * of 1080p25 by reference).
   */
  private partsList: Uint8Array[] = [];

  constructor(tracks: readonly Track[], opts: FragmenterOptions = {}) {
    if (!tracks.length) throw new Error('fragmenter needs at least one track');
    this.tracks = tracks;
    this.states = tracks.map((track, i) => ({
      id: i + 1,
      track,
      timescale: timescaleOf(track),
      pending: new SampleQueue(track.kind === 'video' ? track.codec : undefined, opts.dropSei ?? false, opts.sampleCapacity?.[i]),
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
    this.parts = opts.output === 'parts';
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
   * completed by this unit (usually none or one). `byReference` (a video unit, 'parts' output): the
   * unit is held without copying its bytes (see the class comment).
   */
  push(unit: AccessUnit, trackIndex?: number, byReference = false): readonly Fragment[] {
    const s = trackIndex === undefined ? this.states.find((t) => t.track.kind === unit.kind) : this.states[trackIndex];
    if (!s || s.track.kind !== unit.kind)
      throw new Error(`no ${unit.kind} track${trackIndex === undefined ? '' : ` at ${trackIndex}`}`);
    if (unit.kind === 'video' && this.dropDamaged) {
      if (unit.damaged) {
        s.broken = true;
        return NONE;
      }
      if (s.broken) {
        if (!unit.keyframe) return NONE;
        s.broken = false;
      }
    }
    if (!s.started) {
      if (unit.kind !== 'video' || !unit.keyframe) return NONE;
      s.started = true;
    }
    if (!this.primary.started) return NONE; // before the first keyframe nothing is kept
    SampleQueue.check(unit); // before a fragment is cut: a refused unit must not lose it
    const dts = dtsOf(unit);
    let out = NONE;
    const q = s.pending;
    if (q.count) {
      // Cut now if one more sample (about as long as the last step) would take the run past the limit.
      const span = (dts - q.dts(0)) / s.timescale;
      const step = (dts - q.dts(q.count - 1)) / s.timescale;
      const limit = s === this.primary ? this.maxSeconds : 2 * this.maxSeconds; // others: the primary stalled
      const full = span + Math.max(0, step) > limit + 1e-9;
      if (full || (s === this.primary && unit.kind === 'video' && unit.keyframe)) out = this.emit(s, dts);
    }
    if (byReference && this.parts && unit.kind === 'video') q.pushRef(unit);
    else q.push(unit);
    return out;
  }

  /**
   * Cuts the fragment as push() would before a keyframe of the primary track whose dts is `dts`: the
   * caller is about to let go of the bytes of units held by reference and knows the next keyframe.
   * Returns the fragment, if there was one to cut.
   */
  cutBefore(dts: number): Fragment[] {
    if (!this.primary.pending.count) return [];
    return this.emit(this.primary, dts);
  }

  /**
   * Cuts what is pending except each track's last unit, whose duration is not known before the unit
   * after it (the timeline stays that of the units' times, as with any other cut). For a caller that
   * cuts by the wall clock while no unit comes (the recorder's crash bound). Returns the fragment, if
   * there was one to cut.
   */
  cutHoldingLast(): Fragment[] {
    return this.emit(undefined, undefined, true);
  }

  /** Copies in every sample held by reference: the caller's bytes may change after this. */
  detach(): void {
    for (const s of this.states) s.pending.detach();
  }

  /** End of stream: everything pending goes out (last durations estimated). */
  flush(): Fragment[] {
    return this.emit(undefined, undefined);
  }

  /** Per track, the bytes its sample buffers have grown to (for the next fragmenter's sampleCapacity). */
  sampleCapacities(): number[] {
    return this.states.map((s) => s.pending.capacity);
  }

  /**
   * Gives the sample buffers back to the shared pool (see sample-queue.ts). Call once done with this
   * fragmenter and with every fragment it returned (their parts view those buffers).
   */
  release(): void {
    for (const s of this.states) s.pending.release();
  }

  /** `holdAll`: every track keeps its last unit (otherwise only the tracks other than a `trigger`). */
  private emit(trigger: TrackState | undefined, triggerDts: number | undefined, holdAll = false): Fragment[] {
    if (this.origin === undefined) {
      const firsts = this.states.filter((s) => s.pending.count).map((s) => s.pending.dts(0) / s.timescale);
      if (!firsts.length) return [];
      this.origin = this.rebase ? Math.min(...firsts) : 0;
    }
    const runs: RunHeader[] = [];
    const taken: TrackState[] = [];
    for (const s of this.states) {
      const q = s.pending;
      const hold = holdAll || (trigger !== undefined && s !== trigger) ? 1 : 0;
      const take = q.count - hold;
      if (take <= 0) continue;
      const next = s === trigger ? triggerDts : q.count > take ? q.dts(take) : undefined;
      const base = s.decodeTime ?? Math.max(0, Math.round(q.dts(0) - this.origin * s.timescale));
      const durations = new Array<number>(take);
      let t = base;
      for (let i = 0; i < take; i++) {
        const d = this.duration(s, i, i + 1 < take ? q.dts(i + 1) : next);
        durations[i] = d;
        t += d;
      }
      s.decodeTime = t;
      const video = s.track.kind === 'video';
      runs.push({
        trackId: s.id,
        video,
        baseDecodeTime: base,
        count: take,
        durations,
        sizes: q.sizes,
        keyframes: video ? q.keyframes : undefined,
        ctos: video ? q.ctos : undefined,
        dataBytes: q.bytesOf(take),
      });
      taken.push(s);
    }
    if (!runs.length) return [];
    const leadIndex = Math.max(0, taken.indexOf(this.primary));
    const lead = runs[leadIndex];
    const leadState = taken[leadIndex];
    const hasVideo = this.primary.track.kind === 'video';
    const keyframe = leadState.track.kind === 'video' ? leadState.pending.keyframe(0) : !hasVideo;
    const cts = leadState.track.kind === 'video' ? leadState.pending.cto(0) : 0;
    const ts = leadState.timescale;
    const headerSize = fragmentHeaderSize(runs);
    const byteLength = headerSize + runs.reduce((n, r) => n + r.dataBytes, 0);
    let data: Uint8Array | undefined;
    let parts: Uint8Array[];
    if (this.parts) {
      // The header is written into a buffer kept from fragment to fragment (parts are valid until the
      // next push): a new ArrayBuffer per fragment cost more than writing the header.
      if (!this.headerBuf || this.headerBuf.length < headerSize) this.headerBuf = new Uint8Array(Math.max(1024, headerSize * 2));
      const w = new BoxWriter(headerSize, { fixed: true, into: this.headerBuf.subarray(0, headerSize) });
      writeFragmentHeader(w, this.sequence, runs);
      parts = this.partsList;
      parts.length = 0;
      parts.push(w.finish());
      for (let i = 0; i < runs.length; i++) taken[i].pending.takeParts(runs[i].count, parts);
    } else {
      let into: Uint8Array | undefined;
      if (this.allocate) {
        into = this.allocate(byteLength);
        if (into.length < byteLength) throw new RangeError(`allocate(${byteLength}) gave ${into.length} bytes`);
        into = into.subarray(0, byteLength);
      }
      const w = new BoxWriter(byteLength, { fixed: true, into });
      writeFragmentHeader(w, this.sequence, runs);
      for (let i = 0; i < runs.length; i++) w.bytes(taken[i].pending.take(runs[i].count));
      data = w.finish();
      parts = [data];
    }
    const fragment: Fragment = {
      sequence: this.sequence,
      get data() {
        return (data ??= concat(parts, byteLength));
      },
      parts,
      byteLength,
      keyframe,
      startTime: lead.baseDecodeTime / ts,
      presentationTime: (lead.baseDecodeTime + cts) / ts,
      duration: sum(lead.durations, lead.count) / ts,
      tracks: runs.map((r) => ({
        trackId: r.trackId,
        baseDecodeTime: r.baseDecodeTime,
        sampleCount: r.count,
        duration: sum(r.durations, r.count),
      })),
    };
    this.sequence++;
    return [fragment];
  }

  /** Duration of held sample `i` from the next dts when sane, else an estimate. */
  private duration(s: TrackState, i: number, next: number | undefined): number {
    const video = s.track.kind === 'video';
    if (next !== undefined) {
      const d = Math.round(next - s.pending.dts(i));
      if (d > 0 && d <= MAX_GAP_SECONDS * s.timescale) {
        if (video) s.lastDuration = d;
        return d;
      }
    }
    if (video) return s.lastDuration;
    const t = s.track;
    if (t.kind === 'audio' && t.codec !== 'aac') return Math.max(1, Math.floor(s.pending.size(i) / Math.max(1, t.channels)));
    return 1024;
  }
}

function sum(xs: ArrayLike<number>, n: number): number {
  let total = 0;
  for (let i = 0; i < n; i++) total += xs[i];
  return total;
}

function concat(parts: readonly Uint8Array[], byteLength: number): Uint8Array {
  const out = new Uint8Array(byteLength);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
