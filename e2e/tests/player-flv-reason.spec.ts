/**
 * The FLV player says why the server ended its stream: a viewer of the real GStreamer camera over
 * WS-FLV only (`?transport=flv`, mpegts.js) whose stream an administrator stops (stopstream) shows
 * the server's close reason ("stream stopped (streamStoppedByRequest)": 直播已按请求停止, as a
 * WS-fMP4 viewer is told) while it reconnects, where mpegts.js's own loader left it only "the FLV
 * stream ended". It then plays again.
 */
import type { Page } from '@playwright/test';
import { v1 } from '../support/api';
import { expect, test, useCameraDevice } from '../support/fixtures';
import { reason } from '../../packages/shared/src/messages';
import { expectAdvancing, openAs } from '../support/page';

const RUN = Date.now().toString(36);

test.describe.configure({ mode: 'serial', timeout: 120_000 });
const SLOW = { timeout: 30_000 };

/** The stop's catalogue reason and the console's old words (zh-CN, apps/web/src/i18n/live.zh-CN.ts player.failure). */
const STOPPED_BY_REQUEST = reason('streamStoppedByRequest', 'zh-CN');
const FLV_ENDED = 'FLV 视频流已结束';

/**
 * Every text the player's status overlay shows from now on: the reason is shown while the player
 * waits to reconnect (a second at first), too short to be sure of catching by polling.
 */
async function recordStatusTexts(page: Page) {
  await page.evaluate(() => {
    const texts: string[] = [];
    (window as unknown as { statusTexts: string[] }).statusTexts = texts;
    const note = () => {
      const t = document.querySelector('[data-testid="player-status"]')?.textContent ?? '';
      if (t && texts[texts.length - 1] !== t) texts.push(t);
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { statusTexts: string[] }).statusTexts);
}

test.describe('the FLV player and the server ending its stream', () => {
  const cam = useCameraDevice(`E2E flv reason ${RUN}`);

  test('stopstream: the FLV viewer is told the stream was stopped on request, then plays again', async ({ page, api, admin }) => {
    await openAs(page, admin, `/video/player/${cam.dev}/1/0?transport=flv`);
    const player = page.getByTestId('live-player');
    await expect(player).toHaveAttribute('data-transport', 'flv', SLOW);
    await expect(player).toHaveAttribute('data-phase', 'playing', SLOW);
    await expectAdvancing(player.locator('video'), 'FLV');

    const statusTexts = await recordStatusTexts(page);
    await v1(await api.get('/api/v1/stopstream', { headers: { token: admin.Token }, params: { device: cam.dev, channel: '1', stream: '0' } }));

    await expect
      .poll(async () => (await statusTexts()).join(' | '), { message: 'the status overlay names the reason', timeout: 20_000 })
      .toContain(STOPPED_BY_REQUEST);
    expect((await statusTexts()).join(' | ')).not.toContain(FLV_ENDED);
    // The same transport reconnects (a stopped stream is opened again by the next getchannelstream).
    await expect(player).toHaveAttribute('data-phase', 'playing', { timeout: 45_000 });
    await expect(player).toHaveAttribute('data-transport', 'flv');
    await expectAdvancing(player.locator('video'), 'FLV again');
  });
});
