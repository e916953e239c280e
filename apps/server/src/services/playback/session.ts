/**
 * One playback of a channel's recordings over a WebSocket, in the live WS fMP4 protocol (text
 * {type:'init', mime} before each init segment, binary init and moof+mdat fragments), plus
 * {type:'gap', from, to} when recordings skip a gap, {type:'state', state} for playing, paused and
 * ended. Fragments are paced by the wall clock × speed with one second of media sent ahead; a socket
 * with too much unsent data is waited for, never skipped. Seek restarts at the sync fragment at or
 * before the time (a new 'init', so the player starts a fresh timeline).
 *
 * Attached with `h264` (the WS_FMP4_H264 URL, for a browser without H.265), the same paced init and
 * fragments go through a PlaybackTranscoder instead of straight to the socket: one ffmpeg per run
 * (and per part of a recording whose video changes inside it), ended by a seek's new run and by close().
 */
import fs from 'node:fs/promises';
import { reason as reasonText, type Lang, type Reason } from '@opencvr/shared';
import { mimeOfInit, rewriteMoof, truncateFragment, withTracks, type InitInfo, type InitTrack } from '@opencvr/fmp4';
import type { SegmentFile } from '../recording/service.js';
import type { SegmentReader } from './segment-reader.js';
import { fragmentsBetween, Retimer, sameInit } from './timeline.js';
import { PlaybackTranscoder, type PlaybackTranscoderOptions } from './transcoder.js';

export interface PlaybackSocket {
  readonly bufferedAmount: number;
  readonly readyState: number;
  /** `done`: the bytes are written (the H.264 leg's pooled fragments are reused then). */
  send(data: string | Uint8Array, done?: (err?: Error) => void): void;
  close(code?: number, reason?: string): void;
}

export type PlaybackState = 'waiting' | 'playing' | 'paused' | 'ended' | 'closed';
export const SPEEDS = [0.5, 1, 2, 4, 8, 16] as const;

export interface PlaybackSessionDeps {
  reader: SegmentReader;
  segments(from: Date, to: Date): Promise<SegmentFile[]>;
  log?: { warn(obj: object, msg: string): void };
  /** Media seconds sent ahead of the play head (default 1). */
  leadSeconds?: number;
  maxBufferedBytes?: number;
  /** Gaps longer than this (ms) between recordings are announced. */
  gapMs?: number;
  /** At the end of what is recorded, while the range is not over: look again this often (default 500 ms). */
  followPollMs?: number;
  /** ...as long as a segment is being written or the last fragment ended this recently (default 10 s). */
  followGraceMs?: number;
  onClose?(): void;
  /** The language of the socket's words (the opener's; default zh-CN). */
  lang?: Lang;
  /** ffmpeg and encoder settings of the H.264 leg (attach with h264). */
  transcode?: Omit<PlaybackTranscoderOptions, 'onFailed'>;
  /** Another H.264 leg may start (the service's bound on ffmpegs); when not, the socket is told why. */
  transcodeSlot?: () => Reason | undefined;
}

const OPEN = 1;

/** A recording file that does not hold what its index row says (deleted or cut short under the session). */
class RecordingFileError extends Error {
  constructor(readonly reason: Reason) {
    super(reason.key);
  }
}

/**
 * Why a run stopped on an error, as the user is told: the file could not be read (its OS code), it is
 * shorter than its index, or anything else (the details are the log's).
 */
function failureReason(err: unknown): Reason {
  if (err instanceof RecordingFileError) return err.reason;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return { key: 'playbackFileUnreadable', vars: { code } };
  return { key: 'playbackFailed' };
}

export class PlaybackSession {
  state: PlaybackState = 'waiting';
  speed = 1;
  /** Why it ended or stopped (a catalogue reason: playState and the control answer render it per request). */
  reason?: Reason;
  private socket?: PlaybackSocket;
  private epoch = 0;
  /** Start of the current run (a seek moves it). */
  private runFrom: number;
  private wakeUp?: () => void;
  private running?: Promise<void>;
  /** Play-head model: output media seconds at `anchorWall`, advancing at `speed`. */
  private anchorMedia = 0;
  private anchorWall = 0;
  private pausedAt?: number;
  private sentEnd = 0;
  /** Recently sent fragments: output start → wall-clock start, for the position. */
  private sent: { out: number; wall: number }[] = [];
  private firstWall?: number;
  /** The H.264 leg, when the socket asked for it. */
  private transcoder?: PlaybackTranscoder;
  readonly stats = { fragments: 0, bytes: 0, inits: 0 };

