/**
 * A channel switched off (its own Enable) is offline everywhere, saying why (通道未开启 / the channel
 * is not enabled): channel lists, its device's counts, the online filters; its live stream stops, the
 * stream checker leaves it out, and nothing brings it back while it stays off (a late probe, a GB
 * catalog). Switched on again, it is probed at once.
 */
import { describe, expect, it } from 'vitest';
import { useAdminApp } from './admin-app.js';
import { CHANNEL_DISABLED, settleDisabledChannels } from '../../src/services/inventory/channel-enable.js';
import { listCheckTargets } from '../../src/services/inventory/stream-checker.js';
import { applyCatalogNotify } from '../../src/gb/catalog/notify.js';
import { storeCatalog } from '../../src/gb/catalog/store.js';
import { streamKey } from '../../src/services/media/streams.js';

// No stream checker: the tests set the channels' state as its probes would.
const api = useAdminApp({ overrides: { channelCheckInterval: 0 } });
const { body, post } = api;

async function addOnlineCamera(name: string) {
  const res = await post('/api/v1/adddevice', { DeviceName: name, DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:9/cam' });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().EasyDarwin.Body.DeviceID as string;
  const pk = (await api.t.ctx.inventory.channels.require(id, '1')).id;
  // As the stream checker records a camera that answered.
  expect(await api.t.ctx.inventory.channels.setOnline(pk, true)).toBe(true);
  return { id, pk };
}

const switchChannel = async (id: string, on: 0 | 1) => expect((await post('/api/v1/editchannel', { DeviceID: id, ChannelID: '1', Enable: on })).statusCode).toBe(200);
const inLang = async (url: string, lang: string) =>
  (await api.t.app.inject({ url, headers: { token: api.admin, 'accept-language': lang } })).json().EasyDarwin.Body;

describe('a channel switched off', () => {
  it('reads offline in every list and count, with the reason in the answer language', async () => {
    const { id } = await addOnlineCamera('Gate');
    await addOnlineCamera('Hall');
    await switchChannel(id, 0);
    for (const url of [`/api/v1/channelsconfig?device=${id}`, `/api/v1/devices/${id}/channels`, '/api/v1/all/channels?cameras=1&q=Gate']) {
      expect((await body(url)).Channels[0], url).toMatchObject({ Enable: 0, DeviceEnable: 1, Online: 0, StatusReason: '通道未开启' });
    }
    expect((await inLang(`/api/v1/channelsconfig?device=${id}`, 'en-US')).Channels[0].StatusReason).toBe('the channel is not enabled');
    // Its device had no other channel on line: it follows (the tree's counts, the online filters).
    expect((await body(`/api/v1/devicesconfig?device=${id}`)).Devices[0]).toMatchObject({ Enable: 1, Online: 0, onlineChannelNums: 0 });
    expect((await body('/api/v1/all/channels?cameras=1&online=1')).Channels.map((c: { Name: string }) => c.Name)).toEqual(['Hall']);
    expect((await api.get('/api/v2/state/device')).json().data).toMatchObject({ channels: { total: 2, online: 1 } });
    // The message log says it went off line.
    const news = await api.t.ctx.db.selectFrom('news').select(['channel_id', 'status']).where('device_id', '=', id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(news).toEqual({ channel_id: '1', status: 'OFF' });
  });

  it('its live stream stops, it is neither probed nor played, and a late probe does not bring it back', async () => {
    const { id, pk } = await addOnlineCamera('Gate');
    expect((await api.get(`/api/v1/getchannelstream?device=${id}&channel=1&protocol=WS_FMP4`)).statusCode).toBe(200);
    expect(api.t.ctx.streams.runningChannels()).toContain(pk);
    const hub = api.t.ctx.streams.get(streamKey(pk, 0))!;
    await switchChannel(id, 0);
    expect(api.t.ctx.streams.runningChannels()).not.toContain(pk);
    // Its viewers are told why (not that it opens again with new settings).
    expect(hub.state).toBe('stopped');
    expect(hub.why).toEqual({ key: 'streamChannelDisabled' });
    expect((await listCheckTargets(api.t.ctx.db)).map((t) => t.pk)).not.toContain(pk);
    expect((await api.get(`/api/v1/getchannelstream?device=${id}&channel=1&protocol=WS_FMP4`)).statusCode).toBe(400);
    // A probe begun before the switch answers after it.
    expect(await api.t.ctx.inventory.channels.setOnline(pk, true)).toBe(false);
    expect(await api.t.ctx.inventory.channels.setOnline(pk, false, { key: 'connectionRefused' })).toBe(false);
    expect((await body(`/api/v1/channelsconfig?device=${id}`)).Channels[0]).toMatchObject({ Online: 0, StatusReason: '通道未开启' });
  });

  it('switched on again, loses the reason and is probed at once; its online follows the probe', async () => {
    const { id, pk } = await addOnlineCamera('Gate');
    await switchChannel(id, 0);
    let changed = 0;
    const off = api.t.ctx.inventory.subscribe(() => changed++);
    await switchChannel(id, 1);
    off();
    // The stream checker listens on this: the channel is a new target, probed at once.
    expect(changed).toBe(1);
    expect((await listCheckTargets(api.t.ctx.db)).map((t) => t.pk)).toContain(pk);
    expect((await body(`/api/v1/channelsconfig?device=${id}`)).Channels[0]).toMatchObject({ Enable: 1, Online: 0, StatusReason: '' });
    expect(await api.t.ctx.inventory.channels.setOnline(pk, true)).toBe(true);
    expect((await body(`/api/v1/devicesconfig?device=${id}`)).Devices[0]).toMatchObject({ Online: 1, onlineChannelNums: 1 });
  });

  it('keeps its own reason through its device being switched off and on', async () => {
    const { id } = await addOnlineCamera('Gate');
    await switchChannel(id, 0);
    expect((await post('/api/v1/editdevice', { DeviceID: id, Enable: 0 })).statusCode).toBe(200);
    expect((await body(`/api/v1/channelsconfig?device=${id}`)).Channels[0].StatusReason).toBe('设备未开启');
    expect((await post('/api/v1/editdevice', { DeviceID: id, Enable: 1 })).statusCode).toBe(200);
    expect((await body(`/api/v1/channelsconfig?device=${id}`)).Channels[0]).toMatchObject({ Online: 0, StatusReason: '通道未开启' });
  });

  it('a GB channel stays offline through its device’s catalog and status events, and comes back with its online device as it last reported it', async () => {
    const DEV = '34020000001320000077';
    const CAM = '34020000001310000001';
    expect((await post('/api/v1/adddevice', { DeviceName: 'NVR', DeviceType: 'GB28181', DeviceID: DEV })).statusCode).toBe(200);
    const db = api.t.ctx.db;
    await db.updateTable('devices').set({ online: 1 }).where('device_id', '=', DEV).execute();
    await storeCatalog(db, DEV, [{ deviceId: CAM, name: 'Door', online: true, info: {} }], { complete: false, defaultOnline: true });
    const row = () => db.selectFrom('channels').select(['online', 'status_reason']).where('channel_id', '=', CAM).executeTakeFirstOrThrow();
    expect(await row()).toEqual({ online: 1, status_reason: '' });
    expect((await post('/api/v1/editchannel', { DeviceID: DEV, ChannelID: CAM, Enable: 0 })).statusCode).toBe(200);
    expect(await row()).toEqual({ online: 0, status_reason: CHANNEL_DISABLED });
    // The device's catalog and its ON event say it is on line: it stays off.
    await storeCatalog(db, DEV, [{ deviceId: CAM, name: 'Door', online: true, info: {} }], { complete: false, defaultOnline: true });
    const deps = { db, news: api.t.ctx.news, removeChannels: async () => [] };
    await applyCatalogNotify(deps, DEV, [{ deviceId: CAM, event: 'ON', info: {} }], true);
    expect(await row()).toEqual({ online: 0, status_reason: CHANNEL_DISABLED });
    // On again: on line with its device.
    expect((await post('/api/v1/editchannel', { DeviceID: DEV, ChannelID: CAM, Enable: 1 })).statusCode).toBe(200);
    expect(await row()).toEqual({ online: 1, status_reason: '' });
    // Off, the device reports it lost its video meanwhile: on again, it is offline with that reason.
    expect((await post('/api/v1/editchannel', { DeviceID: DEV, ChannelID: CAM, Enable: 0 })).statusCode).toBe(200);
    await applyCatalogNotify(deps, DEV, [{ deviceId: CAM, event: 'VLOST', info: {} }], true);
    expect(await row()).toEqual({ online: 0, status_reason: CHANNEL_DISABLED });
    expect((await post('/api/v1/editchannel', { DeviceID: DEV, ChannelID: CAM, Enable: 1 })).statusCode).toBe(200);
    expect(await row()).toEqual({ online: 0, status_reason: 'statusCatalogVideoLost' });
  });

  it('added switched off, is offline saying why from the start; left online by an older database, is put offline at start', async () => {
    const { id } = await addOnlineCamera('Gate');
    const added = await post('/api/v1/addchannel', { DeviceID: id, Name: 'Spare', RtspUrl: 'rtsp://127.0.0.1:9/spare', Enable: 0 });
    expect(added.statusCode, added.body).toBe(200);
    const spare = added.json().EasyDarwin.Body.ChannelID as string;
    const db = api.t.ctx.db;
    const reasonOf = async (channel: string) =>
      (await db.selectFrom('channels').select(['online', 'status_reason']).where('parent_device_id', '=', id).where('channel_id', '=', channel).executeTakeFirstOrThrow());
    expect(await reasonOf(spare)).toEqual({ online: 0, status_reason: CHANNEL_DISABLED });
    // Switched off the way an older server did: the flag only.
    await db.updateTable('channels').set({ enable: 0 }).where('parent_device_id', '=', id).where('channel_id', '=', '1').execute();
    expect(await settleDisabledChannels(db)).toBe(1);
    expect(await reasonOf('1')).toEqual({ online: 0, status_reason: CHANNEL_DISABLED });
    expect(await settleDisabledChannels(db)).toBe(0);
  });
});
