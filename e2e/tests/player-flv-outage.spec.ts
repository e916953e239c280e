/**
 * A camera that stops and comes back while the console plays it over WS-FLV (`?transport=flv`,
 * mpegts.js with the console's own socket loader): the player shows 正在重新连接 with the camera's
 * reason over the frozen picture, as a WS-fMP4 viewer is shown, and plays on by itself once the camera
 * is back — on the same socket (the server tells the state in text frames the console asks for with
 * ?state=1; its loader reads them, mpegts.js never sees them). Before, an FLV viewer froze without a
 * word until the picture moved again.
 */
import { reason } from '../../packages/shared/src/messages';
import { expect, test, useCameraDevice } from '../support/fixtures';
import { expectAdvancing, openAs } from '../support/page';

const RUN = Date.now().toString(36);

test.describe.configure({ mode: 'serial', timeout: 120_000 });
const SLOW = { timeout: 30_000 };

/** What a camera that went away is said to have done (zh-CN): it closed the connection, or refuses new ones. */
const CAMERA_AWAY = [reason('streamClosed', 'zh-CN'), reason('streamRefused', 'zh-CN')];

test.describe('an FLV viewer of a camera that stops and returns', () => {
  const cam = useCameraDevice(`E2E flv outage ${RUN}`);

  test('shows reconnecting with the reason over the frozen picture, then plays on without a new socket', async ({ page, admin }) => {
    const sockets: string[] = [];
    page.on('websocket', (ws) => {
      if (ws.url().includes('/ws_flv/')) sockets.push(ws.url());
    });
    await openAs(page, admin, `/video/player/${cam.dev}/1/0?transport=flv`);
    const player = page.getByTestId('live-player');
    const video = player.locator('video');
    await expect(player).toHaveAttribute('data-transport', 'flv', SLOW);
    await expect(player).toHaveAttribute('data-phase', 'playing', SLOW);
    await expectAdvancing(video, 'FLV before the outage');
    expect(sockets, 'the console asks for the state messages').toHaveLength(1);
    expect(sockets[0]).toContain('state=1');

    const port = cam.camera.port;
    await cam.camera.stop();
    await expect(player).toHaveAttribute('data-phase', 'reconnecting', { timeout: 20_000 });
    const status = player.getByTestId('player-status');
    await expect(status).toContainText('正在重新连接');
    await expect(status).toContainText(new RegExp(CAMERA_AWAY.join('|')));
    // The picture stays (frozen), not emptied: the same element, the same MediaSource.
    const frozen = await video.evaluate((v: HTMLVideoElement) => ({ time: v.currentTime, width: v.videoWidth }));
    expect(frozen.width).toBeGreaterThan(0);

    await cam.startCamera({ port });
    await expect(player).toHaveAttribute('data-phase', 'playing', { timeout: 45_000 });
    await expect(status).toHaveCount(0);
    await expectAdvancing(video, 'FLV after the camera returned');
    expect(await video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(frozen.time);
    expect(sockets, `one socket throughout: ${sockets.join(' ')}`).toHaveLength(1);
  });
});
