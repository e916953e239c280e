/**
 * Each transport alone in Chromium (issue 4): the player page with `?transport=hls`, `webrtc` or
 * `flv` plays the real GStreamer camera over that transport only (no WS-fMP4 socket is opened, HLS
 * is not fetched by the others) and its <video> presents decoded frames (requestVideoFrameCallback)
 * while its clock advances. FLV goes through mpegts.js, loaded as its own chunk only then; the
 * choice made in the player's toolbar is stored and followed by the next player. WebRTC carries a
 * G.711 camera's audio as PCMA: the received audio track unmutes (its RTP arrives). An H.265+AAC
 * camera plays in a Chromium without an H.265 decoder through the server's H.264 leg, with its sound.
 */
import type { Page } from '@playwright/test';
import liveZh from '../../apps/web/src/i18n/live.zh-CN';
import { expect, test, useCameraDevice } from '../support/fixtures';
import { expectAdvancing, frameVariety, openAs } from '../support/page';

const RUN = Date.now().toString(36);

test.describe.configure({ mode: 'serial', timeout: 120_000 });
const SLOW = { timeout: 30_000 };

/** Frames the browser decoded and presented within `ms` (stops counting at `want`). */
function presentedFrames(page: Page, want: number, ms: number): Promise<number> {
  return page.getByTestId('live-player').locator('video').evaluate(
    (v: HTMLVideoElement, [w, t]) =>
      new Promise<number>((resolve) => {
        let n = 0;
        const timer = setTimeout(() => resolve(n), t);
        const next = () =>
          v.requestVideoFrameCallback(() => {
            if (++n >= w) {
              clearTimeout(timer);
              resolve(n);
            } else next();
          });
        next();
      }),
    [want, ms] as const,
  );
}

/** What the page fetched or opened for media, by kind. */
function watchMedia(page: Page) {
  const seen = { wsFmp4: 0, wsFlv: 0, hls: 0, whep: 0, mpegtsChunk: 0, hlsParts: [] as string[] };
  page.on('websocket', (ws) => {
    if (ws.url().includes('/ws_m4s/')) seen.wsFmp4++;
    if (ws.url().includes('/ws_flv/')) seen.wsFlv++;
  });
  page.on('request', (r) => {
    const u = r.url();
    if (u.includes('/hls/')) seen.hls++;
    if (/\/hls\/.*\/part_\d+_\d+\.m4s/.test(u)) seen.hlsParts.push(new URL(u).pathname);
    if (u.includes('/webrtc/whep/') && r.method() === 'POST') seen.whep++;
    if (/\/assets\/mpegts[^/]*\.js/.test(u)) seen.mpegtsChunk++;
  });
  return seen;
}

test.describe('one transport at a time', () => {
  const cam = useCameraDevice(`E2E transports ${RUN}`);

  test('HLS only: hls.js plays the LL-HLS playlist, no WebSocket media', async ({ page, admin }) => {
    const seen = watchMedia(page);
    await openAs(page, admin, `/video/player/${cam.dev}/1/0?transport=hls`);
    const player = page.getByTestId('live-player');
    await expect(player).toHaveAttribute('data-transport', 'hls', SLOW);
    await expectAdvancing(player.locator('video'), 'HLS');
    // The toolbar knows the codec and size over HLS too (the media playlist carries neither).
    await expect(player.getByTestId('player-stats')).toContainText(/H\.264 · 320×240 · .*HLS/, SLOW);
    expect(await presentedFrames(page, 10, 15_000)).toBeGreaterThanOrEqual(10);
    expect(seen.hls).toBeGreaterThan(0);
    expect(seen).toMatchObject({ wsFmp4: 0, wsFlv: 0, whep: 0, mpegtsChunk: 0 });
    // Each part once: with a first segment numbered 0, hls.js loaded its parts again and again (a
    // hundred requests and more in 1-2 s; docs/architecture.md, session 25).
    expect(seen.hlsParts.length).toBeGreaterThan(0);
    expect(seen.hlsParts.filter((p, i) => seen.hlsParts.indexOf(p) !== i)).toEqual([]);
  });

  test('WebRTC only: a WHEP session plays, no WebSocket media and no HLS', async ({ page, admin }) => {
    const seen = watchMedia(page);
    await openAs(page, admin, `/video/player/${cam.dev}/1/0?transport=webrtc`);
    const player = page.getByTestId('live-player');
    await expect(player).toHaveAttribute('data-transport', 'webrtc', SLOW);
    await expectAdvancing(player.locator('video'), 'WebRTC');
    expect(await presentedFrames(page, 10, 15_000)).toBeGreaterThanOrEqual(10);
    expect(seen.whep).toBe(1);
    expect(seen).toMatchObject({ wsFmp4: 0, wsFlv: 0, hls: 0, mpegtsChunk: 0 });
  });

  test('FLV only: WS-FLV through mpegts.js (its chunk loaded only now), chosen in the toolbar and remembered', async ({ page, admin }) => {
    const seen = watchMedia(page);
    await openAs(page, admin, `/video/player/${cam.dev}/1/0`);
    const player = page.getByTestId('live-player');
    await expect(player).toHaveAttribute('data-transport', 'ws-fmp4', SLOW);
    expect(seen.mpegtsChunk).toBe(0);
    await player.hover();
    await page.getByTestId('transport-choice').click();
    await page.getByTestId('transport-flv').click();
    await expect(player).toHaveAttribute('data-transport', 'flv', SLOW);
    await expectAdvancing(player.locator('video'), 'FLV');
    expect(await presentedFrames(page, 10, 15_000)).toBeGreaterThanOrEqual(10);
    expect(seen.mpegtsChunk).toBe(1);
    expect(seen.wsFlv).toBeGreaterThanOrEqual(1);
    expect(seen.hls + seen.whep).toBe(0);

    // Stored: a new page plays FLV straight away; back to automatic afterwards.
    await page.reload();
    await expect(player).toHaveAttribute('data-transport', 'flv', SLOW);
    await expectAdvancing(player.locator('video'), 'FLV after reload');
    await player.hover();
    await page.getByTestId('transport-choice').click();
    await page.getByTestId('transport-auto').click();
    await expect(player).toHaveAttribute('data-transport', 'ws-fmp4', SLOW);
  });
});

