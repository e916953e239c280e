/**
 * GB28181 administration in the console end to end (issue 6): the settings page saves a change
 * that survives a reload; a whitelist entry is added, edited and deleted; a simulated GB device
 * (the TypeScript device double of the server tests) registers and sends an Alarm MESSAGE, which
 * appears in an open /alarm/list without a reload (events socket) and is then deleted. The whitelist
 * switch is left off for the files after this one on the worker's server.
 */
import { v1 } from '../support/api';
import { expect, test } from '../support/fixtures';
import { button, openAs } from '../support/page';
import { GbDevice } from '../../apps/server/test/fixtures/gb-device';

const RUN = Date.now().toString(36);
/** A device ID unique to this run: 10-digit domain, type 132 (camera), 7-digit serial. */
const DEV = `3402000000132${String(Date.now() % 1e7).padStart(7, '0')}`;
const CH = `3402000000131${DEV.slice(13)}`;

test.describe.configure({ mode: 'serial', timeout: 180_000 });
/** The machine is shared: the first render of a lazy page may take a while. */
const SLOW = { timeout: 60_000 };

test.describe('GB28181 administration', () => {
  let original = 60;

  test.beforeAll(async ({ request, admin }) => {
    const cfg = await v1<{ KeepaliveTimeout: number }>(await request.get('/api/v1/getbaseconfig', { headers: { token: admin.Token } }));
    original = cfg.KeepaliveTimeout;
  });
  test.afterAll(async ({ request, admin }) => {
    // Leave the settings as found for the other files.
    await request.post('/api/v1/setbaseconfig', { headers: { token: admin.Token }, form: { KeepaliveTimeout: original, WhiteSwitch: 0 } });
  });

  test('the settings page saves a change that survives a reload', async ({ page, admin }) => {
    await openAs(page, admin, '/config/platform/gb');
    const keepalive = page.getByLabel('心跳周期（秒）');
    await expect(page.getByText('保存后立即生效')).toBeVisible(SLOW);
    const save = page.getByTestId('gb-save');
    await expect(save).toBeDisabled();
    const next = original === 45 ? 50 : 45;
    await keepalive.fill(String(next));
    await expect(save).toBeEnabled();
    await save.click();
    await expect(page.getByText('修改成功!')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('心跳周期（秒）')).toHaveValue(String(next), SLOW);
    await expect(page.getByTestId('gb-save')).toBeDisabled();
  });

  test('a whitelist entry is added, edited and deleted', async ({ page, admin }) => {
    await openAs(page, admin, '/config/white');
    await page.getByRole('button', { name: /添加白名单/ }).click(SLOW);
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('设备国标编码').fill(DEV);
    await dialog.getByLabel('名称').fill(`gate-${RUN}`);
    await button(dialog, '确定').click();
    // Wait for the closing animation to end: reopening the same antd Modal while it still leaves
    // (a loaded CI machine) once left the footer unreachable for the whole test time-out.
    await expect(dialog).toBeHidden(SLOW);
    const row = page.getByRole('row').filter({ hasText: DEV });
    await expect(row).toContainText(`gate-${RUN}`);

    await button(row, '编辑').click();
    await expect(page.getByRole('dialog', { name: '编辑白名单' })).toBeVisible(SLOW);
    await expect(dialog.getByLabel('名称')).toHaveValue(`gate-${RUN}`);
    await dialog.getByLabel('IP 地址').fill('127.0.0.0/8');
    await dialog.getByLabel('名称').fill(`north-${RUN}`);
    await button(dialog, '确定').click();
    await expect(dialog).toBeHidden(SLOW);
    await expect(row).toContainText(`north-${RUN}`);
    await expect(row).toContainText('127.0.0.0/8');

    await button(row, '删除').click();
    await button(page.locator('.ant-popover').last(), '确定').click();
    await expect(page.getByRole('row').filter({ hasText: DEV })).toHaveCount(0);
  });

  test('an alarm from a GB device appears live in /alarm/list and is deleted', async ({ page, request, admin }) => {
    const cfg = await v1<{ ListenPort: number; DevicePassword: string }>(await request.get('/api/v1/getbaseconfig', { headers: { token: admin.Token } }));
    expect(cfg.ListenPort).toBeGreaterThan(0);
    await openAs(page, admin, '/alarm/list');
    await expect(page.getByText('实时推送')).toBeVisible(SLOW);

    const dev = await GbDevice.start({ deviceId: DEV, password: cfg.DevicePassword, serverPort: cfg.ListenPort });
    try {
      expect((await dev.register()).status).toBe(200);
      const body =
        '<?xml version="1.0" encoding="UTF-8"?>\r\n<Notify>\r\n<CmdType>Alarm</CmdType>\r\n<SN>1</SN>\r\n' +
        `<DeviceID>${CH}</DeviceID>\r\n<AlarmPriority>1</AlarmPriority>\r\n<AlarmMethod>5</AlarmMethod>\r\n` +
        `<AlarmTime>2026-05-06T07:08:09</AlarmTime>\r\n<AlarmDescription>e2e ${RUN}</AlarmDescription>\r\n` +
        '<Info>\r\n<AlarmType>2</AlarmType>\r\n</Info>\r\n</Notify>\r\n';
      expect((await dev.message(body)).status).toBe(200);
    } finally {
      await dev.close();
    }

    // Pushed on the events socket: the open page reloads its list by itself.
    const row = page.getByRole('row').filter({ hasText: `e2e ${RUN}` });
    await expect(row).toBeVisible(SLOW);
    await expect(row).toContainText('运动目标检测报警');
    await expect(row).toContainText('一级警情');
    await expect(row).toContainText(CH);
    await expect(row).toContainText('2026-05-06 07:08:09');

    await button(row, '删除').click();
    await button(page.locator('.ant-popover').last(), '确定').click();
    await expect(page.getByRole('row').filter({ hasText: `e2e ${RUN}` })).toHaveCount(0);
    const left = await v1<{ Total: number }>(await request.get('/api/v1/alarmlist', { headers: { token: admin.Token }, params: { device: DEV } }));
    expect(left.Total).toBe(0);
  });
});
