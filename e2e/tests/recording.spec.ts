/**
 * Recording and playback in the console end to end (issue 5): a GStreamer RTSP camera is added and
 * recorded for ~16 s by the live player's record button (realtimerecord/start, stop; the player
 * marks 录像中 from the streaming status while the server records), then the backchannel page for today shows the
 * day flagged in the calendar and the range on the timeline; a click in its middle plays (the video
 * clock advances), the speed reaches the server (playState), and a downloaded range is an MP4 whose
 * duration (ffprobe) is the range's within 2 s.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { Locator } from '@playwright/test';
import { dailyRanges, todayYmd, waitForRecorded, waitForRecording } from '../support/api';
import { expect, test, useCameraDevice } from '../support/fixtures';
import { expectAdvancing, openAs } from '../support/page';

const RUN = Date.now().toString(36);
/** The recording's length: a 10 s range downloads from inside it, 2 s from its start. */
const RECORD_S = 16;

const pad = (n: number) => String(n).padStart(2, '0');
const clock = (sec: number) => `${pad(Math.floor(sec / 3600))}:${pad(Math.floor((sec % 3600) / 60))}:${pad(Math.floor(sec % 60))}`;
/** Seconds since midnight of a local YYYYMMDDHHmmss. */
const secondsOf = (stamp: string) => Number(stamp.slice(8, 10)) * 3600 + Number(stamp.slice(10, 12)) * 60 + Number(stamp.slice(12, 14));

/** The x of a second on the timeline, from its current window (data-start, data-span). */
async function xOf(timeline: Locator, second: number): Promise<{ x: number; y: number }> {
  const box = (await timeline.boundingBox())!;
  const start = Number(await timeline.getAttribute('data-start'));
  const span = Number(await timeline.getAttribute('data-span'));
  return { x: box.x + ((second - start) / span) * box.width, y: box.y + box.height / 2 };
}

test.describe.configure({ mode: 'serial', timeout: 180_000 });
const SLOW = { timeout: 30_000 };

