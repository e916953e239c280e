/**
 * The H.265 → H.264 variant of a stream, for browsers without HEVC: a MediaSource for a derived hub
 * (key + "_h264") that subscribes to the original hub, writes its video as Annex-B to ffmpeg's stdin
 * (from a keyframe, with the parameter sets in front) and reads H.264 back from stdout (Annex-B, or
 * FLV for the live leg: whole pictures without waiting for the next) into access units. ffmpeg runs under the Supervisor (restart back-off, kill on stop); three runs in a
 * row that end without a picture fail the source with ffmpeg's last words, and the hub retries.
 *
 * Each output picture takes the time of an input picture: one in, one out (no B-frames, no frame-rate
 * conversion), and the smallest pending input time is used, which also covers a decoder that
 * reorders pictures.
 *
 * The original's sound goes through as it is (the outputs package AAC and G.711 as for any hub), the
 * leg's second track. Its times are the original's, the clock the leg's video times come from; each
 * unit waits until the pictures before it have come out of ffmpeg, so the leg's hub gets both in time
 * order and its cached GOP holds the sound from its keyframe on.
 */
import { copyUnit, h264NalType, joinAnnexB, sameBytes, videoTrackFromParameterSets, type AccessUnit, type AudioAccessUnit, type AudioTrack, type Track, type VideoTrack } from '@opencvr/codec';
import type { Reason } from '@opencvr/shared';
import type { HubState, MediaSource, SourceSink, StreamHub, Subscriber } from './hub.js';
import { transcodeH264Args, type TranscodeH264Options } from './ffmpeg/args.js';
import { Supervisor, type SupervisedRun } from './ffmpeg/supervisor.js';
import { AnnexBAccessUnits } from './transcode-units.js';
import { FlvVideoPictures } from './flv-pictures.js';

export const H264_VARIANT = '_h264';

export interface TranscodeOptions {
  ffmpeg?: string;
  encoder?: Omit<TranscodeH264Options, 'input'>;
  /** Runs in a row without output before the source fails (default 3). */
  maxEmptyRuns?: number;
  restartMinMs?: number;
  restartMaxMs?: number;
  /**
   * Each picture written with an access unit delimiter after it: ffmpeg's parser ends a picture only
   * where the next one starts, so without it every picture waited a frame interval for the next one
   * (measured 68 ms at 15 fps; with it 6 ms). Live only: at the end of a finished input the lone last
   * delimiter makes ffmpeg log an error.
   */
  delimitPictures?: boolean;
  /**
   * The live leg: it exists for an H.265 original only. An original that comes back with H.264 (its
   * encoder setting changed) ends the leg (`streamOriginalNotHevc`), so its viewers go back to the
   * camera's own stream rather than hold an encoder for a camera that needs none; while the original
   * retries its camera, the leg's viewers are told so (SourceSink.waiting). Playback transcodes
   * H.264 parts too (one stream across a codec change) and leaves it off.
   */
  hevcOnly?: boolean;
}

/** The live H.264 leg: starts on the first picture, loses none, keeps the camera's GOPs and one SPS across restarts. */
export const LIVE_TRANSCODE: TranscodeOptions = {
  delimitPictures: true,
  hevcOnly: true,
  encoder: { noProbe: true, steadyHeaders: true, sourceKeyframes: true, flvOutput: true },
};

/** Access unit delimiters (primary_pic_type / pic_type: any) of either codec, to end a picture at once. */
const AUD = { h264: Uint8Array.of(0x09, 0xf0), h265: Uint8Array.of(0x46, 0x01, 0x50) };
const H264_AUD = 9;
const H265_AUD = 35;
/** Sound units held for pictures still in ffmpeg (10 s of 20 ms G.711 packets, more of AAC): a stuck ffmpeg cannot grow it without end. */
const MAX_HELD_AUDIO = 500;

export class TranscodeSource implements MediaSource, Subscriber {
  private sink?: SourceSink;
  private unsubscribe?: () => void;
  private supervisor?: Supervisor;
  private run?: SupervisedRun;
  private input?: VideoTrack;
  private videoIndex = -1;
  private waitKey = true;
  private pending: number[] = [];
  private readonly reader: AnnexBAccessUnits | FlvVideoPictures;
  private sps?: Uint8Array;
  private pps?: Uint8Array;
  private track?: VideoTrack;
  private audioIndex = -1;
  private audio?: AudioTrack;
  /** Copies of the original's sound units not sent yet (see release()). */
  private heldAudio: AudioAccessUnit[] = [];
  private producedThisRun = false;
  private emptyRuns = 0;
  private stopped = false;
  /** finish() waits for the run to exit. */
  private finished?: () => void;
  readonly stats = { in: 0, out: 0, dropped: 0 };

