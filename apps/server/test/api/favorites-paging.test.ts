/**
 * /api/v1/favorites pages and searches on the server for the video square: optional `cameras` leaves
 * the starred directories out (counted as cameras), `q` matches name or ID; without them it answers
 * as before (every favourite, directories too). A bad flag is refused, naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/index.js';
import { initialise } from './support.js';

let t: TestApp;
let admin: string;

const get = (url: string, query: Record<string, string> = {}) => t.app.inject({ url, headers: { token: admin }, query });

beforeAll(async () => {
  t = await startTestApp();
  admin = await initialise(t);
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token: admin }, payload: { DeviceName: 'Lobby NVR', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:9/c1' } });
  const dev = res.json().EasyDarwin.Body.DeviceID as string;
  const add = async (payload: object) => {
    const r = await t.app.inject({ method: 'POST', url: '/api/v1/addchannel', headers: { token: admin }, payload: { ParentDeviceID: dev, ...payload } });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().EasyDarwin.Body.ChannelID as string;
  };
  // The device's first channel (1), a directory and 24 more cameras (Door 2 … Door 25), all starred.
  const dir = await add({ Name: 'Wing', Parental: 1, RtspUrl: '' });
  const ids = ['1', dir];
  for (let n = 2; n <= 25; n++) ids.push(await add({ Name: `Door ${n}`, RtspUrl: `rtsp://127.0.0.1:9/d${n}` }));
  for (const c of ids) expect((await get('/api/v1/addfavoriteschannel', { device: dev, channel: c })).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

interface Page {
  Channels: { Name: string; Parental: number }[];
  ChannelCount: number;
}
const page = async (query: Record<string, string>) => {
  const res = await get('/api/v1/favorites', query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body as Page;
};

describe('favourites for the video square', () => {
  it('cameras=1 pages the starred cameras, the directory left out of the page and the count', async () => {
    const first = await page({ cameras: '1', start: '0', limit: '20' });
    expect(first.Channels).toHaveLength(20);
    expect(first.ChannelCount).toBe(25);
    const second = await page({ cameras: '1', start: '20', limit: '20' });
    expect(second.Channels).toHaveLength(5);
    expect([...first.Channels, ...second.Channels].every((c) => c.Parental === 0)).toBe(true);
  });

  it('q matches by name on the server', async () => {
    const found = await page({ cameras: '1', q: 'Door 1', start: '0', limit: '20' });
    expect(found.Channels.map((c) => c.Name).sort()).toEqual(['Door 10', 'Door 11', 'Door 12', 'Door 13', 'Door 14', 'Door 15', 'Door 16', 'Door 17', 'Door 18', 'Door 19']);
    expect(found.ChannelCount).toBe(10);
  });

  it('without them, every favourite as before, the directory too', async () => {
    const all = await page({ start: '0', limit: '100' });
    expect(all.ChannelCount).toBe(26);
    expect(all.Channels.filter((c) => c.Parental === 1).map((c) => c.Name)).toEqual(['Wing']);
  });

  it('refuses a bad flag, naming it', async () => {
    const res = await get('/api/v1/favorites', { cameras: 'maybe' });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('cameras');
  });
});
