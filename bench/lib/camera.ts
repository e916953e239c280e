/**
 * The benches' camera (live: run.ts, drift.ts, ab-dual.ts; recording: run.ts, recorder-only.ts), one
 * of two, run as they are:
 *  - 'replay' (bench/live/replay-camera.ts): the clip packetised once, one write per client per
 *    frame, ~3 % of a core for 64 clients;
 *  - 'gstreamer' (bench/live/camera.py): GStreamer's RTSP server with one shared pipeline, which
 *    writes every RTP packet to every client (~1.2 % of a core per client: ~77 % at 64 streams).
 * Both loop the live benchmark's pre-encoded 1080p25 H.264 clip of ~4 Mbit/s, GOP 50, without
 * re-encoding; clients tell themselves apart by ?n=K. The clip lives in bench/live/.cache and is made
 * here with the same ffmpeg command when it is missing.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { freePort, onCleanup, ROOT, stopChild, trackChild } from '../lib/server';

const LIVE = path.join(ROOT, 'bench/live');
const CACHE = path.join(LIVE, '.cache');
export const CLIP_MP4 = path.join(CACHE, 'clip.mp4');
export const CLIP_H264 = path.join(CACHE, 'clip.h264');
export const FPS = 25;
/** Seconds of the clip (the ffmpeg command below). */
export const CLIP_SECONDS = 20;

export function ensureClip(log: (m: string) => void) {
  if (fs.existsSync(CLIP_H264) && fs.statSync(CLIP_H264).size > 1e6) return;
  fs.mkdirSync(CACHE, { recursive: true });
  log('making the 1080p25 H.264 clip (once; cached in bench/live/.cache) ...');
  // The live benchmark's clip: testsrc2 with temporal noise (~4 Mbit/s), GOP 50, no B-frames, AUDs.
  const enc = spawnSync(
    'ffmpeg',
    [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=${FPS}`, '-t', String(CLIP_SECONDS),
      '-vf', 'noise=alls=12:allf=t', '-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '4M', '-maxrate', '4.4M',
      '-bufsize', '8M', '-g', '50', '-keyint_min', '50', '-sc_threshold', '0', '-bf', '0', '-pix_fmt', 'yuv420p',
      '-x264-params', 'aud=1', `${CLIP_MP4}.tmp.mp4`,
    ],
    { stdio: 'inherit' },
  );
  if (enc.status !== 0) throw new Error('ffmpeg could not make the clip');
  fs.renameSync(`${CLIP_MP4}.tmp.mp4`, CLIP_MP4);
  const es = spawnSync('ffmpeg', ['-v', 'error', '-y', '-i', CLIP_MP4, '-c', 'copy', '-bsf:v', 'h264_mp4toannexb', '-f', 'h264', `${CLIP_H264}.tmp`], { stdio: 'inherit' });
  if (es.status !== 0) throw new Error('ffmpeg could not extract the elementary stream');
  fs.renameSync(`${CLIP_H264}.tmp`, CLIP_H264);
}

export interface Camera {
  /** Client n's address (`?n=K` tells clients apart; the stream is the same). */
  url: (n: number) => string;
  port: number;
  pid: number;
  /** Bytes of H.264 the camera sends per second per client (the clip's elementary stream rate). */
  bytesPerSecond: number;
  stop(): Promise<void>;
}

export type CameraKind = 'replay' | 'gstreamer';

/**
 * Starts a camera on a free port and waits for its READY line (it is stopped at the bench's cleanup,
 * or by stop()). `pace` (replay only) skews its clock: replay-camera.ts's PACE, for the drift soak.
 */
export async function startCamera(log: (m: string) => void, kind: CameraKind, opts: { pace?: number } = {}): Promise<Camera> {
  ensureClip(log);
  const port = await freePort();
  if (opts.pace !== undefined && kind !== 'replay') throw new Error('a paced camera is a replay camera');
  const [cmd, args] =
    kind === 'gstreamer'
      ? ['/usr/bin/python3', [path.join(LIVE, 'camera.py'), CLIP_H264, String(port), String(FPS)]]
      : [process.execPath, ['--import', 'tsx', path.join(LIVE, 'replay-camera.ts'), CLIP_H264, String(port), String(FPS), ...(opts.pace === undefined ? [] : [String(opts.pace)])]];
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  trackChild(child);
  onCleanup(() => stopChild(child));
  await new Promise<void>((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout! });
    rl.on('line', (l) => l.startsWith('READY') && resolve());
    child.once('exit', (c) => reject(new Error(`camera exited with ${c}`)));
    setTimeout(() => reject(new Error('camera did not start in 20 s')), 20_000);
  });
  log(`camera (${kind === 'gstreamer' ? 'GStreamer, camera.py' : 'replay, replay-camera.ts'}${opts.pace === undefined ? '' : ` at pace ${opts.pace}`}) at rtsp://127.0.0.1:${port}/cam, pid ${child.pid}`);
  return {
    url: (n) => `rtsp://127.0.0.1:${port}/cam?n=${n}`,
    port,
    pid: child.pid!,
    bytesPerSecond: fs.statSync(CLIP_H264).size / CLIP_SECONDS,
    stop: () => stopChild(child),
  };
}
