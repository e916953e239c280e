/**
 * A recording across a change of picture size, played back in Debian's Chromium without a break:
 * the GStreamer camera is recorded at 320x240, restarted on the same port at 640x480 (the recorder
 * starts a part with a new init segment), recorded on, then the backchannel page plays the day.
 * The server's playback runs its timeline on across the new init ({type:'init', continues}); the
 * player appends it to the same SourceBuffer (changeType for the new avc1 level): the picture turns
 * 640 wide, the clock runs on past the change, and no second MediaSource is made (counted by a
 * wrapper around window.MediaSource installed before the page's scripts). Where changeType throws
 * (made to here), the fallback: one fresh MediaSource at the change, the clock running on from there.
 */
import { dailyRanges, todayYmd, waitForRecorded, type Session } from '../support/api';
import { expect, test, useCameraDevice } from '../support/fixtures';
import type { Page } from '@playwright/test';
import { countMse } from '../support/mse-count';
import { openAs } from '../support/page';

const RUN = Date.now().toString(36);
const SLOW = { timeout: 30_000 };

test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.describe('a recording across a change of picture size', () => {
  const cam = useCameraDevice(`E2E size change ${RUN}`, { width: 320, height: 240 });
  const today = todayYmd();

  test.beforeAll(async ({ api, admin }) => {
    test.setTimeout(150_000);
    const headers = { token: admin.Token };
    const start = await api.get('/api/v1/realtimerecord/start', { headers, params: { device: cam.dev, channel: '1' } });
    expect(start.ok(), await start.text()).toBe(true);
    await waitForRecorded(api, admin.Token, cam.dev, 6);
    await cam.startCamera({ port: cam.camera.port, width: 640, height: 480 });
    // The ingest comes back to the camera (its retry, a few seconds) and records at the new size:
    // nothing is recorded meanwhile, so the ranges' seconds grow by the new part's own length.
    const recorded = async () => (await dailyRanges(api, admin.Token, cam.dev)).reduce((n, r) => n + r.duration, 0);
    const first = await recorded();
    await expect.poll(recorded, { message: '8 s recorded at the new size', timeout: 60_000 }).toBeGreaterThanOrEqual(first + 8);
    await api.get('/api/v1/realtimerecord/stop', { headers, params: { device: cam.dev, channel: '1' } });
  });


  /** Plays the day from its start until the picture is 640 wide and the clock ran 2 s past that. */
  async function playThroughChange(page: Page, admin: Session) {
    await openAs(page, admin, `/video/backchannel/${cam.dev}/1/${today}`);
    await expect(page.getByTestId('timeline').getByTestId('timeline-range').first()).toBeVisible(SLOW);
    await page.getByTestId('play-toggle').click();
    const player = page.getByTestId('playback-player');
    const video = page.getByTestId('playback-video');
    await expect(player).toHaveAttribute('data-phase', 'playing', SLOW);
    const width = () => video.evaluate((v: HTMLVideoElement) => v.videoWidth);
    await expect.poll(width, { message: 'the first part’s picture', timeout: 15_000 }).toBe(320);
    const mse = () => page.evaluate(() => window.__mse!);
    const before = await mse();
    await expect.poll(width, { message: 'the picture after the change', timeout: 60_000 }).toBe(640);
    const atChange = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { message: 'the clock runs on after the change', timeout: 15_000 })
      .toBeGreaterThan(atChange + 2);
    await expect(player).toHaveAttribute('data-phase', 'playing');
    return { before, after: await mse(), ranOnTo: await video.evaluate((v: HTMLVideoElement) => v.currentTime) };
  }

  test('plays through the change on one MediaSource, the clock running on', async ({ page, admin }, info) => {
    await countMse(page);
    const { before, after } = await playThroughChange(page, admin);
    await page.screenshot({ path: info.outputPath('after-size-change.png') });
    info.annotations.push({ type: 'mse', description: JSON.stringify({ before, after }) });
    expect(after.sources, 'no MediaSource made after the first').toBe(before.sources);
    expect(after.sources).toBe(1);
  });

  test('a browser that refuses changeType gets a fresh MediaSource at the change and plays on', async ({ page, admin }) => {
    await countMse(page, true);
    const { after, ranOnTo } = await playThroughChange(page, admin);
    expect(after.changeTypes.length, 'changeType was asked').toBeGreaterThan(0);
    expect(after.sources).toBe(2);
    // The fresh MediaSource plays on at the same media time (the server's timeline continues), not
    // from 0: past the first part's 6 s and the 2 s after the change.
    expect(ranOnTo).toBeGreaterThan(7);
  });
});
