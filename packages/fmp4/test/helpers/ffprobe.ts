/** ffprobe / ffmpeg (Debian 5.1) over a temporary file. */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const hasFfmpeg = (() => {
  try {
    execFileSync('ffprobe', ['-version'], { stdio: 'ignore' });
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export const hasLibx265 = hasFfmpeg && /libx265/.test(execFileSync('ffmpeg', ['-v', 'error', '-encoders']).toString());

let dir: string | undefined;
export function tmpFile(name: string, bytes: Uint8Array): string {
  dir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'fmp4-test-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}
export function cleanup(): void {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}

export interface ProbeStream {
  index: number;
  codec_name: string;
  codec_type: string;
  width?: number;
  height?: number;
  sample_rate?: string;
  channels?: number;
  time_base: string;
  nb_frames?: string;
}
export interface ProbeFrame {
  media_type: string;
  stream_index: number;
  key_frame: number;
  pts?: number;
  pict_type?: string;
  nb_samples?: number;
}

export function ffprobe(file: string, frames = true): { streams: ProbeStream[]; frames: ProbeFrame[] } {
  const args = ['-v', 'error', '-show_streams', ...(frames ? ['-show_frames'] : []), '-of', 'json', file];
  const r = spawnSync('ffprobe', args, { maxBuffer: 64 << 20 });
  if (r.status !== 0 || r.stderr.length) throw new Error(`ffprobe failed (${r.status}): ${r.stderr}`);
  const json = JSON.parse(r.stdout.toString());
  return { streams: json.streams ?? [], frames: json.frames ?? [] };
}

/** Decodes every stream to nowhere; returns ffmpeg's error output (empty when clean). */
export function decodeErrors(file: string): string {
  const r = spawnSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-'], { maxBuffer: 16 << 20 });
  return `${r.status === 0 ? '' : `exit ${r.status}\n`}${r.stderr}`;
}
