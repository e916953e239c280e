/**
 * An RTMP channel whose audio is MP3 (which the hub does not carry) plays in the console with sound:
 * the server's own RTMP client takes the video and the login, and only the audio goes through one
 * small ffmpeg that encodes it to AAC (apps/server/src/media/ingest/rtmp-audio-encoder.ts). ffmpeg
 * publishes an H.264 + MP3 clip to nginx-rtmp (a real relaying server, its own process); Chromium's
 * player decodes both: the picture advances and audio bytes are decoded, with no note of a missing
 * sound over the picture.
 */
import { expect, test } from '../support/fixtures';
import { expectAdvancing, openAs } from '../support/page';
import { useRtmpChannel } from '../support/rtmp-channel';

const RUN = Date.now().toString(36);
test.describe.configure({ mode: 'serial', timeout: 150_000 });

test.describe('a pulled RTMP channel with MP3 audio', () => {
  const channel = useRtmpChannel(`E2E RTMP MP3 ${RUN}`, 'mp3');

  test('the player decodes the video and the MP3 turned AAC: time advances, audio bytes decoded, no note of a missing sound', async ({ page, admin }) => {
    await openAs(page, admin, `/video/player/${channel.dev}/1/0`);
    const player = page.getByTestId('live-player');
    const video = player.locator('video');
    await expectAdvancing(video, 'RTMP MP3 player');
    await expect(player).toHaveAttribute('data-phase', 'playing');
    await expect(player.getByTestId('player-stats')).toContainText('320×240');
    // Chromium counts the audio it decoded (muted or not): the AAC track plays.
    await expect
      .poll(() => video.evaluate((v) => (v as HTMLVideoElement & { webkitAudioDecodedByteCount?: number }).webkitAudioDecodedByteCount ?? -1), {
        message: 'audio decoded',
        timeout: 20_000,
      })
      .toBeGreaterThan(10_000);
    await expect(player.getByTestId('player-note')).toHaveCount(0);
  });
});
