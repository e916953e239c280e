/**
 * Devices, channels, groups and the video sidebar end to end (issue 3), on the worker's server (the
 * files before this one on that worker have added theirs). Sessions are put straight into
 * localStorage (the login page has its own tests); each test has its own browser context.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { md5, tryLogin, v1 } from '../support/api';
import { expect, test } from '../support/fixtures';
import { button, openAs, zh } from '../support/page';
import { scrollTreeTo, treeRow } from '../support/tree';

const RUN = Date.now().toString(36);
/** A first page load fetches the console's chunks; on a busy machine that takes a while. */
const FIRST_LOAD = { timeout: 30_000 };

const call = (api: APIRequestContext, token: string) => ({
  get: async <T>(path: string, params: Record<string, string | number>) => v1<T>(await api.get(path, { headers: { token }, params })),
  post: async <T>(path: string, data: Record<string, unknown>) => v1<T>(await api.post(path, { headers: { token }, data })),
  form: async <T>(path: string, form: Record<string, string | number>) => v1<T>(await api.post(path, { headers: { token }, form })),
});

async function crumbTexts(page: Page): Promise<string[]> {
  return (await page.locator('.ant-breadcrumb [data-crumb]').allInnerTexts()).map((s) => s.trim());
}

test.describe.configure({ mode: 'serial' });

