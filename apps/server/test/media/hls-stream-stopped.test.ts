/**
 * HLS requests of a stream whose hub stopped are answered 410 with why (STREAM_STOPPED_HEADER: the
 * words a WS-FLV socket closes with), where they waited too: hls.js retries no 4xx, and the console
 * opens the camera's own stream again at once for a leg that ended with streamOriginalNotHevc. Before,
 * the ended leg's playlist answered 503, which hls.js retried twice (1 + 2 s) before the player heard
 * of it (issue 4: HLS back to H.264 after a codec change took 6.5-10 s).
 */
import { describe, expect, it } from 'vitest';
import { STREAM_STOPPED_HEADER } from '@opencvr/shared';
import { H264_VARIANT } from '../../src/media/transcode.js';
import { until } from '../helpers/index.js';
import { useCamera } from '../fixtures/use-camera.js';
import { useAdminApp } from '../api/admin-app.js';
import { openCameraStream } from './open-stream.js';

const cam = useCamera({ codec: 'h265' });
const api = useAdminApp({ listen: true });

/** The playlist's next part (its preload hint) and the query that carries the play token. */
function nextPart(playlist: string) {
  const hint = /#EXT-X-PRELOAD-HINT:TYPE=PART,URI="part_(\d+)_(\d+)\.m4s\?([^"]*)"/.exec(playlist);
  expect(hint, playlist).toBeTruthy();
  return { msn: Number(hint![1]), part: Number(hint![2]), query: hint![3]! };
}

async function expectStopped(res: Response, key: string) {
  expect(res.status, await res.clone().text()).toBe(410);
  expect(res.headers.get(STREAM_STOPPED_HEADER)).toBe(`stream stopped (${key})`);
  const body = (await res.json()) as { EasyDarwin: { Header: { ErrorString: string } } };
  expect(body.EasyDarwin.Header.ErrorString).toMatch(/^直播已停止：/);
}

describe('HLS of a stream whose hub stopped', () => {
  it('a leg whose camera is H.264 again: the waiting playlist reload, the hinted part and the stale leg URL are told streamOriginalNotHevc', async () => {
    const opened = await openCameraStream(api, cam.url, 'hls');
    expect(opened.URLs.HLS_H264).toBeTruthy();
    const leg = `${api.t.baseUrl}${opened.URLs.HLS_H264}`;
    const first = await fetch(leg);
    expect(first.status).toBe(200);
    // The camera's own stream over HLS too (H.265, as a browser that decodes it plays it).
    const own = `${api.t.baseUrl}${opened.URLs.HLS}`;
    expect((await fetch(own)).status).toBe(200);
    const legHub = api.t.ctx.streams.get(opened.Stream + H264_VARIANT)!;
    expect(legHub.state).toBe('live');

    await cam.stop();
    await until(() => legHub.state === 'retrying', 20_000, { what: 'the leg hears the camera is away' });
    const at = nextPart(await (await fetch(leg)).text());
    await cam.start({ port: cam.port, codec: 'h264' });

    // Blocking reloads (as hls.js asks while the camera is away): each waits for the next part or 3
    // target durations; the one waiting when the leg ends is answered then, with why.
    let reload: Response;
    do reload = await fetch(`${leg}&_HLS_msn=${at.msn}&_HLS_part=${at.part}`);
    while (reload.status === 200);
    expect(legHub.state).toBe('stopped');
    await expectStopped(reload, 'streamOriginalNotHevc');

    // The part the last playlist hinted at, and the leg's playlist asked afresh (a new leg of an H.264
    // camera ends as it starts): the same answer, not "not found" or "offline".
    await expectStopped(await fetch(`${api.t.baseUrl}/hls/${opened.Stream}${H264_VARIANT}/part_${at.msn}_${at.part}.m4s?${at.query}`), 'streamOriginalNotHevc');
    await expectStopped(await fetch(leg), 'streamOriginalNotHevc');

    // The camera's own stream, asked afresh now: its window still holds the H.265 segments, and a new
    // player is pointed (EXT-X-START) at the first of the H.264 ones, all that follows the last map.
    const text = await (await fetch(own)).text();
    const maps = [...text.matchAll(/#EXT-X-MAP:URI="(init(?:_\d+)?\.mp4)\?/g)].map((m) => m[1]!);
    expect(maps.length, text).toBeGreaterThan(1);
    const newest = text.slice(text.lastIndexOf('#EXT-X-MAP'));
    const inf = [...newest.matchAll(/#EXTINF:([\d.]+),/g)].reduce((n, m) => n + Number(m[1]), 0);
    const trailing = newest.slice(newest.lastIndexOf('#EXTINF') + 1);
    const parts = [...trailing.matchAll(/#EXT-X-PART:DURATION=([\d.]+),/g)].reduce((n, m) => n + Number(m[1]), 0);
    const start = /#EXT-X-START:TIME-OFFSET=(-[\d.]+),PRECISE=YES/.exec(text);
    expect(start, text).toBeTruthy();
    expect(Number(start![1])).toBeCloseTo(-(inf + parts), 3);
    // (A play token is the stream's own: the leg's would not open it.)
    const init = Buffer.from(await (await fetch(`${api.t.baseUrl}/hls/${opened.Stream}/${maps.at(-1)}?${opened.URLs.HLS!.split('?')[1]}`)).arrayBuffer());
    expect(init.includes('avcC')).toBe(true);
  }, 90_000);

  it('a stream stopped on request: the part its playlist hinted at is told streamStoppedByRequest; the next playlist request opens the stream again', async () => {
    const opened = await openCameraStream(api, cam.url, 'hls');
    const url = `${api.t.baseUrl}${opened.URLs.HLS}`;
    const at = nextPart(await (await fetch(url)).text());
    const stop = await api.get(`/api/v1/stopstream?device=${opened.dev}&channel=1&stream=0`);
    expect(stop.statusCode, stop.body).toBe(200);
    await expectStopped(await fetch(`${api.t.baseUrl}/hls/${opened.Stream}/part_${at.msn}_${at.part}.m4s?${at.query}`), 'streamStoppedByRequest');
    const again = await fetch(url);
    expect(again.status).toBe(200);
    expect(await again.text()).toMatch(/#EXTINF/);
  }, 60_000);
});
