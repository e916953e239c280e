/**
 * Keep-alive routes in Chromium (spec 2 "route metadata may mark a page as keep-alive"): the device
 * list keeps its search when the user goes to another page and comes back; the multi-screen wall,
 * kept hidden meanwhile, stops its players (the media socket closes) and plays again on return.
 */
import type { Page, WebSocket } from '@playwright/test';
import { expect, test, useCameraDevice } from '../support/fixtures';
import { expectAdvancing, openAs } from '../support/page';

const RUN = Date.now().toString(36);

test.describe.configure({ mode: 'serial', timeout: 150_000 });
const SLOW = { timeout: 30_000 };

/** An in-console navigation (as a link does: history and the router, no page load). */
const go = (page: Page, path: string) =>
  page.evaluate((p) => {
    history.pushState(null, '', p);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);

test.describe('keep-alive pages', () => {
  const name = `E2E kept ${RUN}`;
  const cam = useCameraDevice(name);

  test('the device list keeps its search across a visit to another page', async ({ page, admin }) => {
    await openAs(page, admin, '/device/list');
    const search = page.getByPlaceholder('搜索名称 / ID / IP').first();
    await search.fill(RUN);
    await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(1, SLOW);
    await go(page, '/user/index');
    await expect(page.getByRole('columnheader', { name: '用户名' })).toBeVisible(SLOW);
    await expect(search).toBeHidden();
    await page.goBack();
    await expect(search).toBeVisible();
    await expect(search).toHaveValue(RUN);
    await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(1);
  });

  test('the wall stops playing while another page shows, and plays again on return', async ({ page, admin }) => {
    await page.addInitScript(
      (c) => localStorage.setItem('multi_screen_layout', JSON.stringify({ layout: 1, cells: [c] })),
      { device: cam.dev, channel: '1', name },
    );
    const media: WebSocket[] = [];
    page.on('websocket', (ws) => {
      if (ws.url().includes('/ws_m4s/')) media.push(ws);
    });
    await openAs(page, admin, '/video/browse');
    const video = page.getByTestId('wall').locator('video').first();
    await expectAdvancing(video, 'wall cell');
    expect(media).toHaveLength(1);
    const closed = media[0]!.waitForEvent('close');

    await go(page, '/device/list');
    await expect(page.getByPlaceholder('搜索名称 / ID / IP').first()).toBeVisible(SLOW);
    await closed;
    await expect(video).toBeHidden();

    await page.goBack();
    await expect(video).toBeVisible();
    await expectAdvancing(video, 'wall cell again');
    expect(media).toHaveLength(2);
    expect(media[1]!.isClosed()).toBe(false);
  });
});
