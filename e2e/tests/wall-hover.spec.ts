/**
 * A wall cell's small toolbar after a channel is dropped on it. The cell's player mounts under the
 * still pointer: Chromium counts the pointer as over it (:hover) but sends it no mouseenter, and
 * then none while the pointer moves inside it, so the toolbar came only once the pointer left the
 * cell and came back. The drop is dispatched as the wall receives it (a headless drag from the
 * sidebar moves the pointer itself, which hides the case). No stream is needed: the toolbar shows
 * whatever the player's state.
 */
import { addRtspDevice } from '../support/api';
import { expect, test } from '../support/fixtures';
import { openAs } from '../support/page';

const NAME = `E2E wall hover ${Date.now().toString(36)}`;

test('a dropped cell’s toolbar shows as soon as the pointer moves over it', async ({ page, request, admin }) => {
  // Nothing answers there: the cell shows its player without a picture.
  const dev = await addRtspDevice(request, admin.Token, NAME, 'rtsp://127.0.0.1:9/none');
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.addInitScript(() => localStorage.setItem('multi_screen_layout', JSON.stringify({ layout: 4, cells: [null, null, null, null] })));
    await openAs(page, admin, '/video/browse');
    const cell = page.getByTestId('wall-cell').nth(2);
    await expect(cell.getByTestId('wall-empty')).toBeVisible({ timeout: 30_000 });
    const box = (await cell.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);

    const dt = await page.evaluateHandle((c) => {
      const d = new DataTransfer();
      d.setData('application/x-opencvr-channel', JSON.stringify(c));
      return d;
    }, { device: dev, channel: '1', name: NAME });
    await cell.dispatchEvent('dragover', { dataTransfer: dt });
    await cell.dispatchEvent('drop', { dataTransfer: dt });
    const player = cell.getByTestId('live-player');
    await expect(player).toBeVisible();
    // The browser has the pointer over the new player...
    await expect.poll(() => player.evaluate((e) => e.matches(':hover'))).toBe(true);
    // ...and a move inside the cell shows its toolbar (it did not before, only leaving and coming back).
    await page.mouse.move(box.x + box.width / 2 + 5, box.y + box.height / 2 + 5, { steps: 3 });
    await expect(player.getByTestId('player-stats')).toBeVisible();
    await page.mouse.move(5, box.y + box.height / 2);
    await expect(player.getByTestId('player-stats')).toHaveCount(0);
  } finally {
    await request.get('/api/v1/deldevice', { headers: { token: admin.Token }, params: { device: dev } });
  }
});