test.describe('recording and playback', () => {
  const cam = useCameraDevice(`E2E rec ${RUN}`);
  let range: { start: number; end: number } = { start: 0, end: 0 };
  const today = todayYmd();

  test.beforeAll(async ({ api, admin, browser }) => {
    test.setTimeout(120_000);
    const player = await browser.newPage();
    await openAs(player, admin, `/video/player/${cam.dev}/1/0`);
    await player.getByTestId('player-record').click();
    await expect(player.getByRole('button', { name: '停止录像' })).toBeVisible(SLOW);
    // Wait until the recorder has written something, then until the server's index holds RECORD_S.
    await waitForRecording(api, admin.Token, cam.dev);
    // The server's own status (streamstat: recording, manualRecording) keeps the mark up.
    await expect(player.getByTestId('player-rec')).toHaveText(/录像中/, SLOW);
    await waitForRecorded(api, admin.Token, cam.dev, RECORD_S);
    await expect(player.getByTestId('player-rec')).toHaveText(/录像中/);
    await player.getByTestId('player-record').click();
    await expect(player.getByTestId('player-rec')).toBeHidden(SLOW);
    await player.close();
    // The last segment closed: the range's end is final.
    await expect.poll(async () => (await dailyRanges(api, admin.Token, cam.dev)).some((x) => x.recording === 1), { message: 'the last segment closes' }).toBe(false);
    const daily = await dailyRanges(api, admin.Token, cam.dev);
    const longest = daily.map((x) => ({ start: secondsOf(x.startAt), end: secondsOf(x.endAt) })).sort((a, b) => b.end - b.start - (a.end - a.start))[0]!;
    range = longest;
    expect(range.end - range.start, `recorded ${JSON.stringify(daily)}`).toBeGreaterThanOrEqual(12);
  });

  test('the day is flagged, the range is on the timeline, a click plays, speed reaches the server, a range downloads', async ({ page, admin }, info) => {
    await openAs(page, admin, `/video/backchannel/${cam.dev}/1/${today}`);
    // The sidebar's trigger does not cover the page's title (it hid its first letters).
    const trigger = (await page.locator('.ant-layout-sider-zero-width-trigger').boundingBox())!;
    const title = (await page.getByRole('heading', { level: 4 }).first().boundingBox())!;
    expect(trigger.x + trigger.width, 'trigger right edge ≤ title left edge').toBeLessThanOrEqual(title.x);
    // Calendar: today flagged from querymonthly.
    await expect(page.getByTestId(`cal-${today}`)).toHaveAttribute('data-recorded', '1', SLOW);
    // Timeline: the range is drawn.
    const timeline = page.getByTestId('timeline');
    await expect(timeline.getByTestId('timeline-range').first()).toBeVisible(SLOW);

    // Zoom with the wheel around the recording until the view spans at most 10 minutes.
    const mid = (range.start + range.end) / 2;
    for (let i = 0; i < 40 && Number(await timeline.getAttribute('data-span')) > 600; i++) {
      const p = await xOf(timeline, mid);
      await page.mouse.move(p.x, p.y);
      await page.mouse.wheel(0, -200);
      await page.waitForTimeout(50);
    }
    expect(Number(await timeline.getAttribute('data-span'))).toBeLessThanOrEqual(600);
    const box = await timeline.getByTestId('timeline-range').first().boundingBox();
    expect(box!.width, 'range width when zoomed').toBeGreaterThan(20);
    await page.screenshot({ path: info.outputPath('backchannel-zoomed.png') });

    // Click in the middle: playback starts there and the video clock advances.
    const p = await xOf(timeline, mid);
    await page.mouse.click(p.x, p.y);
    const player = page.getByTestId('playback-player');
    const video = page.getByTestId('playback-video');
    await expect(player).toHaveAttribute('data-phase', 'playing', SLOW);
    // The clock moves a second (once it does: it was a fixed 2 s wait).
    await expectAdvancing(video, 'playback');
    const head = Number(await page.getByTestId('playhead').getAttribute('data-time'));
    expect(head, 'the playhead is inside the recording, after the click').toBeGreaterThanOrEqual(Math.floor(mid) - 1);
    expect(head).toBeLessThanOrEqual(range.end + 1);
    await page.screenshot({ path: info.outputPath('backchannel-playing.png') });

    // Speed 2x: the server's playState says so.
    const requestId = await player.getAttribute('data-request-id');
    expect(requestId).toBeTruthy();
    await page.getByTestId('speed').click();
    await page.locator('.ant-select-item-option[title="2x"]').click();
    await expect
      .poll(
        async () => {
          const r = await page.request.get('/api/v2/playState', { headers: { token: admin.Token }, params: { request_id: requestId! } });
          const b = (await r.json()) as { data?: { speed?: number } };
          return b.data?.speed;
        },
        { message: 'playState speed', timeout: 10_000 },
      )
      .toBe(2);
    expect(await video.evaluate((v: HTMLVideoElement) => v.playbackRate)).toBe(2);

    // Sound: the playback starts muted and the button turns the recording's sound on (and says so).
    const mute = page.getByTestId('playback-mute');
    await expect(mute).toHaveAttribute('aria-label', '打开声音');
    await mute.click();
    await expect(mute).toHaveAttribute('aria-label', '静音');
    expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(false);

    // Download a range inside the recording: time inputs, progress, the server's file name.
    const from = range.start + 2;
    const to = Math.min(range.end - 1, from + 10);
    await page.getByTestId('download-from').fill(clock(from));
    await page.getByTestId('download-to').fill(clock(to));
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByTestId('download-start').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.mp4$/);
    const saved = info.outputPath(file.suggestedFilename());
    await file.saveAs(saved);
    const size = fs.statSync(saved).size;
    expect(size).toBeGreaterThan(0);
    // The saved size as the page writes it (KB/MB with two decimals) is the file's.
    await expect(page.getByTestId('download-bytes')).toContainText(/已保存.*（[\d.]+ (KB|MB)）/);
    const shown = /（([\d.]+) (KB|MB)）/.exec((await page.getByTestId('download-bytes').textContent()) ?? '');
    expect(shown, 'the saved size in KB or MB').not.toBeNull();
    const shownBytes = Number(shown![1]) * (shown![2] === 'MB' ? 1024 * 1024 : 1024);
    expect(Math.abs(shownBytes - size) / size).toBeLessThan(0.01);
    const duration = Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', saved]).toString().trim());
    expect(Math.abs(duration - (to - from)), `downloaded ${duration} s for a ${to - from} s range`).toBeLessThanOrEqual(2);
    await page.screenshot({ path: info.outputPath('backchannel-downloaded.png') });

    // The end of the recordings: the play button starts the range again from its start.
    await expect(player).toHaveAttribute('data-phase', 'ended', { timeout: 60_000 });
    await page.getByTestId('play-toggle').click();
    await expect(player).toHaveAttribute('data-phase', 'playing', SLOW);
    await expect.poll(async () => Number(await page.getByTestId('playhead').getAttribute('data-time')), { message: 'replays from the start' }).toBeLessThanOrEqual(range.start + 5);

    // 1366×768, the range's and the download's lines under the timeline: the page fits the window
    // in both languages, the player giving up the height (it scrolled by a line or two, session 25).
    await page.setViewportSize({ width: 1366, height: 768 });
    const overflow = () => page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    await expect(page.getByTestId('download-bytes')).toBeVisible();
    await expect.poll(overflow, { message: 'zh-CN: px below the window' }).toBeLessThanOrEqual(0);
    await page.getByRole('radio', { name: 'English' }).click();
    await expect(page.getByTestId('download-bytes')).toContainText('Saved');
    await expect.poll(overflow, { message: 'en-US: px below the window' }).toBeLessThanOrEqual(0);
    expect((await player.boundingBox())!.height, 'the player keeps a usable height').toBeGreaterThanOrEqual(200);
    await page.screenshot({ path: info.outputPath('backchannel-1366x768-en.png') });
  });

  test('a recording plan is painted in the weekly editor, checked and saved, listed and deleted', async ({ page, admin }, info) => {
    const planName = `E2E plan ${RUN}`;
    await openAs(page, admin, '/config/program/form');
    await page.getByLabel('计划名称').fill(planName, SLOW);
    // Monday 08:00-10:00 by dragging cells 16..19.
    const a = (await page.getByTestId('cell-0-16').boundingBox())!;
    const b = (await page.getByTestId('cell-0-19').boundingBox())!;
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect(page.getByTestId('slots-Monday')).toContainText('08:00–10:00');
    await page.getByRole('button', { name: '复制到每一天 星期一' }).click();
    await expect(page.getByTestId('slots-Sunday')).toContainText('08:00–10:00');
    await page.getByRole('button', { name: '校验时间' }).click();
    await expect(page.getByText('星期一：08:00:00-10:00:00')).toBeVisible();
    await page.screenshot({ path: info.outputPath('program-form.png') });
    // A phone-wide window: the week is a list of days with hours to tap (ScheduleDayList), the same schedule.
    const wide = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId('hour-0-8')).toHaveAttribute('aria-pressed', 'true');
    expect((await page.getByTestId('schedule-day-Sunday').boundingBox())!.height, 'one line').toBeLessThan(30);
    await page.getByTestId('schedule-day-Sunday').click();
    await page.getByRole('button', { name: '清空当天 星期日' }).click();
    await expect(page.getByTestId('schedule-summary-Sunday')).toHaveText('—');
    await page.getByRole('button', { name: '复制到每一天 星期一' }).click();
    await expect(page.getByTestId('schedule-summary-Sunday')).toHaveText('08:00–10:00');
    await page.screenshot({ path: info.outputPath('program-form-narrow.png') });
    await page.setViewportSize(wide);
    await page.getByTestId('plan-save').click();
    await expect(page).toHaveURL(/\/config\/program$/, SLOW);
    const row = page.getByRole('row', { name: new RegExp(planName) });
    await expect(row).toBeVisible();
    await page.screenshot({ path: info.outputPath('program-list.png') });
    const list = (await (await page.request.get('/api/v1/recordplanlist', { headers: { token: admin.Token }, params: { q: planName } })).json()) as {
      EasyDarwin: { Body: { Plans: { Schedule: Record<string, { StartTime: string; EndTime: string }[]> }[] } };
    };
    expect(list.EasyDarwin.Body.Plans[0]!.Schedule.Wednesday).toEqual([{ StartTime: '08:00:00', EndTime: '10:00:00' }]);
    await row.getByRole('button', { name: '删除' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s*定|OK/ }).click();
    await expect(row).toBeHidden(SLOW);
    await openAs(page, admin, '/config/recording');
    await expect(page.getByTestId('record-path')).not.toHaveValue('', SLOW);
    await expect(page.getByTestId('recording-help')).toContainText('保存天数');
    await page.screenshot({ path: info.outputPath('config-recording.png') });
  });
});
