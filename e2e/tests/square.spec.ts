/**
 * The video square of one device end to end (issue 4, /video/square/{devid}): a device with a real
 * GStreamer RTSP camera, a channel whose address answers nothing and a channel not enabled. The
 * online state on the cards is the server's own (its stream checker probes every pulled channel);
 * a click on the offline or disabled card says so, a click on the online one opens its player. The
 * online card shows the camera's picture the server keeps; the others keep the placeholder. A camera
 * of a disabled device is shown as such and asks for nothing.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { addRtspDevice, v1, type Session } from '../support/api';
import { expect, test, useCameraDevice } from '../support/fixtures';
import { openAs, zh } from '../support/page';

const RUN = Date.now().toString(36);
const FIRST_LOAD = { timeout: 30_000 };

test.describe.configure({ mode: 'serial', timeout: 120_000 });

/** A card by its title (every card's state line also names the device). */
const card = (page: Page, name: string) =>
  page
    .getByTestId('square-channel')
    .filter({ has: page.locator('.ant-card-meta-title').getByText(name, { exact: true }) });

test.describe('video square of a device', () => {
  const name = `E2E square ${RUN}`;
  const deaf = `E2E deaf ${RUN}`;
  const off = `E2E switched off ${RUN}`;

  const cam = useCameraDevice(name);

  async function addChannel(api: APIRequestContext, admin: Session, Name: string, RtspUrl: string, Enable: number) {
    await v1(
      await api.post('/api/v1/addchannel', {
        headers: { token: admin.Token },
        data: { ParentDeviceID: cam.dev, Name, RtspUrl, Enable },
      }),
    );
  }

  test.beforeAll(async ({ api, admin }) => {
    // Port 9 (discard) on loopback: nothing listens, the probe fails at once.
    await addChannel(api, admin, deaf, 'rtsp://127.0.0.1:9/none', 1);
    await addChannel(api, admin, off, cam.camera.url, 0);
    // The server probes a channel when it is added: wait for its verdict on the camera's channel.
    await expect
      .poll(
        async () => {
          const body = await v1<{ Channels: { Name: string; Online: number }[] }>(
            await api.get('/api/v1/getchannels', {
              headers: { token: admin.Token },
              params: { device: cam.dev, start: 0, limit: 50 },
            }),
          );
          return body.Channels.find((c) => c.Name === name)?.Online;
        },
        { timeout: 30_000 },
      )
      .toBe(1);
  });

  test('shows the device’s channels with the server’s online state; clicks follow the rule', async ({ page, admin }) => {
    await openAs(page, admin, `/video/square/${cam.dev}`);
    await expect(page.getByTestId('square-channel')).toHaveCount(3, FIRST_LOAD);
    await expect(page.getByRole('heading', { name })).toBeVisible();
    await expect(card(page, name)).toHaveAttribute('data-state', 'online');
    await expect(card(page, name)).toContainText(`在线 · ${name}`);
    await expect(card(page, deaf)).toHaveAttribute('data-state', 'offline');
    await expect(card(page, deaf)).toContainText(`离线 · ${name}`);
    await expect(card(page, off)).toHaveAttribute('data-state', 'disabled');
    await expect(card(page, off)).toContainText(`未开启 · ${name}`);

    await card(page, deaf).click();
    await expect(page.getByText(zh('channelOffline'))).toBeVisible();
    await card(page, off).click();
    await expect(page.getByText(zh('channelDisabled'))).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/video/square/${cam.dev}$`));

    await card(page, name).click();
    await expect(page).toHaveURL(new RegExp(`/video/player/${cam.dev}/1/0$`));
    await expect(page.getByTestId('live-player')).toBeVisible();
  });

  test('a card shows its channel’s last picture, kept by the server; the others keep the placeholder', async ({ page, api, admin }) => {
    const thumb = (channel: string) =>
      api.get('/api/v1/devices/channelthumb', { headers: { token: admin.Token }, params: { device: cam.dev, channel } });
    // Someone takes a snapshot (it opens the stream): the server makes the channel's thumbnail from it.
    const snap = await api.get('/api/v1/devices/channelsnap', { headers: { token: admin.Token }, params: { device: cam.dev, channel: '1' } });
    expect(snap.status()).toBe(200);
    await expect.poll(async () => (await thumb('1')).status(), { timeout: 30_000 }).toBe(200);

    // A card without a picture is no error in the browser's log (a 404 per card and retry was one).
    const thumbErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && m.location().url.includes('channelthumb')) thumbErrors.push(`${m.text()} ${m.location().url}`);
    });
    await openAs(page, admin, `/video/square/${cam.dev}`);
    await expect(page.getByTestId('square-channel')).toHaveCount(3, FIRST_LOAD);
    const picture = card(page, name).getByTestId('square-thumb');
    await expect(picture).toHaveAttribute('data-picture', 'shown');
    // The camera's 320x240, not scaled up; drawn over the whole cover.
    expect(await picture.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([320, 240]);
    await expect(picture).toBeVisible();
    await expect(card(page, name).locator('.anticon-play-circle')).toHaveCount(0);
    // Never seen: the server has no picture (204), the placeholder stays; not enabled: none asked for.
    await expect(card(page, deaf).getByTestId('square-thumb')).toHaveCount(0);
    await expect(card(page, deaf).locator('.anticon-play-circle')).toBeVisible();
    await expect(card(page, off).getByTestId('square-thumb')).toHaveCount(0);
    await expect(card(page, off).locator('.anticon-play-circle')).toBeVisible();
    expect(thumbErrors).toEqual([]);
  });

  test('a disabled device’s camera says so (not offline, not online), asks for no picture, and a click says 通道未开启!', async ({ page, api, admin }) => {
    const parked = `E2E parked ${RUN}`;
    const parkedDev = await addRtspDevice(api, admin.Token, parked, cam.camera.url);
    await v1(await api.post('/api/v1/editdevice', { headers: { token: admin.Token }, data: { DeviceID: parkedDev, Enable: 0 } }));
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/channelthumb')) asked.push(new URL(r.url()).searchParams.get('device') ?? '');
    });

    await openAs(page, admin, `/video/square/${parkedDev}`);
    await expect(page.getByTestId('square-channel')).toHaveCount(1, FIRST_LOAD);
    await expect(card(page, parked)).toHaveAttribute('data-state', 'disabled');
    await expect(card(page, parked)).toContainText(`设备未开启 · ${parked}`);
    await expect(card(page, parked).getByTestId('square-thumb')).toHaveCount(0);
    await card(page, parked).click();
    await expect(page.getByText(zh('channelDisabled'))).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/video/square/${parkedDev}$`));
    expect(asked).not.toContain(parkedDev);
  });

  test('in English the sidebar tabs keep their labels on one line', async ({ page, admin }) => {
    await openAs(page, admin, `/video/square/${cam.dev}`);
    await expect(page.getByTestId('square-channel')).toHaveCount(3, FIRST_LOAD);
    await page.getByRole('radio', { name: 'English' }).click();
    const tabs = page.getByTestId('video-sider').getByRole('tab');
    await expect(tabs).toHaveText(['Video square', 'Groups', 'Favourites']);
    // One line of text plus the padding: "Video square" wrapped onto two lines in a third of 280 px.
    for (const height of await tabs.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))) {
      expect(height).toBeLessThan(50);
    }
  });

  test('a long channel name ends in … inside the sidebar, reads in full on hover, and keeps its star in view', async ({ page, api, admin }) => {
    // An NVR's cameras are often named after it: the row grew wider than the sidebar, the name was
    // cut by the panel's edge (a hundred rows read the same) and the favourite star was out of view.
    const long = `E2E 录像机 NVR-01 ${RUN} 摄像机 Camera channel 042`;
    await addChannel(api, admin, long, 'rtsp://127.0.0.1:9/none', 1);
    await openAs(page, admin, `/video/square/${cam.dev}`);
    const sider = page.getByTestId('sider-spgc');
    await sider.locator('input').first().fill(long);
    const row = sider.locator('.ant-tree-treenode', { has: page.locator(`[title^="${long}"]`) });
    await expect(row).toBeVisible(FIRST_LOAD);
    const name = row.locator(`[title^="${long}"]`);
    expect(await name.evaluate((e) => e.scrollWidth > e.clientWidth), 'the name is cut with an ellipsis').toBe(true);
    const holder = (await sider.locator('.ant-tree-list-holder').boundingBox())!;
    const star = (await row.getByRole('button').boundingBox())!;
    expect(star.x + star.width, 'the star ends inside the sidebar').toBeLessThanOrEqual(holder.x + holder.width);
    const rowBox = (await row.boundingBox())!;
    expect(rowBox.x + rowBox.width, 'the row ends inside the sidebar').toBeLessThanOrEqual(holder.x + holder.width + 1);
  });

  test('on a phone-wide window the sidebar opens from its trigger, above the page', async ({ page, admin }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    // The square of every channel: its source switch pushes the search box onto the trigger's row.
    await openAs(page, admin, '/video/square/0');
    await expect(page.getByPlaceholder('搜索通道名称').last()).toBeVisible(FIRST_LOAD);
    const sider = page.getByTestId('video-sider');
    await expect(sider).toHaveClass(/ant-layout-sider-collapsed/);
    // The top bar's button (a real click: it fails when anything lies on top of it).
    const toggle = page.getByRole('button', { name: '视频侧栏' });
    await toggle.click({ timeout: 5000 });
    await expect(sider).not.toHaveClass(/ant-layout-sider-collapsed/);
    // Open, it fills the screen under the top bar, whose button closes it again.
    await toggle.click({ timeout: 5000 });
    await expect(sider).toHaveClass(/ant-layout-sider-collapsed/);
    await toggle.click({ timeout: 5000 });
    await expect(sider).not.toHaveClass(/ant-layout-sider-collapsed/);

    // Open, it covers the page: a channel chosen in it closes it and its player shows. Found with the
    // sidebar's search, as among many devices: in the whole suite every earlier spec's device comes
    // before this one in the tree (27th of 28 in CI), and the tree is a virtual list that mounts only
    // the rows in view (25 at 390×844), so this device's row was never there to click.
    await sider.getByPlaceholder('搜索通道', { exact: true }).fill(name);
    // A search result names the channel and its device (the camera's channel has the device's name).
    await sider.getByText(`${name} (${name})`, { exact: true }).click(FIRST_LOAD);
    await expect(page).toHaveURL(new RegExp(`/video/player/${cam.dev}/1/0$`));
    await expect(sider).toHaveClass(/ant-layout-sider-collapsed/);
    await expect(page.getByTestId('live-player')).toBeInViewport();
  });

  test('on a phone-wide window nothing that opens the sidebar covers a page’s title or controls', async ({ page, admin }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    // antd's trigger hung over the page's left edge: it covered the playback page's title (通道录像 ·
    // …), the player's state tag and the square's search box.
    const pages: [string, RegExp | string][] = [
      ['/video/square/0', '视频广场'],
      [`/video/square/${cam.dev}`, name],
      [`/video/player/${cam.dev}/1/0`, name],
      [`/video/backchannel/${cam.dev}/1`, new RegExp(`通道录像 · ${name}`)],
      // The wall has no title: its toolbar starts at the left edge.
      ['/video/browse', '清空画面'],
    ];
    for (const [path, title] of pages) {
      await openAs(page, admin, path);
      await expect(page.locator('.ant-layout-content').getByText(title).first()).toBeVisible(FIRST_LOAD);
      const covered = await page.evaluate(() => {
        const openers = Array.from(document.querySelectorAll('.ant-layout-sider-zero-width-trigger, [aria-label="视频侧栏"]'))
          .map((e) => e.getBoundingClientRect())
          .filter((r) => r.width && r.height);
        const content = document.querySelector('.ant-layout-content');
        const parts = content ? Array.from(content.querySelectorAll('h1, h2, h3, h4, h5, button, input, a, .ant-tag, .ant-segmented, .ant-breadcrumb')) : [];
        return parts.flatMap((el) => {
          const b = el.getBoundingClientRect();
          const hit = b.width && b.height && openers.some((r) => b.left < r.right && b.right > r.left && b.top < r.bottom && b.bottom > r.top);
          return hit ? [`${el.tagName} "${(el.textContent ?? '').trim().slice(0, 30) || (el as HTMLInputElement).placeholder}"`] : [];
        });
      });
      expect(covered, path).toEqual([]);
      await expect(page.getByRole('button', { name: '视频侧栏' })).toBeVisible();
    }
  });
});
