import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useAdminApp } from './admin-app.js';
import { form, makeOperator } from './support.js';
import { until } from '../helpers/index.js';

const api = useAdminApp({ listen: true });
const list = async (token: string, start = 0, limit = 20) =>
  (await api.t.app.inject({ url: `/api/v1/newslist?start=${start}&limit=${limit}`, headers: { token } })).json().EasyDarwin.Body;

describe('message log', () => {
  it('pages newest first, counts unread, keeps read and delete marks per user', async () => {
    for (let i = 0; i < 25; i++) {
      await api.t.ctx.news.add({ deviceId: 'dev1', channelId: `ch${i}`, channelName: `Gate ${i}`, online: i % 2 === 0, time: new Date(Date.UTC(2026, 0, 1, 0, i)) });
    }
    const first = await list(api.admin);
    expect(first.total).toBe(25);
    expect(first.unread).toBe(25);
    expect(first.list).toHaveLength(20);
    expect(first.list[0]).toMatchObject({ DeviceID: 'dev1', ChannelName: 'Gate 24', Status: 'ON', sign: 0, NewsTime: '2026-01-01T00:24:00.000Z' });
    expect(first.list[1].Status).toBe('OFF');
    expect((await list(api.admin, 20)).list).toHaveLength(5);

    const id = first.list[0].ID;
    await api.t.app.inject({ method: 'POST', url: '/api/v1/news/read', ...form({ id }, api.admin) });
    expect((await list(api.admin)).unread).toBe(24);
    expect((await list(api.admin)).list[0].sign).toBe(1);
    await api.t.app.inject({ method: 'POST', url: '/api/v1/news/delete', ...form({ id }, api.admin) });
    expect((await list(api.admin)).total).toBe(24);

    // An operator gets the messages of the channels of its role only: none of dev1's, then its own.
    const op = await makeOperator(api.t, api.admin);
    expect(await list(op.token)).toEqual({ total: 0, unread: 0, list: [] });
    const dev = (await api.post('/api/v1/adddevice', { DeviceName: 'Door', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:9/door' })).json().EasyDarwin.Body.DeviceID as string;
    await api.post('/api/v1/role/channels', { roleid: op.roleId, channels: [{ DeviceID: dev, ChannelID: '1' }] });
    await api.t.ctx.news.add({ deviceId: dev, channelId: '1', channelName: 'Door', online: true });
    const theirs = await list(op.token);
    expect(theirs.list.map((n: { DeviceID: string }) => n.DeviceID)).toEqual(Array(theirs.total).fill(dev));
    expect(theirs.list[0]).toMatchObject({ DeviceID: dev, ChannelID: '1', ChannelName: 'Door', Status: 'ON', sign: 0 });
    expect(theirs.unread).toBe(theirs.total);

    await api.t.app.inject({ method: 'POST', url: '/api/v1/news/read', ...form({}, op.token) });
    expect((await list(op.token)).unread).toBe(0);
    expect((await list(api.admin)).unread).toBe(24 + theirs.total);
    const bad = await api.t.app.inject({ method: 'POST', url: '/api/v1/news/delete', ...form({ id: 'x' }, api.admin) });
    expect(bad.statusCode).toBe(400);
    expect((await api.t.app.inject({ url: '/api/v1/newslist?limit=0', headers: { token: api.admin } })).statusCode).toBe(400);
  });

  it('pushes a new message over the websocket to a logged-in console, and refuses one without a token', async () => {
    const ws = new WebSocket(`${api.t.baseUrl!.replace('http', 'ws')}/api/v1/ws/events?token=${api.admin}`);
    const messages: unknown[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.on('message', (d) => {
        const m = JSON.parse(String(d));
        messages.push(m);
        if (m.topic === 'hello') resolve();
      });
      ws.on('error', reject);
    });
    // An operator's console: only the news of its role's channels, in order.
    const op = await makeOperator(api.t, api.admin);
    const dev = (await api.post('/api/v1/adddevice', { DeviceName: 'Door', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:9/door' })).json().EasyDarwin.Body.DeviceID as string;
    await api.post('/api/v1/role/channels', { roleid: op.roleId, channels: [{ DeviceID: dev, ChannelID: '1' }] });
    const opWs = new WebSocket(`${api.t.baseUrl!.replace('http', 'ws')}/api/v1/ws/events?token=${op.token}`);
    const opGot: { topic: string; payload: { DeviceID?: string; ChannelName?: string } }[] = [];
    opWs.on('message', (d) => opGot.push(JSON.parse(String(d))));
    await until(() => opGot.some((m) => m.topic === 'hello'), 5000);
    const got = new Promise((resolve) => ws.on('message', (d) => resolve(JSON.parse(String(d)))));
    await api.t.ctx.news.add({ deviceId: 'd9', channelId: 'c9', channelName: 'Lobby', online: false });
    expect(await got).toMatchObject({ topic: 'news', payload: { DeviceID: 'd9', ChannelName: 'Lobby', Status: 'OFF', sign: 0 } });
    await api.t.ctx.news.add({ deviceId: dev, channelId: '1', channelName: 'Door', online: false });
    await until(() => opGot.some((m) => m.payload?.ChannelName === 'Door'), 5000, { what: () => `the Door message (got ${JSON.stringify(opGot)})` });
    expect(opGot.filter((m) => m.topic === 'news').map((m) => m.payload.DeviceID)).not.toContain('d9');
    opWs.close();
    ws.close();

    const anon = new WebSocket(`${api.t.baseUrl!.replace('http', 'ws')}/api/v1/ws/events`);
    const status = await new Promise((resolve) => {
      anon.on('unexpected-response', (_req, res) => resolve(res.statusCode));
      anon.on('open', () => resolve('open'));
    });
    expect(status).toBe(401);
  });
});
