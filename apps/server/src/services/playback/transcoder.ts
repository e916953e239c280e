/**
 * The H.264 leg of a playback (the WS_FMP4_H264 URL of devices/record/playback), for browsers without
 * H.265. A recording played back by the platform (fMP4: init, then moof+mdat on the session's output
 * timeline) is read back into access units (init/fragment); a GB device's playback hands its units
 * over as they come (tracks/unit). The video goes through the live variant's transcoder
 * (TranscodeSource: one ffmpeg, backpressure drops to the next keyframe, bounded buffers) and comes
 * out with the audio as the live WS fMP4 (WsFmp4Output). Pacing, pause, speed and seek stay the
 * session's own; a new run (a seek) starts a new ffmpeg and a new output init, close() ends it.
 *
 * A recording whose video changes inside a run (a camera switched from H.264 to H.265, a range across
 * the change) stays ONE stream: every part, H.264 ones included, is transcoded, so what the browser
 * gets is always this encoder's H.264 (same settings, same size: same parameter sets, so no new init
 * and no fresh MediaSource; a part passed through as stored would bring the camera's own parameter
 * sets and need one). Each part needs its own ffmpeg (raw Annex-B input names one codec); the part
 * before is ended gracefully (end of input, it writes out the pictures it holds) while the next one
 * starts, and the next one's pictures wait until it has: no picture lost, none out of order.
 *
 * Above MAX_FULL_SPEED only keyframes reach ffmpeg: at 8× and 16× a full decode and encode does not
 * keep up on a small server, and a picture per keyframe is what a fast forward shows anyway.
 */
import { copyUnit, sameBytes, type AccessUnit, type AudioTrack, type Track, type VideoTrack } from '@opencvr/codec';
import { Fmp4StreamReader } from '@opencvr/fmp4';
import { TRANSCODE_FULL_SPEED_MAX, type Reason } from '@opencvr/shared';
import type { Subscriber } from '../../media/hub.js';
import { TranscodeSource, type TranscodeOptions } from '../../media/transcode.js';
import { WsFmp4Output, type WsLike } from '../../media/outputs/ws-fmp4.js';

/** The fastest speed whose every picture is transcoded; faster sends keyframes only (the player says so). */
export const MAX_FULL_SPEED = TRANSCODE_FULL_SPEED_MAX;

/**
 * Unsent bytes above which the output drops to the next keyframe: far above what the session lets
 * queue before it sends more (2 MiB), so it only bites when the socket has stopped reading.
 */
const OUTPUT_MAX_BUFFERED = 16 * 1024 * 1024;

/** How long the previous part's ffmpeg may take to write out its last pictures before it is killed. */
const DRAIN_MAX_MS = 3000;

export interface PlaybackTranscoderOptions extends TranscodeOptions {
  /** ffmpeg gave up (three runs without a picture): the session stops with this reason. */
  onFailed(reason: Reason, detail: string): void;
}

/** What one ffmpeg run hands the output, in order: a new H.264 track, or a picture. */
type LegOut = { track: VideoTrack } | { unit: AccessUnit };

/** One ffmpeg, for one part of the recording (one input video track). */
interface Leg {
  source: TranscodeSource;
  /** Where the input goes (the source subscribed to its one-track "hub"). */
  subscriber?: Subscriber;
  /** Output held until the part before has written out all of its own (undefined: passes straight). */
  held?: LegOut[];
  /** Resolves once the held output went out (at once for a first part). */
  open: Promise<void>;
}

const sameVideo = (a: VideoTrack, b: VideoTrack) => a.codec === b.codec && sameBytes(a.sps, b.sps) && sameBytes(a.pps, b.pps);
const sameAudio = (a: Track[], b: Track[]) =>
  a.length === b.length &&
  a.every((t, i) => {
    const u = b[i] as AudioTrack;
    return t.kind === 'audio' && u.kind === 'audio' && t.codec === u.codec && t.sampleRate === u.sampleRate && t.channels === u.channels && sameBytes(t.config, u.config);
  });

const sameTracks = (a: Track[], b: Track[]) =>
  a.length === b.length && a.every((t, i) => (t.kind === 'video' ? b[i].kind === 'video' && sameVideo(t, b[i] as VideoTrack) : sameAudio([t], [b[i]])));

export class PlaybackTranscoder {
  private reader = new Fmp4StreamReader();
  private output: WsFmp4Output;
  /** The part being fed now. */
  private leg?: Leg;
  /** Every ffmpeg still running (the part being fed and those writing out their last pictures). */
  private legs = new Set<Leg>();
  /** The input's tracks (reader order): the video index goes to ffmpeg, AAC audio straight out. */
  private input: Track[] = [];
  private videoIndex = -1;
  private audio: Track[] = [];
  private audioIndex = new Map<number, number>();
  /** The H.264 track the output announced this run; audio goes out once there is one. */
  private h264?: VideoTrack;
  /** The init being read continues the run (see the file comment). */
  private continuing = false;
  private closed = false;
  readonly stats = { keyframesOnly: 0, ffmpegRuns: 0 };

  constructor(
    ws: WsLike,
    private readonly opts: PlaybackTranscoderOptions,
  ) {
    this.output = new WsFmp4Output(ws, { maxBufferedBytes: OUTPUT_MAX_BUFFERED });
  }

  /**
   * The session's init segment. A new run (the first, a seek): a fresh timeline, ffmpeg and output
   * init. `continues`: the recording's tracks changed inside the run, whose output runs on.
   */
  init(bytes: Uint8Array, { continues = false }: { continues?: boolean } = {}) {
    if (this.closed) return;
    if (!continues) this.reader.reset();
    this.continuing = continues;
    this.consume(bytes);
    this.continuing = false;
  }