test.describe('WebRTC audio', () => {
  const cam = useCameraDevice(`E2E G.711 ${RUN}`, { audio: 'pcma' });

  test('a G.711 camera over WebRTC: the audio track receives PCMA beside the video (it unmutes)', async ({ page, admin }) => {
    await openAs(page, admin, `/video/player/${cam.dev}/1/0?transport=webrtc`);
    const video = page.getByTestId('live-player').locator('video');
    await expectAdvancing(video, 'WebRTC with audio');
    // A remote track is muted until its RTP arrives.
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => (v.srcObject as MediaStream | null)?.getAudioTracks().map((a) => `${a.readyState}/${a.muted ? 'muted' : 'flowing'}`).join() ?? ''), SLOW)
      .toBe('live/flowing');
  });
});

test.describe('WebRTC audio from an AAC camera', () => {
  const cam = useCameraDevice(`E2E AAC ${RUN}`, { audio: 'aac' });

  test('an AAC camera over WebRTC: the server transcodes its audio to Opus and the track unmutes', async ({ page, admin }) => {
    await openAs(page, admin, `/video/player/${cam.dev}/1/0?transport=webrtc`);
    const video = page.getByTestId('live-player').locator('video');
    await expectAdvancing(video, 'WebRTC with AAC audio');
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => (v.srcObject as MediaStream | null)?.getAudioTracks().map((a) => `${a.readyState}/${a.muted ? 'muted' : 'flowing'}`).join() ?? ''), SLOW)
      .toBe('live/flowing');
  });
});

test.describe('H.265 camera with AAC sound', () => {
  const cam = useCameraDevice(`E2E H.265 ${RUN}`, { codec: 'h265', audio: 'aac' });

  test('plays with picture and sound where the browser decodes H.265, else the server transcodes it to H.264 and the player says why', async ({ page, admin }) => {
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    // The codecs each MSE SourceBuffer was made for: the sound must be in the stream the player gets.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { sourceBufferTypes: string[] }).sourceBufferTypes = seen;
      const add = MediaSource.prototype.addSourceBuffer;
      MediaSource.prototype.addSourceBuffer = function (this: MediaSource, type: string) {
        seen.push(type);
        return add.call(this, type);
      };
    });
    await openAs(page, admin, `/video/player/${cam.dev}/1/0`);
    const player = page.getByTestId('live-player');
    const video = player.locator('video');
    await expectAdvancing(video, 'H.265 camera');
    expect(await presentedFrames(page, 10, 15_000)).toBeGreaterThanOrEqual(10);
    const frame = await frameVariety(video);
    expect(frame).toMatchObject({ width: 320, height: 240 });
    expect(frame.levels, 'distinct grey levels in the frame').toBeGreaterThan(4);

    // Sound: the SourceBuffer carries AAC beside the video and Chromium decodes it (muted or not).
    const types = await page.evaluate(() => (window as unknown as { sourceBufferTypes: string[] }).sourceBufferTypes);
    expect(types.at(-1), types.join(' | ')).toMatch(/mp4a\.40/);
    await expect
      .poll(() => video.evaluate((v) => (v as HTMLVideoElement & { webkitAudioDecodedByteCount: number }).webkitAudioDecodedByteCount), {
        message: 'audio bytes decoded',
        ...SLOW,
      })
      .toBeGreaterThan(0);

    const hevc = await page.evaluate(() => MediaSource.isTypeSupported('video/mp4; codecs="hvc1.1.6.L93.B0"'));
    const stats = player.getByTestId('player-stats');
    if (hevc) {
      await expect(stats).toContainText(/H\.265/, SLOW);
    } else {
      // Debian's Chromium without a GPU: the H.264 variant (stream_…_h264), and the toolbar says why.
      await expect(stats).toContainText(/H\.264/, SLOW);
      await expect(stats).toContainText(liveZh.player.transcoded);
      expect(sockets.some((u) => /_h264/.test(u)), sockets.join()).toBe(true);
      expect(types.at(-1)).toMatch(/avc1\./);
    }
  });
});
