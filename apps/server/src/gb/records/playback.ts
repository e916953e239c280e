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
 */
import { MANSRTSP_CONTENT_TYPE, mansrtspPause, mansrtspResume, mansrtspScale, mansrtspSeek, parseMansrtspResponse } from '@opencvr/manscdp';
import type { AccessUnit, Track } from '@opencvr/codec';
import { reason as reasonText, type Lang, type Reason } from '@opencvr/shared';
import type { MediaSource } from '../../media/hub.js';
import { WsFmp4Output, type WsLike } from '../../media/outputs/ws-fmp4.js';
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
  private source?: MediaSource;
  private dialog?: GbDialog;
  private deviceEnded?: Reason;
  private videoTracks: Track[] = [];
  /** Hub track index → index among videoTracks. */
  private map = new Map<number, number>();
  /** Units from the last keyframe before the socket came. */
  private early: { track: number; unit: AccessUnit }[] = [];
  private readonly rescaler = new Rescaler();
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

  attach(ws: DevicePlaybackSocket) {
    if (this.socket || this.closed) throw new Error('session already has a socket');
    this.socket = ws;
    this.output = new WsFmp4Output(ws, { maxBufferedBytes: 8 * 1024 * 1024, fragmentSeconds: 0.5 });
    if (this.state === 'waiting') this.state = 'playing';
    if (this.videoTracks.length) this.output.tracks(this.videoTracks);
    for (const e of this.early.splice(0)) this.output.unit(e.track, e.unit);
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
    if (this.output && this.videoTracks.length) this.output.tracks(this.videoTracks);
    this.notify();
  }

  close() {
    if (this.closed) return;
    this.state = 'closed';
    clearInterval(this.stallTimer);
    this.source?.stop();
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
    this.output?.tracks(this.videoTracks);
  }

  private onUnit(track: number, unit: AccessUnit) {
    this.lastUnitAt = Date.now();
    const t = this.map.get(track);
    if (t === undefined || unit.kind !== 'video' || this.closed) return;
    this.stats.units++;
    const { pts, dts } = this.rescaler.map(unit.pts, unit.dts);
    const out: AccessUnit = { ...unit, pts, dts };
    if (this.output) {
      this.output.unit(t, out);
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
    const text = (r: Reason) => reasonText(r.key, this.deps.lang ?? 'zh-CN', r.vars);
    if (!this.invited) {
      for (const w of this.readyWaiters.splice(0)) w.reject(new GbRecordsError(why));
      this.close();
      return;
    }
    this.deps.log?.info({ session: this.id, reason: this.reason.key, vars: this.reason.vars }, 'gb records: device playback ended');
    this.state = 'ended';
    // The socket's words are in the opener's language (the device's own phrases inside stay as written).
    this.send(JSON.stringify(ended ? { type: 'state', state: 'ended', reason: text(ended) } : { type: 'state', state: 'stopped', reason: text(why) }));
    // Let the last fragments and the message go out, then close the socket (the session goes with it).
    setTimeout(() => this.close(), 200).unref();
  }

  private send(data: string) {
    const ws = this.socket;
    if (ws && ws.readyState === OPEN) ws.send(data);
  }

  private notify() {
    this.send(JSON.stringify({ type: 'state', state: this.state, speed: this.speed, source: 'device' }));
  }
}
