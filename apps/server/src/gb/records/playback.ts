/**
 * One playback of a recording kept on a GB28181 device, streamed to the playback page's socket
 * (/ws_m4s/playback/<id>.mp4, the same protocol as the platform's own playback: {type:'init'} then
 * the init segment and fMP4 fragments, {type:'state'} for playing, paused and ended).
 *
 * INVITE s=Playback with t=<start> <end> and u=<channel>:0 (through ctx.gbInvite, which keeps the
 * dialog), RTP/PS received by the GB media source (UDP, TCP passive or active per the gb settings),
 * video access units re-timed by the Rescaler (the speed is put in the timestamps: see rescale.ts)
 * and written by the live WS fMP4 output. Pause, resume, speed and seek are INFO requests in the
 * dialog with MANSRTSP bodies (PAUSE, PLAY, PLAY Scale, PLAY Range). The device's MediaStatus 121 (end
 * of the recording) or its BYE ends the session: 'ended' is sent and the socket closed.
 *
 * Audio is left out: a device's G.711 cannot be played by Media Source, and AAC squeezed by a scale
 * would not play either; the init message says so.
 *
 * Attached with `h264` (URLs.WS_FMP4_H264, answered unless the device's stream is known to be H.264),
 * the socket's output is chosen when the device's video track is known, however long that takes
 * (devices often seek on their own disk for seconds before the first picture): H.265 goes through
 * the platform playback's PlaybackTranscoder (one ffmpeg; a seek starts a new run, keyframes only
 * above TRANSCODE_FULL_SPEED_MAX, as the device's Scale is in the timestamps), H.264 passes through
 * as on the plain URL (the browser plays it, no ffmpeg spent).
 */
import { MANSRTSP_CONTENT_TYPE, mansrtspPause, mansrtspResume, mansrtspScale, mansrtspSeek, parseMansrtspResponse } from '@opencvr/manscdp';
import type { AccessUnit, Track, VideoCodec } from '@opencvr/codec';
import { reason as reasonText, type Lang, type Reason } from '@opencvr/shared';
import type { MediaSource } from '../../media/hub.js';
import { WsFmp4Output, type WsLike } from '../../media/outputs/ws-fmp4.js';
import { MAX_FULL_SPEED, PlaybackTranscoder, type PlaybackTranscoderOptions } from '../../services/playback/transcoder.js';
import type { GbDialog } from '../invite/dialog.js';
import { GbRecordsError, mediaFailure } from './errors.js';
import { Rescaler } from './rescale.js';

export type DevicePlaybackState = 'waiting' | 'playing' | 'paused' | 'ended' | 'closed';

/** Speeds a device accepts (MANSRTSP Scale) among the playback page's speeds. */
export const DEVICE_SPEEDS = [0.5, 1, 2, 4, 8] as const;

export interface DevicePlaybackSocket extends WsLike {
  close(code?: number, reason?: string): void;
}

/** How the session starts its media: the INVITE is made inside, the dialog handed back for INFO. */
export type PlaybackSourceFactory = (hooks: { dialog(d: GbDialog): void; ended(why: Reason): void }) => MediaSource;

export interface DevicePlaybackDeps {
  source: PlaybackSourceFactory;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** Nothing received this long while playing ends the session (default 20 s). */
  stallMs?: number;
  /** The language of the socket's state reasons (the opener's; default zh-CN). */
  lang?: Lang;
  /** ffmpeg and encoder settings of the H.264 leg (attach with h264). */
  transcode?: Omit<PlaybackTranscoderOptions, 'onFailed'>;
  onClose?(): void;
}

const OPEN = 1;

/** The device turned a MANSRTSP control down (its status and reason phrase, as it wrote them). */
const refusedBy = (body: string, status: string, phrase: string) =>
  new GbRecordsError({ key: 'gbControlRefused', vars: { command: body.split(' ')[0], status, phrase } }, true);

