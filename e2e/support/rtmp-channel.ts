/**
 * A pulled RTMP channel for the specs: ffmpeg publishes a looping 320x240 H.264 clip to nginx-rtmp (a
 * real relaying server, its own process: apps/server/test/fixtures/nginx-rtmp.ts), and a device is
 * added with that rtmp:// address through the API. Not ffmpeg's own `-listen` server: it serves one
 * client at a time, and the stream checker probing every second here (CHANNEL_CHECK_INTERVAL=1) held it
 * just when the stream's retry came, again and again.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../apps/server/test/fixtures/camera';
import { startNginxRtmp, type NginxRtmp } from '../../apps/server/test/fixtures/nginx-rtmp';
import { addRtspDevice } from './api';
import { test } from './fixtures';

/** The clip's audio: AAC (carried by the hub as it is) or MP3 (encoded to AAC by the server's small ffmpeg). */
export type RtmpAudio = 'aac' | 'mp3';

const AUDIO: Record<RtmpAudio, { input: string[]; codec: string[] }> = {
  aac: { input: ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'], codec: ['-c:a', 'aac'] },
  mp3: { input: ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100'], codec: ['-c:a', 'libmp3lame', '-ar', '44100'] },
};

/**
 * Made before the first test of the describe block it is called in (nginx, the publisher, the
 * device), stopped after its last. `dev` is the device's DeviceID; its channel 1 is the stream.
 */
export function useRtmpChannel(name: string, audio: RtmpAudio): { readonly dev: string } {
  let dir = '';
  let dev = '';
  let nginx: NginxRtmp | undefined;
  let publisher: ChildProcess | undefined;
  test.beforeAll(async ({ api, admin }) => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `e2e-rtmp-${audio}-`));
    const clip = path.join(dir, 'clip.flv');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', ...AUDIO[audio].input, '-t', '10', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '25', '-pix_fmt', 'yuv420p', ...AUDIO[audio].codec, clip]); // prettier-ignore
    nginx = await startNginxRtmp(await freePort());
    const key = `e2e-${audio}-${Date.now().toString(36)}`;
    publisher = spawn('ffmpeg', ['-v', 'error', '-re', '-stream_loop', '-1', '-i', clip, '-c', 'copy', '-f', 'flv', nginx.url(key)], { stdio: 'ignore' });
    dev = await addRtspDevice(api, admin.Token, name, nginx.url(key));
  });
  test.afterAll(async () => {
    publisher?.kill('SIGKILL');
    await nginx?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dev() {
      if (!dev) throw new Error('useRtmpChannel: the device is added before the first test (its beforeAll)');
      return dev;
    },
  };
}
