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
import { sleep, startTestApp, until, type TestApp } from '../helpers/index.js';
import { initialise } from '../api/support.js';
import { startCamera } from '../fixtures/camera.js';
import { addCamera, channelPk } from '../recording/support.js';
import { playWs, stampOf, videoTimeline } from './support.js';

let t: TestApp;
let admin: string;
let dev: string;
/** Wall clock: the 320x240 part [from, change), the 640x480 part [resume, to). */
let range: { from: number; change: number; resume: number; to: number };

beforeAll(async () => {
  const small = await startCamera({ width: 320, height: 240 });
  const large = await startCamera({ width: 640, height: 480 });
  t = await startTestApp({ listen: true });
  try {
    admin = await initialise(t);
    await t.ctx.config.set('record', { SegmentSeconds: 3, MinFreeBytes: 0 });
    await t.ctx.recording.ready;
    dev = await addCamera(t, admin, small.url);
    const added = await t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token: admin }, payload: { DeviceName: 'Cam VGA', DeviceType: 'RTSP', RtspUrl: large.url } });
    const other = added.json().EasyDarwin.Body.DeviceID as string;
    const [pkA, pkB] = [await channelPk(t, dev), await channelPk(t, other)];
    for (const d of [dev, other]) {
      const res = await t.app.inject({ url: `/api/v1/realtimerecord/start?device=${d}&channel=1`, headers: { token: admin } });
      if (res.statusCode !== 200) throw new Error(res.body);
    }
    const rowsOf = (pk: number) => t.ctx.db.selectFrom('recordings').selectAll().where('channel_pk', '=', pk).orderBy('start_at').execute();
    await until(async () => (await rowsOf(pkA)).length >= 3 && (await rowsOf(pkB)).length >= 5, 40000);
    for (const d of [dev, other]) await t.app.inject({ url: `/api/v1/realtimerecord/stop?device=${d}&channel=1`, headers: { token: admin } });
    await sleep(500);
    const a = await rowsOf(pkA);
    const keep = a.slice(0, 2);
    const change = new Date(keep[1].end_at).getTime();
    const later = (await rowsOf(pkB)).filter((r) => new Date(r.start_at).getTime() >= change);
    expect(later.length).toBeGreaterThanOrEqual(1);
    await t.ctx.db.deleteFrom('recordings').where('id', 'in', a.slice(2).map((r) => r.id)).execute();
    await t.ctx.db.updateTable('recordings').set({ channel_pk: pkA }).where('id', 'in', later.map((r) => r.id)).execute();
    range = { from: new Date(keep[0].start_at).getTime(), change, resume: new Date(later[0].start_at).getTime(), to: new Date(later.at(-1)!.end_at).getTime() };
  } finally {
    await small.stop();
    await large.stop();
  }
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
