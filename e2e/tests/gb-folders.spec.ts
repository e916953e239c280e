/**
 * A GB28181 NVR whose 30 cameras sit under folders (a civil-code directory, a business group, a
 * virtual organisation under it, two cameras at the top), registered by the device double against
 * the e2e server: the playback list shows its cameras 20 a page (it showed the 2 top-level ones), the
 * square's every channel 20 cards a page counted as cameras (the folders dropped after the server
 * paged them: 17 cards, 33 counted), and the timeline page of a camera under two folders has its
 * name and the device's recordings (the device's top level had no such camera: neither).
 */
import { v1 } from '../support/api';
import { expect, test } from '../support/fixtures';
import { openAs } from '../support/page';
import { GbDevice } from '../../apps/server/test/fixtures/gb-device';
import { answerQueries, makeFolderCatalog, type Answering } from '../../apps/server/test/fixtures/gb-device-answers';

const RUN = Date.now().toString(36);
/** A device ID unique to this run: 10-digit domain, type 111 (DVR/NVR), 7-digit serial. */
const DEV = `3402000000111${String((Date.now() + 29) % 1e7).padStart(7, '0')}`;
/** Folder and camera names start with the run, so a search finds this device's alone (folders too). */
const PREFIX = `F${RUN} `;
const catalog = makeFolderCatalog(DEV, 30, PREFIX);
const cameraName = (i: number) => `${PREFIX}摄像机 ${i}`;

test.describe.configure({ mode: 'serial', timeout: 120_000 });
/** The machine is shared: the first render of a lazy page may take a while. */
const SLOW = { timeout: 60_000 };

test.describe('GB28181 cameras under folders', () => {
  let dev: GbDevice;
  let answers: Answering;
  let keepalive: NodeJS.Timeout | undefined;

  test.beforeAll(async ({ request, admin }) => {
    const headers = { token: admin.Token };
    const cfg = await v1<{ ListenPort: number; DevicePassword: string }>(await request.get('/api/v1/getbaseconfig', { headers }));
    dev = await GbDevice.start({ deviceId: DEV, password: cfg.DevicePassword, serverPort: cfg.ListenPort });
    answers = answerQueries(dev, { deviceId: DEV, catalog: catalog.items, perPage: 4 });
    expect((await dev.register()).status).toBe(200);
    keepalive = setInterval(() => void dev.keepalive().catch(() => undefined), 15_000);
    await expect
      .poll(async () => (await v1<{ Outcome?: string }>(await request.get('/api/v1/devices/catalogstatus', { headers, params: { device: DEV } }))).Outcome, SLOW)
      .toBe('complete');
  });

  test.afterAll(async ({ request, admin }) => {
    clearInterval(keepalive);
    answers?.stop();
    await dev?.unregister().catch(() => undefined);
    await dev?.close();
    // Thirty cameras less on the shared server's every-channel lists.
    await request.get('/api/v1/deldevice', { headers: { token: admin.Token }, params: { device: DEV } });
  });

  test('the playback list shows the cameras under the folders, 20 a page', async ({ page, admin }) => {
    await openAs(page, admin, `/video/backlist/${DEV}`);
    const rows = page.locator('.ant-table-row');
    await expect(rows.filter({ hasText: cameraName(20) })).toBeVisible(SLOW);
    await expect(rows).toHaveCount(20);
    // The pager's page 2 (the bell's badge also has a title, its unread count, which may be 2).
    await page.locator('.ant-pagination').getByTitle('2', { exact: true }).click();
    await expect(rows.filter({ hasText: cameraName(30) })).toBeVisible();
    await expect(rows).toHaveCount(10);
    await expect(rows.filter({ hasText: `${PREFIX}虚拟组织` })).toHaveCount(0);
  });

  test("the square's every channel has 20 cards a page, counted as cameras", async ({ page, admin }) => {
    await openAs(page, admin, '/video/square/0');
    await page.getByText('全部通道', { exact: true }).click(SLOW);
    await page.getByPlaceholder('搜索通道名称').fill(PREFIX.trim());
    await expect(page.getByText('共 30 个通道')).toBeVisible(SLOW);
    await expect(page.getByTestId('square-channel')).toHaveCount(20);
  });

  test('the timeline page of a camera under two folders has its name and the device recordings', async ({ page, admin }) => {
    const deep = catalog.cameras[5];
    await openAs(page, admin, `/video/backchannel/${DEV}/${deep}`);
    await expect(page.getByRole('heading', { name: new RegExp(cameraName(6)) })).toBeVisible(SLOW);
    await expect(page.getByTestId('record-source')).toBeVisible();
  });
});
