/**
 * The public /players/{devid}/{chnid}/{flow} page end to end (spec 2 route table, issue 4): a real
 * GStreamer RTSP camera added through the API, a share token from GET /api/v1/devices/sharelink,
 * and the page opened with that play_token in a fresh browser context (no session): it stays on
 * /players/ and the video advances. Also: a logged-in player shows the streaming-status socket's
 * server figures for its stream.
 */
import { v1 } from '../support/api';
import { expect, test, useCameraDevice } from '../support/fixtures';
import { expectAdvancing, openAs } from '../support/page';

const RUN = Date.now().toString(36);

test.describe.configure({ mode: 'serial', timeout: 150_000 });
const SLOW = { timeout: 30_000 };

test.describe('public players page', () => {
  const name = `E2E players ${RUN}`;
  const cam = useCameraDevice(name);
  let shareUrl = '';

  test.beforeAll(async ({ api, admin }) => {
    const link = await v1<{ URL: string; ExpiresAt: number }>(
      await api.get('/api/v1/devices/sharelink', { headers: { token: admin.Token }, params: { device: cam.dev, channel: '1', stream: 0 } }),
    );
    shareUrl = link.URL;
    expect(link.ExpiresAt).toBeGreaterThan(Date.now() / 1000);
  });

  test('/players/{devid}/1/0 with the share play_token plays in a fresh context without login', async ({ browser }) => {
    expect(shareUrl).toMatch(/^\/share\/.+\/1\/0\?play_token=.+/);
    const token = new URL(shareUrl, 'http://x').searchParams.get('play_token')!;
    const path = `/players/${encodeURIComponent(cam.dev)}/1/0?play_token=${encodeURIComponent(token)}`;
    const visitor = await browser.newContext();
    try {
      const p = await visitor.newPage();
      await p.goto(path);
      expect(await p.evaluate(() => localStorage.getItem('userinfo'))).toBeNull();
      await expect(p.getByTestId('share-name')).toHaveText(name, SLOW);
      await expect(p).toHaveURL(/\/players\//);
      await expectAdvancing(p.getByTestId('live-player').locator('video'), 'players page');
      await expect(p).toHaveURL(/\/players\//);
      // No session: no top bar and no streaming-status figures.
      await expect(p.getByTestId('user-menu')).toHaveCount(0);
      await expect(p.getByTestId('player-server-stats')).toHaveCount(0);

      // Without the token the page says so instead of playing.
      await p.goto(`/players/${encodeURIComponent(cam.dev)}/1/0`);
      await expect(p.getByTestId('share-error')).toBeVisible(SLOW);
      await expect(p.getByTestId('live-player')).toHaveCount(0);
      await expect(p).toHaveURL(/\/players\//);
    } finally {
      await visitor.close();
    }
  });

  test('a logged-in player shows the server figures of its stream from the streamstat socket', async ({ page, admin }) => {
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await openAs(page, admin, `/video/player/${cam.dev}/1/0`);
    await expectAdvancing(page.getByTestId('live-player').locator('video'), 'player page');
    const server = page.getByTestId('player-server-stats');
    await expect(server).toHaveAttribute('data-state', 'live', SLOW);
    await expect(server).toContainText(/[1-9]\d* 人观看/);
    // one bit rate: the player's own measure; the server part says state and viewers only
    await expect(page.getByTestId('player-stats')).toContainText(/[1-9][\d.]* [kM]bps/);
    await expect(server).not.toContainText(/bps/);
    expect(sockets.some((u) => /\/api\/v1\/ws\/streamstat\?request_id=[^&]+&token=/.test(u))).toBe(true);

    // A phone-wide window: the channel's name and figures keep room beside the server's (the
    // server's kept their full width and left one character of the name).
    await page.setViewportSize({ width: 390, height: 844 });
    const width = (id: string) => page.getByTestId(id).evaluate((e) => e.getBoundingClientRect().width);
    await expect.poll(() => width('player-stats')).toBeGreaterThan(100);
    expect(await width('player-stats')).toBeGreaterThan(await width('player-server-stats'));
  });
});