  constructor(
    readonly id: string,
    readonly channelPk: number,
    readonly userId: number,
    readonly from: number,
    readonly to: number,
    private readonly deps: PlaybackSessionDeps,
  ) {
    this.runFrom = from;
  }

  get closed(): boolean {
    return this.state === 'closed';
  }

  get attached() {
    return !!this.socket;
  }

  /** Wall clock (ms) of the picture now playing (estimated from what was sent and the pace). */
  get position(): number {
    const head = this.playhead(Date.now());
    let best = this.sent[0];
    for (const s of this.sent) if (s.out <= head + 1e-6) best = s;
    if (!best) return this.firstWall ?? this.runFrom;
    return Math.min(this.to, best.wall + Math.max(0, head - best.out) * 1000);
  }

  /** The H.264 leg's work, for tests and the log (undefined on the plain path). */
  get transcoding() {
    return this.transcoder?.stats;
  }

  /** `h264`: send the video transcoded to H.264 (a browser without H.265). */
  attach(ws: PlaybackSocket, { h264 = false }: { h264?: boolean } = {}) {
    if (this.socket || this.state === 'closed') throw new Error('session already has a socket');
    this.socket = ws;
    const busy = h264 ? this.deps.transcodeSlot?.() : undefined;
    if (busy) return this.stopWith(busy);
    if (h264) {
      this.transcoder = new PlaybackTranscoder(ws, {
        ...this.deps.transcode,
        onFailed: (reason, detail) => {
          this.deps.log?.warn({ session: this.id, detail }, 'playback: the H.264 transcoder failed');
          this.stopWith(reason);
        },
      });
    }
    this.state = 'playing';
    this.running = this.loop();
  }

  pause() {
    if (this.state !== 'playing') return;
    this.pausedAt = this.playhead(Date.now());
    this.state = 'paused';
    this.notify();
    this.wake();
  }

  resume() {
    if (this.state !== 'paused') return;
    this.anchorMedia = this.pausedAt ?? this.anchorMedia;
    this.anchorWall = Date.now();
    this.pausedAt = undefined;
    this.state = 'playing';
    this.notify();
    this.wake();
  }

  setSpeed(speed: number) {
    const now = Date.now();
    if (this.pausedAt === undefined) {
      this.anchorMedia = this.playhead(now);
      this.anchorWall = now;
    }
    this.speed = speed;
    this.wake();
  }

  seek(at: number) {
    if (this.state === 'closed') return;
    this.epoch++;
    this.runFrom = Math.max(this.from, Math.min(at, this.to));
    if (this.state === 'ended') {
      this.state = 'playing';
      this.reason = undefined;
    }
    this.wake();
    if (this.socket && !this.running) this.running = this.loop();
  }

  close() {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.epoch++;
    this.wake();
    this.transcoder?.close();
    const ws = this.socket;
    this.socket = undefined;
    if (ws && ws.readyState === OPEN) ws.close(1000, 'playback closed');
    this.deps.onClose?.();
  }

  /** Resolves when the sending loop has stopped (tests). */
  async idle() {
    await this.running;
  }

  private playhead(now: number): number {
    if (this.pausedAt !== undefined) return this.pausedAt;
    return Math.min(this.sentEnd, this.anchorMedia + ((now - this.anchorWall) / 1000) * this.speed);
  }

  private wake() {
    const w = this.wakeUp;
    this.wakeUp = undefined;
    w?.();
  }

