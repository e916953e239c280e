/**
 * FlvMuxer: tracks and access units in, FLV bytes out, for live HTTP-FLV / WS-FLV and files.
 *
 *   const m = new FlvMuxer(hub.tracks);
 *   send(m.header());                       // FLV header, onMetaData, sequence headers
 *   for (const unit of units) for (const tag of m.push(unit)) send(tag);
 *   send(m.retrack(newTracks));             // the camera came back with other parameters
 *
 * One video and one audio track at most (FLV has no track ids): the first of each kind is muxed and
 * units of other tracks are ignored. Tag timestamps are decode times in ms from the first unit
 * muxed; each track's time runs on through jumps (a step back, or forward by more than 10 s, is
 * re-anchored to the track's last time plus its last step), so a player never sees time go back.
 * Nothing is written before the first video keyframe; a unit marked `damaged` and what follows it
 * up to the next keyframe are dropped. A keyframe carrying an SPS/PPS/VPS unlike the current one gets
 * a new sequence header first.
 */
import {
  findParameterSets,
  sameBytes,
  videoTrackFromParameterSets,
  type AccessUnit,
  type AudioTrack,
  type Track,
  type VideoTrack,
} from '@opencvr/codec';
import { Amf0EcmaArray, encodeAmf0, type Amf0Value } from './amf0.js';
import { audioFrame, audioSequenceHeader, soundFormat } from './audio.js';
import { flvHeader, flvTag, TagType } from './tag.js';
import {
  videoCodecId,
  videoConfig,
  videoEndOfSequence,
  videoFrame,
  videoSequenceHeader,
  type HevcMode,
} from './video.js';

export interface FlvMuxerOptions {
  /** How H.265 is written (default 'enhanced'); see HevcMode. */
  hevc?: HevcMode;
  /** Drop damaged video units up to the next keyframe (default true). */
  dropDamaged?: boolean;
}

/** A forward step longer than this is a discontinuity, not time passing. */
const MAX_STEP_MS = 10_000;

interface Clock {
  /** Seconds subtracted from the unit's own time. */
  offset?: number;
  lastMs?: number;
  stepMs: number;
}

export class FlvMuxer {
  private video?: VideoTrack;
  private audio?: AudioTrack;
  private videoIndex = -1;
  private audioIndex = -1;
  private readonly hevc: HevcMode;
  private readonly dropDamaged: boolean;
  private started = false;
  private broken = false;
  private origin?: number;
  private videoClock: Clock = { stepMs: 40 };
  private audioClock: Clock = { stepMs: 20 };
  /** Largest timestamp written, where a retrack's headers go. */
  private lastMs = 0;

  constructor(tracks: readonly Track[], opts: FlvMuxerOptions = {}) {
    this.hevc = opts.hevc ?? 'enhanced';
    this.dropDamaged = opts.dropDamaged ?? true;
    this.setTracks(tracks);
  }

  get hasVideo() {
    return !!this.video;
  }
  get hasAudio() {
    return !!this.audio;
  }

  private setTracks(tracks: readonly Track[]) {
    this.videoIndex = tracks.findIndex((t) => t.kind === 'video');
    this.audioIndex = tracks.findIndex((t) => t.kind === 'audio');
    this.video = this.videoIndex >= 0 ? (tracks[this.videoIndex] as VideoTrack) : undefined;
    this.audio = this.audioIndex >= 0 ? (tracks[this.audioIndex] as AudioTrack) : undefined;
    if (!this.video && !this.audio) throw new RangeError('flv: needs a video or an audio track');
    if (this.video) videoConfig(this.video); // fail here, not on the first tag, on bad parameter sets
  }

  /** What a stream starts with: FLV header, onMetaData and the sequence headers. */
  header(): Uint8Array {
    return concat([flvHeader({ audio: this.hasAudio, video: this.hasVideo }), ...this.startTags(0)]);
  }

  /**
   * New tracks mid-stream (the source reconnected): onMetaData and sequence headers for them, at the
   * current time. Units keep their time line; video waits for a keyframe again.
   */
  retrack(tracks: readonly Track[]): Uint8Array {
    const end =
      this.video && this.started ? [flvTag(TagType.video, this.lastMs, videoEndOfSequence(this.video, this.hevc))] : [];
    this.setTracks(tracks);
    this.started = false;
    this.broken = false;
    // The new source's clock is unrelated: each track re-anchors on its first unit.
    // The headers go at the latest time written, and both tracks go on from there.
    this.videoClock = { stepMs: this.videoClock.stepMs, lastMs: this.origin === undefined ? undefined : this.lastMs };
    this.audioClock = { stepMs: this.audioClock.stepMs, lastMs: this.origin === undefined ? undefined : this.lastMs };
    return concat([...end, ...this.startTags(this.lastMs)]);
  }

