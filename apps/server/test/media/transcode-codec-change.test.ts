/**
 * The live H.264 leg of a camera that changes codec while a viewer watches it (its encoder set from
 * H.265 to H.264 in its web page, a firmware update). While the original retries its camera, the
 * leg's viewers are told 'retrying' with the camera's reason, as the original's viewers are, rather
 * than a silent socket; a camera back as H.265 plays on through the same leg (a continuing init,
 * which ends the player's "reconnecting"); a camera back as H.264 ends the leg with
 * streamOriginalNotHevc, the answer offers no variant any more, and the leg's ffmpeg is gone. A leg
 * asked of an H.264 original (a stale URL) ends at once with the same reason.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { H264_VARIANT } from '../../src/media/transcode.js';
import { until } from '../helpers/index.js';
import { useCamera } from '../fixtures/use-camera.js';
import { useAdminApp } from '../api/admin-app.js';
import { channelStream, openCameraStream } from './open-stream.js';

const cam = useCamera({ codec: 'h265' });
const api = useAdminApp({ listen: true });

/** A viewer that stays: every text message (parsed) and the count of binary ones, in order of arrival. */
function viewer(url: string) {
  const ws = new WebSocket(url);
  const log: ({ type: string; [k: string]: unknown } | 'bin')[] = [];
  ws.on('message', (data, binary) => log.push(binary ? 'bin' : JSON.parse(String(data))));
  const texts = () => log.filter((m) => m !== 'bin');
  return {
    log,
    texts,
    /** Binary messages after the `i`th entry of the log. */
    binaryAfter: (i: number) => log.slice(i).filter((m) => m === 'bin').length,
    close: () => ws.close(),
  };
}

describe('a live H.264 leg whose camera changes codec', () => {
  it('says retrying while the camera is away, plays on for H.265, ends for H.264 and the answer drops the variant', async () => {
    const opened = await openCameraStream(api, cam.url, 'ws_m4s');
    expect(opened.URLs.WS_FMP4_H264).toBeTruthy();
    const base = api.t.baseUrl!.replace('http', 'ws');
    const leg = viewer(`${base}${opened.URLs.WS_FMP4_H264}`);
    try {
      await until(() => leg.binaryAfter(0) >= 10, 20_000, { what: 'the leg plays' });
      const legHub = api.t.ctx.streams.get(opened.Stream + H264_VARIANT)!;
      expect(legHub.state).toBe('live');

      // The camera goes away: the leg's viewer hears it from the leg's own socket.
      await cam.stop();
      const retrying = await until(() => leg.texts().find((m) => m.type === 'state' && m.state === 'retrying'), 20_000);
      const original = api.t.ctx.streams.get(opened.Stream)!;
      expect(original.state).toBe('retrying');
      expect(retrying.code).toBe(original.why?.key);
      expect(legHub.state).toBe('retrying');

      // Back as H.265: the same leg plays on, its init says the timeline continues.
      const mark = leg.log.length;
      await cam.start({ port: cam.port, codec: 'h265' });
      await until(() => leg.binaryAfter(mark) >= 10, 30_000, { what: 'pictures after the camera came back as H.265' });
      const after = leg.log.slice(mark).filter((m) => m !== 'bin');
      expect(after.find((m) => m.type === 'init')).toMatchObject({ continues: true, mime: expect.stringMatching(/avc1\./) });
      expect(after.find((m) => m.type === 'state')).toMatchObject({ state: 'live' });
      expect(api.t.ctx.streams.get(opened.Stream + H264_VARIANT)).toBe(legHub);

      // Back as H.264: the leg ends with its reason, and the channel is answered without it.
      await cam.stop();
      await cam.start({ port: cam.port, codec: 'h264' });
      const ended = await until(() => leg.texts().find((m) => m.type === 'state' && m.state === 'stopped'), 30_000);
      expect(ended.code).toBe('streamOriginalNotHevc');
      expect(legHub.state).toBe('stopped');
      await until(() => original.tracks.find((t) => t.kind === 'video')?.codec === 'h264');
      const again = await channelStream(api, opened.dev, 'ws_m4s');
      expect(again.URLs.WS_FMP4_H264).toBeUndefined();

      // A stale leg URL of the H.264 camera: the leg ends at once, saying why.
      const stale = viewer(`${base}${opened.URLs.WS_FMP4_H264}`);
      try {
        const said = await until(() => stale.texts().find((m) => m.type === 'state' && m.state === 'stopped'), 10_000);
        expect(said.code).toBe('streamOriginalNotHevc');
        expect(stale.binaryAfter(0)).toBe(0);
      } finally {
        stale.close();
      }
    } finally {
      leg.close();
    }
  }, 90_000);
});
