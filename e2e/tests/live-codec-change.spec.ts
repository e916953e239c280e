/**
 * A live camera that drops and comes back with another codec (its encoder switched between H.264
 * and H.265 in its web page, a firmware update) while a viewer watches, in Debian's Chromium: the
 * open player plays on without a reload. In a Chromium without an H.265 decoder the H.265 camera
 * plays through the server's H.264 leg (a socket of the `_h264` variant) and the toolbar says why;
 * back on H.264 the player returns to the camera's own stream (no transcoding, no note), since the
 * leg would otherwise hold an ffmpeg encoder for a camera that needs none. In a Chromium that decodes
 * H.265 the direct stream carries both codecs (a fresh MediaSource at the family change). A wall cell
 * (/video/browse) is the same LivePlayer on the wall's flow: the same round trip there, and over
 * WS-FLV when FLV is chosen (its outage shown as reconnecting too: the console's socket asks for the
 * camera's state), over HLS and over WebRTC (WHEP is H.264 only: the server ends a session whose
 * camera came back as H.265, or whose leg ended, and the player asks again; before, the peer stayed
 * connected with a frozen picture). Each records how long from the camera's return to a moving picture.
 */
import type { Locator, Page } from '@playwright/test';
import liveZh from '../../apps/web/src/i18n/live.zh-CN';
import { expect, test, useCameraDevice, type CameraDevice } from '../support/fixtures';
import { expectAdvancing, openAs } from '../support/page';

const RUN = Date.now().toString(36);

test.describe.configure({ mode: 'serial', timeout: 120_000 });

/**
 * The open player `player` of the camera (H.264 now) while the camera comes back as H.265 and then as
 * H.264 on the same port (the device's address holds): it plays on after each, transcoded with its
 * note where this Chromium has no H.265, and back on the camera's own stream at the end.
 */
async function roundTrip(
  page: Page,
  player: Locator,
  cam: CameraDevice,
  sockets: string[],
  info: { annotations: { type: string; description?: string }[] },
  outageShown = true,
) {
  // The toolbar names the codec the same over every transport.
  const h264 = /H\.264/;
  const video = player.locator('video');
  const stats = player.getByTestId('player-stats');
  const hevc = await page.evaluate(() => MediaSource.isTypeSupported('video/mp4; codecs="hvc1.1.6.L93.B0"'));
  info.annotations.push({ type: 'hevc', description: String(hevc) });
  const leg = (u: string) => /_h264\b/.test(u);

  await expectAdvancing(video, 'H.264 before the change');
  await expect(stats).toContainText(h264);
  expect(sockets.some(leg), sockets.join()).toBe(false);

  // H.264 → H.265.
  let opened = sockets.length;
  await cam.camera.stop();
  if (outageShown) await expect(player).toHaveAttribute('data-phase', 'reconnecting', { timeout: 20_000 });
  await cam.startCamera({ port: cam.camera.port, codec: 'h265' });
  let back = Date.now();
  if (hevc) {
    await expect(stats).toContainText(/H\.265/, { timeout: 30_000 });
  } else {
    await expect(stats).toContainText(liveZh.player.transcoded, { timeout: 30_000 });
    await expect(stats).toContainText(h264);
    // Polled: the note shows as the player asks, and a WHEP offer goes out only after ICE gathering.
    await expect.poll(() => sockets.slice(opened).some(leg), { message: `a session of the leg: ${sockets.join()}`, timeout: 10_000 }).toBe(true);
  }
  await expect(player).toHaveAttribute('data-phase', 'playing', { timeout: 15_000 });
  await expectAdvancing(video, 'after the camera came back as H.265');
  // For the record (no bound here): from the camera's return to a moving picture.
  info.annotations.push({ type: 'back as H.265 → advancing (ms)', description: String(Date.now() - back) });
  await expect(player.getByTestId('player-status')).toHaveCount(0);

  // H.265 → H.264: the camera's own stream again.
  opened = sockets.length;
  await cam.camera.stop();
  if (outageShown) await expect(player).toHaveAttribute('data-phase', 'reconnecting', { timeout: 20_000 });
  await cam.startCamera({ port: cam.camera.port, codec: 'h264' });
  back = Date.now();
  await expect(stats).not.toContainText(liveZh.player.transcoded, { timeout: 30_000 });
  await expect(stats).toContainText(h264);
  await expect(player).toHaveAttribute('data-phase', 'playing', { timeout: 15_000 });
  await expectAdvancing(video, 'after the camera came back as H.264');
  info.annotations.push({ type: 'back as H.264 → advancing (ms)', description: String(Date.now() - back) });
  const last = sockets.at(-1) ?? '';
  expect(leg(last), `the last socket is the camera's own stream: ${sockets.join()}`).toBe(false);
  if (!hevc) expect(sockets.length, 'a new socket for the direct stream').toBeGreaterThan(opened);
  info.annotations.push({ type: 'sockets', description: sockets.map((u) => u.replace(/^.*\/live\/|\?.*$/g, '')).join(' ') });
}