  /** End-of-sequence tag for a video stream (optional; players also cope with a stream just stopping). */
  end(): Uint8Array {
    return this.video
      ? flvTag(TagType.video, this.lastMs, videoEndOfSequence(this.video, this.hevc))
      : new Uint8Array(0);
  }

  private startTags(ms: number): Uint8Array[] {
    const tags = [flvTag(TagType.script, ms, [encodeAmf0('onMetaData', new Amf0EcmaArray(this.metadata()))])];
    if (this.video) tags.push(flvTag(TagType.video, ms, videoSequenceHeader(this.video, this.hevc)));
    const ash = this.audio && audioSequenceHeader(this.audio);
    if (ash) tags.push(flvTag(TagType.audio, ms, ash));
    return tags;
  }

  metadata(): Record<string, Amf0Value> {
    const m: Record<string, Amf0Value> = { duration: 0 };
    if (this.video) {
      m.width = this.video.width;
      m.height = this.video.height;
      m.videocodecid = videoCodecId(this.video, this.hevc);
    }
    if (this.audio) {
      m.audiocodecid = soundFormat(this.audio);
      m.audiosamplerate = this.audio.sampleRate;
      m.audiosamplesize = 16;
      m.stereo = this.audio.channels > 1;
    }
    m.encoder = 'OpenCVR';
    return m;
  }

  /** Tags for one unit (none, one, or a sequence header and the frame). */
  push(unit: AccessUnit, trackIndex?: number): Uint8Array[] {
    const index = trackIndex ?? (unit.kind === 'video' ? this.videoIndex : this.audioIndex);
    if (unit.kind === 'video') {
      if (index !== this.videoIndex || !this.video) return [];
      if (this.dropDamaged) {
        if (unit.damaged) {
          this.broken = true;
          return [];
        }
        if (this.broken && !unit.keyframe) return [];
        this.broken = false;
      }
      if (!this.started && !unit.keyframe) return [];
      const out: Uint8Array[] = [];
      const ms = this.time(this.videoClock, unit.dts / 90000);
      if (unit.keyframe) {
        this.started = true;
        const changed = this.parameterSetChange(unit.nalus);
        if (changed) {
          this.video = changed;
          out.push(flvTag(TagType.video, ms, videoSequenceHeader(changed, this.hevc)));
        }
      }
      const cts = (unit.pts - unit.dts) / 90;
      out.push(flvTag(TagType.video, ms, videoFrame(this.video, this.hevc, unit.keyframe, cts, unit.nalus)));
      return out;
    }
    if (index !== this.audioIndex || !this.audio) return [];
    if (this.video && !this.started) return [];
    const ms = this.time(this.audioClock, unit.pts / this.audio.sampleRate);
    return [flvTag(TagType.audio, ms, audioFrame(this.audio, unit.data))];
  }

  /** A track whose parameter sets are this keyframe's in-band ones, when they differ from the current. */
  private parameterSetChange(nalus: readonly Uint8Array[]): VideoTrack | undefined {
    const v = this.video!;
    const found = findParameterSets(v.codec, nalus);
    if (!found.sps && !found.pps && !found.vps) return undefined;
    const next = { sps: found.sps ?? v.sps, pps: found.pps ?? v.pps, vps: found.vps ?? v.vps };
    if (sameBytes(next.sps, v.sps) && sameBytes(next.pps, v.pps) && sameBytes(next.vps, v.vps)) return undefined;
    try {
      const t = videoTrackFromParameterSets(v.codec, next);
      videoConfig(t);
      return t;
    } catch {
      return undefined; // unreadable in-band sets: keep the known ones
    }
  }

  private time(clock: Clock, seconds: number): number {
    this.origin ??= seconds;
    clock.offset ??= clock.lastMs === undefined ? this.origin : seconds - (clock.lastMs + clock.stepMs) / 1000;
    let ms = Math.round((seconds - clock.offset) * 1000);
    if (clock.lastMs !== undefined) {
      const step = ms - clock.lastMs;
      if (step < 0 || step > MAX_STEP_MS) {
        clock.offset = seconds - (clock.lastMs + clock.stepMs) / 1000;
        ms = clock.lastMs + clock.stepMs;
      } else if (step > 0) clock.stepMs = step;
    }
    ms = Math.max(0, ms);
    clock.lastMs = ms;
    if (ms > this.lastMs) this.lastMs = ms;
    return ms;
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
