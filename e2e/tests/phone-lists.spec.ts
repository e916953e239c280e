/**
 * The list pages on a phone-wide window (390×844), where operators in the field use them. Before
 * the shared list table (apps/web/src/components/ListTable.tsx) the device list squeezed a GB
 * device's 20-digit ID to one character per line beside its pinned actions, the roles table pushed
 * the whole page sideways, and a group's members hid their devices tab in antd's "…" menu behind
 * the search box and add button. Now a table keeps each cell on one line and scrolls inside its
 * card, the row's actions stay pinned and clickable, and the page itself never scrolls sideways.
 * The toolbars above them (components/ListToolbar.tsx) are one row: the device list's took three
 * and the alarm list's filters four more, the table starting near the middle of the screen. The
 * recording plan's week is a list of days whose hours are tapped (the desktop grid's 14 px cells
 * scrolled sideways and a drag scrolled the page).
 */
import type { Page } from '@playwright/test';
import { v1 } from '../support/api';
import { expect, test } from '../support/fixtures';
import { openAs } from '../support/page';

const FIRST_LOAD = { timeout: 30_000 };
// A GB28181 ID of this run (20 digits: the device list's widest value).
const GB_ID = `3402000000132${String(Date.now() % 10_000_000).padStart(7, '0')}`;
const GROUP = `E2E phone group ${Date.now().toString(36)}`;
// A camera address as long as real ones get (the channel list cuts it with an ellipsis).
const LONG_URL = `rtsp://127.0.0.1:9/Streaming/Channels/101?transportmode=unicast&profile=Profile_1&run=${Date.now()}`;

test.describe.configure({ mode: 'serial' });

/** The text's line boxes: more than one means the text wrapped. */
const lineCount = (page: Page, selector: string, text: string) =>
  page.evaluate(
    ([sel, txt]) => {
      const cell = Array.from(document.querySelectorAll(sel)).find((e) => e.textContent?.trim() === txt);
      if (!cell) return -1;
      const range = document.createRange();
      range.selectNodeContents(cell);
      return new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size;
    },
    [selector, text] as const,
  );

/** How far the page itself scrolls sideways (0: it fits the window). */
const pageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test.describe('list pages on a phone-wide window', () => {
  let groupId = 0;
  let camera = '';

  test.beforeAll(async ({ request, admin }) => {
    await v1(await request.post('/api/v1/adddevice', { headers: { token: admin.Token }, data: { DeviceID: GB_ID, DeviceName: 'E2E phone GB', DeviceType: 'GB28181' } }));
    camera = (await v1<{ DeviceID: string }>(await request.post('/api/v1/adddevice', { headers: { token: admin.Token }, data: { DeviceName: 'E2E phone long URL', DeviceType: 'RTSP', RtspUrl: LONG_URL } }))).DeviceID;
    groupId = (await v1<{ ID: number }>(await request.post('/api/v1/addlabel', { headers: { token: admin.Token }, data: { name: GROUP, parentid: 0 } }))).ID;
  });
  test.afterAll(async ({ request, admin }) => {
    await request.get('/api/v1/deldevice', { headers: { token: admin.Token }, params: { device: GB_ID } });
    if (camera) await request.get('/api/v1/deldevice', { headers: { token: admin.Token }, params: { device: camera } });
    if (groupId) await request.post('/api/v1/deletelabel', { headers: { token: admin.Token }, data: { id: groupId } });
  });

  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
  });

  test('device list: a GB ID on one line, the table scrolls in its card, the row’s actions at hand', async ({ page, admin }) => {
    await openAs(page, admin, '/device/list');
    await page.getByPlaceholder('搜索名称 / ID / IP').fill(GB_ID);
    const row = page.locator('tr.ant-table-row', { hasText: GB_ID });
    await expect(row).toHaveCount(1, FIRST_LOAD);
    // Squeezed, the ID took twenty lines.
    expect(await lineCount(page, 'tr.ant-table-row td', GB_ID)).toBe(1);
    expect(await pageOverflow(page)).toBe(0);
    const scroller = page.locator('.ant-table-content').first();
    expect(await scroller.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
    // The pinned actions: in the window and on top (a trial click fails on anything covering them).
    for (const action of ['通道', '删除']) {
      const b = row.getByRole('button', { name: new RegExp(`^\\s*${[...action].join('\\s*')}\\s*$`) });
      await expect(b).toBeInViewport({ ratio: 1 });
      await b.click({ trial: true, timeout: 5000 });
    }
  });

  test('channel list: a long camera address is cut at 200 px instead of widening the table by its whole length', async ({ page, admin }) => {
    await openAs(page, admin, `/device/channel/${camera}`);
    const cell = page.locator('tr.ant-table-row td', { hasText: LONG_URL });
    await expect(cell).toHaveCount(1, FIRST_LOAD);
    // On one line it was ~900 px wide.
    expect((await cell.boundingBox())?.width).toBeLessThanOrEqual(201);
    expect(await pageOverflow(page)).toBe(0);
  });

  test('roles: the page does not scroll sideways, names and dates stay on one line', async ({ page, admin }) => {
    await openAs(page, admin, '/user/role');
    await expect(page.locator('tr.ant-table-row').first()).toBeVisible(FIRST_LOAD);
    // The roles table had no scroll width: a long description pushed the whole page sideways.
    expect(await pageOverflow(page)).toBe(0);
    expect(await lineCount(page, 'thead th', '创建时间')).toBe(1);
  });

  test('groups: both member tabs and the add button stay in reach', async ({ page, admin }) => {
    await openAs(page, admin, '/device/group');
    await page.locator('.ant-tree').getByText(GROUP).click(FIRST_LOAD);
    // The devices tab had gone into antd's "…" overflow menu, which caught the click.
    const devicesTab = page.getByRole('tab', { name: /^设备 \(\d+\)$/ });
    await devicesTab.click({ timeout: 5000 });
    await expect(devicesTab).toHaveAttribute('aria-selected', 'true');
    const add = page.getByRole('button', { name: '添加设备' });
    await expect(add).toBeInViewport({ ratio: 1 });
    await add.click({ trial: true, timeout: 5000 });
    expect(await pageOverflow(page)).toBe(0);
  });
});

