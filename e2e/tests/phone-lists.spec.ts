/**
 * The list pages on a phone-wide window (390×844), where operators in the field use them. Before
 * the shared list table (apps/web/src/components/ListTable.tsx) the device list squeezed a GB
 * device's 20-digit ID to one character per line beside its pinned actions, the roles table pushed
 * the whole page sideways, and a group's members hid their devices tab in antd's "…" menu behind
 * the search box and add button. Now a table keeps each cell on one line and scrolls inside its
 * card, the row's actions stay pinned and clickable, and the page itself never scrolls sideways.
 */
import { expect, test, type Page } from '@playwright/test';
import { adminSession, v1, type Session } from '../support/api';
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
  let admin: Session;
  let groupId = 0;
  let camera = '';

  test.beforeAll(async ({ request }) => {
    admin = await adminSession(request);
    await v1(await request.post('/api/v1/adddevice', { headers: { token: admin.Token }, data: { DeviceID: GB_ID, DeviceName: 'E2E phone GB', DeviceType: 'GB28181' } }));
    camera = (await v1<{ DeviceID: string }>(await request.post('/api/v1/adddevice', { headers: { token: admin.Token }, data: { DeviceName: 'E2E phone long URL', DeviceType: 'RTSP', RtspUrl: LONG_URL } }))).DeviceID;
    groupId = (await v1<{ ID: number }>(await request.post('/api/v1/addlabel', { headers: { token: admin.Token }, data: { name: GROUP, parentid: 0 } }))).ID;
  });
  test.afterAll(async ({ request }) => {
    if (!admin) return;
    await request.get('/api/v1/deldevice', { headers: { token: admin.Token }, params: { device: GB_ID } });
    if (camera) await request.get('/api/v1/deldevice', { headers: { token: admin.Token }, params: { device: camera } });
    if (groupId) await request.post('/api/v1/deletelabel', { headers: { token: admin.Token }, data: { id: groupId } });
  });

  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
  });

  test('device list: a GB ID on one line, the table scrolls in its card, the row’s actions at hand', async ({ page }) => {
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

  test('channel list: a long camera address is cut at 200 px instead of widening the table by its whole length', async ({ page }) => {
    await openAs(page, admin, `/device/channel/${camera}`);
    const cell = page.locator('tr.ant-table-row td', { hasText: LONG_URL });
    await expect(cell).toHaveCount(1, FIRST_LOAD);
    // On one line it was ~900 px wide.
    expect((await cell.boundingBox())?.width).toBeLessThanOrEqual(201);
    expect(await pageOverflow(page)).toBe(0);
  });

  test('roles: the page does not scroll sideways, names and dates stay on one line', async ({ page }) => {
    await openAs(page, admin, '/user/role');
    await expect(page.locator('tr.ant-table-row').first()).toBeVisible(FIRST_LOAD);
    // The roles table had no scroll width: a long description pushed the whole page sideways.
    expect(await pageOverflow(page)).toBe(0);
    expect(await lineCount(page, 'thead th', '创建时间')).toBe(1);
  });

  test('groups: both member tabs and the add button stay in reach', async ({ page }) => {
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