export class DevicePlaybackSession {
  state: DevicePlaybackState = 'waiting';
  speed = 1;
  /** Why it ended or stopped (a catalogue reason: playState and the control answer render it per request). */
  reason?: Reason;
  private socket?: DevicePlaybackSocket;
  private output?: WsFmp4Output;
  /** The H.264 leg, when the socket asked for it and the video is H.265 (instead of `output`). */
  private transcoder?: PlaybackTranscoder;
  /** The socket asked for H.264 (the WS_FMP4_H264 URL): the output waits for the video's codec. */
  private wantsH264 = false;
  /** Whether an H.264 leg may start now (the bound on ffmpegs): asked when the leg would start. */
  private transcodeSlot?: () => Reason | undefined;
  /** Waiting for the device's first video track (videoCodec). */
  private codecWaiters: ((codec: VideoCodec | undefined) => void)[] = [];
  private source?: MediaSource;
  private dialog?: GbDialog;
  private deviceEnded?: Reason;
  private videoTracks: Track[] = [];
  /** Hub track index → index among videoTracks. */
  private map = new Map<number, number>();
  /** Units from the last keyframe before the socket came. */
  private early: { track: number; unit: AccessUnit }[] = [];
  private readonly rescaler = new Rescaler();
  /** The state message of an end that came before the socket. */
  private last?: string;
  private cseq = 0;
  /** Recording time (ms from `from`) where the current run began (0, or a seek's target). */
  private runBase = 0;
  private lastUnitAt = Date.now();
  private stallTimer?: NodeJS.Timeout;
  private readyWaiters: { resolve(): void; reject(err: Error): void }[] = [];
  private invited = false;
  readonly stats = { units: 0, infos: [] as string[] };

  constructor(
    readonly id: string,
    /** The GB device asked (for errors that name it). */
    readonly deviceId: string,
    readonly channelPk: number,
    readonly userId: number,
    readonly from: number,
    readonly to: number,
    private readonly deps: DevicePlaybackDeps,
  ) {}

  get closed() {
    return this.state === 'closed';
  }
  get attached() {
    return !!this.socket;
  }

  /** Wall clock (ms) of the last picture received (recording time). */
  get position(): number {
    return Math.min(this.to, this.from + this.runBase + this.rescaler.runSeconds * 1000);
  }

  /** The H.264 leg's work (undefined on the plain path). */
  get transcoding() {
    return this.transcoder?.stats;
  }

