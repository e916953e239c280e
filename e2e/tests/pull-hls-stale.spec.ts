/**
 * A pulled live HLS channel whose source has stopped (its last playlist still served, unchanged): the
 * viewer sees why (statusHlsStale, in the console's language) and none of its old segments is played
 * as live; when the source cuts segments again, the player plays. A real HTTP server serves segments
 * ffmpeg wrote and a playlist the test moves.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { addRtspDevice } from '../support/api';
import { expect, test } from '../support/fixtures';
import { liveHlsHandler, writeHlsSegments } from '../support/hls-source';
import { expectAdvancing, openAs } from '../support/page';

const RUN = Date.now().toString(36);
const SEGMENTS = 40;
const WINDOW = 3;
test.describe.configure({ mode: 'serial', timeout: 150_000 });

test.describe('a pulled HLS channel whose source stopped', () => {
  let dir = '';
  let dev = '';
  let server: http.Server;
  /** Segments 0..end-1 exist; the playlist lists the last WINDOW. */
  let end = WINDOW;
  const fetched: string[] = [];
  let cutting: NodeJS.Timeout | undefined;

  test.beforeAll(async ({ api, admin }) => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-hls-'));
    writeHlsSegments(dir, SEGMENTS, '320x240');
    server = http.createServer(liveHlsHandler({ dir, window: WINDOW, end: () => end, onRequest: (name, served) => served && fetched.push(name) }));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    dev = await addRtspDevice(api, admin.Token, `E2E HLS ${RUN}`, `http://127.0.0.1:${(server.address() as AddressInfo).port}/live.m3u8`);
  });
  test.afterAll(async () => {
    clearInterval(cutting);
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the player says the playlist is not updated and plays none of it; once segments come again, it plays', async ({ page, admin }) => {
    await openAs(page, admin, `/video/player/${dev}/1/0`);
    const player = page.getByTestId('live-player');
    await expect(player).toContainText(/HLS播放列表[\d.]+秒内没有更新（直播源可能已停止）/, { timeout: 20_000 });
    expect(fetched).toEqual([]);

    // The source is back: a segment a second.
    cutting = setInterval(() => end < SEGMENTS && end++, 1000);
    await expectAdvancing(player.locator('video'), 'HLS player');
    await expect(player).toHaveAttribute('data-phase', 'playing');
    // Only segments cut after it came back were fetched.
    expect(fetched.filter((s) => Number(/\d+/.exec(s)![0]) < WINDOW)).toEqual([]);
  });
});
