/**
 * Live video in the console end to end (issue 4): a real GStreamer RTSP camera added through the
 * API, played by the console's LivePlayer over WebSocket fMP4 + MSE in Debian's Chromium (H.264).
 * Sessions go straight into localStorage.
 */
import { md5, tryLogin, v1 } from '../support/api';
import { expect, test, useCameraDevice } from '../support/fixtures';
import { expectAdvancing, frameVariety, openAs, openedDialog, zh } from '../support/page';

const RUN = Date.now().toString(36);

// A loaded machine (several servers, cameras and browsers at once) makes first loads slow.
test.describe.configure({ mode: 'serial', timeout: 150_000 });
const SLOW = { timeout: 30_000 };

test.describe('live video', () => {
  const name = `E2E live ${RUN}`;
  const cam = useCameraDevice(name);

  test.beforeAll(async ({ api, admin }) => {
    // An ONVIF service URL where nothing answers: the player offers the PTZ pad (an RTSP channel
    // without one has none), and the device's silence shows in the pad.
    await v1(await api.post('/api/v1/editchannel', { headers: { token: admin.Token }, data: { DeviceID: cam.dev, ChannelID: '1', Onvif: 'http://127.0.0.1:9/onvif/device_service' } }));
  });

  test('the player page decodes the camera: time advances, the frame is a picture, snapshot and PTZ work', async ({ page, admin }) => {
    await openAs(page, admin, `/video/player/${cam.dev}/1/0`);
    const player = page.getByTestId('live-player');
    const video = player.locator('video');
    await expectAdvancing(video, 'player');
    await expect(player).toHaveAttribute('data-phase', 'playing');

    const frame = await frameVariety(video);
    expect(frame).toMatchObject({ width: 320, height: 240 });
    expect(frame.levels, 'distinct grey levels in the frame').toBeGreaterThan(4);
    // codec, resolution and a bitrate in the toolbar
    await expect(player.getByTestId('player-stats')).toContainText('H.264');
    await expect(player.getByTestId('player-stats')).toContainText('320×240');
    // one bit rate, measured in the browser (LivePlayerFigures.test.tsx)
    await expect(player.getByTestId('player-stats')).toContainText(/\d+(\.\d)? [kM]bps/);

    // Snapshot: a PNG named by channel and local time.
    const download = page.waitForEvent('download');
    await player.getByRole('button', { name: '抓图' }).click();
    expect((await download).suggestedFilename()).toMatch(/_\d{14}\.png$/);

    // PTZ: the server's answer is shown in the panel (here the unreachable device's error text).
    await player.getByRole('button', { name: '云台控制' }).click();
    const ptz = page.getByTestId('ptz-panel');
    await expect(ptz).toBeVisible();
    await ptz.getByRole('button', { name: '上', exact: true }).click();
    await expect(ptz.getByTestId('ptz-error')).not.toBeEmpty();
    // A route change hides it.
    await page.getByText('子码流').click();
    await expect(page).toHaveURL(new RegExp(`/video/player/${cam.dev}/1/1$`));
    await expect(ptz).toBeHidden();
  });

  test('a 4-screen wall plays the same camera in 4 cells (presets, a drop from the sidebar, the picker)', async ({ page, admin }) => {
    const cell = { device: cam.dev, channel: '1', name };
    await page.addInitScript(
      (c) => localStorage.setItem('multi_screen_layout', JSON.stringify({ layout: 4, cells: [c, c, null, null] })),
      cell,
    );
    await openAs(page, admin, '/video/browse');
    const wall = page.getByTestId('wall');
    await expect(wall).toHaveAttribute('data-layout', '4', SLOW);
    const cells = wall.getByTestId('wall-cell');
    await expect(cells).toHaveCount(4);

    // Cell 3: the sidebar's drag data dropped on it.
    const dt = await page.evaluateHandle((c) => {
      const d = new DataTransfer();
      d.setData('application/x-opencvr-channel', JSON.stringify(c));
      return d;
    }, cell);
    await cells.nth(2).dispatchEvent('dragover', { dataTransfer: dt });
    await cells.nth(2).dispatchEvent('drop', { dataTransfer: dt });

    // Cell 4: click it and choose in the picker.
    await cells.nth(3).getByTestId('wall-empty').click();
    const picker = page.getByTestId('wall-picker');
    await page.getByPlaceholder('搜索通道名称').fill(name);
    // The rows change when the search (debounced) is answered: a click on a row of the list before it
    // loses its pick, mouse down on one list and up on the next (CI: the row was gone 10 ms into the click).
    await expect(picker).toHaveAttribute('aria-busy', 'false');
    await picker.getByTestId('wall-picker-item').filter({ hasText: name }).first().click();

    const videos = wall.locator('video');
    await expect(videos).toHaveCount(4);
    // Each cell's clock moves by more than a second within 2.5 s once it started.
    await Promise.all([0, 1, 2, 3].map((i) => expectAdvancing(videos.nth(i), `cell ${i + 1}`, 2500)));
    // Four sockets: one per cell.
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('multi_screen_layout') ?? '{}'));
    expect(stored.cells.slice(0, 4).every((c: { device?: string } | null) => c?.device === cam.dev)).toBe(true);
  });

  test('in English on a 1366×768 screen a running tour says its page on the toolbar row, not a row of its own', async ({ page, admin }) => {
    await page.setViewportSize({ width: 1366, height: 768 });
    const channels = Array.from({ length: 6 }, (_, i) => ({ device: cam.dev, channel: '1', name: `${name} ${i}` }));
    await page.addInitScript((c) => {
      localStorage.setItem('language', 'en-US');
      localStorage.setItem('loop_channels', JSON.stringify({ channels: c, interval: 10 }));
    }, channels);
    await openAs(page, admin, '/video/browse');
    await page.getByTestId('wall-loop').click();
    const status = page.getByTestId('wall-tour-status');
    await expect(status).toContainText(/page 1\/2/i);
    const [button, text] = await Promise.all([page.getByTestId('wall-loop').boundingBox(), status.boundingBox()]);
    // The text's middle within the button's height: the same row.
    expect(Math.abs(text!.y + text!.height / 2 - (button!.y + button!.height / 2))).toBeLessThan(button!.height / 2);
  });

  test('an operator whose role was given the channel alone finds it in the group list and plays it', async ({ browser, api, admin }) => {
    // Session 24 audit, issue 4: a role given a channel without a group saw 暂无数据 in the group list.
    const token = { token: admin.Token };
    const { ID: roleid } = await v1<{ ID: number }>(await api.post('/api/v1/addrole', { headers: token, form: { name: `e2e-live-${RUN}`, describe: 'live e2e' } }));
    await v1(await api.post('/api/v1/role/channels', { headers: token, data: { roleid, channels: [{ DeviceID: cam.dev, ChannelID: '1' }] } }));
    const user = `e2elive${RUN}`;
    const password = 'Us3r!live-e2e';
    await v1(await api.post('/api/v1/adduser', { headers: token, form: { username: user, password: md5(password), roleid, mustchange: 0, enable: 1 } }));
    const session = await tryLogin(api, user, password);
    expect(session).not.toBeNull();

    const context = await browser.newContext();
    const page = await context.newPage();
    await openAs(page, session!, '/video/square/0');
    await page.getByRole('tab', { name: '分组列表' }).click(SLOW);
    const groups = page.getByTestId('sider-fzlb');
    const rows = groups.locator('.ant-tree-treenode:not([aria-hidden="true"])');
    // The camera's device at the top, then the camera: nothing outside the role.
    await expect(rows).toHaveCount(1, SLOW);
    await expect(rows.first()).toContainText(name);
    await rows.first().locator('.ant-tree-switcher').click();
    await expect(rows).toHaveCount(2);
    await rows.nth(1).locator('.ant-tree-title').click();
    await expect(page).toHaveURL(new RegExp(`/video/player/${cam.dev}/1/0$`));
    await expectAdvancing(page.getByTestId('live-player').locator('video'), 'operator player');
    await context.close();
  });

  test('a share link plays without login in a new context; a tampered token shows the server message', async ({ page, browser, admin }) => {
    await openAs(page, admin, `/video/player/${cam.dev}/1/0`);
    await page.getByTestId('share-button').click(SLOW);
    await (await openedDialog(page)).getByTestId('share-create').click();
    const link = (await page.getByTestId('share-link').innerText()).trim();
    expect(link).toMatch(/\/share\/.+\/1\/0\?play_token=/);
    await expect(page.getByTestId('share-expires')).toContainText('到期时间');

    const visitor = await browser.newContext();
    try {
      const p = await visitor.newPage();
      await p.goto(link);
      await expect(p).toHaveURL(/\/share\//);
      await expect(p.getByTestId('share-name')).toHaveText(name, SLOW);
      await expectAdvancing(p.getByTestId('live-player').locator('video'), 'shared player');

      const bad = link.replace(/play_token=([^&]+)/, (_m, tok: string) => `play_token=${tok.slice(0, -4)}AAAA`);
      await p.goto(bad);
      await expect(p.getByTestId('share-error')).toHaveText(zh('shareInvalid'), SLOW);
      await expect(p.getByTestId('live-player')).toHaveCount(0);
    } finally {
      await visitor.close();
    }
  });

  test('when the WebSocket fMP4 output keeps failing, the player falls back to another transport the server serves', async ({ page, admin }) => {
    // Every WS fMP4 socket is closed at once: after its bounded attempts the player probes HLS,
    // then WebRTC (WHEP), and plays over the first one the server answers.
    await page.routeWebSocket(/\/ws_m4s\//, (ws) => ws.close());
    await openAs(page, admin, `/video/player/${cam.dev}/1/0`);
    const player = page.getByTestId('live-player');
    await expect(player).toHaveAttribute('data-phase', 'reconnecting', SLOW);
    await expect(player).toHaveAttribute('data-phase', 'playing', { timeout: 60_000 });
    await expect(player.getByTestId('player-stats')).toContainText(/HLS|WebRTC/);
    await expectAdvancing(player.locator('video'), 'fallback transport');
  });

  test('the camera stops and comes back on the same port: the player reconnects by itself', async ({ page, admin }) => {
    await openAs(page, admin, `/video/player/${cam.dev}/1/0`);
    const player = page.getByTestId('live-player');
    const video = player.locator('video');
    await expectAdvancing(video, 'before the outage');
    // A new MediaSource would empty the element (a black picture and a fresh start-up): the server
    // carries the timeline on across the reconnect and the player keeps its MediaSource.
    await video.evaluate((v: HTMLVideoElement) => {
      v.dataset.emptied = '0';
      v.addEventListener('emptied', () => (v.dataset.emptied = String(Number(v.dataset.emptied) + 1)));
    });

    const port = cam.camera.port;
    await cam.camera.stop();
    await expect(player).toHaveAttribute('data-phase', 'reconnecting', { timeout: 20_000 });
    await expect(player.getByTestId('player-status')).toContainText('正在重新连接');

    await cam.startCamera({ port });
    await expect(player).toHaveAttribute('data-phase', 'playing', { timeout: 45_000 });
    await expectAdvancing(video, 'after the camera returned');
    await expect(video).toHaveAttribute('data-emptied', '0');
  });
});
