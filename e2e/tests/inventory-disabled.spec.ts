/**
 * A device switched off, end to end with a real camera: the server puts it and its channel offline
 * (it is not pulled), so the device list counts 0/1 and the video tree says (0/1) 未开启 where it
 * said (1/1); switched on again, its channel is probed at once and both read 1/1 again. The same
 * for the channel's own switch: its line in the tree says 未开启, its device counts 0/1.
 */
import type { APIRequestContext } from '@playwright/test';
import { v1, type Session } from '../support/api';
import { expect, test, useCameraDevice } from '../support/fixtures';
import { openAs } from '../support/page';
import { scrollTreeTo, treeRow } from '../support/tree';

const RUN = Date.now().toString(36);
const FIRST_LOAD = { timeout: 30_000 };

test.describe.configure({ mode: 'serial', timeout: 120_000 });

/** The channel's Online as the server lists it. */
async function online(api: APIRequestContext, admin: Session, dev: string) {
  const body = await v1<{ Channels: { Online: number }[] }>(
    await api.get('/api/v1/getchannels', { headers: { token: admin.Token }, params: { device: dev, start: 0, limit: 50 } }),
  );
  return body.Channels[0]?.Online;
}
const setEnable = async (api: APIRequestContext, admin: Session, dev: string, Enable: number) =>
  v1(await api.post('/api/v1/editdevice', { headers: { token: admin.Token }, data: { DeviceID: dev, Enable } }));
const setChannelEnable = async (api: APIRequestContext, admin: Session, dev: string, Enable: number) =>
  v1(await api.post('/api/v1/editchannel', { headers: { token: admin.Token }, data: { DeviceID: dev, ChannelID: '1', Enable } }));

test.describe('a disabled device', () => {
  const name = `E2E disabled ${RUN}`;
  const cam = useCameraDevice(name);

  test.beforeAll(async ({ api, admin }) => {
    // The server probes a channel when it is added.
    await expect.poll(() => online(api, admin, cam.dev), FIRST_LOAD).toBe(1);
  });

  test('counts none of its channels online in the device list and the video tree, and says so in the tree', async ({ page, api, admin }) => {
    await setEnable(api, admin, cam.dev, 0);
    expect(await online(api, admin, cam.dev)).toBe(0);

    await openAs(page, admin, '/device/list');
    await page.getByPlaceholder('搜索名称 / ID / IP').fill(name);
    const row = page.locator('.ant-table-row', { hasText: name });
    await expect(row.getByTestId('channel-count')).toHaveText('0/1', FIRST_LOAD);
    await expect(row).toContainText('离线');

    await page.goto('/video/square/0');
    // Scrolled to: in the whole suite other files' devices come before this one in the virtual tree.
    const tree = page.getByTestId('sider-spgc');
    await expect(await treeRow(tree, name, FIRST_LOAD.timeout)).toContainText('(0/1)未开启');

    // Switched on: probed at once, not at its next round.
    await setEnable(api, admin, cam.dev, 1);
    await expect.poll(() => online(api, admin, cam.dev), { timeout: 15_000 }).toBe(1);
    await page.reload();
    // The reloaded tree starts at its top again.
    const node = await treeRow(tree, name, FIRST_LOAD.timeout);
    await expect(node).toContainText('(1/1)');
    await expect(node).not.toContainText('未开启');
  });

  test('its channel switched off reads offline, and its line in the tree says 未开启; on again, it is probed at once', async ({ page, api, admin }) => {
    await expect.poll(() => online(api, admin, cam.dev), FIRST_LOAD).toBe(1);
    await setChannelEnable(api, admin, cam.dev, 0);
    expect(await online(api, admin, cam.dev)).toBe(0);

    await openAs(page, admin, '/video/square/0');
    const tree = page.getByTestId('sider-spgc');
    const node = await treeRow(tree, name, FIRST_LOAD.timeout);
    await expect(node).toContainText('(0/1)');
    await expect(node).not.toContainText('未开启');
    await node.locator('.ant-tree-switcher').click();
    // The line under the device's once it has loaded (below the view when the device is the list's last row).
    const channelLine = await scrollTreeTo(tree, node.locator('xpath=following-sibling::div[1]'), 'its channel line', FIRST_LOAD.timeout);
    await expect(channelLine).toContainText('未开启', FIRST_LOAD);

    await setChannelEnable(api, admin, cam.dev, 1);
    await expect.poll(() => online(api, admin, cam.dev), { timeout: 15_000 }).toBe(1);
  });
});
