/**
 * A camera that stops and comes back while a public /share page plays it over HLS or WebRTC
 * (`?transport=`, as iPhone Safari picks HLS by itself). The page has no login, so it heard nothing
 * of the camera: HLS and WebRTC media carry no state, and the console's streamstat socket needs a
 * login, so the page showed only 画面已停止. It now opens /api/v1/ws/share/streamstat with its link's
 * play token and shows 正在重新连接 with the camera's reason, as a logged-in viewer sees, until the
 * camera is back and playing.
 */
import { reason } from '../../packages/shared/src/messages';
import { v1 } from '../support/api';
import { expect, test, useCameraDevice } from '../support/fixtures';
import { expectAdvancing } from '../support/page';

const RUN = Date.now().toString(36);

test.describe.configure({ timeout: 120_000 });
const SLOW = { timeout: 30_000 };

/** What a camera that went away is said to have done (zh-CN): it closed the connection, or refuses new ones. */
const CAMERA_AWAY = [reason('streamClosed', 'zh-CN'), reason('streamRefused', 'zh-CN')];

for (const transport of ['hls', 'webrtc'] as const) {
  test.describe(`a public page's ${transport} viewer of a camera that stops and returns`, () => {
    const cam = useCameraDevice(`E2E share ${transport} outage ${RUN}`);

    test('shows reconnecting with the reason from the link\'s status socket, then plays on', async ({ api, admin, browser }) => {
      const link = await v1<{ URL: string }>(
        await api.get('/api/v1/devices/sharelink', { headers: { token: admin.Token }, params: { device: cam.dev, channel: '1', stream: 0 } }),
      );
      const visitor = await browser.newContext();
      try {
        const page = await visitor.newPage();
        const sockets: string[] = [];
        page.on('websocket', (ws) => sockets.push(ws.url()));
        await page.goto(`${link.URL}&transport=${transport}`);
        const player = page.getByTestId('live-player');
        const video = player.locator('video');
        await expect(player).toHaveAttribute('data-transport', transport, SLOW);
        await expect(player).toHaveAttribute('data-phase', 'playing', SLOW);
        await expectAdvancing(video, `${transport} before the outage`);
        const status = sockets.filter((u) => u.includes('/api/v1/ws/'));
        expect(status, 'one status socket, the link\'s, with its play token and no login').toHaveLength(1);
        expect(status[0]).toContain('/api/v1/ws/share/streamstat?');
        expect(new URL(status[0]!).searchParams.get('play_token')).toBe(new URL(link.URL, 'http://x').searchParams.get('play_token'));
        expect(new URL(status[0]!).searchParams.get('token')).toBeNull();

        const port = cam.camera.port;
        await cam.camera.stop();
        await expect(player).toHaveAttribute('data-phase', 'reconnecting', { timeout: 20_000 });
        const words = player.getByTestId('player-status');
        await expect(words).toContainText('正在重新连接');
        await expect(words).toContainText(new RegExp(CAMERA_AWAY.join('|')));

        await cam.startCamera({ port });
        await expect(player).toHaveAttribute('data-phase', 'playing', { timeout: 45_000 });
        await expect(words).toHaveCount(0);
        await expectAdvancing(video, `${transport} after the camera returned`);
      } finally {
        await visitor.close();
      }
    });
  });
}
