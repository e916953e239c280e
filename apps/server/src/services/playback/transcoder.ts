/**
 * The H.264 leg of a playback session (the WS_FMP4_H264 URL of devices/record/playback), for browsers
 * without H.265: the session's paced fragments (its init, then moof+mdat on its output timeline) are
 * read back into access units, the video goes through the live variant's transcoder (TranscodeSource:
 * one ffmpeg, backpressure drops to the next keyframe, bounded buffers) and comes out with the audio as
 * the live WS fMP4 (WsFmp4Output). So pacing, pause, speed and seek stay the session's own; a new init
 * (a seek, or other tracks) starts a new ffmpeg, and close() ends it with the session.
 *
 * Above MAX_FULL_SPEED only keyframes reach ffmpeg: at 8× and 16× a full decode and encode does not
 * keep up on a small server, and a picture per keyframe is what a fast forward shows anyway.
 */
import type { AccessUnit, Track } from '@opencvr/codec';
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

export interface PlaybackTranscoderOptions extends TranscodeOptions {
  /** ffmpeg gave up (three runs without a picture): the session stops with this reason. */
  onFailed(reason: Reason, detail: string): void;
}

export class PlaybackTranscoder {
  private reader = new Fmp4StreamReader();
  private output: WsFmp4Output;
  private source?: TranscodeSource;
  private subscriber?: Subscriber;
  /** The recording's tracks (reader order): the video index goes to ffmpeg, AAC audio straight out. */
  private videoIndex = -1;
  private audio: Track[] = [];
  private audioIndex = new Map<number, number>();
  private closed = false;
  /** The output has this run's tracks (its H.264 came out): audio may go out. */
  private ready = false;
  readonly stats = { keyframesOnly: 0 };

  constructor(
    ws: WsLike,
    private readonly opts: PlaybackTranscoderOptions,
  ) {
    this.output = new WsFmp4Output(ws, { maxBufferedBytes: OUTPUT_MAX_BUFFERED });
  }

  /** The session's init segment: a fresh timeline, so a fresh ffmpeg. */
  init(bytes: Uint8Array) {
    if (this.closed) return;
    this.stopSource();
    this.reader.reset();
    this.consume(bytes);
  }

  /** One paced fragment (moof+mdat) at the session's current speed. */
  fragment(bytes: Uint8Array, speed: number) {
    if (this.closed) return;
    this.consume(bytes, speed > MAX_FULL_SPEED);
  }

  /** The run is over (the end of the range or the recordings): ffmpeg writes out what it holds. Resolves then. */
  finish(): Promise<void> {
    return this.source?.finish() ?? Promise.resolve();
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.stopSource();
  }

  private consume(bytes: Uint8Array, keyframesOnly = false) {
    for (const ev of this.reader.push(bytes)) {
      if (ev.type === 'init') this.start(ev.tracks.map((t) => t.track));
      else if (ev.index === this.videoIndex) {
        if (keyframesOnly && ev.unit.kind === 'video' && !ev.unit.keyframe) {
          this.stats.keyframesOnly++;
          continue;
        }
        this.subscriber?.unit(0, ev.unit);
      } else {
        const i = this.audioIndex.get(ev.index);
        if (i !== undefined) this.audioUnit(i, ev.unit);
      }
    }
  }

  private start(tracks: Track[]) {
    this.videoIndex = tracks.findIndex((t) => t.kind === 'video');
    this.audio = [];
    this.audioIndex.clear();
    tracks.forEach((t, i) => {
      if (t.kind !== 'audio') return;
      this.audioIndex.set(i, this.audio.length);
      this.audio.push(t);
    });
    this.ready = false;
    const video = tracks[this.videoIndex];
    if (!video) return;
    // The transcoder subscribes to a "hub" of one track: this session's video.
    const source = new TranscodeSource(
      () => ({
        subscribe: (sub: Subscriber) => {
          this.subscriber = sub;
          sub.tracks([video]);
          return () => {
            if (this.subscriber === sub) this.subscriber = undefined;
          };
        },
      }),
      { ...this.opts, encoder: { noProbe: true, ...this.opts.encoder } },
    );
    this.source = source;
    let h264: Track | undefined;
    source.start({
      tracks: (out) => {
        if (this.source !== source || !out[0]) return;
        h264 = out[0];
        // Output tracks: the H.264 video first, then the recording's audio (the output leaves out what MSE cannot play).
        this.output.tracks([h264, ...this.audio]);
        this.ready = true;
      },
      unit: (_, unit) => {
        if (this.source === source && h264) this.output.unit(0, unit);
      },
      failed: (detail, why) => {
        if (this.source !== source) return;
        this.stopSource();
        this.opts.onFailed(why ?? { key: 'streamTranscodeFailed' }, detail);
      },
    });
  }

  private audioUnit(i: number, unit: AccessUnit) {
    // Before this run's first H.264 picture the output has no (or the last run's) tracks: that audio
    // is dropped (the output would drop it too, as audio starts with the video).
    if (this.ready) this.output.unit(1 + i, unit);
  }

  private stopSource() {
    this.ready = false;
    this.source?.stop();
    this.source = undefined;
    this.subscriber = undefined;
  }
}
