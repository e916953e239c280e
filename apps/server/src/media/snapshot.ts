/**
 * Snapshots: a JPEG of a stream's latest keyframe. The hub's cached GOP starts with a keyframe, so a
 * snapshot subscribes for a moment, takes the tracks and that keyframe, and has ffmpeg decode it
 * (parameter sets + keyframe as Annex-B on stdin, one MJPEG frame on stdout). ffmpeg runs bounded: a
 * timeout that kills it, at most `maxConcurrent` at once (others queue), and each stream's JPEG is kept
 * `cacheMs` so a wall of thumbnails costs one decode per stream.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { copyUnit, joinAnnexB, type VideoAccessUnit, type VideoCodec, type VideoTrack } from '@opencvr/codec';
import type { StreamHub } from './hub.js';

/**
 * ffmpeg's arguments for one JPEG from an Annex-B keyframe on stdin (a golden-string test holds them).
 * `width`: scaled down to at most this width, height to match (thumbnails); never scaled up.
 */
export function snapshotArgs(codec: VideoCodec, opts: { quality?: number; width?: number } = {}): string[] {
  return oneJpegArgs(codec === 'h264' ? 'h264' : 'hevc', opts);
}

/** One JPEG on stdout from the first picture of stdin in `inputFormat`, scaled down to at most `width`. */
function oneJpegArgs(inputFormat: string, opts: { quality?: number; width?: number }): string[] {
  // The quotes keep the comma inside min() from splitting the filter graph.
  const scale = opts.width ? ['-vf', `scale='min(${Math.floor(opts.width)},iw)':-2`] : [];
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-f',
    inputFormat,
    '-i',
    'pipe:0',
    '-frames:v',
    '1',
    ...scale,
    '-f',
    'image2',
    '-c:v',
    'mjpeg',
    '-q:v',
    String(opts.quality ?? 4),
    'pipe:1',
  ];
}

/** The decoder's input: the track's parameter sets, then the keyframe's NAL units, as Annex-B. */
export function keyframeAnnexB(track: VideoTrack, unit: VideoAccessUnit): Uint8Array {
  const ps = track.codec === 'h265' && track.vps ? [track.vps, track.sps, track.pps] : [track.sps, track.pps];
  return joinAnnexB([...ps, ...unit.nalus]);
}

export class SnapshotError extends Error {
  constructor(
    readonly code: 'no-video' | 'no-keyframe' | 'decode-failed' | 'timeout',
    message: string,
  ) {
    super(message);
  }
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}
/**
 * Runs a program with some stdin and a deadline; injectable so tests can count and fake runs.
 * `niceness` (0-19): the process's scheduling priority, for background work (thumbnails) that must
 * yield the CPU to the streams; best effort (left as is where the OS refuses).
 */
export type Runner = (cmd: string, args: string[], stdin: Uint8Array, timeoutMs: number, niceness?: number) => Promise<RunResult>;

