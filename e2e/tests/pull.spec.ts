/**
 * A channel whose address is RTMP (issue 4: the server's own RTMP client into the same hub) plays in
 * the console like a camera: ffmpeg publishes a clip to nginx-rtmp (a real relaying server, its own
 * process: apps/server/test/fixtures/nginx-rtmp.ts), the channel is added with that rtmp:// address
 * through the API, and the LivePlayer decodes it over WebSocket fMP4 in Chromium. Not ffmpeg's own
 * `-listen` server: it serves one client at a time, and the stream checker probing every second here
 * (CHANNEL_CHECK_INTERVAL=1) held it just when the stream's retry came, again and again.
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

test.describe('a pulled RTMP channel', () => {
  let dir = '';
  let dev = '';
  let nginx: NginxRtmp | undefined;
  let publisher: ChildProcess | undefined;

  test.beforeAll(async ({ api, admin }) => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-rtmp-'));
    const clip = path.join(dir, 'clip.flv');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '10', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '25', '-pix_fmt', 'yuv420p', '-c:a', 'aac', clip]);
    nginx = await startNginxRtmp(await freePort());
    publisher = spawn('ffmpeg', ['-v', 'error', '-re', '-stream_loop', '-1', '-i', clip, '-c', 'copy', '-f', 'flv', nginx.url(`e2e-${RUN}`)], { stdio: 'ignore' });
    dev = await addRtspDevice(api, admin.Token, `E2E RTMP ${RUN}`, nginx.url(`e2e-${RUN}`));
  });
  test.afterAll(async () => {
    publisher?.kill('SIGKILL');
    await nginx?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the player decodes it: time advances, H.264 320×240 in the toolbar', async ({ page, admin }) => {
    await openAs(page, admin, `/video/player/${dev}/1/0`);
    const player = page.getByTestId('live-player');
    await expectAdvancing(player.locator('video'), 'RTMP player');
    await expect(player).toHaveAttribute('data-phase', 'playing');
    await expect(player.getByTestId('player-stats')).toContainText('avc1');
    await expect(player.getByTestId('player-stats')).toContainText('320×240');
  });
});
