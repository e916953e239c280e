/**
 * A camera that stops and comes back while the console plays it over WebRTC (`?transport=webrtc`):
 * a peer connection carries no camera state, so the player shows the streaming-status socket's word
 * that the camera is away — 正在重新连接 and the reason over the frozen picture, as over WS-fMP4 and
 * WS-FLV — and plays on in the same WHEP session once the camera is back. Before, the picture froze
 * and only "画面已停止" said anything.
 */
import { reason } from '../../packages/shared/src/messages';
import { expect, test, useCameraDevice } from '../support/fixtures';
import { expectAdvancing, openAs } from '../support/page';

const RUN = Date.now().toString(36);

test.describe.configure({ mode: 'serial', timeout: 120_000 });
const SLOW = { timeout: 30_000 };

/** What a camera that went away is said to have done (zh-CN): it closed the connection, or refuses new ones. */
const CAMERA_AWAY = [reason('streamClosed', 'zh-CN'), reason('streamRefused', 'zh-CN')];

test.describe('a WebRTC viewer of a camera that stops and returns', () => {
  const cam = useCameraDevice(`E2E webrtc outage ${RUN}`);

  test('shows reconnecting with the reason over the frozen picture, then plays on in the same session', async ({ page, admin }) => {
    const offers: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/webrtc/whep/')) offers.push(r.url());
    });
    await openAs(page, admin, `/video/player/${cam.dev}/1/0?transport=webrtc`);
    const player = page.getByTestId('live-player');
    const video = player.locator('video');
    await expect(player).toHaveAttribute('data-transport', 'webrtc', SLOW);
    await expect(player).toHaveAttribute('data-phase', 'playing', SLOW);
    await expectAdvancing(video, 'WebRTC before the outage');

    const port = cam.camera.port;
    await cam.camera.stop();
    await expect(player).toHaveAttribute('data-phase', 'reconnecting', { timeout: 20_000 });
    const status = player.getByTestId('player-status');
    await expect(status).toContainText('正在重新连接');
    await expect(status).toContainText(new RegExp(CAMERA_AWAY.join('|')));

    await cam.startCamera({ port });
    await expect(player).toHaveAttribute('data-phase', 'playing', { timeout: 45_000 });
    await expect(status).toHaveCount(0);
    await expectAdvancing(video, 'WebRTC after the camera returned');
    expect(offers, `one WHEP session throughout: ${offers.join(' ')}`).toHaveLength(1);
  });
});