/** The vertical extent of the page's toolbar (the list-toolbar row and, open or not, its filters). */
const toolbarBox = async (page: Page) => (await page.getByTestId('list-toolbar').boundingBox())!;

test.describe('list toolbars on a phone-wide window', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
  });

  test('device list: search, filter, more and add in one row; the table starts in the top third', async ({ page, admin }) => {
    await openAs(page, admin, '/device/list');
    const search = page.getByPlaceholder('搜索名称 / ID / IP');
    await expect(search).toBeVisible(FIRST_LOAD);
    const bar = await toolbarBox(page);
    // Three rows (type, search and batch delete, add) were 112 px high.
    expect(bar.height).toBeLessThanOrEqual(40);
    for (const name of ['筛选', '更多操作', '添加设备']) {
      const b = page.getByRole('button', { name, exact: true });
      await expect(b).toBeInViewport({ ratio: 1 });
      const box = (await b.boundingBox())!;
      expect(box.y, name).toBeGreaterThanOrEqual(bar.y);
      expect(box.y + box.height, name).toBeLessThanOrEqual(bar.y + bar.height + 0.5);
    }
    // The search box (input and its button) takes what the three buttons leave: 358 − 3 × (32 + 8).
    expect((await page.getByTestId('list-toolbar').locator('.ant-input-search').boundingBox())!.width, 'the search takes the rest of the row').toBeGreaterThanOrEqual(230);
    // The table's header was at y ≈ 300 under three toolbar rows.
    expect((await page.locator('.ant-table-thead').first().boundingBox())!.y).toBeLessThan(250);
    expect(await pageOverflow(page)).toBe(0);

    // The type filter opens below the row, full width, and still filters.
    await page.getByRole('button', { name: '筛选', exact: true }).click();
    const type = page.getByTestId('list-toolbar-filters').getByRole('combobox', { name: '接入协议' });
    await expect(type).toBeVisible();
    // Batch delete sits in the "more" popup, disabled until rows are ticked.
    // The toolbar's, not a GB row's 设备“…”的更多操作 (Playwright's name match is a substring).
    await page.getByTestId('list-toolbar').getByRole('button', { name: '更多操作', exact: true }).click();
    await expect(page.getByRole('button', { name: /批量删除/ })).toBeDisabled();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '添加设备', exact: true }).click();
    await expect(page).toHaveURL(/\/device\/form\/0$/);
  });

  test('alarm list: the filters fold into the toolbar, the table is no longer pushed below the middle', async ({ page, admin }) => {
    await openAs(page, admin, '/alarm/list');
    await expect(page.getByRole('button', { name: '筛选', exact: true })).toBeVisible(FIRST_LOAD);
    // The four filters took their own card above the table (its header at y ≈ 390).
    await expect(page.getByTestId('alarm-type')).toHaveCount(0);
    expect((await page.locator('.ant-table-thead').first().boundingBox())!.y).toBeLessThan(250);
    await page.getByRole('button', { name: '筛选', exact: true }).click();
    await expect(page.getByTestId('alarm-type')).toBeInViewport();
    // The date range's popup stacks its month over its time columns: it fits the window.
    await page.locator('.ant-picker-range').click();
    const popup = page.locator('.ant-picker-dropdown').filter({ visible: true }).first();
    await expect(popup).toBeVisible();
    const box = (await popup.locator('.ant-picker-panel-container').boundingBox())!;
    expect(box.x, 'left edge in the window').toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, 'right edge in the window').toBeLessThanOrEqual(390);
    expect(await pageOverflow(page)).toBe(0);
  });
});

