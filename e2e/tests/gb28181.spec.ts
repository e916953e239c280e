/**
 * A GB28181 device end to end in Chromium (issue 6): a simulated device (the TypeScript device
 * double of the server tests, against the e2e server's SIP port) registers, appears online with its
 * catalog in the device list and the video sidebar tree, its channel plays live in the console
 * player (INVITE, PS over RTP, decoded frames), the PTZ pad sends the PTZCmd of GB/T 28181 annex
 * A.3 (checked at the device), and an alarm it sends appears in /alarm/list. Its recordings
 * (RecordInfo, s=Playback, s=Download) are played and downloaded from the playback page, and a
 * download cancelled in the console is stopped at the device (BYE). The GB
 * settings changed here (media IP, transport) are put back for the other files.
 */
import { v1 } from '../support/api';
import { expect, test } from '../support/fixtures';
import { gbMediaOnThisMachine, type GbForDouble } from '../support/gb';
import { currentTime, expectAdvancing, openAs } from '../support/page';
import { treeRow } from '../support/tree';
import { GbDevice } from '../../apps/server/test/fixtures/gb-device';
import { answerQueries, type Answering } from '../../apps/server/test/fixtures/gb-device-answers';
import { answerInvites, recordControls, type MediaAnswering } from '../../apps/server/test/fixtures/gb-device-media';
import { answerRecordInfo, serveHistory, type HistoryServing } from '../../apps/server/test/fixtures/gb-device-records';
import { gbTimeOf } from '../../apps/server/src/gb/records/time';

const RUN = Date.now().toString(36);
/** IDs unique to this run: 10-digit domain, type 132 (camera device) / 131 (its channel), 7-digit serial. */
const SERIAL = String((Date.now() + 17) % 1e7).padStart(7, '0');
const DEV = `3402000000132${SERIAL}`;
const CH = `3402000000131${SERIAL}`;
const DEVICE_NAME = `GB NVR ${RUN}`;
const CHANNEL_NAME = `GB cam ${RUN}`;

test.describe.configure({ mode: 'serial', timeout: 180_000 });
/** The machine is shared: the first render of a lazy page may take a while. */
const SLOW = { timeout: 60_000 };

/** Annex A.3 at the PTZ pad's default speed 50 (of 1-100): round(0.5 × 255) = 128 = 0x80, zoom speed round(0.5 × 15) = 8. */
const PTZ_UP = 'A50F01080080003D';
const PTZ_STOP = 'A50F0100000000B5';
const PTZ_ZOOM_IN = 'A50F011000008045';

