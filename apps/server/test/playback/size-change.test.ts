/**
 * A recording whose camera changed its picture size: two GStreamer cameras (H.264, 320x240 and
 * 640x480) recorded at once, then the index made one channel's recording: the small camera's first
 * segments, the large one's after them (as restarting one camera at another size makes a part with a
 * new init segment). The plain socket sends the second init with `continues` and its fragments on the
 * same timeline (the first after it starts where the last before ended): the console's player
 * appends it to the same SourceBuffer, no fresh MediaSource. A seek's run starts its own timeline
 * (its first init has no `continues`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/index.js';
import { startCamera } from '../fixtures/camera.js';
import { playWs, recordSpliced, stampOf, videoTimeline } from './support.js';

let t: TestApp;
let admin: string;
let dev: string;
/** Wall clock: the 320x240 part [from, change), the 640x480 part [resume, to). */
let range: { from: number; change: number; resume: number; to: number };

beforeAll(async () => {
  const small = await startCamera({ width: 320, height: 240 });
  const large = await startCamera({ width: 640, height: 480 });
  t = await startTestApp({ listen: true });
  ({ admin, dev, range } = await recordSpliced(t, small, large, 'Cam VGA'));
}, 120000);
afterAll(async () => {
  await t?.close();
});

async function openPlayback(fromMs: number, toMs: number) {
  const res = await t.app.inject({ url: `/api/v1/devices/record/playback?channel=${dev}:1&stime=${stampOf(fromMs)}&etime=${stampOf(toMs)}`, headers: { token: admin } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body as { URL: string; request_id: string };
}

/** The index among the binary frames of each init segment (ftyp first). */
const initIndexes = (binary: Buffer[]) => binary.flatMap((b, i) => (b.toString('latin1', 4, 8) === 'ftyp' ? [i] : []));

describe('a recording across a change of picture size', () => {
  it('the second init continues the timeline: its first fragment starts where the last before ended', async () => {
    const from = Math.ceil(range.from / 1000) * 1000;
    const body = await openPlayback(from, Math.floor(range.to / 1000) * 1000);
    const played = await playWs(t.baseUrl!, body.URL, {
      stop: (p) => {
        const at = initIndexes(p.binary);
        return at.length >= 2 && p.binary.length - at[1] > 3;
      },
      timeoutMs: 40000,
    });
    played.ws.close();
    const inits = played.messages.filter((m) => m.type === 'init');
    expect(inits).toHaveLength(2);
    expect(inits[0].continues).toBeUndefined();
    expect(inits[1]).toMatchObject({ continues: true, mime: expect.stringMatching(/^video\/mp4; codecs="avc1\./) });
    const [, second] = initIndexes(played.binary);
    const before = videoTimeline(Buffer.concat(played.binary.slice(1, second)));
    const after = videoTimeline(Buffer.concat(played.binary.slice(second + 1)));
    const last = before.at(-1)!;
    // Same 90 kHz clock on both sides; one tick for rounding.
    expect(Math.abs(after[0].base - (last.base + last.duration)), JSON.stringify({ last, first: after[0] })).toBeLessThanOrEqual(1);
    expect(after[0].seq).toBe(last.seq + 1);
  }, 60000);

  it('a seek into the second part starts a run of its own: its init does not continue', async () => {
    const body = await openPlayback(Math.ceil(range.resume / 1000) * 1000 + 1000, Math.floor(range.to / 1000) * 1000);
    const played = await playWs(t.baseUrl!, body.URL, { stop: (p) => p.messages.some((m) => m.type === 'init'), timeoutMs: 20000 });
    played.ws.close();
    expect(played.messages.find((m) => m.type === 'init')?.continues).toBeUndefined();
  }, 30000);
});