/** The URLs of the media sockets (WS-fMP4 or WS-FLV) the page opens, in order. */
function watchSockets(page: Page, path = '/ws_m4s/') {
  const sockets: string[] = [];
  page.on('websocket', (ws) => {
    if (ws.url().includes(path)) sockets.push(ws.url());
  });
  return sockets;
}

/**
 * The media sessions an HLS or WebRTC player opens, in order: each WHEP offer (POST /webrtc/whep/KEY),
 * or each HLS playlist whose stream differs from the one before (hls.js reloads a live playlist).
 */
function watchSessions(page: Page, kind: 'hls' | 'webrtc') {
  const sessions: string[] = [];
  page.on('request', (r) => {
    const url = r.url();
    if (kind === 'webrtc' && r.method() === 'POST' && url.includes('/webrtc/whep/')) sessions.push(url);
    if (kind === 'hls' && /\/hls\/[^/]+\/playlist\.m3u8/.test(url)) {
      const stream = (u: string) => /\/hls\/([^/]+)\//.exec(u)?.[1];
      if (stream(sessions.at(-1) ?? '') !== stream(url)) sessions.push(url);
    }
  });
  return sessions;
}

test.describe('a live camera back with another codec', () => {
  const cam = useCameraDevice(`E2E live codec ${RUN}`, { codec: 'h264' });

  test('the player page: H.264 → H.265 → H.264 plays on, transcoded with the reason where H.265 cannot be decoded', async ({ page, admin }, info) => {
    const sockets = watchSockets(page);
    await openAs(page, admin, `/video/player/${cam.dev}/1/0`);
    await roundTrip(page, page.getByTestId('live-player'), cam, sockets, info);
  });

  test('a wall cell: the same round trip on the wall', async ({ page, admin }, info) => {
    const sockets = watchSockets(page);
    await page.addInitScript((c) => localStorage.setItem('multi_screen_layout', JSON.stringify({ layout: 1, cells: [c] })), { device: cam.dev, channel: '1', name: cam.name });
    await openAs(page, admin, '/video/browse');
    const player = page.getByTestId('wall').getByTestId('live-player');
    // A compact cell shows its toolbar (codec, the transcoded note) while the pointer is over it.
    await player.hover();
    await roundTrip(page, player, cam, sockets, info);
  });

  test('FLV chosen: the same round trip over WS-FLV (mpegts.js), its leg ended by the close reason', async ({ page, admin }, info) => {
    const sockets = watchSockets(page, '/ws_flv/');
    await openAs(page, admin, `/video/player/${cam.dev}/1/0?transport=flv`);
    const player = page.getByTestId('live-player');
    await expect(player).toHaveAttribute('data-transport', 'flv', { timeout: 30_000 });
    // The console's WS-FLV socket carries the camera's state (?state=1): the outage shows as on WS-fMP4.
    await roundTrip(page, player, cam, sockets, info);
  });

  test('HLS chosen: the same round trip over HLS (hls.js)', async ({ page, admin }, info) => {
    const sessions = watchSessions(page, 'hls');
    await openAs(page, admin, `/video/player/${cam.dev}/1/0?transport=hls`);
    const player = page.getByTestId('live-player');
    await expect(player).toHaveAttribute('data-transport', 'hls', { timeout: 30_000 });
    // HLS carries no camera state: the outage is not waited for as "reconnecting".
    await roundTrip(page, player, cam, sessions, info, false);
  });

  test('WebRTC chosen: the same round trip over WHEP (H.264 only: the leg while the camera is H.265)', async ({ page, admin }, info) => {
    const sessions = watchSessions(page, 'webrtc');
    await openAs(page, admin, `/video/player/${cam.dev}/1/0?transport=webrtc`);
    const player = page.getByTestId('live-player');
    await expect(player).toHaveAttribute('data-transport', 'webrtc', { timeout: 30_000 });
    // A peer connection carries no camera state: the outage is not waited for as "reconnecting".
    await roundTrip(page, player, cam, sessions, info, false);
  });
});