  /**
   * The codec of the device's video: at once when known, else when its first track comes, undefined
   * after `waitMs` or when the session ends first.
   */
  videoCodec(waitMs: number): Promise<VideoCodec | undefined> {
    const known = this.videoTracks.find((t) => t.kind === 'video');
    if (known?.kind === 'video') return Promise.resolve(known.codec);
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(undefined), waitMs);
      const done = (codec: VideoCodec | undefined) => {
        clearTimeout(timer);
        this.codecWaiters = this.codecWaiters.filter((w) => w !== done);
        resolve(codec);
      };
      this.codecWaiters.push(done);
    });
  }

  /** Sends the INVITE; resolves once the device answered it, rejects with the cause otherwise. */
  start(): Promise<void> {
    const ready = new Promise<void>((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
    this.source = this.deps.source({
      dialog: (d) => {
        this.dialog = d;
        this.invited = true;
        for (const w of this.readyWaiters.splice(0)) w.resolve();
      },
      ended: (why) => {
        this.deviceEnded = why;
      },
    });
    this.source.start({
      tracks: (t) => this.onTracks(t),
      unit: (track, unit) => this.onUnit(track, unit),
      // The catalogue's reason when the GB source gives one; otherwise gbMediaFailed (its words to the log).
      failed: (detail: string, why?: Reason) => this.onFailed(mediaFailure(detail, why, this.deps.log, { session: this.id })),
    });
    this.stallTimer = setInterval(() => {
      const stall = this.deps.stallMs ?? 20_000;
      if (this.state === 'playing' && this.invited && Date.now() - this.lastUnitAt > stall)
        this.onFailed({ key: 'gbDeviceStoppedSending', vars: { seconds: Math.round(stall / 1000) } });
    }, 1000);
    this.stallTimer.unref();
    return ready;
  }

  /**
   * `h264`: the video in H.264 for a browser without H.265 (transcoded when the device sends H.265,
   * as sent when H.264: decided once its video track is known); `transcodeSlot`: whether an H.264
   * leg may start then (the bound on ffmpegs): if not, the socket is told why and closed.
   */
  attach(ws: DevicePlaybackSocket, { h264 = false, transcodeSlot }: { h264?: boolean; transcodeSlot?: () => Reason | undefined } = {}) {
    if (this.socket || this.closed) throw new Error('session already has a socket');
    this.socket = ws;
    if (this.state === 'ended') {
      this.sayLast();
      return;
    }
    this.wantsH264 = h264;
    this.transcodeSlot = transcodeSlot;
    if (this.state === 'waiting') this.state = 'playing';
    if (this.videoTracks.length) {
      if (!this.chooseOutput()) return;
      this.announce(false);
      for (const e of this.early.splice(0)) this.out(e.track, e.unit);
    }
    this.notify();
  }

  async pause() {
    if (this.state !== 'playing' && this.state !== 'waiting') return;
    await this.info(mansrtspPause(++this.cseq));
    this.state = 'paused';
    this.notify();
  }

  async resume() {
    if (this.state !== 'paused') return;
    await this.info(mansrtspResume(++this.cseq));
    this.state = 'playing';
    this.lastUnitAt = Date.now();
    this.notify();
  }

  async setSpeed(speed: number) {
    if (!(DEVICE_SPEEDS as readonly number[]).includes(speed)) throw new RangeError(`a device plays at ${DEVICE_SPEEDS.join(', ')}×`);
    await this.info(mansrtspScale(++this.cseq, speed));
    this.speed = speed;
    this.rescaler.setScale(speed);
    this.notify();
  }

  /** PLAY Range: npt is seconds from the start of the INVITE's range. */
  async seek(at: number) {
    const offset = Math.max(0, Math.min(at, this.to) - this.from);
    await this.info(mansrtspSeek(++this.cseq, Math.round(offset / 1000)));
    this.runBase = Math.round(offset / 1000) * 1000;
    this.rescaler.rebase();
    if (this.state === 'paused' || this.state === 'ended') this.state = 'playing';
    this.lastUnitAt = Date.now();
    // A fresh init: the player starts a new timeline at the new place, as after a seek of the platform's playback.
    if (this.videoTracks.length) this.announce(false);
    this.notify();
  }

  close() {
    if (this.closed) return;
    this.state = 'closed';
    clearInterval(this.stallTimer);
    this.source?.stop();
    this.transcoder?.close();
    for (const w of [...this.codecWaiters]) w(undefined);
    for (const w of this.readyWaiters.splice(0)) w.reject(this.reason ? new GbRecordsError(this.reason) : new Error('playback closed'));
    const ws = this.socket;
    this.socket = undefined;
    if (ws && ws.readyState === OPEN) ws.close(1000, 'playback closed');
    this.deps.onClose?.();
  }

  private async info(body: string) {
    const d = this.dialog;
    if (!d || this.closed) throw new GbRecordsError({ key: 'gbPlaybackNotRunning' });
    this.stats.infos.push(body);
    const res = await d.request('INFO', body, MANSRTSP_CONTENT_TYPE);
    if (res.status >= 300) throw refusedBy(body, String(res.status), res.reason);
    // The MANSRTSP answer inside the 200 (some devices send none): an RTSP error status is a refusal.
    const text = new TextDecoder().decode(res.body).trim();
    if (text) {
      try {
        const r = parseMansrtspResponse(text);
        if (r.status >= 300) throw refusedBy(body, `RTSP ${r.status}`, r.reason);
      } catch (err) {
        if (err instanceof GbRecordsError) throw err;
      }
    }
  }

  private onTracks(tracks: Track[]) {
    this.map.clear();
    this.videoTracks = [];
    tracks.forEach((t, i) => {
      if (t.kind !== 'video') return;
      this.map.set(i, this.videoTracks.length);
      this.videoTracks.push(t);
    });
    this.early = [];
    const video = this.videoTracks[0];
    if (video?.kind === 'video') for (const w of [...this.codecWaiters]) w(video.codec);
    const leg = this.leg;
    // The device's stream changed inside the run: the H.264 leg runs on (transcoder.ts), the plain output starts anew.
    if (this.videoTracks.length && this.chooseOutput()) this.announce(true);
    // The H.264 socket learns whether the server transcodes (the page says so only then).
    if (this.wantsH264 && !this.closed && this.leg !== leg) this.notify();
  }

  /** What the socket's output does with the video: undecided (no track yet), passed as sent, transcoded. */
  private get leg(): 'undecided' | 'plain' | 'transcoded' {
    return this.transcoder ? 'transcoded' : this.output ? 'plain' : 'undecided';
  }

  /**
   * The socket's output for the video track now known: the transcoder when H.264 was asked and the
   * video is H.265 (then for the rest of the session), else the fMP4 output. False: the session
   * stopped (no H.264 leg may start now).
   */
  private chooseOutput(): boolean {
    if (this.transcoder || !this.socket) return true;
    const video = this.videoTracks[0];
    if (!(this.wantsH264 && video?.kind === 'video' && video.codec === 'h265')) {
      this.output ??= new WsFmp4Output(this.socket, { maxBufferedBytes: 8 * 1024 * 1024, fragmentSeconds: 0.5 });
      return true;
    }
    const busy = this.transcodeSlot?.();
    if (busy) {
      this.stopWith(busy);
      return false;
    }
    // An H.264 stream that turned H.265 inside the run: the transcoder's init replaces the output's.
    this.output = undefined;
    this.transcoder = new PlaybackTranscoder(this.socket, {
      ...this.deps.transcode,
      onFailed: (reason, detail) => {
        this.deps.log?.warn({ session: this.id, detail }, 'gb records: the H.264 transcoder failed');
        this.stopWith(reason);
      },
    });
    return true;
  }

  /** The tracks to the socket's output: a new run (`continues` false: the start, a seek) or a change inside it. */
  private announce(continues: boolean) {
    if (this.transcoder) this.transcoder.tracks(this.videoTracks, { continues });
    else this.output?.tracks(this.videoTracks);
  }

  private out(track: number, unit: AccessUnit) {
    // Above 4× the pictures between keyframes stay out of ffmpeg (the Scale is in the timestamps).
    if (this.transcoder) this.transcoder.unit(track, unit, this.speed > MAX_FULL_SPEED);
    else this.output?.unit(track, unit);
  }

  private onUnit(track: number, unit: AccessUnit) {
    this.lastUnitAt = Date.now();
    const t = this.map.get(track);
    if (t === undefined || unit.kind !== 'video' || this.closed) return;
    this.stats.units++;
    const { pts, dts } = this.rescaler.map(unit.pts, unit.dts);
    const out: AccessUnit = { ...unit, pts, dts };
    if (this.output || this.transcoder) {
      this.out(t, out);
      return;
    }
    // Before the socket: keep from the last keyframe, so the player starts on a picture.
    if (unit.keyframe) this.early = [];
    if (this.early.length || unit.keyframe) this.early.push({ track: t, unit: out });
    if (this.early.length > 3000) this.early = [];
  }

  private onFailed(why: Reason) {
    if (this.closed || this.state === 'ended') return;
    const ended = this.deviceEnded;
    this.reason = ended ?? why;
    clearInterval(this.stallTimer);
    this.source?.stop();
    if (!this.invited) {
      for (const w of this.readyWaiters.splice(0)) w.reject(new GbRecordsError(why));
      this.close();
      return;
    }
    this.deps.log?.info({ session: this.id, reason: this.reason.key, vars: this.reason.vars }, 'gb records: device playback ended');
    this.state = 'ended';
    for (const w of [...this.codecWaiters]) w(undefined);
    // The socket's words are in the opener's language (the device's own phrases inside stay as written).
    this.last = JSON.stringify(ended ? { type: 'state', state: 'ended', reason: this.text(ended) } : { type: 'state', state: 'stopped', reason: this.text(why) });
    // No socket yet (the answer waited for the codec): the one that comes is told (attach); the
    // service's minute without a socket closes the session otherwise.
    if (!this.socket) return;
    // The transcoder's last pictures go out before the player hears of the end (ffmpeg gets end of input).
    const written = this.transcoder ? Promise.race([this.transcoder.finish(), new Promise<void>((r) => setTimeout(r, 3000).unref())]) : Promise.resolve();
    void written.then(() => this.sayLast());
  }

  /** The end's message, then (once it and the last fragments went out) the socket's and the session's close. */
  private sayLast() {
    if (this.last) this.send(this.last);
    setTimeout(() => this.close(), 200).unref();
  }

  /** Ends the session before it played: the socket is told why (a 'stopped' state), then closed. */
  private stopWith(reason: Reason) {
    this.reason = reason;
    this.send(JSON.stringify({ type: 'state', state: 'stopped', reason: this.text(reason) }));
    this.close();
  }

  /** A catalogue reason in the opener's language. */
  private text(r: Reason): string {
    return reasonText(r.key, this.deps.lang ?? 'zh-CN', r.vars);
  }

  private send(data: string) {
    const ws = this.socket;
    if (ws && ws.readyState === OPEN) ws.send(data);
  }

  private notify() {
    const leg = this.wantsH264 && this.leg !== 'undecided' ? { transcoded: this.leg === 'transcoded' } : {};
    this.send(JSON.stringify({ type: 'state', state: this.state, speed: this.speed, source: 'device', ...leg }));
  }
}
