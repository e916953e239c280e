/**
 * A camera that stops and comes back while the console plays it over WS-FLV (`?transport=flv`,
 * mpegts.js with the console's own socket loader) or WebRTC (`?transport=webrtc`): the player shows
 * 正在重新连接 with the camera's reason over the frozen picture, as a WS-fMP4 viewer is shown, and plays
 * on by itself once the camera is back, in the same media session.
 *
 * WS-FLV: the server tells the state in text frames the console asks for with ?state=1; its loader
 * reads them, mpegts.js never sees them. WebRTC: a peer connection carries no camera state, so the
 * player shows the streaming-status socket's word that the camera is away. Before, an FLV viewer
 * froze without a word until the picture moved again, and a WebRTC one showed only 画面已停止.
 */
import type { Page } from '@playwright/test';
import { reason } from '../../packages/shared/src/messages';
import { expect, test, useCameraDevice } from '../support/fixtures';
import { expectAdvancing, openAs } from '../support/page';

const RUN = Date.now().toString(36);

test.describe.configure({ timeout: 120_000 });
const SLOW = { timeout: 30_000 };

/** What a camera that went away is said to have done (zh-CN): it closed the connection, or refuses new ones. */
const CAMERA_AWAY = [reason('streamClosed', 'zh-CN'), reason('streamRefused', 'zh-CN')];

interface Transport {
  readonly name: 'flv' | 'webrtc';
  readonly label: string;
  /** The article before the label in a title. */
  readonly a: 'a' | 'an';
  /** What one media session is called in the messages. */
  readonly session: string;
  /** Records the URL of each media session the page opens (a WS-FLV socket, a WHEP offer). */
  watch(page: Page, sessions: string[]): void;
  /** Checks on the first session, beyond there being one. */
  first?(url: string): void;
}

const TRANSPORTS: Transport[] = [
  {
    name: 'flv',
    label: 'FLV',
    a: 'an',
    session: 'socket',
    watch: (page, sessions) =>
      page.on('websocket', (ws) => {
        if (ws.url().includes('/ws_flv/')) sessions.push(ws.url());
      }),
    first: (url) => expect(url, 'the console asks for the state messages').toContain('state=1'),
  },
  {
    name: 'webrtc',
    label: 'WebRTC',
    a: 'a',
    session: 'WHEP session',
    watch: (page, sessions) =>
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().includes('/webrtc/whep/')) sessions.push(r.url());
      }),
  },
];

for (const t of TRANSPORTS) {
  test.describe(`${t.a} ${t.label} viewer of a camera that stops and returns`, () => {
    const cam = useCameraDevice(`E2E ${t.name} outage ${RUN}`);

    test(`shows reconnecting with the reason over the frozen picture, then plays on in the same ${t.session}`, async ({ page, admin }) => {
      const sessions: string[] = [];
      t.watch(page, sessions);
      await openAs(page, admin, `/video/player/${cam.dev}/1/0?transport=${t.name}`);
      const player = page.getByTestId('live-player');
      const video = player.locator('video');
      await expect(player).toHaveAttribute('data-transport', t.name, SLOW);
      await expect(player).toHaveAttribute('data-phase', 'playing', SLOW);
      await expectAdvancing(video, `${t.label} before the outage`);
      expect(sessions, `one ${t.session} before the outage: ${sessions.join(' ')}`).toHaveLength(1);
      t.first?.(sessions[0]!);

      const port = cam.camera.port;
      await cam.camera.stop();
      await expect(player).toHaveAttribute('data-phase', 'reconnecting', { timeout: 20_000 });
      const status = player.getByTestId('player-status');
      await expect(status).toContainText('正在重新连接');
      await expect(status).toContainText(new RegExp(CAMERA_AWAY.join('|')));
      // The picture stays (frozen), not emptied: the same element, the same MediaSource or track.
      const frozen = await video.evaluate((v: HTMLVideoElement) => ({ time: v.currentTime, width: v.videoWidth }));
      expect(frozen.width).toBeGreaterThan(0);

      await cam.startCamera({ port });
      await expect(player).toHaveAttribute('data-phase', 'playing', { timeout: 45_000 });
      await expect(status).toHaveCount(0);
      await expectAdvancing(video, `${t.label} after the camera returned`);
      expect(await video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(frozen.time);
      expect(sessions, `one ${t.session} throughout: ${sessions.join(' ')}`).toHaveLength(1);
    });
  });
}
