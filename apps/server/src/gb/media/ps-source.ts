/**
 * A GB28181 media session as a hub source: RTP receiver → PS demuxer (`@opencvr/ps`) → tracks and
 * access units. The INVITE itself is a function given by the caller (live, playback or download
 * signalling), called with the offer (our media IP, port and transport) once the receiver is bound;
 * its answer tells the SSRC and, for TCP active, where to connect. Stopping sends the BYE (session
 * close) and frees the port. Every failure goes to the hub (which retries with back-off) with a
 * reason an operator can act on.
 */
import type { MediaSource, SourceSink } from '../../media/hub.js';
import { PsDemuxer, PsTrackAssembler, streamTypeName, type PsDemuxerStats, type PsFrame } from '@opencvr/ps';
import type { RtpPacket } from '@opencvr/rtp';
import type { Reason } from '@opencvr/shared';
import type { GbMediaTransport, ReceiverLog, ReceiverStats, RtpReceiver } from './rtp-receiver.js';

/** What the platform puts in its SDP offer (c=, m= port, TCP setup role). */
export interface GbMediaOffer {
  ip: string;
  port: number;
  transport: GbMediaTransport;
}

/** What the device's SDP answer says about media. */
export interface GbMediaAnswer {
  /** y= of the answer (or the offered SSRC when the answer has none). */
  ssrc?: number;
  /** c= and m= port of the answer: where to connect in TCP active mode. */
  ip?: string;
  port?: number;
}

/** An answered INVITE: the media parameters and how to end it (BYE). */
export interface GbPlaySession {
  answer: GbMediaAnswer;
  close(): void | Promise<void>;
}

/**
 * Sends the INVITE for this offer; `ended` is to be called if the device ends the session (its BYE,
 * MediaStatus 121, offline), in words and, when known, as a catalogue reason. `signal` aborts when
 * the source stops: an INVITE still waiting for its turn (the device's queue) is dropped.
 */
export type GbSessionStarter = (offer: GbMediaOffer, ended: (reason: string, why?: Reason) => void, signal: AbortSignal) => Promise<GbPlaySession>;

export interface GbPsSourceOptions {
  /** Binds a receiver (from the port pool) and says which IP to announce. */
  openReceiver(): Promise<{ receiver: RtpReceiver; announcedIp: string }>;
  invite: GbSessionStarter;
  /** RTP flowing but no playable track after this long fails with the reason (default 10 s). */
  noTracksTimeoutMs?: number;
  log?: ReceiverLog;
  /**
   * The sink logs the words of a failed start itself (a hub: StreamHub.onFailure, once per distinct
   * failure until it is live), so the source does not: a hub retries a new source every few seconds,
   * and each would warn again.
   */
  sinkLogsFailures?: boolean;
}

export class GbPsSource implements MediaSource {
  private sink?: SourceSink;
  private receiver?: RtpReceiver;
  private session?: GbPlaySession;
  private stopped = false;
  /** Aborted at stop: the INVITE, if it still waits for its turn, is never sent. */
  private readonly stopping = new AbortController();
  private readonly demuxer = new PsDemuxer();
  private readonly tracks = new PsTrackAssembler();
  private noTracksTimer?: NodeJS.Timeout;

  constructor(private readonly opts: GbPsSourceOptions) {}

  /** Receiver and demuxer counters (bytes, packets, lost, SSRC, frames...). */
  get stats(): { rtp?: ReceiverStats; ps: PsDemuxerStats } {
    return { rtp: this.receiver?.stats, ps: this.demuxer.stats };
  }

