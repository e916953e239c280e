/**
 * A channel's running stream ends with the channel: deleting its device (deldevice, DELETE devices)
 * or the channel (delchannel) stops the hub, where it went on pulling the camera for as long as
 * anybody watched; another channel's stream is left alone. The hubs retry an address nothing answers
 * (no camera needed: a running hub is all the test is about).
 */
import { describe, expect, it } from 'vitest';
import type { StreamHub } from '../../src/media/hub.js';
import { until } from '../helpers/index.js';
import { useAdminApp } from './admin-app.js';

const api = useAdminApp();

async function addDevice(name: string): Promise<string> {
  const res = await api.post('/api/v1/adddevice', { DeviceName: name, DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:9/nothing' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body.DeviceID as string;
}

async function open(device: string): Promise<StreamHub> {
  const res = await api.get(`/api/v1/getchannelstream?device=${device}&channel=1&protocol=WS_FMP4`);
  expect(res.statusCode, res.body).toBe(200);
  const hub = api.t.ctx.streams.get(res.json().EasyDarwin.Body.Stream as string)!;
  expect(hub.state).not.toBe('stopped');
  return hub;
}

describe('streams of deleted channels', () => {
  it('deldevice stops its stream; another device keeps its own; a reopen is refused', async () => {
    const [gone, kept] = [await addDevice('Gone'), await addDevice('Kept')];
    const [goneHub, keptHub] = [await open(gone), await open(kept)];
    expect((await api.get(`/api/v1/deldevice?device=${gone}`)).statusCode).toBe(200);
    await until(() => goneHub.state === 'stopped', 5000);
    expect(keptHub.state).not.toBe('stopped');
    expect((await api.get(`/api/v1/getchannelstream?device=${gone}&channel=1`)).statusCode).toBe(404);
  });

  it('DELETE devices and delchannel stop the streams of what they removed', async () => {
    const [a, b] = [await addDevice('A'), await addDevice('B')];
    const [hubA, hubB] = [await open(a), await open(b)];
    const del = await api.t.app.inject({ method: 'DELETE', url: '/api/v1/devices', headers: { token: api.admin }, payload: { devices: [a] } });
    expect(del.statusCode, del.body).toBe(200);
    await until(() => hubA.state === 'stopped', 5000);
    expect(hubB.state).not.toBe('stopped');
    expect((await api.get(`/api/v1/delchannel?device=${b}&channel=1`)).statusCode).toBe(200);
    await until(() => hubB.state === 'stopped', 5000);
  });
});