  /** One paced fragment (moof+mdat) at the session's current speed. */
  fragment(bytes: Uint8Array, speed: number) {
    if (this.closed) return;
    this.consume(bytes, speed > MAX_FULL_SPEED);
  }

  /**
   * The input's tracks as access units come (a device's stream). `continues`: a change inside the run
   * (the same tracks again change nothing); else a new run.
   */
  tracks(tracks: Track[], { continues = false }: { continues?: boolean } = {}) {
    if (this.closed) return;
    if (continues && this.leg && sameTracks(this.input, tracks)) return;
    this.start(tracks, continues);
  }

  /** One access unit of the track at `index` of the last tracks(). */
  unit(index: number, unit: AccessUnit, keyframesOnly = false) {
    if (this.closed) return;
    if (index === this.videoIndex) {
      if (keyframesOnly && unit.kind === 'video' && !unit.keyframe) {
        this.stats.keyframesOnly++;
        return;
      }
      this.leg?.subscriber?.unit(0, unit);
      return;
    }
    const i = this.audioIndex.get(index);
    // Before this run's first H.264 picture the output has no (or the last run's) tracks: that audio
    // is dropped (the output would drop it too, as audio starts with the video).
    if (i !== undefined && this.h264) this.output.unit(1 + i, unit);
  }

  /** The run is over (the end of the range or the recordings): ffmpeg writes out what it holds. Resolves then. */
  async finish(): Promise<void> {
    const leg = this.leg;
    if (!leg) return;
    await Promise.all([leg.open, leg.source.finish()]);
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.stopAll();
  }

  private consume(bytes: Uint8Array, keyframesOnly = false) {
    for (const ev of this.reader.push(bytes)) {
      if (ev.type === 'init') this.start(ev.tracks.map((t) => t.track), this.continuing);
      else this.unit(ev.index, ev.unit, keyframesOnly);
    }
  }

  private start(tracks: Track[], continues: boolean) {
    this.input = tracks;
    const audio: Track[] = [];
    this.audioIndex.clear();
    tracks.forEach((t, i) => {
      if (t.kind !== 'audio') return;
      this.audioIndex.set(i, audio.length);
      audio.push(t);
    });
    this.videoIndex = tracks.findIndex((t) => t.kind === 'video');
    const video = tracks[this.videoIndex] as VideoTrack | undefined;
    let after: Promise<void> | undefined;
    if (continues && this.leg) {
      // Other audio cannot run on in the same init: the output announces the new tracks now.
      if (this.h264 && !sameAudio(this.audio, audio)) this.output.tracks([this.h264, ...audio]);
      after = this.drain(this.leg);
    } else {
      this.stopAll();
      this.h264 = undefined;
    }
    this.audio = audio;
    this.leg = video ? this.newLeg(video, after) : undefined;
  }

  /** Ends the part's input; it writes out its last pictures (within DRAIN_MAX_MS). Resolves once they went out. */
  private drain(leg: Leg): Promise<void> {
    leg.subscriber = undefined;
    const finished = Promise.race([leg.source.finish(), new Promise<void>((r) => setTimeout(r, DRAIN_MAX_MS).unref())]);
    return Promise.all([leg.open, finished]).then(() => {
      leg.source.stop();
      this.legs.delete(leg);
    });
  }

  private newLeg(video: VideoTrack, after?: Promise<void>): Leg {
    // The transcoder subscribes to a "hub" of one track: this part's video.
    const source = new TranscodeSource(
      () => ({
        subscribe: (sub: Subscriber) => {
          leg.subscriber = sub;
          sub.tracks([video]);
          return () => {
            if (leg.subscriber === sub) leg.subscriber = undefined;
          };
        },
      }),
      { ...this.opts, encoder: { noProbe: true, steadyHeaders: true, ...this.opts.encoder } },
    );
    const leg: Leg = { source, held: after ? [] : undefined, open: Promise.resolve() };
    if (after) {
      leg.open = after.then(() => {
        const held = leg.held ?? [];
        leg.held = undefined;
        if (this.legs.has(leg)) for (const out of held) this.emit(out);
      });
    }
    this.legs.add(leg);
    this.stats.ffmpegRuns++;
    source.start({
      tracks: (out) => {
        if (this.legs.has(leg) && out[0]?.kind === 'video') this.put(leg, { track: out[0] });
      },
      unit: (_, unit) => {
        if (this.legs.has(leg)) this.put(leg, { unit });
      },
      failed: (detail, why) => {
        if (!this.legs.has(leg)) return;
        this.legs.delete(leg);
        source.stop();
        // A part writing out its last pictures may fail quietly; the part being fed stops the session.
        if (leg === this.leg) this.opts.onFailed(why ?? { key: 'streamTranscodeFailed' }, detail);
      },
    });
    return leg;
  }

  private put(leg: Leg, out: LegOut) {
    // Held pictures are copied: a unit's bytes are only lent for the call.
    if (leg.held) leg.held.push('unit' in out ? { unit: copyUnit(out.unit) } : out);
    else this.emit(out);
  }

  private emit(out: LegOut) {
    if ('track' in out) {
      // The same encoder settings give the same parameter sets: the output (and the player's init) runs on.
      if (this.h264 && sameVideo(this.h264, out.track)) return;
      this.h264 = out.track;
      // Output tracks: the H.264 video first, then the recording's audio (the output leaves out what MSE cannot play).
      this.output.tracks([out.track, ...this.audio]);
    } else if (this.h264) this.output.unit(0, out.unit);
  }

  private stopAll() {
    for (const leg of this.legs) leg.source.stop();
    this.legs.clear();
    this.leg = undefined;
  }
}