export const runProcess: Runner = (cmd, args, stdin, timeoutMs, niceness = 0) =>
  new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    if (niceness && child.pid) {
      try {
        os.setPriority(child.pid, niceness);
      } catch {
        /* not allowed here: runs at normal priority */
      }
    }
    const out: Buffer[] = [];
    let err = '';
    let settled = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(new SnapshotError('timeout', `${cmd} did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    function finish(e?: Error) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (e) reject(e);
      else resolve({ stdout: Buffer.concat(out), stderr: err });
    }
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < 4096) err += d.toString();
    });
    child.on('error', (e) => finish(e));
    child.on('close', (code) => {
      if (code === 0) finish();
      else finish(new SnapshotError('decode-failed', `${cmd} exited with ${code}: ${err.trim().slice(0, 300)}`));
    });
    child.stdin.on('error', () => undefined); // ffmpeg may exit before reading everything
    child.stdin.end(stdin);
  });

export interface SnapshotOptions {
  /** How long to wait for a keyframe when the stream has none cached yet. */
  keyframeWaitMs: number;
  ffmpegTimeoutMs: number;
  maxConcurrent: number;
  cacheMs: number;
  ffmpeg: string;
  run: Runner;
}

export const DEFAULT_SNAPSHOT_OPTIONS: SnapshotOptions = {
  keyframeWaitMs: 8000,
  ffmpegTimeoutMs: 5000,
  maxConcurrent: 2,
  cacheMs: 5000,
  ffmpeg: 'ffmpeg',
  run: runProcess,
};

/** A keyframe decoded to a JPEG by ffmpeg; SnapshotError when ffmpeg fails or gives something else. */
export async function decodeJpeg(
  frame: { track: VideoTrack; unit: VideoAccessUnit },
  opts: { run: Runner; ffmpeg: string; timeoutMs: number; width?: number; quality?: number; niceness?: number },
): Promise<Buffer> {
  const input = keyframeAnnexB(frame.track, frame.unit);
  const args = snapshotArgs(frame.track.codec, { width: opts.width, quality: opts.quality });
  const { stdout } = await opts.run(opts.ffmpeg, args, input, opts.timeoutMs, opts.niceness);
  if (stdout.length < 4 || stdout[0] !== 0xff || stdout[1] !== 0xd8) throw new SnapshotError('decode-failed', 'ffmpeg gave no JPEG');
  return stdout;
}

/** ffmpeg's arguments to scale a JPEG on stdin (a camera's own snapshot) down to at most `width`, one JPEG on stdout. */
export function scaleJpegArgs(opts: { width: number; quality?: number }): string[] {
  return oneJpegArgs('jpeg_pipe', opts);
}

/** A camera's JPEG scaled down to a card's size; SnapshotError when ffmpeg cannot read it. */
export async function scaleJpeg(
  jpeg: Uint8Array,
  opts: { run: Runner; ffmpeg: string; timeoutMs: number; width: number; quality?: number; niceness?: number },
): Promise<Buffer> {
  const { stdout } = await opts.run(opts.ffmpeg, scaleJpegArgs(opts), jpeg, opts.timeoutMs, opts.niceness);
  if (stdout.length < 4 || stdout[0] !== 0xff || stdout[1] !== 0xd8) throw new SnapshotError('decode-failed', 'ffmpeg gave no JPEG');
  return stdout;
}

/** The tracks and the first keyframe a hub gives a new subscriber (its cached GOP), or the next one. */
export function waitForKeyframe(
  hub: StreamHub,
  timeoutMs: number,
): Promise<{ track: VideoTrack; unit: VideoAccessUnit }> {
  return new Promise((resolve, reject) => {
    let video: { index: number; track: VideoTrack } | undefined;
    let done = false;
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      fn();
      // hub.subscribe() may deliver the keyframe before it returns the unsubscribe function
      queueMicrotask(() => unsubscribe());
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new SnapshotError(
              video ? 'no-keyframe' : 'no-video',
              `no ${video ? 'keyframe' : 'video'} on ${hub.key} within ${timeoutMs} ms`,
            ),
          ),
        ),
      timeoutMs,
    );
    const unsubscribe = hub.subscribe({
      tracks: (tracks) => {
        const index = tracks.findIndex((t) => t.kind === 'video');
        video = index >= 0 ? { index, track: tracks[index] as VideoTrack } : undefined;
      },
      unit: (track, unit) => {
        if (!video || track !== video.index || unit.kind !== 'video' || !unit.keyframe || unit.damaged) return;
        const v = video;
        // The hub lends a unit's bytes for the call only; the decode reads them later.
        const kept = copyUnit(unit) as VideoAccessUnit;
        finish(() => resolve({ track: v.track, unit: kept }));
      },
    });
  });
}

export class SnapshotService {
  private cache = new Map<string, { at: number; jpeg: Buffer }>();
  private inflight = new Map<string, Promise<Buffer>>();
  private running = 0;
  private queue: (() => void)[] = [];
  readonly stats = { runs: 0, cacheHits: 0, peakConcurrent: 0 };
  readonly opts: SnapshotOptions;

  constructor(opts: Partial<SnapshotOptions> = {}) {
    this.opts = { ...DEFAULT_SNAPSHOT_OPTIONS, ...opts };
  }

  /** The JPEG of a hub's latest keyframe (cached; concurrent calls for one stream share one decode). */
  async jpeg(hub: StreamHub): Promise<Buffer> {
    const hit = this.cache.get(hub.key);
    if (hit && Date.now() - hit.at < this.opts.cacheMs) {
      this.stats.cacheHits++;
      return hit.jpeg;
    }
    const pending = this.inflight.get(hub.key);
    if (pending) return pending;
    const p = this.make(hub).finally(() => this.inflight.delete(hub.key));
    this.inflight.set(hub.key, p);
    return p;
  }

  private async make(hub: StreamHub): Promise<Buffer> {
    const frame = await waitForKeyframe(hub, this.opts.keyframeWaitMs);
    const { run, ffmpeg, ffmpegTimeoutMs: timeoutMs } = this.opts;
    const stdout = await this.limited(() => decodeJpeg(frame, { run, ffmpeg, timeoutMs }));
    this.cache.set(hub.key, { at: Date.now(), jpeg: stdout });
    this.prune();
    return stdout;
  }

  private async limited<T>(fn: () => Promise<T>): Promise<T> {
    // A finishing run hands its slot straight to the next in the queue, so the bound always holds.
    if (this.running >= this.opts.maxConcurrent) await new Promise<void>((r) => this.queue.push(r));
    else this.running++;
    this.stats.runs++;
    this.stats.peakConcurrent = Math.max(this.stats.peakConcurrent, this.running);
    try {
      return await fn();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.running--;
    }
  }

  private prune() {
    const now = Date.now();
    for (const [k, v] of this.cache) if (now - v.at >= this.opts.cacheMs) this.cache.delete(k);
  }
}
