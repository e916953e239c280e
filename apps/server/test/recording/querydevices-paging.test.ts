/**
 * record/querydevices answers a page of the channels recorded on a day when asked (start, limit),
 * Total counting all of them, for the playback list's tags (a site recording every camera answered
 * all 1,500 for 50 tags); without them, every such channel as before. Bad windows are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/index.js';
import { initialise } from '../api/support.js';
import { localDay } from '../../src/services/recording/time.js';

let t: TestApp;
let admin: string;
const devices: string[] = [];
const day = new Date();
day.setDate(day.getDate() - 1);
day.setHours(10, 0, 0, 0);

beforeAll(async () => {
  t = await startTestApp();
  admin = await initialise(t);
  await t.ctx.recording.ready;
  // Five cameras with a segment that day, a sixth without.
  for (let n = 1; n <= 6; n++) {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token: admin }, payload: { DeviceName: `Cam${n}`, DeviceType: 'RTSP', RtspUrl: `rtsp://127.0.0.1:9/c${n}` } });
    const dev = res.json().EasyDarwin.Body.DeviceID as string;
    devices.push(dev);
    if (n === 6) continue;
    const pk = (await t.ctx.inventory.channels.require(dev, '1')).id;
    await t.ctx.db
      .insertInto('recordings')
      .values({ channel_pk: pk, root: '', path: `x/${pk}.mp4`, start_at: day.toISOString(), end_at: new Date(day.getTime() + 60_000).toISOString(), duration_ms: 60_000, bytes: 1, important: 0, status: 'complete', created_at: new Date().toISOString() })
      .execute();
  }
});
afterAll(async () => {
  await t?.close();
});

const query = (extra: Record<string, string>) =>
  t.app.inject({ url: '/api/v1/record/querydevices', headers: { token: admin }, query: { period: localDay(day), ...extra } });
const body = async (extra: Record<string, string>) => {
  const res = await query(extra);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body as { Channels: { DeviceID: string }[]; Total: number };
};

describe('record/querydevices paging', () => {
  it('answers the page asked for, Total counting every recorded channel', async () => {
    const first = await body({ start: '0', limit: '2' });
    expect(first.Total).toBe(5);
    expect(first.Channels.map((c) => c.DeviceID)).toEqual(devices.slice(0, 2));
    const last = await body({ start: '4', limit: '2' });
    expect(last).toMatchObject({ Total: 5 });
    expect(last.Channels.map((c) => c.DeviceID)).toEqual([devices[4]]);
  });

  it('without a window answers every recorded channel, as before', async () => {
    const all = await body({});
    expect(all.Total).toBe(5);
    expect(all.Channels.map((c) => c.DeviceID)).toEqual(devices.slice(0, 5));
  });

  it('refuses a bad window, naming the field', async () => {
    for (const [field, bad] of [['limit', '0'], ['start', '-1'], ['limit', 'many']] as const) {
      const res = await query({ [field]: bad });
      expect(res.statusCode, `${field}=${bad}`).toBe(400);
      expect(res.json().msg).toContain(field);
    }
  });
});
