/**
 * A camera whose clock is off, for the specs: bench/live/replay-camera.ts (RTSP over TCP, a
 * pre-encoded H.264 clip replayed without re-encoding) sending PACE × 25 frames a wall-clock second
 * with timestamps 1/25 s apart. The clip (320x240, GOP 2 s, no B-frames, access unit delimiters: what
 * the replay camera splits on) is made once per run with ffmpeg into `dir`.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort, type Camera } from '../../apps/server/test/fixtures/camera';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FPS = 25;

function makeClip(dir: string): string {
  const clip = path.join(dir, 'replay-320x240.h264');
  if (fs.existsSync(clip)) return clip;
  fs.mkdirSync(dir, { recursive: true });
  const made = spawnSync('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=${FPS}`, '-t', '10',
    '-c:v', 'libx264', '-preset', 'veryfast', '-g', '50', '-keyint_min', '50', '-sc_threshold', '0', '-bf', '0',
    '-pix_fmt', 'yuv420p', '-x264-params', 'aud=1', '-bsf:v', 'h264_mp4toannexb', '-f', 'h264', `${clip}.tmp`,
  ], { stdio: 'inherit' });
  if (made.status !== 0) throw new Error('ffmpeg could not make the replay clip');
  fs.renameSync(`${clip}.tmp`, clip);
  return clip;
}

export async function startPacedCamera(dir: string, pace: number): Promise<Camera> {
  const clip = makeClip(dir);
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/live/replay-camera.ts'), clip, String(port), String(FPS), String(pace)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (l) => l.startsWith('READY') && resolve());
    child.once('exit', (c) => reject(new Error(`replay camera exited with ${c}`)));
    setTimeout(() => reject(new Error('replay camera did not start in 20 s')), 20_000);
  });
  return {
    port,
    url: `rtsp://127.0.0.1:${port}/cam`,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
