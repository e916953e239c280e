/**
 * Download of a recording kept on a GB28181 device: INVITE s=Download with t=<start> <end> and
 * a=downloadspeed (the device sends N× faster than real time, keeping the recording's timestamps),
 * RTP/PS through the GB media source, every track written as it comes into a fragmented MP4 (the
 * recorder's writer: nothing held in memory), and at the end remuxed by ffmpeg without re-encoding
 * video into one progressive MP4 that plays everywhere (G.711 audio becomes AAC, which MP4 players
 * read; video is copied). The end is the device's MediaStatus 121, its BYE, or the asked duration of
 * media received (then our BYE), whichever comes first. Progress is media received over the duration.
 *
 * It can be cancelled at any time (downloadrecord/stop, or nobody following its progress for
 * `unwatchedMs`): a running transfer gets our BYE (the receiver and its RTP port go with the source),
 * ffmpeg is stopped, and the part file and any finished file are removed.
 *
 * Why it ended is a catalogue reason (`reason`), rendered in the language of whoever asks.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Fragmenter } from '@opencvr/fmp4';
import type { AccessUnit, Track } from '@opencvr/codec';
import type { Reason } from '@opencvr/shared';
import type { MediaSource } from '../../media/hub.js';
import { GbRecordsError, mediaFailure } from './errors.js';

export type DownloadState = 'downloading' | 'remuxing' | 'done' | 'failed' | 'cancelled';

export interface DeviceDownloadDeps {
  /** `ended`: the device ended the session (its BYE, MediaStatus 121, offline), with why. */
  source: (hooks: { ended(why: Reason): void; invited(): void }) => MediaSource;
  /** The folder the files go in (created when missing). */
  dir: string;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** Nothing received this long ends the download with what came (default 20 s). */
  stallMs?: number;
  /**
   * Nobody asked about the download this long (streaminfo, the file): it is cancelled (default 120 s;
   * the console asks every second, and a background tab's throttled timers still about once a minute).
   */
  unwatchedMs?: number;
  onDone?(d: DeviceDownload): void;
}

export class DeviceDownload {
  state: DownloadState = 'downloading';
  /** Why it ended (the device's end, a failure, a cancel); none when the asked duration came in. */
  reason?: Reason;
  /** Bytes of the finished file. */
  size = 0;
  readonly startedAt = Date.now();
  private source?: MediaSource;
  private fragmenter?: Fragmenter;
  private tracks: Track[] = [];
  private out?: fs.WriteStream;
  private firstDts?: number;
  private lastDts?: number;
  private lastUnitAt = Date.now();
  private lastWatchedAt = Date.now();
  private invited = false;
  private deviceEnded?: Reason;
  /** Stops ffmpeg when the download is cancelled while remuxing. */
  private readonly remuxAbort = new AbortController();
  private stallTimer?: NodeJS.Timeout;
  private readyWaiters: { resolve(): void; reject(err: Error): void }[] = [];
  private finishing = false;

  constructor(
    readonly id: string,
    readonly channelPk: number,
    readonly userId: number,
    readonly from: number,
    readonly to: number,
    /** The file name offered to the user. */
    readonly name: string,
    private readonly deps: DeviceDownloadDeps,
  ) {}

  /** Seconds of recording asked. */
  get duration(): number {
    return (this.to - this.from) / 1000;
  }
  /** Seconds of recording received so far. */
  get received(): number {
    return this.firstDts === undefined || this.lastDts === undefined ? 0 : (this.lastDts - this.firstDts) / 90000;
  }
  get progress(): number {
    if (this.state === 'done') return 100;
    return Math.min(99, Math.floor((this.received / this.duration) * 100));
  }
  get file(): string {
    return path.join(this.deps.dir, `${this.id}.mp4`);
  }
  private get partFile(): string {
    return path.join(this.deps.dir, `${this.id}.part.mp4`);
  }