test.describe('the recording plan’s week on a phone', () => {
  test.use({ hasTouch: true, viewport: { width: 390, height: 844 } });
  const PLAN = `E2E phone plan ${Date.now().toString(36)}`;
  test.afterAll(async ({ request, admin }) => {
    const list = (await v1<{ Plans: { ID: number }[] }>(await request.get('/api/v1/recordplanlist', { headers: { token: admin.Token }, params: { q: PLAN } }))).Plans;
    for (const p of list) await request.post('/api/v1/delrecordplan', { headers: { token: admin.Token }, data: { id: p.ID } });
  });

  test('hours are tapped on and off, a day copied to the week, and the plan saves that schedule', async ({ page, admin }) => {
    await openAs(page, admin, '/config/program/form');
    await page.getByLabel('计划名称').fill(PLAN, FIRST_LOAD);
    // Monday is open: its hours are buttons a finger can hit (the grid's cells were 14 × 22 px).
    const h8 = page.getByRole('button', { name: '星期一 08:00–09:00' });
    await h8.scrollIntoViewIfNeeded();
    const box = (await h8.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(40);
    expect(box.height).toBeGreaterThanOrEqual(36);
    for (const h of [8, 9, 10]) await page.getByTestId(`hour-0-${h}`).tap();
    await page.getByTestId('hour-0-10').tap(); // off again
    await expect(page.getByTestId('schedule-summary-Monday')).toHaveText('08:00–10:00');
    await expect(h8).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: '复制到每一天 星期一' }).tap();
    await expect(page.getByTestId('schedule-summary-Sunday')).toHaveText('08:00–10:00');
    // Sunday opened from its title and cleared.
    await page.getByTestId('schedule-day-Sunday').tap();
    await page.getByRole('button', { name: '清空当天 星期日' }).tap();
    await expect(page.getByTestId('schedule-summary-Sunday')).toHaveText('—');
    expect(await pageOverflow(page)).toBe(0);
    await page.getByTestId('plan-save').tap();
    await expect(page).toHaveURL(/\/config\/program$/, FIRST_LOAD);
    const [plan] = (await v1<{ Plans: { Schedule: Record<string, { StartTime: string; EndTime: string }[]> }[] }>(await page.request.get('/api/v1/recordplanlist', { headers: { token: admin.Token }, params: { q: PLAN } }))).Plans;
    expect(plan!.Schedule.Monday).toEqual([{ StartTime: '08:00:00', EndTime: '10:00:00' }]);
    expect(plan!.Schedule.Saturday).toEqual([{ StartTime: '08:00:00', EndTime: '10:00:00' }]);
    expect(plan!.Schedule.Sunday ?? []).toEqual([]);
  });
});

