/**
 * GB28181 IDs on one line in the English console at 1440 px. The channel list's ID column had no
 * width: its share of the table (nine columns, the English headers wider than the Chinese) broke a
 * channel's 20 digits in two. Layout needs a browser, hence e2e.
 */
import type { Page } from '@playwright/test';
import { STORAGE_KEYS } from '../../packages/shared/src/constants';
import { v1 } from '../support/api';
import { expect, test } from '../support/fixtures';
import { openAs } from '../support/page';

// IDs of this run: 20 digits, a device (type 132, NVR) and one of its cameras (type 131).
const RUN = String(Date.now() % 10_000_000).padStart(7, '0');
const GB_ID = `3402000000132${RUN}`;
const CHANNEL_ID = `3402000000131${RUN}`;

/** The text's line boxes in the table cell holding exactly it: more than one means it wrapped. */
const lineCount = (page: Page, text: string) =>
  page.evaluate((txt) => {
    const cell = Array.from(document.querySelectorAll('tr.ant-table-row td')).find((e) => e.textContent?.trim() === txt);
    if (!cell) return -1;
    const range = document.createRange();
    range.selectNodeContents(cell);
    return new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size;
  }, text);

test.describe('GB IDs in the English lists at 1440 px', () => {
  test.beforeAll(async ({ request, admin }) => {
    const headers = { token: admin.Token };
    await v1(await request.post('/api/v1/adddevice', { headers, data: { DeviceID: GB_ID, DeviceName: 'E2E wide NVR', DeviceType: 'GB28181' } }));
    await v1(await request.post('/api/v1/addchannel', { headers, data: { ParentDeviceID: GB_ID, ChannelID: CHANNEL_ID, Name: 'E2E wide camera' } }));
  });
  test.afterAll(async ({ request, admin }) => {
    await request.get('/api/v1/deldevice', { headers: { token: admin.Token }, params: { device: GB_ID } });
  });
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.addInitScript(([key]) => localStorage.setItem(key, 'en-US'), [STORAGE_KEYS.language]);
  });

  test('channel list: the channel ID on one line', async ({ page, admin }) => {
    await openAs(page, admin, `/device/channel/${GB_ID}?deviceName=${encodeURIComponent('E2E wide NVR')}&deviceType=GB28181`);
    await expect(page.locator('tr.ant-table-row', { hasText: CHANNEL_ID })).toHaveCount(1, { timeout: 30_000 });
    await expect(page.locator('thead')).toContainText('Channel');
    expect(await lineCount(page, CHANNEL_ID)).toBe(1);
  });

  test('device list: the device ID on one line', async ({ page, admin }) => {
    await openAs(page, admin, '/device/list');
    await expect(page.locator('tr.ant-table-row', { hasText: GB_ID })).toHaveCount(1, { timeout: 30_000 });
    expect(await lineCount(page, GB_ID)).toBe(1);
  });
});
