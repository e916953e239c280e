/**
 * An H.265 recording played back in a browser without H.265 (Debian's Chromium has no HEVC decoder):
 * the GStreamer camera in H.265 is recorded for ~10 s (realtimerecord/start, stop), then the play
 * button of the backchannel page plays it through the server's H.264 leg: a picture (videoWidth),
 * the video clock advances, and the player says the server transcodes (浏览器不支持 H.265，服务器转码为
 * H.264 回放); at 16x it says only keyframes are shown and plays to the end. A browser that decodes H.265 plays the recording as stored: the test is skipped there.
 */
import { todayYmd, waitForRecorded, waitForRecording } from '../support/api';
import { expect, test, useCameraDevice } from '../support/fixtures';
import { openAs } from '../support/page';

const RUN = Date.now().toString(36);
const SLOW = { timeout: 30_000 };

test.describe.configure({ mode: 'serial', timeout: 150_000 });

test.describe('an H.265 recording in a browser without H.265', () => {
  const cam = useCameraDevice(`E2E hevc rec ${RUN}`, { codec: 'h265' });
  const today = todayYmd();

  test.beforeAll(async ({ api, admin }) => {
    test.setTimeout(120_000);
    const headers = { token: admin.Token };
    const start = await api.get('/api/v1/realtimerecord/start', { headers, params: { device: cam.dev, channel: '1' } });
    expect(start.ok(), await start.text()).toBe(true);
    await waitForRecording(api, admin.Token, cam.dev);
    await waitForRecorded(api, admin.Token, cam.dev, 10);
    await api.get('/api/v1/realtimerecord/stop', { headers, params: { device: cam.dev, channel: '1' } });
  });

  test('plays transcoded to H.264 and says why', async ({ page, admin }, info) => {
    await openAs(page, admin, `/video/backchannel/${cam.dev}/1/${today}`);
    const hevc = await page.evaluate(() => MediaSource.isTypeSupported('video/mp4; codecs="hvc1.1.6.L93.B0"'));
    test.skip(hevc, 'this browser decodes H.265: the recording plays as stored');
    await expect(page.getByTestId('timeline').getByTestId('timeline-range').first()).toBeVisible(SLOW);
    await page.getByTestId('play-toggle').click();
    const player = page.getByTestId('playback-player');
    const video = page.getByTestId('playback-video');
    await expect(player).toHaveAttribute('data-phase', 'playing', SLOW);
    await expect(page.getByTestId('playback-transcoded')).toHaveText('浏览器不支持 H.265，服务器转码为 H.264 回放');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth), { message: 'a picture', timeout: 15_000 }).toBeGreaterThan(0);
    const t0 = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { message: 'the clock advances', timeout: 15_000 }).toBeGreaterThan(t0 + 1);
    await page.screenshot({ path: info.outputPath('hevc-transcoded.png') });

    // 16x: the note says only keyframes are shown, and the recording plays on to its end.
    await page.getByTestId('speed').click();
    await page.locator('.ant-select-item-option[title="16x"]').click();
    await expect(page.getByTestId('playback-transcoded')).toContainText('（4 倍速以上仅显示关键帧）');
    await expect(player).toHaveAttribute('data-phase', 'ended', SLOW);
  });
});
