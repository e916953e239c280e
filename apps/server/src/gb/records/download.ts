/**
 * Download of a recording kept on a GB28181 device: INVITE s=Download with t=<start> <end> and
 * a=downloadspeed (the device sends N× faster than real time, keeping the recording's timestamps),
 * RTP/PS through the GB media source, every track written as it comes into a fragmented MP4 (the
 * recorder's writer: nothing held in memory), and at the end remuxed by ffmpeg without re-encoding
 * video into one progressive MP4 that plays everywhere (G.711 audio becomes AAC, which MP4 players
 * read; video is copied). The end is the device's MediaStatus 121, its BYE, or the asked duration of
 * media received (then our BYE), whichever comes first. Progress is media received over the duration.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Fragmenter } from '@opencvr/fmp4';
import type { AccessUnit, Track } from '@opencvr/codec';
import type { MediaSource } from '../../media/hub.js';

export type DownloadState = 'downloading' | 'remuxing' | 'done' | 'failed';

export interface DeviceDownloadDeps {
  source: (hooks: { ended(reason: string): void; invited(): void }) => MediaSource;
  /** The folder the files go in (created when missing). */
  dir: string;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** Nothing received this long ends the download with what came (default 20 s). */
  stallMs?: number;
  onDone?(d: DeviceDownload): void;
}

export class DeviceDownload {
  state: DownloadState = 'downloading';
  reason = '';
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
  private invited = false;
  private deviceEnded = '';
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
      ended: (reason) => {
        this.deviceEnded = reason;
      },
    });
    this.source.start({
      tracks: (t) => this.onTracks(t),
      unit: (track, unit) => this.onUnit(track, unit),
      failed: (reason) => void this.finish(reason),
    });
    this.stallTimer = setInterval(() => {
      const stall = this.deps.stallMs ?? 20_000;
      if (this.invited && Date.now() - this.lastUnitAt > stall) void this.finish(`the device stopped sending (nothing for ${Math.round(stall / 1000)} s)`);
    }, 1000);
    this.stallTimer.unref();
    return ready;
  }

  /** Stops (user cancel, shutdown): the part file is removed. */
  cancel(reason = 'cancelled') {
    if (this.state !== 'downloading') return;
    this.finishing = true;
    this.state = 'failed';
    this.reason = reason;
    this.stopSource();
    this.out?.destroy();
    fs.promises.rm(this.partFile, { force: true }).catch(() => undefined);
    for (const w of this.readyWaiters.splice(0)) w.reject(new Error(reason));
    this.deps.onDone?.(this);
  }

  private onTracks(tracks: Track[]) {
    if (this.fragmenter) return; // the tracks of a recording do not change; a repeat is the same stream
    this.tracks = tracks;
    // Fragments of up to 2 s, as the recorder writes them.
    this.fragmenter = new Fragmenter(tracks, { maxFragmentDuration: 2 });
    this.out = fs.createWriteStream(this.partFile);
    this.out.on('error', (err) => void this.finish(`cannot write the download: ${err.message}`));
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
    if (this.received >= this.duration) void this.finish('');
  }

  private stopSource() {
    clearInterval(this.stallTimer);
    this.source?.stop();
  }

  private async finish(reason: string) {
    if (this.finishing) return;
    this.finishing = true;
    this.stopSource();
    if (!this.invited) {
      this.state = 'failed';
      this.reason = reason;
      for (const w of this.readyWaiters.splice(0)) w.reject(new Error(reason));
      this.deps.onDone?.(this);
      return;
    }
    const why = this.deviceEnded || reason;
    if (!this.out || this.received <= 0) {
      this.state = 'failed';
      this.reason = why || 'the device sent no picture';
      this.out?.destroy();
      await fs.promises.rm(this.partFile, { force: true }).catch(() => undefined);
      this.deps.onDone?.(this);
      return;
    }
    const out = this.out;
    for (const f of this.fragmenter!.flush()) out.write(f.data);
    await new Promise<void>((resolve) => out.end(() => resolve()));
    this.state = 'remuxing';
    try {
      await remux(this.partFile, this.file, this.tracks);
      const st = await fs.promises.stat(this.file);
      this.size = st.size;
      this.state = 'done';
      this.reason = why;
      this.deps.log?.info({ download: this.id, seconds: this.received, bytes: this.size, ended: why || 'duration reached' }, 'gb records: device download finished');
    } catch (err) {
      this.state = 'failed';
      this.reason = `the MP4 could not be made: ${(err as Error).message}`;
      this.deps.log?.warn({ err, download: this.id }, 'gb records: remux failed');
    } finally {
      await fs.promises.rm(this.partFile, { force: true }).catch(() => undefined);
    }
    this.deps.onDone?.(this);
  }
}

/** ffmpeg -c copy into a progressive MP4 (moov first); G.711 → AAC (MP4 players do not read G.711). */
function remux(input: string, output: string, tracks: readonly Track[]): Promise<void> {
  const g711 = tracks.some((t) => t.kind === 'audio' && (t.codec === 'pcma' || t.codec === 'pcmu'));
  const args = ['-v', 'error', '-y', '-i', input, '-map', '0:v', '-map', '0:a?', '-c:v', 'copy', '-c:a', g711 ? 'aac' : 'copy', '-movflags', '+faststart', '-f', 'mp4', output];
  return new Promise((resolve, reject) => {
    execFile('ffmpeg', args, { timeout: 10 * 60_000 }, (err, _out, stderr) => {
      if (err) reject(new Error(String(stderr).trim().split('\n').slice(-2).join(' ') || err.message));
      else resolve();
    });
  });
}
