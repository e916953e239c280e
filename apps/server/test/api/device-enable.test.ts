/**
 * A disabled device and its channels are offline everywhere (device list and tree counts, channel
 * lists, home statistics), saying why; enabled again, they wait for their check.
 */
import { describe, expect, it } from 'vitest';
import { useAdminApp } from './admin-app.js';
import { DEVICE_DISABLED, settleDisabledDevices } from '../../src/services/inventory/device-enable.js';

// No stream checker: the tests set the channels' state as its probes would.
const api = useAdminApp({ overrides: { channelCheckInterval: 0 } });
const { body, post } = api;

async function addOnlineCamera(name: string) {
  const res = await post('/api/v1/adddevice', { DeviceName: name, DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:8554/cam' });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().EasyDarwin.Body.DeviceID as string;
  const pk = (await api.t.ctx.inventory.channels.require(id, '1')).id;
  // As the stream checker records a camera that answered.
  expect(await api.t.ctx.inventory.channels.setOnline(pk, true)).toBe(true);
  return { id, pk };
}

const inLang = async (url: string, lang: string) =>
  (await api.t.app.inject({ url, headers: { token: api.admin, 'accept-language': lang } })).json().EasyDarwin.Body;

describe('a disabled device', () => {
  it('and its channels read offline in every list and count, with the reason in the answer language', async () => {
    const { id } = await addOnlineCamera('Gate');
    await addOnlineCamera('Hall');
    expect((await body(`/api/v1/devicesconfig?device=${id}`)).Devices[0]).toMatchObject({ Online: 1, onlineChannelNums: 1 });

    expect((await post('/api/v1/editdevice', { DeviceID: id, Enable: 0 })).statusCode).toBe(200);

    for (const url of [`/api/v1/devicesconfig?device=${id}`, '/api/v1/devices?q=Gate']) {
      expect((await body(url)).Devices[0], url).toMatchObject({ Enable: 0, Online: 0, ChannelNum: 1, onlineChannelNums: 0 });
    }
    for (const url of [`/api/v1/channelsconfig?device=${id}`, `/api/v1/devices/${id}/channels`, '/api/v1/all/channels?cameras=1&q=Gate']) {
      expect((await body(url)).Channels[0], url).toMatchObject({ DeviceEnable: 0, Online: 0, StatusReason: '设备未开启' });
    }
    expect((await inLang(`/api/v1/channelsconfig?device=${id}`, 'en-US')).Channels[0].StatusReason).toBe('the device is not enabled');
    // The online filters and the home page's statistics: only Hall.
    expect((await body('/api/v1/devicesconfig?online=1')).Devices.map((d: { DeviceName: string }) => d.DeviceName)).toEqual(['Hall']);
    expect((await body('/api/v1/all/channels?cameras=1&online=1')).Channels.map((c: { Name: string }) => c.Name)).toEqual(['Hall']);
    const state = (await api.get('/api/v2/state/device')).json().data;
    expect(state).toMatchObject({ devices: { total: 2, online: 1 }, channels: { total: 2, online: 1 } });
  });

  it('stays offline when a probe begun before the switch answers after it', async () => {
    const { id, pk } = await addOnlineCamera('Gate');
    expect((await post('/api/v1/editdevice', { DeviceID: id, Enable: 0 })).statusCode).toBe(200);
    expect(await api.t.ctx.inventory.channels.setOnline(pk, true)).toBe(false);
    expect(await api.t.ctx.inventory.channels.setOnline(pk, false, { key: 'connectionRefused' })).toBe(false);
    expect((await body(`/api/v1/channelsconfig?device=${id}`)).Channels[0]).toMatchObject({ Online: 0, StatusReason: '设备未开启' });
  });

  it('enabled again, its channels lose the reason and are checked again; their online follows the check', async () => {
    const { id, pk } = await addOnlineCamera('Gate');
    expect((await post('/api/v1/editdevice', { DeviceID: id, Enable: 0 })).statusCode).toBe(200);
    let changed = 0;
    const off = api.t.ctx.inventory.subscribe(() => changed++);
    expect((await post('/api/v1/editdevice', { DeviceID: id, Enable: 1 })).statusCode).toBe(200);
    off();
    // The stream checker listens on this: the channels are new targets, probed at once.
    expect(changed).toBe(1);
    expect((await body(`/api/v1/channelsconfig?device=${id}`)).Channels[0]).toMatchObject({ DeviceEnable: 1, Online: 0, StatusReason: '' });
    expect(await api.t.ctx.inventory.channels.setOnline(pk, true)).toBe(true);
    expect((await body(`/api/v1/devicesconfig?device=${id}`)).Devices[0]).toMatchObject({ Enable: 1, Online: 1, onlineChannelNums: 1 });
  });

  it('added disabled, is offline saying why from the start', async () => {
    const res = await post('/api/v1/adddevice', { DeviceName: 'Spare', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:8554/cam', Enable: 0 });
    const id = res.json().EasyDarwin.Body.DeviceID as string;
    expect((await body(`/api/v1/channelsconfig?device=${id}`)).Channels[0]).toMatchObject({ DeviceEnable: 0, Online: 0, StatusReason: '设备未开启' });
  });

  it('left online by an older database is put offline at start', async () => {
    const { id } = await addOnlineCamera('Gate');
    const db = api.t.ctx.db;
    // Disabled the way an older server did: the flag only (and a GB registration it would have kept).
    await db.updateTable('devices').set({ enable: 0, register_expires_at: '2099-01-01T00:00:00.000Z', register_expires: 3600 }).where('device_id', '=', id).execute();
    expect((await body(`/api/v1/devicesconfig?device=${id}`)).Devices[0]).toMatchObject({ Online: 1, onlineChannelNums: 1 });
    expect(await settleDisabledDevices(db)).toBe(1);
    expect((await body(`/api/v1/devicesconfig?device=${id}`)).Devices[0]).toMatchObject({ Online: 0, onlineChannelNums: 0 });
    const ch = await db.selectFrom('channels').select(['online', 'status_reason']).where('parent_device_id', '=', id).executeTakeFirstOrThrow();
    expect(ch).toEqual({ online: 0, status_reason: DEVICE_DISABLED });
    expect(await db.selectFrom('devices').select(['register_expires_at', 'register_expires']).where('device_id', '=', id).executeTakeFirstOrThrow()).toEqual({
      register_expires_at: '',
      register_expires: 0,
    });
    expect(await settleDisabledDevices(db)).toBe(0);
  });
});
