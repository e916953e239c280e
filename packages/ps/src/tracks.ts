/**
 * PS frames → the media hub's tracks and access units (`@opencvr/codec` types).
 *
 * The tracks are announced once: when the video track's parameter sets have been seen (at a
 * keyframe) and every audio stream the PSM names has a frame, or `waitAudioMs` (90 kHz media time)
 * after the video is ready when it has not (devices often announce audio they never send). Units
 * from the first keyframe on are held until then and released with the announcement, so a viewer
 * starts on the first GOP instead of the next. Timestamps start near 0: the earliest held DTS is
 * subtracted from every stream (all share the PS clock, so audio stays in sync); audio is rescaled to
 * its sample rate.
 */
import {
  aacTrack,
  findParameterSets,
  g711Track,
  type AccessUnit,
  type AudioTrack,
  type Track,
  type VideoCodec,
  videoTrackFromParameterSets,
} from '@opencvr/codec';
import { isAudioStreamId } from './constants.js';
import type { PsAudioFrame, PsFrame, PsVideoFrame } from './demux.js';
import type { PsmEntry } from './parser.js';

export interface HubOutput {
  /** Set when the tracks are announced. */
  tracks?: Track[];
  units: { track: number; unit: AccessUnit }[];
}

export interface PsTrackOptions {
  /** How long (90 kHz media time) to wait for an announced audio stream after the video is ready. */
  waitAudioTicks?: number;
  /** Most units held before the announcement. */
  maxHeld?: number;
}

export class PsTrackAssembler {
  private video?: {
    streamId: number;
    codec: VideoCodec;
    params: { vps?: Uint8Array; sps?: Uint8Array; pps?: Uint8Array };
    readyAt?: number;
  };
  private audio = new Map<number, AudioTrack>();
  private tracks?: Track[];
  private index = new Map<number, number>();
  private held: PsFrame[] = [];
  private base = 0;
  private firstAudioAt?: number;
  private readonly waitAudioTicks: number;
  private readonly maxHeld: number;
  /** Units dropped: before the first keyframe, or of a stream that appeared after the announcement. */
  dropped = 0;

  constructor(options: PsTrackOptions = {}) {
    this.waitAudioTicks = options.waitAudioTicks ?? 90000;
    this.maxHeld = options.maxHeld ?? 1000;
  }

  get announced(): Track[] | undefined {
    return this.tracks;
  }

  /** One frame in; the announcement (once) and the units ready to go to the hub out. `streamMap` = the demuxer's last PSM. */
  push(frame: PsFrame, streamMap: readonly PsmEntry[] = []): HubOutput {
    if (this.tracks) {
      const unit = this.unit(frame);
      return { units: unit ? [unit] : [] };
    }
    const now = frame.kind === 'video' ? frame.dts : frame.pts;
    if (frame.kind === 'video') {
      const wasReady = this.video?.readyAt !== undefined;
      this.learnVideo(frame);
      // Units before the first keyframe with parameter sets are of no use to a viewer.
      if (!wasReady && this.video?.readyAt !== undefined) this.held = [];
    } else {
      if (!this.audio.has(frame.streamId)) this.audio.set(frame.streamId, audioTrackOf(frame));
      this.firstAudioAt ??= now;
    }
    const videoExpected = !!this.video || streamMap.some((e) => e.streamId >= 0xe0 && e.streamId <= 0xef);
    if (videoExpected && this.video?.readyAt === undefined) {
      if (frame.kind === 'audio') this.held = [];
      return { units: [] };
    }
    this.held.push(frame);
    if (this.held.length > this.maxHeld) this.held.shift();
    return this.ready(now, streamMap) ? this.announce(streamMap) : { units: [] };
  }

  private learnVideo(frame: PsVideoFrame) {
    if (this.video && this.video.streamId !== frame.streamId) return; // the first video stream only
    // A codec guessed from damaged bytes and then corrected (by a PSM) starts the search over.
    if (!this.video || (this.video.readyAt === undefined && this.video.codec !== frame.codec))
      this.video = { streamId: frame.streamId, codec: frame.codec, params: {} };
    const v = this.video;
    if (v.readyAt !== undefined) return;
    const found = findParameterSets(v.codec, frame.nalus, v.params);
    v.params = { vps: found.vps, sps: found.sps, pps: found.pps };
    if (found.complete && frame.keyframe) {
      try {
        videoTrackFromParameterSets(v.codec, { sps: found.sps!, pps: found.pps!, vps: found.vps });
        v.readyAt = frame.dts;
      } catch {
        /* a parameter set that does not parse: wait for the next keyframe */
      }
    }
  }

  private ready(now: number, streamMap: readonly PsmEntry[]): boolean {
    const mapped = streamMap.length > 0;
    const wantedAudio = streamMap.filter((e) => isAudioStreamId(e.streamId)).map((e) => e.streamId);
    const audioDone = wantedAudio.every((id) => this.audio.has(id));
    if (this.video?.readyAt === undefined) {
      // Audio only: the PSM says there is no video, or none came for a while.
      return mapped ? audioDone : now - (this.firstAudioAt ?? now) >= this.waitAudioTicks;
    }
    if (mapped && audioDone) return true;
    // Without a PSM, audio is waited for a little; a PSM that names audio never sent, a little longer.
    return now - this.video.readyAt >= (mapped ? this.waitAudioTicks : Math.min(this.waitAudioTicks, 18000));
  }

  private announce(streamMap: readonly PsmEntry[]): HubOutput {
    const tracks: Track[] = [];
    if (this.video?.readyAt !== undefined) {
      const { codec, params } = this.video;
      tracks.push(videoTrackFromParameterSets(codec, { sps: params.sps!, pps: params.pps!, vps: params.vps }));
      this.index.set(this.video.streamId, 0);
    }
    // With a PSM, only the audio it names (a stray PES id in damaged data is not a track).
    const named = new Set(streamMap.map((e) => e.streamId));
    for (const [id, t] of this.audio) {
      if (named.size && !named.has(id)) continue;
      this.index.set(id, tracks.length);
      tracks.push(t);
    }
    this.tracks = tracks;
    let base = Infinity;
    for (const h of this.held) base = Math.min(base, h.kind === 'video' ? h.dts : h.pts);
    this.base = Number.isFinite(base) ? base : 0;
    const units: HubOutput['units'] = [];
    for (const h of this.held) {
      const u = this.unit(h);
      if (u) units.push(u);
    }
    this.held = [];
    return { tracks, units };
  }

  private unit(frame: PsFrame): HubOutput['units'][number] | undefined {
    const track = this.index.get(frame.streamId);
    if (track === undefined) {
      this.dropped++;
      return undefined;
    }
    if (frame.kind === 'video') {
      return {
        track,
        unit: {
          kind: 'video',
          pts: frame.pts - this.base,
          dts: frame.dts - this.base,
          keyframe: frame.keyframe,
          nalus: frame.nalus,
          ...(frame.damaged ? { damaged: true } : {}),
        },
      };
    }
    const rate = this.tracks![track].clockRate;
    return {
      track,
      unit: { kind: 'audio', pts: Math.round(((frame.pts - this.base) * rate) / 90000), data: frame.data },
    };
  }
}

function audioTrackOf(frame: PsAudioFrame): AudioTrack {
  if (frame.codec === 'aac' && frame.config) return aacTrack(frame.config);
  return g711Track(frame.codec === 'pcmu' ? 'pcmu' : 'pcma', frame.sampleRate, frame.channels);
}