  constructor(
    /** The original's hub, or (playback) anything a subscriber can be fed by. */
    private readonly parent: () => Pick<StreamHub, 'subscribe'> | undefined,
    private readonly opts: TranscodeOptions = {},
  ) {
    this.reader = opts.encoder?.flvOutput ? new FlvVideoPictures() : new AnnexBAccessUnits();
  }

  start(sink: SourceSink) {
    this.sink = sink;
    const hub = this.parent();
    if (!hub) {
      queueMicrotask(() => sink.failed('the original stream is not open', { key: 'streamOriginalClosed' }));
      return;
    }
    this.unsubscribe = hub.subscribe(this);
  }

  stop() {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribe?.();
    void this.supervisor?.stop();
    this.supervisor = undefined;
    this.run = undefined;
    this.finished?.();
    this.finished = undefined;
  }

  /**
   * The input is over (a recording played to its end): ffmpeg gets end of input, writes out the
   * pictures it still holds and exits; resolves then (at once when nothing runs).
   */
  finish(): Promise<void> {
    const supervisor = this.supervisor;
    if (this.stopped || !supervisor?.running) return Promise.resolve();
    return new Promise((resolve) => {
      this.finished = resolve;
      supervisor.finish();
    });
  }

  // Subscriber of the original hub.
  tracks(tracks: Track[]) {
    if (this.stopped) return;
    this.videoIndex = tracks.findIndex((t) => t.kind === 'video');
    const video = tracks[this.videoIndex] as VideoTrack | undefined;
    if (!video) {
      this.sink?.failed('the original stream has no video', { key: 'streamOriginalNoVideo' });
      return;
    }
    if (this.opts.hevcOnly && video.codec !== 'h265') {
      const sink = this.sink;
      this.stop();
      sink?.ended?.(`the original stream is ${video.codec}, not H.265`, { key: 'streamOriginalNotHevc' });
      return;
    }
    const same = this.input && this.input.codec === video.codec && this.supervisor;
    this.input = video;
    this.audioIndex = tracks.findIndex((t) => t.kind === 'audio');
    const audio = tracks[this.audioIndex] as AudioTrack | undefined;
    this.heldAudio = [];
    if (!sameAudio(audio, this.audio)) {
      this.audio = audio;
      if (this.track) this.announce();
    }
    this.waitKey = true;
    if (!same) this.spawn(video.codec === 'h265' ? 'hevc' : 'h264');
  }

  unit(track: number, unit: AccessUnit) {
    if (!this.stopped && track === this.audioIndex && unit.kind === 'audio') {
      // Lent: its bytes are the original's only during this call.
      this.heldAudio.push(copyUnit(unit) as AudioAccessUnit);
      if (this.heldAudio.length > MAX_HELD_AUDIO) this.heldAudio.shift();
      this.release();
      return;
    }
    if (this.stopped || track !== this.videoIndex || unit.kind !== 'video' || !this.run || !this.input) return;
    if (this.waitKey && !unit.keyframe) return;
    let nalus = unit.nalus;
    const h265 = this.input.codec === 'h265';
    const type = (n: Uint8Array) => (h265 ? (n[0] >> 1) & 0x3f : n[0] & 0x1f);
    if (unit.keyframe) {
      const { vps, sps, pps } = this.input;
      const has = (t: number) => nalus.some((n) => type(n) === t);
      const lead = h265 ? (has(33) ? [] : [vps!, sps, pps].filter(Boolean)) : has(7) ? [] : [sps, pps];
      nalus = [...lead, ...nalus];
    }
    if (this.opts.delimitPictures) {
      // The camera's own delimiters go: one after the picture is all, two in a row would be an empty picture.
      const aud = h265 ? H265_AUD : H264_AUD;
      nalus = [...nalus.filter((n) => type(n) !== aud), h265 ? AUD.h265 : AUD.h264];
    }
    if (!this.run.write(joinAnnexB(nalus))) {
      // ffmpeg is behind or gone: skip to the next keyframe rather than feed it a broken sequence.
      this.stats.dropped++;
      this.waitKey = true;
      return;
    }
    this.waitKey = false;
    this.stats.in++;
    this.pending.push(unit.pts);
    if (this.pending.length > 120) this.pending.shift();
  }

