/** Issue 3: the inventory calls the console uses less often: /api/v2/channels, devicebychannels, checkdeviceinfo, devicesearch. */
import { describe, expect, it } from 'vitest';
import { useAdminApp } from './admin-app.js';
import { makeOperator } from './support.js';

const api = useAdminApp();
const { get, body, post } = api;


async function addDevice(name: string, type = 'RTSP') {
  const res = await post('/api/v1/adddevice', { DeviceName: name, DeviceType: type, ...(type === 'RTSP' ? { RtspUrl: 'rtsp://127.0.0.1:8554/cam' } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body.DeviceID as string;
}
async function addChannel(device: string, Name: string) {
  const res = await post('/api/v1/addchannel', { ParentDeviceID: device, Name, RtspUrl: 'rtsp://10.0.0.9/s' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body.ChannelID as string;
}
const names = (rows: { Name?: string; DeviceName?: string }[]) => rows.map((r) => r.Name ?? r.DeviceName);

describe('/api/v2/channels', () => {
  it('answers {code,msg,data:{list,total}}, pages, searches and shows a role only its channels', async () => {
    const a = await addDevice('Site A');
    const b = await addDevice('Site B');
    const door = await addChannel(a, 'A back door');
    await addChannel(b, 'B yard');

    const all = (await get('/api/v2/channels?start=0&limit=50')).json();
    expect(all).toMatchObject({ code: 200, msg: 'success' });
    expect(all.data.total).toBe(4);
    expect(all.data.list).toHaveLength(4);
    expect(all.data.list[0]).toMatchObject({ ParentDeviceID: expect.any(String), ChannelID: expect.any(String), Name: expect.any(String), Online: 0 });
    const page = (await get('/api/v2/channels?start=0&limit=3')).json().data;
    expect(page.total).toBe(4);
    expect(page.list).toHaveLength(3);
    expect((await get('/api/v2/channels?q=yard')).json().data.total).toBe(1);
    const ofA = (await get(`/api/v2/channels?device=${a}`)).json().data;
    expect(names(ofA.list).sort()).toEqual(['A back door', 'Site A']);

    const op = await makeOperator(api.t, api.admin);
    expect((await get('/api/v2/channels', op.token)).json().data).toEqual({ list: [], total: 0 });
    await post('/api/v1/role/channels', { roleid: op.roleId, channels: [{ DeviceID: a, ChannelID: door }] });
    const seen = (await get('/api/v2/channels', op.token)).json().data;
    expect(seen.total).toBe(1);
    expect(seen.list[0]).toMatchObject({ ParentDeviceID: a, ChannelID: door, Name: 'A back door' });

    const bad = await get('/api/v2/channels?limit=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 400, data: null });
    expect(bad.json().msg).toContain('limit');
  });
});

describe('/api/v1/devicebychannels', () => {
  it('answers the visible devices owning the channels, once each', async () => {
    const a = await addDevice('Site A');
    const b = await addDevice('Site B');
    const door = await addChannel(a, 'A back door');
    const res = await get(`/api/v1/devicebychannels?channels=${a}:1,${a}:${door},${b}:1,999:1`);
    expect(res.statusCode).toBe(200);
    expect(res.json().EasyDarwin.Header.MessageType).toBe('MSG_SC_SERVER_DEVICE_BY_CHANNELS_ACK');
    const devs = res.json().EasyDarwin.Body.Devices;
    expect(devs.map((d: { DeviceID: string }) => d.DeviceID)).toEqual([a, b]);
    expect(devs[0]).toMatchObject({ DeviceName: 'Site A', DeviceType: 'RTSP', ChannelNum: 2 });

    const op = await makeOperator(api.t, api.admin);
    await post('/api/v1/role/channels', { roleid: op.roleId, channels: [{ DeviceID: a, ChannelID: door }] });
    const seen = await body(`/api/v1/devicebychannels?channels=${a}:${door},${b}:1`, op.token);
    expect(seen.Devices.map((d: { DeviceID: string }) => d.DeviceID)).toEqual([a]);

    const missing = await get('/api/v1/devicebychannels');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().msg).toContain('channels');
  });
});

describe('/api/v1/checkdeviceinfo', () => {
  it('says whether an ID or a name is taken, for admins only', async () => {
    const a = await addDevice('Front gate');
    const res = await get(`/api/v1/checkdeviceinfo?device=${a}&name=Front%20gate`);
    expect(res.statusCode).toBe(200);
    expect(res.json().EasyDarwin.Header.MessageType).toBe('MSG_SC_SERVER_CHECK_DEVICE_ACK');
    expect(res.json().EasyDarwin.Body).toEqual({ IDExists: true, NameExists: true });
    expect(await body('/api/v1/checkdeviceinfo?device=424242&name=Back%20gate')).toEqual({ IDExists: false, NameExists: false });
    expect(await body('/api/v1/checkdeviceinfo?name=Front%20gate')).toEqual({ IDExists: false, NameExists: true });

    const op = await makeOperator(api.t, api.admin);
    expect((await get(`/api/v1/checkdeviceinfo?device=${a}`, op.token)).statusCode).toBe(403);

    const bad = await get('/api/v1/checkdeviceinfo?device=../etc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('device');
  });
});

describe('/api/v1/devicesearch', () => {
  it('finds tree devices by name (never GAT1400), only the role visible ones, and needs a query', async () => {
    const a = await addDevice('Gate north');
    await addDevice('Gate south');
    await addDevice('Lobby');
    await addDevice('Gate plates', 'GAT1400');
    const res = await get('/api/v1/devicesearch?q=gate');
    expect(res.statusCode).toBe(200);
    expect(res.json().EasyDarwin.Header.MessageType).toBe('MSG_SC_SERVER_DEVICE_SEARCH_ACK');
    const found = res.json().EasyDarwin.Body;
    expect(found.TotalCount).toBe(2);
    expect(names(found.Devices).sort()).toEqual(['Gate north', 'Gate south']);
    const one = await body('/api/v1/devicesearch?q=gate&start=1&limit=1');
    expect(one.TotalCount).toBe(2);
    expect(one.Devices).toHaveLength(1);

    const op = await makeOperator(api.t, api.admin);
    expect((await body('/api/v1/devicesearch?q=gate', op.token)).TotalCount).toBe(0);
    await post('/api/v1/role/channels', { roleid: op.roleId, channels: [{ DeviceID: a, ChannelID: '1' }] });
    const seen = await body('/api/v1/devicesearch?q=gate', op.token);
    expect(names(seen.Devices)).toEqual(['Gate north']);

    const empty = await get('/api/v1/devicesearch?q=');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toContain('q');
  });
});