  private sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.wakeUp = undefined;
        resolve();
      }, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private send(data: string | Uint8Array): boolean {
    const ws = this.socket;
    if (!ws || ws.readyState !== OPEN) return false;
    ws.send(data);
    return true;
  }

  private notify() {
    this.send(JSON.stringify({ type: 'state', state: this.state, speed: this.speed }));
  }

  /** Ends the session: the socket is told why (a 'stopped' state), then closed. */
  private stopWith(reason: Reason) {
    this.reason = reason;
    this.send(JSON.stringify({ type: 'state', state: 'stopped', reason: this.text(reason) }));
    this.close();
  }

  /** A catalogue reason in the opener's language. */
  private text(r: Reason): string {
    return reasonText(r.key, this.deps.lang ?? 'zh-CN', r.vars);
  }

  private async loop(): Promise<void> {
    try {
      for (;;) {
        const epoch = this.epoch;
        const done = await this.run(epoch);
        if (this.state === 'closed') return;
        if (epoch !== this.epoch) continue; // seeked: run again from the new time
        if (done) {
          // The transcoder's last pictures go out before the player hears of the end.
          await this.transcoder?.finish();
          if (this.closed) return;
          if (epoch !== this.epoch) continue;
          this.state = 'ended';
          this.reason = { key: 'playbackEnded' };
          this.send(JSON.stringify({ type: 'state', state: 'ended', reason: this.text(this.reason) }));
          // Ended: wait for a seek (which bumps the epoch) or the close.
          while (epoch === this.epoch && this.state === 'ended') await this.sleep(60_000);
          if (this.closed) return;
        }
      }
    } catch (err) {
      // The error itself is the log's; the socket says why in the opener's language.
      this.deps.log?.warn({ err, session: this.id }, 'playback: stopped on an error');
      this.stopWith(failureReason(err));
    } finally {
      this.running = undefined;
    }
  }

  /** One run from `runFrom`; true when it reached the end, false when interrupted. */
  private async run(epoch: number): Promise<boolean> {
    const lead = this.deps.leadSeconds ?? 1;
    const maxBuffered = this.deps.maxBufferedBytes ?? 2 * 1024 * 1024;
    const gapMs = this.deps.gapMs ?? 2000;
    let init: Uint8Array | undefined;
    let tracks: TrackChoice | undefined;
    let retimer = new Retimer();
    let lastWallEnd: number | undefined;
    /** The last fragment sent: following a growing recording goes on after it. */
    let after: { segId: number; offset: number; wallEnd: number } | undefined;
    this.sent = [];
    this.sentEnd = 0;
    this.anchorMedia = 0;
    this.anchorWall = Date.now();
    if (this.pausedAt !== undefined) this.pausedAt = 0;
    this.firstWall = undefined;
    let fh: { file: string; h: fs.FileHandle } | undefined;
    try {
      for (;;) {
        // Segments from the start, or (following) those that may hold what comes after the last fragment sent:
        // the index row of a growing segment trails its file by a second or so.
        const segments = await this.deps.segments(new Date(after ? after.wallEnd - 10_000 : this.runFrom), new Date(this.to));
        for await (const p of fragmentsBetween(this.deps.reader, segments, this.runFrom, this.to, {
          after,
          onBadSegment: (seg, err) => this.deps.log?.warn({ err, id: seg.id }, 'playback: segment file unreadable; skipped'),
        })) {
          if (epoch !== this.epoch || this.closed) return false;
          let newBlock = p.firstOfSegment;
          let fresh = false;
          if (init && this.transcoder && !sameInit(init, p.layout.init)) {
            // The recording's tracks changed (a camera switched codec) under the H.264 leg: its output
            // runs on with one init and one timeline (transcoder.ts), so the play head and times do too.
            init = p.layout.init;
            tracks = chooseTracks(p.layout.info);
            this.transcoder.init(init, { continues: true });
            this.stats.inits++;
            newBlock = true;
          } else if (!init || !sameInit(init, p.layout.init)) {
            // The run's first init starts its timeline. A later one (a camera that changed its size,
            // frame rate or codec) keeps it, `continues`: the player appends the new init to the same
            // SourceBuffer where it can (same codec family) and else opens a fresh MediaSource at the
            // same media time, so the play head and the page's day position run on either way.
            const continues = init !== undefined;
            fresh = !continues;
            init = p.layout.init;
            tracks = chooseTracks(p.layout.info);
            if (!continues) {
              retimer = new Retimer();
              this.sent = [];
              this.sentEnd = 0;
              this.anchorMedia = 0;
              this.anchorWall = Date.now();
              if (this.pausedAt !== undefined) this.pausedAt = 0;
            }
            const info = p.layout.info;
            if (this.transcoder) {
              // The transcoder's output announces its own init (H.264 and the audio) once ffmpeg answers.
              this.transcoder.init(init);
            } else {
              this.send(
                JSON.stringify({
                  type: 'init',
                  mime: mimeOfInit(info, tracks.kept),
                  tracks: tracks.kept.map((t) => ({ kind: t.kind, codecString: t.codecString })),
                  ...(continues ? { continues: true } : {}),
                  ...(tracks.dropped.length ? { dropped: tracks.dropped.map((t) => ({ kind: t.kind, codecString: t.codecString, reason: this.text({ key: 'playbackTrackLeftOut' }) })) } : {}),
                }),
              );
              this.send(tracks.dropped.length ? withTracks(init, (id) => tracks!.keep.has(id)) : init);
            }
            this.stats.inits++;
            newBlock = true;
          }
          if (!fresh && lastWallEnd !== undefined && p.wallStart - lastWallEnd > gapMs) {
            this.send(JSON.stringify({ type: 'gap', from: lastWallEnd, to: p.wallStart }));
            newBlock = true;
          }
          this.firstWall ??= p.wallStart;
          const placed = retimer.place(p.layout, p.frag, newBlock);
          // Pace: send when the play head is within `lead` seconds of this fragment; wait while paused
          // or while the socket still holds too much.
          for (;;) {
            if (epoch !== this.epoch || this.state === 'closed') return false;
            const ws = this.socket;
            if (!ws || ws.readyState !== OPEN) return false;
            if (this.state === 'paused') {
              await this.sleep(1000);
              continue;
            }
            if (ws.bufferedAmount > maxBuffered) {
              await this.sleep(20);
              continue;
            }
            const due = this.anchorWall + ((placed.outStart - lead - this.anchorMedia) * 1000) / this.speed;
            const wait = due - Date.now();
            if (wait <= 0) break;
            await this.sleep(Math.min(wait, 1000));
          }
          if (fh?.file !== p.seg.file) {
            await fh?.h.close();
            fh = undefined;
            fh = { file: p.seg.file, h: await fs.open(p.seg.file, 'r') };
          }
          const buf = Buffer.alloc(p.frag.length);
          const { bytesRead } = await fh.h.read(buf, 0, p.frag.length, p.frag.offset);
          if (bytesRead !== p.frag.length) throw new RecordingFileError({ key: 'playbackFileShort' });
          const moof = rewriteMoof(buf.subarray(0, p.frag.moofLength), placed.sequence, (id, cur) => placed.bases.get(id) ?? cur);
          buf.set(moof, 0);
          after = { segId: p.seg.id, offset: p.frag.offset, wallEnd: p.wallEnd };
          lastWallEnd = p.wallEnd;
          if (this.transcoder) {
            // The whole fragment (the transcoder's output leaves out what MSE cannot play).
            if (epoch !== this.epoch || this.socket?.readyState !== OPEN) return false;
            this.transcoder.fragment(buf, this.speed);
            this.stats.fragments++;
            this.stats.bytes += buf.length;
            this.sent.push({ out: placed.outStart, wall: p.wallStart });
            if (this.sent.length > 256) this.sent.splice(0, this.sent.length - 256);
            this.sentEnd = placed.outEnd;
            continue;
          }
          const out = tracks?.dropped.length ? truncateFragment(buf, (id) => (tracks!.keep.has(id) ? Infinity : -Infinity), p.layout.info) : buf;
          if (epoch !== this.epoch) return false;
          if (!out) continue; // only samples of left-out tracks
          if (!this.send(out)) return false;
          this.stats.fragments++;
          this.stats.bytes += out.length;
          this.sent.push({ out: placed.outStart, wall: p.wallStart });
          if (this.sent.length > 256) this.sent.splice(0, this.sent.length - 256);
          this.sentEnd = placed.outEnd;
        }
        // The end of what is recorded. Still recording into the range: wait for more, then go on.
        if (!this.following(segments, lastWallEnd)) return true;
        await this.sleep(this.deps.followPollMs ?? 500);
        if (epoch !== this.epoch || this.closed) return false;
      }
    } finally {
      await fh?.h.close();
    }
  }

  /** More may come: the range is not over, and a segment is being written (or one ended moments ago). */
  private following(segments: readonly SegmentFile[], lastWallEnd: number | undefined): boolean {
    const now = Date.now();
    if (now >= this.to || (lastWallEnd !== undefined && lastWallEnd >= this.to)) return false;
    if (segments.some((s) => s.status === 'recording')) return true;
    const last = Math.max(lastWallEnd ?? -Infinity, ...segments.map((s) => s.endAt.getTime()));
    return now - last < (this.deps.followGraceMs ?? 10_000);
  }
}

interface TrackChoice {
  kept: InitTrack[];
  dropped: InitTrack[];
  keep: Set<number>;
}

/**
 * What a browser's Media Source can play: H.264/H.265 video and AAC audio. G.711 (alaw/ulaw) and
 * anything else is left out of the WS stream (the init says so); when nothing would be left, all stay.
 */
function chooseTracks(info: InitInfo): TrackChoice {
  const playable = (t: InitTrack) => (t.kind === 'video' && /^(avc[13]|hvc1|hev1)/.test(t.codecString || t.entry)) || (t.kind === 'audio' && t.entry === 'mp4a');
  let kept = info.tracks.filter(playable);
  if (!kept.length) kept = info.tracks;
  const keep = new Set(kept.map((t) => t.trackId));
  return { kept, dropped: info.tracks.filter((t) => !keep.has(t.trackId)), keep };
}