test.describe('inventory', () => {
  const deviceName = `E2E gate ${RUN}`;

  test('an RTSP device added through the form shows in the device list and the video tree', async ({ page, admin }) => {
    await openAs(page, admin, '/device/form/0');

    await expect(page.getByLabel('设备名称')).toBeVisible(FIRST_LOAD);
    await page.getByLabel('设备名称').fill(deviceName);
    await page.getByLabel('流地址').fill('rtsp://127.0.0.1:8554/e2e');
    await page.getByLabel('IP地址').fill('127.0.0.1');
    await button(page, '保存').click();

    await expect(page.getByText(zh('success'))).toBeVisible();
    await expect(page).toHaveURL(/\/device\/list$/);
    await page.getByPlaceholder('搜索名称 / ID / IP').fill(deviceName);
    const row = page.locator('.ant-table-row', { hasText: deviceName });
    await expect(row).toBeVisible();
    await expect(row).toContainText('RTSP');
    // One channel came with the stream address: online/total.
    await expect(row.getByTestId('channel-count')).toHaveText(/^\d+\/1$/);

    await page.goto('/video/square/0');
    const tree = page.getByTestId('sider-spgc');
    // Scrolled to: in the whole suite other files' devices come before this one in the virtual tree.
    const node = await treeRow(tree, deviceName, FIRST_LOAD.timeout);
    await expect(node).toBeVisible();
    await node.locator('.ant-tree-switcher').click();
    // The device's first channel carries the device name: a second such row, loaded when the device
    // opened (below the view when the device is the list's last row).
    const rows = tree.locator('.ant-tree-treenode', { hasText: deviceName });
    await scrollTreeTo(tree, rows.nth(1), 'its channel', FIRST_LOAD.timeout);
    await expect(rows).toHaveCount(2);
  });

  test('a group with a channel, given to a role, is all a user of that role sees in the group tab', async ({ page, request, browser, admin }) => {
    // Two browser contexts and two first loads of the console: more than the default budget on a busy 2-core runner.
    test.slow();
    const api = call(request, admin.Token);
    const label = `E2E site ${RUN}`;
    const role = `e2e-inv-${RUN}`;
    const user = `e2einv${RUN}`;
    const userPassword = 'Us3r!inventory';

    await openAs(page, admin, '/device/group');
    await expect(page.getByRole('button', { name: '添加分组' })).toBeVisible(FIRST_LOAD);
    await page.getByRole('button', { name: '添加分组' }).click();
    const naming = page.getByRole('dialog', { name: '添加分组' });
    await naming.getByLabel('分组名称').fill(label);
    await button(naming, '确定').click();
    await expect(page.getByText(zh('success')).first()).toBeVisible();

    await page.locator('.ant-tree-treenode', { hasText: label }).locator('.ant-tree-title').click();
    await page.getByRole('button', { name: '添加通道' }).click();
    const picker = page.getByRole('dialog', { name: '选择通道' });
    await picker.getByPlaceholder('搜索通道名称 / ID').fill(deviceName);
    const choice = picker.locator('.ant-tree-treenode', { hasText: deviceName });
    await expect(choice).toHaveCount(1);
    await choice.locator('.ant-tree-checkbox').click();
    await button(picker, '确定').click();
    await expect(page.locator('.ant-table-row', { hasText: deviceName })).toBeVisible();

    const { ID: roleid } = await api.form<{ ID: number }>('/api/v1/addrole', { name: role, describe: 'inventory e2e' });
    await page.goto('/user/role');
    const roleRow = page.locator('.ant-table-row', { hasText: role });
    await expect(roleRow).toBeVisible(FIRST_LOAD);
    await button(roleRow, '通道').click();
    const grants = page.getByRole('dialog', { name: `角色通道：${role}` });
    await grants.getByTestId('role-labels').locator('.ant-tree-treenode', { hasText: label }).locator('.ant-tree-checkbox').click();
    await button(grants, '保存').click();
    await expect(page.getByText(zh('saved'))).toBeVisible();
    const saved = await api.get<{ Labels: number[] }>('/api/v1/role/channels', { roleid });
    expect(saved.Labels).toHaveLength(1);

    await api.form('/api/v1/adduser', { username: user, password: md5(userPassword), roleid, mustchange: 0, enable: 1 });
    const userSession = await tryLogin(request, user, userPassword);
    expect(userSession).not.toBeNull();

    const context = await browser.newContext();
    const userPage = await context.newPage();
    await openAs(userPage, userSession!, '/video/square/0');
    await expect(userPage.getByRole('tab', { name: '分组列表' })).toBeVisible(FIRST_LOAD);
    // Non-admins have no video tree tab.
    await expect(userPage.getByRole('tab', { name: '视频广场' })).toHaveCount(0);
    await userPage.getByRole('tab', { name: '分组列表' }).click();
    const groups = userPage.getByTestId('sider-fzlb');
    const labelNode = groups.locator('.ant-tree-treenode', { hasText: label });
    await expect(labelNode).toBeVisible();
    await labelNode.locator('.ant-tree-switcher').click();
    await expect(groups.locator('.ant-tree-treenode', { hasText: deviceName })).toBeVisible();
    // The label and its one channel: nothing else.
    await expect(groups.locator('.ant-tree-treenode:visible')).toHaveCount(2);
    await context.close();
  });

  test('the breadcrumb follows two sub-channel levels and cuts back', async ({ page, request, admin }) => {
    const api = call(request, admin.Token);
    const name = `E2E NVR ${RUN}`;
    // An ID of its own: a generated one (a small number) can equal a channel ID, which the server
    // then takes for "the device itself" as parent.
    const { DeviceID: dev } = await api.post<{ DeviceID: string }>('/api/v1/adddevice', {
      DeviceID: `e2e-nvr-${RUN}`,
      DeviceName: name,
      DeviceType: 'RTSP',
      Enable: true,
    });
    const a = await api.post<{ ChannelID: string }>('/api/v1/addchannel', { ParentDeviceID: dev, Name: 'Dir A', Parental: true });
    const b = await api.post<{ ChannelID: string }>('/api/v1/addchannel', { ParentDeviceID: dev, Name: 'Dir B', Parental: true, ParentID: a.ChannelID });
    await api.post('/api/v1/addchannel', { ParentDeviceID: dev, Name: 'Camera C', ParentID: b.ChannelID, RtspUrl: 'rtsp://127.0.0.1:8554/c' });

    await openAs(page, admin, `/device/channel/${dev}?deviceName=${encodeURIComponent(name)}&deviceType=RTSP`);
    const list = `通道列表(${name})`;
    await expect.poll(() => crumbTexts(page), FIRST_LOAD).toEqual(['设备管理', '设备', list]);
    // Camera C sits two levels down, not at the top.
    await expect(page.locator('.ant-table-row', { hasText: 'Dir A' })).toBeVisible();
    await expect(page.locator('.ant-table-row', { hasText: 'Camera C' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Dir A' }).click();
    await expect(page).toHaveURL(new RegExp(`subset=${a.ChannelID}$`));
    await expect.poll(() => crumbTexts(page)).toEqual(['设备管理', '设备', list, 'Dir A']);

    await page.getByRole('button', { name: 'Dir B' }).click();
    await expect(page).toHaveURL(new RegExp(`subset=${b.ChannelID}$`));
    await expect.poll(() => crumbTexts(page)).toEqual(['设备管理', '设备', list, 'Dir A', 'Dir B']);
    await expect(page.locator('.ant-table-row', { hasText: 'Camera C' })).toBeVisible();
    // Only the last crumb has no link.
    await expect(page.locator('.ant-breadcrumb a[data-crumb]')).toHaveCount(4);
    await expect(page.locator('.ant-breadcrumb span[data-crumb]')).toHaveText('Dir B');

    // The channel form keeps the trail and names the channel.
    await button(page.locator('.ant-table-row', { hasText: 'Camera C' }), '编辑').click();
    await expect.poll(() => crumbTexts(page)).toEqual(['设备管理', '设备', list, 'Dir A', 'Dir B', '通道详情(Camera C)']);

    // A sub-channel crumb cuts the trail back to itself.
    await page.locator('.ant-breadcrumb a[data-crumb]', { hasText: 'Dir A' }).click();
    await expect(page).toHaveURL(new RegExp(`/device/channel/${dev}\\?.*subset=${a.ChannelID}$`));
    await expect.poll(() => crumbTexts(page)).toEqual(['设备管理', '设备', list, 'Dir A']);
    await expect(page.locator('.ant-table-row', { hasText: 'Dir B' })).toBeVisible();
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('sub_channel'))) ?? '[]')).toHaveLength(1);

    // Any other crumb clears it.
    await page.locator('.ant-breadcrumb a[data-crumb]', { hasText: list }).click();
    await expect.poll(() => crumbTexts(page)).toEqual(['设备管理', '设备', list]);
    expect(await page.evaluate(() => localStorage.getItem('sub_channel'))).toBeNull();

    // Leaving the device pages clears it too.
    await page.getByRole('button', { name: 'Dir A' }).click();
    await expect.poll(() => crumbTexts(page)).toEqual(['设备管理', '设备', list, 'Dir A']);
    await page.getByRole('menuitem', { name: '首页' }).click();
    await expect(page).toHaveURL(/\/ai\/dashboard/);
    // The device page lets go of the trail once the next page has replaced it.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('sub_channel'))).toBeNull();
    await page.goto(`/device/channel/${dev}?deviceName=${encodeURIComponent(name)}&deviceType=RTSP&subset=${a.ChannelID}`);
    await expect.poll(() => crumbTexts(page)).toEqual(['设备管理', '设备', list]);
  });
});
