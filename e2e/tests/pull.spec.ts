/**
 * A channel whose address is RTMP (issue 4: the server's own RTMP client into the same hub) plays in
 * the console like a camera: ffmpeg publishes a clip to nginx-rtmp (a real relaying server, its own
 * process: apps/server/test/fixtures/nginx-rtmp.ts), the channel is added with that rtmp:// address
 * through the API, and the LivePlayer decodes it over WebSocket fMP4 in Chromium. Not ffmpeg's own
 * `-listen` server: it serves one client at a time, and the stream checker probing every second here
 * (CHANNEL_CHECK_INTERVAL=1) held it just when the stream's retry came, again and again.
 */
import { expect, test } from '../support/fixtures';
import { expectAdvancing, openAs } from '../support/page';
import { useRtmpChannel } from '../support/rtmp-channel';

const RUN = Date.now().toString(36);
test.describe.configure({ mode: 'serial', timeout: 150_000 });

test.describe('a pulled RTMP channel', () => {
  const channel = useRtmpChannel(`E2E RTMP ${RUN}`, 'aac');

  test('the player decodes it: time advances, H.264 320×240 in the toolbar', async ({ page, admin }) => {
    await openAs(page, admin, `/video/player/${channel.dev}/1/0`);
    const player = page.getByTestId('live-player');
    await expectAdvancing(player.locator('video'), 'RTMP player');
    await expect(player).toHaveAttribute('data-phase', 'playing');
    await expect(player.getByTestId('player-stats')).toContainText('H.264');
    await expect(player.getByTestId('player-stats')).toContainText('320×240');
  });
});