  state(state: HubState, reason: string, why?: Reason) {
    if (state === 'retrying') {
      this.waitKey = true;
      this.heldAudio = [];
      if (this.opts.hevcOnly && !this.stopped) {
        // The leg's viewers see the camera's state and words, as the original's viewers do; its next
        // picture announces the track again (a continuing init), which ends their "reconnecting".
        this.sps = undefined;
        this.pps = undefined;
        this.sink?.waiting?.(reason, why);
      }
    }
    if (state === 'stopped' && !this.stopped) {
      const sink = this.sink;
      this.stop();
      sink?.failed(`the original stream stopped${reason ? ` (${reason})` : ''}`, { key: 'streamOriginalClosed' });
    }
  }

  private spawn(input: 'hevc' | 'h264') {
    void this.supervisor?.stop();
    const supervisor = new Supervisor({
      bin: this.opts.ffmpeg,
      args: transcodeH264Args({ input, ...this.opts.encoder }),
      restartMinMs: this.opts.restartMinMs ?? 500,
      restartMaxMs: this.opts.restartMaxMs ?? 10_000,
      onStart: (run) => {
        this.run = run;
        this.waitKey = true;
        this.pending = [];
        this.reader.reset();
        this.producedThisRun = false;
        // The pictures the last run held are lost: the sound after them waits for nothing.
        this.release();
      },
      onStdout: (chunk) => {
        if (this.supervisor === supervisor) this.output(chunk);
      },
      onExit: (reason, restartIn) => {
        if (this.supervisor !== supervisor) return;
        this.run = undefined;
        // The last picture ends with the output: nothing after it says so.
        this.emit(this.reader.flush());
        if (this.finished) {
          this.finished();
          this.finished = undefined;
          return;
        }
        this.emptyRuns = this.producedThisRun ? 0 : this.emptyRuns + 1;
        if (restartIn !== undefined && this.emptyRuns >= (this.opts.maxEmptyRuns ?? 3)) {
          const sink = this.sink;
          this.stop();
          // ffmpeg's words are the log's (the hub's reason); the user reads the catalogue's.
          sink?.failed(`transcoder: ${reason}`, { key: 'streamTranscodeFailed' });
        }
      },
    });
    this.supervisor = supervisor;
    supervisor.start();
  }

  private output(chunk: Buffer) {
    this.emit(this.reader.push(chunk));
  }

  private emit(pictures: Uint8Array[][]) {
    for (const nalus of pictures) {
      const types = nalus.map(h264NalType);
      const sps = nalus[types.indexOf(7)];
      const pps = nalus[types.indexOf(8)];
      if (sps && pps && (!this.sps || !sameBytes(sps, this.sps) || !this.pps || !sameBytes(pps, this.pps))) {
        this.sps = sps;
        this.pps = pps;
        try {
          this.track = videoTrackFromParameterSets('h264', { sps, pps });
          this.announce();
        } catch {
          /* wait for usable parameter sets */
        }
      }
      const pts = this.takePts();
      if (!this.track || pts === undefined) continue;
      this.producedThisRun = true;
      this.emptyRuns = 0;
      this.stats.out++;
      // AUD and repeated parameter sets stay in: outputs strip what their container does not want.
      this.sink?.unit(0, { kind: 'video', pts, dts: pts, keyframe: types.includes(5), nalus: nalus.filter((_, i) => types[i] !== 9) });
      this.release();
    }
  }

  private announce() {
    if (this.track) this.sink?.tracks(this.audio ? [this.track, this.audio] : [this.track]);
  }

  /**
   * Sends the held sound that no picture still in ffmpeg comes before (by time, in 90 kHz). Before the
   * leg has its track, that sound goes nowhere: it is older than the leg's first picture.
   */
  private release() {
    const audio = this.audio;
    if (!audio || !this.heldAudio.length) return;
    let first = Infinity;
    for (const t of this.pending) if (t < first) first = t;
    let n = 0;
    while (n < this.heldAudio.length && (this.heldAudio[n].pts * 90000) / audio.clockRate < first) n++;
    if (!n) return;
    const out = this.heldAudio.splice(0, n);
    if (!this.track || this.stopped) return;
    for (const unit of out) this.sink?.unit(1, unit);
  }

  private takePts(): number | undefined {
    if (!this.pending.length) return undefined;
    let min = 0;
    for (let i = 1; i < this.pending.length; i++) if (this.pending[i] < this.pending[min]) min = i;
    return this.pending.splice(min, 1)[0];
  }
}

/** The same sound to a player: a change re-announces the leg's tracks (a new init), so not for an equal copy. */
function sameAudio(a?: AudioTrack, b?: AudioTrack): boolean {
  if (!a || !b) return a === b;
  return a.codec === b.codec && a.sampleRate === b.sampleRate && a.channels === b.channels && a.clockRate === b.clockRate && sameBytes(a.config, b.config);
}
