/**
 * Playback and download of recordings (issue 5). Every file comes from the index through
 * RecordingService.segmentsBetween (rows whose path leaves the record folder are dropped there);
 * nothing here takes a path from a request.
 *
 * Sessions: made by devices/record/playback, streamed by the /ws_m4s/playback/<id>.mp4 socket,
 * steered by request_id; one ends when its socket closes, or 60 s after it was made if no socket came.
 */
import crypto from 'node:crypto';
import type { Lang, Reason } from '@opencvr/shared';
import type { RecordingService, SegmentFile } from '../recording/service.js';
import { BoxError } from '@opencvr/fmp4';
import { planJoin, planProgressive, type JoinedMp4 } from './join.js';
import { SegmentReader } from './segment-reader.js';
import { PlaybackSession } from './session.js';
import { fragmentsBetween } from './timeline.js';

export interface PlaybackServiceOptions {
  /** A session without a socket for this long is dropped (default 60 s). */
  idleMs?: number;
  leadSeconds?: number;
  maxSessions?: number;
  /** H.264 legs (one ffmpeg each) running at once; more are refused with playbackTranscodeBusy (default 4). */
  maxTranscodes?: number;
  /** Following a recording still being written: see PlaybackSessionDeps. */
  followPollMs?: number;
  followGraceMs?: number;
}

type Log = { warn(obj: object, msg: string): void };

/** Every playback session has its socket and the bound (maxSessions) is reached. */
export class PlaybackBusyError extends Error {
  constructor(readonly max: number) {
    super(`too many playback sessions (at most ${max})`);
    this.name = 'PlaybackBusyError';
  }
}

/** Longest range downloaded as one progressive MP4. */
export const PROGRESSIVE_MAX_MS = 12 * 3600_000;

export class PlaybackService {
  readonly reader = new SegmentReader();
  private sessions = new Map<string, PlaybackSession>();

  constructor(
    private readonly recording: Pick<RecordingService, 'segmentsBetween' | 'hold'>,
    private readonly log: Log,
    /** The options, or where to read them when used (a test sets them after the app made the service). */
    private readonly options: PlaybackServiceOptions | (() => PlaybackServiceOptions) = {},
  ) {}

  private get opts(): PlaybackServiceOptions {
    return typeof this.options === 'function' ? this.options() : this.options;
  }

  segments(channelPk: number, from: Date, to: Date): Promise<SegmentFile[]> {
    return this.recording.segmentsBetween(channelPk, from, to);
  }

  /**
   * Wall clock (ms) of the sync fragment playback of `from` starts at, the end of what exists up to
   * `to`, and whether any of it is H.265 (then the H.264 leg is offered: WS_FMP4_H264).
   */
  async startOf(channelPk: number, from: number, to: number): Promise<{ startAt: number; endAt: number; hevc: boolean } | undefined> {
    const segs = await this.segments(channelPk, new Date(from), new Date(to));
    let startAt: number | undefined;
    for await (const p of fragmentsBetween(this.reader, segs, from, to)) {
      startAt = p.wallStart;
      break;
    }
    if (startAt === undefined) return undefined;
    const last = segs[segs.length - 1];
    return { startAt, endAt: Math.min(to, last.endAt.getTime()), hevc: await this.holdsHevc(segs) };
  }

  /**
   * Some segment of the range has H.265 video, not only the first: a camera switched codec inside the
   * range, and a browser without H.265 needs the H.264 leg when playback reaches that part. Only the
   * inits are read (a few KB each), and the search stops at the first H.265 one.
   */
  private async holdsHevc(segs: readonly SegmentFile[]): Promise<boolean> {
    for (const seg of segs) {
      let info;
      try {
        info = await this.reader.info(seg.file);
      } catch {
        continue; // unreadable: playback skips it as well
      }
      if (info.tracks.some((t) => t.kind === 'video' && /^(hvc1|hev1)/.test(t.codecString || t.entry))) return true;
    }
    return false;
  }

