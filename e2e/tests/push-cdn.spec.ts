/**
 * A CDN push switched on, end to end: a real camera, ffmpeg listening as the CDN's RTMP ingest. The
 * administrator sees on the channel form that it pushes (推流中, bytes sent growing, the address
 * without its stream key) and in the channel list's CDN column; the ingest gone, the form says it
 * retries, why, and when.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../../apps/server/test/fixtures/camera';
import { v1 } from '../support/api';
import { expect, test, useCameraDevice } from '../support/fixtures';
import { openAs } from '../support/page';

const RUN = Date.now().toString(36);
const FIRST_LOAD = { timeout: 30_000 };

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.describe('CDN push state', () => {
  const name = `E2E cdn ${RUN}`;
  const cam = useCameraDevice(name);
  let ingest: ChildProcess | undefined;
  let port = 0;

  test.beforeAll(async ({ api, admin }) => {
    port = await freePort();
    ingest = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-listen', '1', '-f', 'flv', '-i', `rtmp://127.0.0.1:${port}/live/E2EKEY${RUN}`, '-c', 'copy', '-f', 'null', '-'], {
      stdio: 'ignore',
    });
    await v1(
      await api.post('/api/v1/editchannel', {
        headers: { token: admin.Token },
        data: { DeviceID: cam.dev, ChannelID: '1', EnableCdn: 1, CdnUrl: `rtmp://127.0.0.1:${port}/live/E2EKEY${RUN}` },
      }),
    );
  });
  test.afterAll(async ({ api, admin }) => {
    ingest?.kill();
    // The push off, so later files see no retrying channel.
    await api.get('/api/v1/delchannel', { headers: { token: admin.Token }, params: { device: cam.dev, channel: '1' } });
  });

  test('the form shows the push working, then retrying with its reason once the ingest is gone; the list has the column', async ({ page, admin }) => {
    await openAs(page, admin, `/device/channelform/${cam.dev}/1?deviceName=${encodeURIComponent(name)}&deviceType=RTSP&channelName=1`);
    const state = page.getByTestId('cdn-push-state');
    await expect(state).toContainText('推流中', FIRST_LOAD);
    await expect(state).toContainText(`rtmp://127.0.0.1:${port}/live/***`);
    await expect(state).not.toContainText('E2EKEY');
    // Bytes sent grow while the page is open (read again every 5 s).
    const sent = async () => /已发送 ([\d.]+ [KMG]?B)/.exec((await state.textContent()) ?? '')?.[1] ?? '';
    await expect.poll(sent, { timeout: 10_000 }).toMatch(/B$/);
    const first = await sent();
    await expect.poll(sent, { timeout: 15_000 }).not.toBe(first);
    await expect(state).toContainText(/码率 \d+(\.\d)? [kM]bps/);

    // The ingest stops: the events socket tells the page at once, with the reason and the next try.
    ingest?.kill();
    await expect(state).toContainText('重试中', { timeout: 20_000 });
    // Red while it waits; once the next run connects, the same failure reads as the last one.
    await expect(state).toContainText(/原因：|上次失败：/);
    await expect(state).toContainText(/\d+ 秒后重试|正在重试/);

    await page.goto(`/device/channel/${cam.dev}?deviceName=${encodeURIComponent(name)}&deviceType=RTSP`);
    const cell = page.locator('.ant-table-row', { hasText: '1' }).getByTestId('cdn-push-cell');
    await expect(cell).toHaveText(/重试中|连接中/, FIRST_LOAD);
  });
});