  /** Sends the INVITE; resolves when the device answered it. */
  async start(): Promise<void> {
    await fs.promises.mkdir(this.deps.dir, { recursive: true });
    const ready = new Promise<void>((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
    this.source = this.deps.source({
      invited: () => {
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
      failed: (detail: string, why?: Reason) => void this.finish(mediaFailure(detail, why, this.deps.log, { download: this.id })),
    });
    this.stallTimer = setInterval(() => this.check(), 1000);
    this.stallTimer.unref();
    return ready;
  }

  /** Someone follows the download (start, streaminfo, the file): it is not left unwatched. */
  watched() {
    this.lastWatchedAt = Date.now();
  }

  /** Once a second while it runs: the device stalling, or nobody following any more. */
  private check() {
    if (this.state !== 'downloading' && this.state !== 'remuxing') return;
    const now = Date.now();
    const unwatched = this.deps.unwatchedMs ?? 120_000;
    if (now - this.lastWatchedAt > unwatched) {
      this.deps.log?.info({ download: this.id, seconds: unwatched / 1000 }, 'gb records: device download left unwatched, cancelled');
      this.cancel({ key: 'gbDownloadUnwatched', vars: { seconds: Math.round(unwatched / 1000) } });
      return;
    }
    const stall = this.deps.stallMs ?? 20_000;
    if (this.state === 'downloading' && this.invited && now - this.lastUnitAt > stall)
      void this.finish({ key: 'gbDeviceStoppedSending', vars: { seconds: Math.round(stall / 1000) } });
  }

  /**
   * Stops and removes (the user's cancel, nobody watching, shutdown): a running transfer gets our BYE
   * (the source's stop: receiver closed, RTP port back in the pool), ffmpeg is stopped, the part file
   * and a finished file are removed. Nothing to do once failed or cancelled.
   */
  cancel(why: Reason = { key: 'gbDownloadCancelled' }) {
    if (this.state === 'failed' || this.state === 'cancelled') return;
    const was = this.state;
    // finish() already under way (or done) reports the end itself once it sees the state.
    const reports = !this.finishing;
    this.finishing = true;
    this.state = 'cancelled';
    this.reason = why;
    this.size = 0;
    this.stopSource();
    this.out?.destroy();
    this.remuxAbort.abort();
    // Removed once the stream let go of the part file (a stream still opening would make it again).
    void closedOf(this.out)
      .then(() => Promise.all([this.partFile, this.file].map((f) => fs.promises.rm(f, { force: true }))))
      .catch(() => undefined);
    for (const w of this.readyWaiters.splice(0)) w.reject(new GbRecordsError(why));
    this.deps.log?.info({ download: this.id, was, why: why.key }, 'gb records: device download cancelled');
    if (reports) this.deps.onDone?.(this);
  }

  private onTracks(tracks: Track[]) {
    if (this.fragmenter) return; // the tracks of a recording do not change; a repeat is the same stream
    this.tracks = tracks;
    // Fragments of up to 2 s, as the recorder writes them.
    this.fragmenter = new Fragmenter(tracks, { maxFragmentDuration: 2 });
    this.out = fs.createWriteStream(this.partFile);
    // The OS's English ("ENOSPC: no space left on device, write") is the log's; the user reads its code in a catalogue reason.
    this.out.on('error', (err: NodeJS.ErrnoException) => {
      this.deps.log?.warn({ err, download: this.id }, 'gb records: cannot write the download');
      void this.finish({ key: 'gbDownloadWriteFailed', vars: { code: err.code ?? 'EIO' } });
    });
    this.out.write(this.fragmenter.init);
  }

  private onUnit(track: number, unit: AccessUnit) {
    this.lastUnitAt = Date.now();
    if (!this.fragmenter || !this.out || this.finishing) return;
    if (unit.kind === 'video') {
      this.firstDts ??= unit.dts;
      this.lastDts = unit.dts;
    }
    for (const f of this.fragmenter.push(unit, track)) this.out.write(f.data);
    // The asked duration is in: done, whatever the device does next.
    if (this.received >= this.duration) void this.finish();
  }

  private stopSource() {
    clearInterval(this.stallTimer);
    this.source?.stop();
  }

  /** The end: `reason` a failure or the stall, none when the asked duration came in. */
  private async finish(reason?: Reason) {
    if (this.finishing) return;
    this.finishing = true;
    this.stopSource();
    if (!this.invited) {
      this.state = 'failed';
      this.reason = reason;
      for (const w of this.readyWaiters.splice(0)) w.reject(reason ? new GbRecordsError(reason) : new Error('the download ended before the device answered'));
      this.deps.onDone?.(this);
      return;
    }
    const why = this.deviceEnded ?? reason;
    if (!this.out || this.received <= 0) {
      this.state = 'failed';
      this.reason = why ?? { key: 'gbNoPicture' };
      this.out?.destroy();
      await closedOf(this.out);
      await fs.promises.rm(this.partFile, { force: true }).catch(() => undefined);
      this.deps.onDone?.(this);
      return;
    }
    const out = this.out;
    for (const f of this.fragmenter!.flush()) out.write(f.data);
    // 'close' comes after end() and after a cancel's destroy() alike.
    await new Promise<void>((resolve) => {
      out.once('close', () => resolve());
      out.end();
    });
    if (this.isCancelled()) return;
    this.state = 'remuxing';
    try {
      await remux(this.partFile, this.file, this.tracks, this.remuxAbort.signal);
      const st = await fs.promises.stat(this.file);
      if (this.isCancelled()) return;
      this.size = st.size;
      this.state = 'done';
      this.reason = why;
      this.deps.log?.info({ download: this.id, seconds: this.received, bytes: this.size, ended: why?.key ?? 'duration reached' }, 'gb records: device download finished');
    } catch (err) {
      if (this.isCancelled()) return;
      this.state = 'failed';
      // ffmpeg's words are the log's (below); the user is told in their language.
      this.reason = { key: 'gbMp4Failed' };
      this.deps.log?.warn({ err, download: this.id }, 'gb records: remux failed');
    } finally {
      await fs.promises.rm(this.partFile, { force: true }).catch(() => undefined);
    }
    this.deps.onDone?.(this);
  }

  /** Cancelled while finishing (state is read again after each await: cancel() may have run meanwhile). */
  private isCancelled(): boolean {
    if (this.state !== 'cancelled') return false;
    // A file ffmpeg finished after the cancel removed it.
    void fs.promises.rm(this.file, { force: true }).catch(() => undefined);
    this.deps.onDone?.(this);
    return true;
  }
}

/** Resolves once a write stream closed its file (at once when there is none or it is closed). */
function closedOf(out: fs.WriteStream | undefined): Promise<void> {
  if (!out || out.closed) return Promise.resolve();
  return new Promise((resolve) => out.once('close', () => resolve()));
}

/** ffmpeg -c copy into a progressive MP4 (moov first); G.711 → AAC (MP4 players do not read G.711). */
function remux(input: string, output: string, tracks: readonly Track[], signal: AbortSignal): Promise<void> {
  const g711 = tracks.some((t) => t.kind === 'audio' && (t.codec === 'pcma' || t.codec === 'pcmu'));
  const args = ['-v', 'error', '-y', '-i', input, '-map', '0:v', '-map', '0:a?', '-c:v', 'copy', '-c:a', g711 ? 'aac' : 'copy', '-movflags', '+faststart', '-f', 'mp4', output];
  return new Promise((resolve, reject) => {
    execFile('ffmpeg', args, { timeout: 10 * 60_000, signal }, (err, _out, stderr) => {
      if (err) reject(new Error(String(stderr).trim().split('\n').slice(-2).join(' ') || err.message));
      else resolve();
    });
  });
}