  /** `lang`: the language of the socket's words (the opener's). */
  create(channelPk: number, userId: number, from: number, to: number, lang?: Lang): PlaybackSession {
    const max = this.opts.maxSessions ?? 256;
    if (this.sessions.size >= max) {
      // The oldest session that never got a socket makes room; otherwise refuse.
      const idle = [...this.sessions.values()].find((s) => !s.attached);
      if (!idle) throw new PlaybackBusyError(max);
      idle.close();
    }
    const id = crypto.randomBytes(16).toString('hex');
    const session = new PlaybackSession(id, channelPk, userId, from, to, {
      reader: this.reader,
      segments: (a, b) => this.segments(channelPk, a, b),
      log: this.log,
      leadSeconds: this.opts.leadSeconds,
      followPollMs: this.opts.followPollMs,
      followGraceMs: this.opts.followGraceMs,
      lang,
      transcodeSlot: () => this.transcodeSlot(),
      onClose: () => {
        clearTimeout(timer);
        this.sessions.delete(id);
      },
    });
    const timer = setTimeout(() => {
      if (!session.attached) session.close();
    }, this.opts.idleMs ?? 60_000);
    timer.unref?.();
    this.sessions.set(id, session);
    return session;
  }

  /**
   * Why another H.264 leg may not start now (maxTranscodes of them run, the platform's and those
   * `otherLegs` counts: a GB device's playbacks), or undefined.
   */
  transcodeSlot(): Reason | undefined {
    const max = this.opts.maxTranscodes ?? 4;
    return this.transcoding + (this.otherLegs?.() ?? 0) >= max ? { key: 'playbackTranscodeBusy', vars: { max } } : undefined;
  }

  /** H.264 legs running elsewhere that share the bound (set by the media routes: device playbacks). */
  otherLegs?: () => number;

  get(id: string): PlaybackSession | undefined {
    return this.sessions.get(id);
  }

  get size() {
    return this.sessions.size;
  }

  /** Sessions playing through their H.264 leg (an ffmpeg each). */
  get transcoding() {
    let n = 0;
    for (const s of this.sessions.values()) if (s.transcoding && !s.closed) n++;
    return n;
  }

  /**
   * The joined MP4 of a channel's [from, to). Its segment files are held (RecordingService.hold) from
   * before planning until the caller calls `release` on it, having sent its bytes.
   */
  async join(channelPk: number, from: number, to: number, only?: (seg: SegmentFile) => boolean): Promise<JoinedMp4 | undefined> {
    return this.held(channelPk, from, to, only, (segs, onBadSegment) => planJoin(this.reader, segs, from, to, { onBadSegment }));
  }

  /**
   * The download of a channel's [from, to): one progressive MP4 of exactly the range; the fragmented
   * join when the fragments cannot be rewritten. Held as `join`'s until `release`.
   */
  async download(channelPk: number, from: number, to: number, only?: (seg: SegmentFile) => boolean): Promise<JoinedMp4 | undefined> {
    return this.held(channelPk, from, to, only, async (segs, onBadSegment) => {
      // The sample tables of a progressive file are held in memory while it is planned (16 bytes a
      // sample): past 12 hours (1 M frames at 25 fps; also where a 90 kHz mdhd duration nears 32 bits)
      // the range goes out as the fragmented join, which holds nothing per sample.
      if (to - from > PROGRESSIVE_MAX_MS) return planJoin(this.reader, segs, from, to, { onBadSegment });
      try {
        return await planProgressive(this.reader, segs, from, to, { onBadSegment });
      } catch (err) {
        if (!(err instanceof BoxError)) throw err;
        this.log.warn({ err, channel: channelPk }, 'download: fragments not rewritable as one movie; sent as fragmented MP4');
        return planJoin(this.reader, segs, from, to, { onBadSegment });
      }
    });
  }

  /** Plans a range over its segment files held; the answer carries the release (nothing is held when nothing was planned). */
  private async held(
    channelPk: number,
    from: number,
    to: number,
    only: ((seg: SegmentFile) => boolean) | undefined,
    plan: (segs: SegmentFile[], onBadSegment: (seg: SegmentFile, err: unknown) => void) => Promise<JoinedMp4 | undefined>,
  ): Promise<JoinedMp4 | undefined> {
    let segs = await this.segments(channelPk, new Date(from), new Date(to));
    if (only) segs = segs.filter(only);
    const release = this.recording.hold(segs.map((s) => s.file));
    try {
      const j = await plan(segs, (seg, err) => this.log.warn({ err, id: seg.id }, 'download: segment file unreadable; skipped'));
      if (!j) release();
      else j.release = release;
      return j;
    } catch (err) {
      release();
      throw err;
    }
  }

  closeAll() {
    for (const s of [...this.sessions.values()]) s.close();
  }
}