  start(sink: SourceSink): void {
    this.sink = sink;
    // An INVITE refused or unusable carries its catalogue reason (GbInviteError.why).
    // Any other (no free RTP port, an error of ours): gbMediaFailed, its words in the log.
    this.run().catch((err) => {
      const words = err instanceof Error ? err.message : String(err);
      const why = (err as { why?: Reason } | undefined)?.why;
      if (!why && !this.opts.sinkLogsFailures) this.opts.log?.warn({ err: words }, 'gb media: the session could not start');
      this.fail(words, why ?? { key: 'gbMediaFailed' });
    });
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopping.abort();
    clearTimeout(this.noTracksTimer);
    this.receiver?.close();
    const session = this.session;
    this.session = undefined;
    if (session) {
      // The BYE is best effort: the device may already be gone.
      Promise.resolve()
        .then(() => session.close())
        .catch((err) => this.opts.log?.warn({ err }, 'gb media: BYE failed'));
    }
  }

  /** `why`: the catalogue's reason beside the log's words, which the sink (a hub, a device playback or download) tells its user. */
  private fail(reason: string, why?: Reason) {
    if (this.stopped) return;
    this.stop();
    this.sink?.failed(reason, why);
  }

  private async run() {
    const { receiver, announcedIp } = await this.opts.openReceiver();
    this.receiver = receiver;
    if (this.stopped) {
      receiver.close();
      return;
    }
    const session = await this.opts.invite(
      { ip: announcedIp, port: receiver.port, transport: receiver.transport },
      (reason, why) => this.fail(`the device ended the media session${reason ? `: ${reason}` : ''}`, why ?? { key: 'streamGbEnded' }),
      this.stopping.signal,
    );
    if (this.stopped) {
      await session.close();
      return;
    }
    this.session = session;
    const { ssrc, ip, port } = session.answer;
    receiver.start(
      { ssrc, remote: ip && port ? { ip, port } : undefined },
      { packet: (p, lost) => this.onPacket(p, lost), failed: (reason, why) => this.fail(reason, why) },
    );
  }

  private onPacket(packet: RtpPacket, lost: number) {
    if (this.stopped) return;
    if (!this.noTracksTimer && !this.tracks.announced) {
      const ms = this.opts.noTracksTimeoutMs ?? 10_000;
      this.noTracksTimer = setTimeout(() => {
        if (!this.tracks.announced) this.fail(...this.noTracksReason(ms));
      }, ms);
      this.noTracksTimer.unref();
    }
    if (lost > 0) this.frames(this.demuxer.lost());
    this.frames(this.demuxer.push(packet.payload));
    if (packet.marker) this.frames(this.demuxer.endOfFrame());
  }

  private frames(frames: PsFrame[]) {
    for (const f of frames) {
      const out = this.tracks.push(f, this.demuxer.streamMap);
      if (out.tracks) {
        clearTimeout(this.noTracksTimer);
        this.sink?.tracks(out.tracks);
      }
      for (const u of out.units) this.sink?.unit(u.track, u.unit);
      if (this.stopped) return;
    }
  }

  /** RTP came but nothing playable: say what the stream holds. */
  private noTracksReason(ms: number): [string, Reason] {
    const s = Math.round(ms / 1000);
    const ps = this.demuxer.stats;
    const unsupported = [...this.demuxer.unsupported.values()].map(streamTypeName);
    if (unsupported.length) {
      const what = unsupported.join(' and ');
      return [`the device sends ${what}, which cannot be played (H.264, H.265, AAC and G.711 can)`, { key: 'gbUnplayableStream', vars: { what: unsupported.join(', ') } }];
    }
    if (ps.packs + ps.pes === 0)
      return [
        `RTP arrives but holds no MPEG-PS (no pack header or PES in ${ps.bytes} bytes within ${s} s): is the device sending PS (GB28181 payload type 96)?`,
        { key: 'gbNotPs', vars: { bytes: ps.bytes, seconds: s } },
      ];
    if (ps.videoFrames === 0)
      return [
        `PS arrives but no H.264/H.265 picture could be read within ${s} s (${ps.pes} PES, ${ps.dropped} frames dropped)`,
        { key: 'gbNoPictureIn', vars: { seconds: s } },
      ];
    return [`PS arrives but no keyframe with its parameter sets came within ${s} s`, { key: 'gbNoKeyframe', vars: { seconds: s } }];
  }
}
