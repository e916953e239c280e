/**
 * An RTMP channel whose audio is MP3 (which the hub does not carry) plays in the console with sound:
 * the server's own RTMP client takes the video and the login, and only the audio goes through one
 * small ffmpeg that encodes it to AAC (apps/server/src/media/ingest/rtmp-audio-encoder.ts). ffmpeg
 * publishes an H.264 + MP3 clip to nginx-rtmp (a real relaying server, its own process); Chromium's
 * player decodes both: the picture advances and audio bytes are decoded, with no note of a missing
 * sound over the picture.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startNginxRtmp, type NginxRtmp } from '../../apps/server/test/fixtures/nginx-rtmp';
import { addRtspDevice } from '../support/api';
import { expect, test } from '../support/fixtures';
import { expectAdvancing, openAs } from '../support/page';

const RUN = Date.now().toString(36);
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

test.describe('a pulled RTMP channel with MP3 audio', () => {
  let dir = '';
  let dev = '';
  let nginx: NginxRtmp | undefined;
  let publisher: ChildProcess | undefined;

  test.beforeAll(async ({ api, admin }) => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-rtmp-mp3-'));
    const clip = path.join(dir, 'clip.flv');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100', '-t', '10', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '25', '-pix_fmt', 'yuv420p', '-c:a', 'libmp3lame', '-ar', '44100', clip]); // prettier-ignore
    nginx = await startNginxRtmp(await freePort());
    publisher = spawn('ffmpeg', ['-v', 'error', '-re', '-stream_loop', '-1', '-i', clip, '-c', 'copy', '-f', 'flv', nginx.url(`e2e-mp3-${RUN}`)], { stdio: 'ignore' });
    dev = await addRtspDevice(api, admin.Token, `E2E RTMP MP3 ${RUN}`, nginx.url(`e2e-mp3-${RUN}`));
  });
  test.afterAll(async () => {
    publisher?.kill('SIGKILL');
    await nginx?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the player decodes the video and the MP3 turned AAC: time advances, audio bytes decoded, no note of a missing sound', async ({ page, admin }) => {
    await openAs(page, admin, `/video/player/${dev}/1/0`);
    const player = page.getByTestId('live-player');
    const video = player.locator('video');
    await expectAdvancing(video, 'RTMP MP3 player');
    await expect(player).toHaveAttribute('data-phase', 'playing');
    await expect(player.getByTestId('player-stats')).toContainText('320×240');
    // Chromium counts the audio it decoded (muted or not): the AAC track plays.
    await expect
      .poll(() => video.evaluate((v) => (v as HTMLVideoElement & { webkitAudioDecodedByteCount?: number }).webkitAudioDecodedByteCount ?? -1), {
        message: 'audio decoded',
        timeout: 20_000,
      })
      .toBeGreaterThan(10_000);
    await expect(player.getByTestId('player-note')).toHaveCount(0);
  });
});