test.describe('GB28181 device', () => {
  let dev: GbDevice;
  let answers: Answering;
  let media: MediaAnswering;
  let controls: ReturnType<typeof recordControls>;
  let history: HistoryServing;
  let recordInfo: ReturnType<typeof answerRecordInfo>;
  let keepalive: NodeJS.Timeout | undefined;
  let gb: GbForDouble | undefined;

  test.beforeAll(async ({ request, admin }) => {
    gb = await gbMediaOnThisMachine(request, admin);
    dev = await GbDevice.start({ deviceId: DEV, password: gb.DevicePassword, serverPort: gb.ListenPort });
    answers = answerQueries(dev, {
      deviceId: DEV,
      catalog: [{ deviceId: CH, name: CHANNEL_NAME, parental: 0, parentId: DEV, status: 'ON', manufacturer: 'OpenCVR', model: 'PTZ dome' }],
      deviceInfo: { deviceName: DEVICE_NAME, manufacturer: 'OpenCVR', model: 'device double', firmware: 'e2e', channel: 1 },
    });
    // Recordings of today on the device: 01:00-01:30 and 02:00-02:10 (local time). The history
    // responder goes first: answerInvites answers every INVITE it is given.
    const at = (h: number, m: number) => gbTimeOf(new Date(new Date().setHours(h, m, 0, 0)));
    recordInfo = answerRecordInfo(dev, {
      records: [
        { deviceId: CH, name: 'a', startTime: at(1, 0), endTime: at(1, 30), type: 'time' },
        { deviceId: CH, name: 'b', startTime: at(2, 0), endTime: at(2, 10), type: 'alarm' },
      ],
    });
    history = serveHistory(dev);
    media = answerInvites(dev);
    controls = recordControls(dev);
    expect((await dev.register()).status).toBe(200);
    // Keepalives as a camera sends them, so the device stays online however long the run takes.
    keepalive = setInterval(() => void dev.keepalive().catch(() => undefined), 15_000);
  });

  test.afterAll(async ({ request }) => {
    clearInterval(keepalive);
    controls?.stop();
    recordInfo?.stop();
    await history?.stop();
    answers?.stop();
    await media?.stop();
    await dev?.unregister().catch(() => undefined);
    await dev?.close();
    await gb?.restore(request);
  });

  test('registers and appears online with its catalog in the device list and the video tree', async ({ page, request, admin }) => {
    // The catalog and the device information were asked after the registration.
    await expect
      .poll(async () => {
        const body = await v1<{ Devices: { DeviceName: string }[] }>(
          await request.get('/api/v1/devicesconfig', { headers: { token: admin.Token }, params: { start: 0, limit: 10, q: DEV } }),
        );
        return body.Devices[0]?.DeviceName;
      }, SLOW)
      .toBe(DEVICE_NAME);

    await openAs(page, admin, '/device/list');
    await page.getByPlaceholder('搜索名称 / ID / IP').fill(DEV, SLOW);
    const row = page.locator('.ant-table-row', { hasText: DEV });
    await expect(row).toBeVisible(SLOW);
    await expect(row).toContainText(DEVICE_NAME);
    await expect(row).toContainText('GB28181');
    await expect(row).toContainText('在线');
    await expect(row.getByTestId('channel-count')).toHaveText('1/1');
    // Its six actions (channels, edit, catalog, info, reboot, delete) are all inside the table: the
    // fixed column once squeezed them and delete fell outside it, out of reach.
    const table = (await page.locator('.ant-table-content').first().boundingBox())!;
    for (const action of await row.locator('td').last().getByRole('button').all()) {
      const box = (await action.boundingBox())!;
      expect(box.x + box.width, await action.innerText()).toBeLessThanOrEqual(table.x + table.width);
    }

    await page.goto('/video/square/0');
    const tree = page.getByTestId('sider-spgc');
    // Scrolled to: in the whole suite other files' devices come before this one in the virtual tree.
    const node = await treeRow(tree, DEVICE_NAME, SLOW.timeout);
    await expect(node).toBeVisible();
    await node.locator('.ant-tree-switcher').click();
    // Its channel comes under it, loaded when it opens (below the view when the device is the list's last row).
    await expect(await treeRow(tree, CHANNEL_NAME, SLOW.timeout)).toBeVisible();
  });

  test('the channel plays live in the console player and the PTZ pad sends the PTZCmd of the standard', async ({ page, admin }) => {
    await openAs(page, admin, `/video/player/${DEV}/${CH}/0`);
    const player = page.getByTestId('live-player');
    const video = player.locator('video');
    await expectAdvancing(video, 'GB channel');
    await expect(player).toHaveAttribute('data-phase', 'playing');
    const size = await video.evaluate((v: HTMLVideoElement) => ({ width: v.videoWidth, height: v.videoHeight }));
    expect(size).toEqual({ width: 320, height: 240 });
    await expect(player.getByTestId('player-stats')).toContainText('H.264');
    // The device got one INVITE for the channel over UDP and was ACKed.
    expect(media.sessions.filter((s) => s.channelId === CH && !s.endedBy)).toHaveLength(1);
    expect(media.sessions.at(-1)).toMatchObject({ transport: 'udp', acked: true });

    await player.getByRole('button', { name: '云台控制' }).click();
    const ptz = page.getByTestId('ptz-panel');
    await expect(ptz).toBeVisible();
    // A move lasts on the device until a stop: the pad moves while a button is held and sends the
    // stop when it is released, or when the pointer leaves the held button.
    const hold = async (label: string, cmd: string, release: () => Promise<void>) => {
      const before = controls.ptzCmds().length;
      await ptz.getByRole('button', { name: label, exact: true }).hover();
      await page.mouse.down();
      await expect.poll(() => controls.ptzCmds().slice(before), { message: `${label} reaches the device` }).toEqual([cmd]);
      await release();
      await expect.poll(() => controls.ptzCmds().slice(before), { message: `${label} released: stop` }).toEqual([cmd, PTZ_STOP]);
    };
    await hold('上', PTZ_UP, () => page.mouse.up());
    await hold('放大', PTZ_ZOOM_IN, () => page.mouse.move(1, 1));
    await page.mouse.up();
    const before = controls.ptzCmds().length;
    await ptz.getByRole('button', { name: '停止', exact: true }).click();
    await expect.poll(() => controls.ptzCmds().slice(before)).toEqual([PTZ_STOP]);
    expect(controls.controls.every((c) => c.deviceId === CH)).toBe(true);
    await expect(ptz.getByTestId('ptz-error')).toHaveCount(0);
  });

  test('an alarm sent by the device appears in /alarm/list', async ({ page, admin }) => {
    await openAs(page, admin, '/alarm/list');
    await expect(page.getByText('实时推送')).toBeVisible(SLOW);
    const body =
      '<?xml version="1.0" encoding="GB2312"?>\r\n<Notify>\r\n<CmdType>Alarm</CmdType>\r\n<SN>77</SN>\r\n' +
      `<DeviceID>${CH}</DeviceID>\r\n<AlarmPriority>2</AlarmPriority>\r\n<AlarmMethod>5</AlarmMethod>\r\n` +
      `<AlarmTime>2026-05-06T08:09:10</AlarmTime>\r\n<AlarmDescription>gb e2e ${RUN}</AlarmDescription>\r\n` +
      '<Info>\r\n<AlarmType>2</AlarmType>\r\n</Info>\r\n</Notify>\r\n';
    expect((await dev.message(body)).status).toBe(200);
    const row = page.getByRole('row').filter({ hasText: `gb e2e ${RUN}` });
    await expect(row).toBeVisible(SLOW);
    await expect(row).toContainText(CH);
    await expect(row).toContainText('运动目标检测报警');
    await expect(row).toContainText('2026-05-06 08:09:10');
  });

  test('its recordings: the day from the device on the timeline, played from the middle at 4x, a range downloaded (in English, beside the calendar)', async ({ page, admin }) => {
    await page.addInitScript(() => localStorage.setItem('language', 'en-US'));
    const now = new Date();
    const day = `${now.getFullYear()}${String(now.getMonth() + 1).padStart(2, '0')}${String(now.getDate()).padStart(2, '0')}`;
    await openAs(page, admin, `/video/backchannel/${DEV}/${CH}/${day}?source=Device`);
    await expect(page.getByTestId('day-summary')).toHaveText('2 ranges, 00:40:00 in all', SLOW);
    await expect(page.getByTestId('timeline-range')).toHaveCount(2);
    // A long English line under the player once pushed it under the calendar at 1440 px.
    const player = page.getByTestId('playback-player');
    const calendar = (await page.getByTestId('month-calendar').boundingBox())!;
    expect((await player.boundingBox())!.x, 'the player beside the calendar').toBeGreaterThan(calendar.x + calendar.width);

    // 01:15 on the 24-hour timeline: the device is asked for its recording from there.
    const timeline = page.getByTestId('timeline');
    const box = (await timeline.boundingBox())!;
    await timeline.click({ position: { x: (box.width * 1.25) / 24, y: box.height / 2 } });
    await expect(player).toHaveAttribute('data-phase', 'playing', SLOW);
    await expectAdvancing(page.getByTestId('playback-video'), 'device recording');
    expect(history.sessions.at(-1)).toMatchObject({ session: 'Playback', channelId: CH });

    // 4x: the device sends four times faster with the speed in the timestamps; the playhead follows
    // the recording's time (it once moved one second per media second at any speed).
    await page.getByTestId('speed').click();
    await page.locator('.ant-select-item-option', { hasText: /^4x$/ }).click();
    await expect.poll(() => history.sessions.at(-1)!.infos.some((i) => i.method === 'PLAY' && i.scale === 4), { message: 'PLAY Scale: 4 reaches the device' }).toBe(true);
    // Recording seconds per media second over the last 3 s of media, sampled until they all came at
    // 4x: what was buffered at 1x plays first, for as long as it takes (was a fixed 2 s, then 3 s).
    const head = page.getByTestId('playhead');
    const video = page.getByTestId('playback-video');
    const samples: { day: number; media: number }[] = [];
    await expect
      .poll(
        async () => {
          const now = { day: Number(await head.getAttribute('data-time')), media: await currentTime(video) };
          samples.push(now);
          const from = [...samples].reverse().find((s) => now.media - s.media >= 3);
          return from ? (now.day - from.day) / (now.media - from.media) : 0;
        },
        { message: 'recording seconds per media second over the last 3 s of media', intervals: [250], timeout: 30_000 },
      )
      .toBeGreaterThan(2.5);

    // A range from the device: the server fetches it (s=Download), then the file comes.
    await page.getByTestId('download-from').fill('01:10:00');
    await page.getByTestId('download-to').fill('01:10:08');
    const file = page.waitForEvent('download', SLOW);
    await page.getByTestId('download-start').click();
    expect((await file).suggestedFilename()).toMatch(new RegExp(`_${day}011000_${day}011008\\.mp4$`));
    await expect(page.getByTestId('download-bytes')).toContainText('Saved');
    expect(history.sessions.some((s) => s.session === 'Download')).toBe(true);
  });

  test('a range download from the device cancelled in the console: the device gets BYE, the server says it was cancelled', async ({ page, request, admin }) => {
    const now = new Date();
    const day = `${now.getFullYear()}${String(now.getMonth() + 1).padStart(2, '0')}${String(now.getDate()).padStart(2, '0')}`;
    await openAs(page, admin, `/video/backchannel/${DEV}/${CH}/${day}?source=Device`);
    // 20 minutes at 4x: still coming in when it is cancelled.
    await page.getByTestId('download-from').fill('01:00:00', SLOW);
    await page.getByTestId('download-to').fill('01:20:00');
    const started = page.waitForResponse((r) => r.url().includes('/api/v1/downloaddevicerecord/'), SLOW);
    const before = history.sessions.length;
    await page.getByTestId('download-start').click();
    const task = (await (await started).json()).EasyDarwin.Body as { request_id: string };
    await expect(page.getByTestId('download-bytes')).toContainText('设备正在传输录像', SLOW);
    const session = history.sessions.slice(before).find((s) => s.session === 'Download')!;
    expect(session.byeReceived).toBe(false);
    await page.getByRole('button', { name: /取消下载/ }).click();
    await expect.poll(() => session.byeReceived, { message: 'the BYE reaches the device' }).toBe(true);
    await expect(page.getByTestId('download-start')).toBeVisible();
    const info = await v1<{ State: string; Reason: string }>(await request.get('/api/v1/downloadrecord/streaminfo', { headers: { token: admin.Token }, params: { request_id: task.request_id } }));
    expect(info).toMatchObject({ State: 'cancelled', Reason: '下载已取消' });
  });
});
