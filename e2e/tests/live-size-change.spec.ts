/**
 * A live camera that drops and comes back with another picture size, in Debian's Chromium: the hub
 * carries its timeline on across the reconnect and the WS-fMP4 output says the new init continues,
 * so the console's live player appends it to the same SourceBuffer (changeType for the new avc1
 * level) instead of a new MediaSource. Counted in the page: MediaSources made (a wrapper around
 * window.MediaSource installed before the page's scripts), changeType calls, and the video's
 * 'emptied' events (a new MediaSource empties the element: the black flash this avoids). The picture
 * turns 640 wide and currentTime runs on from where it stood, not from a fresh start.
 */
import { expect, test, useCameraDevice } from '../support/fixtures';
import { countMse } from '../support/mse-count';
import { expectAdvancing, openAs } from '../support/page';

const RUN = Date.now().toString(36);

test.describe.configure({ mode: 'serial', timeout: 150_000 });


test.describe('a live camera back with another picture size', () => {
  const cam = useCameraDevice(`E2E live size ${RUN}`, { width: 320, height: 240, audio: 'aac' });

  test('plays on in the same MediaSource, 640 wide, the clock running on', async ({ page, admin }, info) => {
    await countMse(page);
    await openAs(page, admin, `/video/player/${cam.dev}/1/0`);
    const player = page.getByTestId('live-player');
    const video = player.locator('video');
    await expectAdvancing(video, 'before the outage');
    const width = () => video.evaluate((v: HTMLVideoElement) => v.videoWidth);
    expect(await width()).toBe(320);
    // From here on: was the element emptied (a new MediaSource, a blank picture)?
    await video.evaluate((v: HTMLVideoElement) => {
      (window as unknown as { __emptied: number }).__emptied = 0;
      v.addEventListener('emptied', () => (window as unknown as { __emptied: number }).__emptied++);
    });
    const before = await page.evaluate(() => window.__mse!);

    await cam.camera.stop();
    await expect(player).toHaveAttribute('data-phase', 'reconnecting', { timeout: 20_000 });
    const stoppedAt = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
    await cam.startCamera({ port: cam.camera.port, width: 640, height: 480, audio: 'aac' });

    await expect.poll(width, { message: 'the picture after the camera came back', timeout: 45_000 }).toBe(640);
    await expect(player).toHaveAttribute('data-phase', 'playing', { timeout: 15_000 });
    await expectAdvancing(video, 'after the camera returned');
    const t = await video.evaluate((v: HTMLVideoElement) => ({ now: v.currentTime, start: v.buffered.length ? v.buffered.start(0) : -1, ranges: v.buffered.length }));
    const after = await page.evaluate(() => window.__mse!);
    const emptied = await page.evaluate(() => (window as unknown as { __emptied: number }).__emptied);
    await page.screenshot({ path: info.outputPath('live-after-size-change.png') });
    info.annotations.push({ type: 'mse', description: JSON.stringify({ before, after, stoppedAt, t, emptied }) });

    expect(after.sources, 'no MediaSource made after the first').toBe(before.sources);
    expect(after.sources).toBe(1);
    expect(after.changeTypes.length, 'the new avc1 level taken by changeType').toBeGreaterThan(0);
    expect(emptied, 'the video element never emptied').toBe(0);
    // The clock ran on from where it stood (a new MediaSource would have started over).
    expect(t.now).toBeGreaterThan(stoppedAt + 1);
    expect(t.start, 'the media before the outage is still in the same buffer').toBeLessThan(stoppedAt);
    await expect(player.getByTestId('player-stats')).toContainText('640×480');
  });
});
