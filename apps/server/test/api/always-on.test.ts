/**
 * Always-on channels (OnDemand 0, spec issue 4): the main stream runs with nobody watching, from the
 * start of the server on (also after a restart on the same storage), so the first viewer gets the
 * cached GOP at once; an edit to OnDemand 0 starts it at once, an edit back to 1 lets it stop after
 * the grace period. On-demand channels (the default) are not opened by anything but a viewer.
 * Source: the GStreamer RTSP camera.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccessUnit } from '@opencvr/codec';
import { reason } from '@opencvr/shared';
import { DEFAULT_HUB_OPTIONS, type HubOptions } from '../../src/media/hub.js';
import { streamKey } from '../../src/services/media/streams.js';
import { restartTestApp, startTestApp, until, type TestApp } from '../helpers/index.js';
import { initialise } from './support.js';
import { useCamera } from '../fixtures/use-camera.js';

/** Short enough to watch a stop happen, long enough that a loaded machine answers a call within it. */
const GRACE_MS = 2000;

const cam = useCamera();
let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await startTestApp();
  admin = await initialise(t);
  setGrace();
});
afterEach(async () => {
  await t.close();
});

/** The grace period every new hub of this app gets (the real default is 10 s). */
function setGrace() {
  (t.ctx.streams as unknown as { hubDefaults: Omit<HubOptions, 'onDemand'> }).hubDefaults = { ...DEFAULT_HUB_OPTIONS, graceMs: GRACE_MS };
}

async function post(url: string, payload: object) {
  const res = await t.app.inject({ method: 'POST', url, headers: { token: admin }, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body;
}

async function channelPk(device: string, channel: string) {
  const row = await t.ctx.db.selectFrom('channels').select('id').where('parent_device_id', '=', device).where('channel_id', '=', channel).executeTakeFirstOrThrow();
  return row.id;
}

const mainHub = (pk: number) => t.ctx.streams.get(streamKey(pk, 0));

describe('always-on channels', () => {
  it('an added always-on channel is live with no viewer, again after a restart, and its first viewer gets the cached GOP at once', async () => {
    const { DeviceID: device } = await post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP' });
    const { ChannelID: channel } = await post('/api/v1/addchannel', { DeviceID: device, Name: 'Always', RtspUrl: cam.url, OnDemand: 0 });
    const pk = await channelPk(device, channel);

    await until(() => mainHub(pk)?.state === 'live', 20_000, { what: 'the always-on channel live after addchannel' });
    expect(mainHub(pk)).toMatchObject({ viewers: 0, onDemand: false });

    // The server restarts on the same storage: nobody asks for the channel, yet it comes up.
    t = await restartTestApp(t);
    await until(() => mainHub(pk)?.state === 'live', 20_000, { what: 'the always-on channel live after the restart' });
    const hub = mainHub(pk)!;
    expect(hub).toMatchObject({ viewers: 0, onDemand: false });
    // Its first unit is a keyframe, so a viewer has a picture the moment it subscribes.
    await until(() => hub.cachedKeyframe(), 20_000, { what: 'a cached keyframe' });

    // A viewer subscribing gets the tracks and the cached GOP within subscribe(), starting on a keyframe.
    const got: { tracks: number; units: AccessUnit[] } = { tracks: 0, units: [] };
    const leave = hub.subscribe({ tracks: (tr) => (got.tracks = tr.length), unit: (_i, u) => void got.units.push(u) });
    leave();
    expect(got.tracks).toBeGreaterThan(0);
    expect(got.units[0]).toMatchObject({ kind: 'video', keyframe: true });
  });

  it('an on-demand channel is not opened; edited to OnDemand 0 it starts at once; back to 1 it stops after the grace period', async () => {
    const { DeviceID: device } = await post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: cam.url });
    const pk = await channelPk(device, '1');
    // The default (OnDemand 1): a pass of the service opens nothing.
    await t.ctx.alwaysOn.reconcile();
    expect(mainHub(pk)).toBeUndefined();

    await post('/api/v1/editchannel', { DeviceID: device, ChannelID: '1', OnDemand: 0 });
    await until(() => mainHub(pk)?.state === 'live', 20_000, { what: 'the channel live after the edit to OnDemand 0' });
    const hub = mainHub(pk)!;
    expect(hub).toMatchObject({ viewers: 0, onDemand: false });

    await post('/api/v1/editchannel', { DeviceID: device, ChannelID: '1', OnDemand: 1 });
    await until(() => hub.onDemand, 5000, { what: 'the hub on-demand after the edit to OnDemand 1' });
    await until(() => hub.state === 'stopped', GRACE_MS + 10_000, { what: 'the hub stopped after the grace period' });
    // And nothing opens it again.
    await t.ctx.alwaysOn.reconcile();
    expect(mainHub(pk)).toBeUndefined();
  });

  it('always-on is the main stream: the sub stream a viewer opened stops after the grace period, the main one runs on', async () => {
    const { DeviceID: device } = await post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: cam.url });
    const pk = await channelPk(device, '1');
    await post('/api/v1/editchannel', { DeviceID: device, ChannelID: '1', OnDemand: 0 });
    const main = await until(() => mainHub(pk)?.state === 'live' && mainHub(pk), 20_000);

    const res = await t.app.inject({ url: '/api/v1/getchannelstream', headers: { token: admin }, query: { device, channel: '1', stream: '1' } });
    expect(res.statusCode, res.body).toBe(200);
    const sub = t.ctx.streams.get(streamKey(pk, 1))!;
    expect(sub.onDemand).toBe(true);
    await until(() => sub.state === 'stopped', GRACE_MS + 15_000, { what: 'the unwatched sub stream stopped' });
    await t.ctx.alwaysOn.reconcile();
    expect(t.ctx.streams.get(streamKey(pk, 1))).toBeUndefined();
    expect(main.state).toBe('live');
  });

  it('a parental node with OnDemand 0 is no always-on channel: not opened, and the hub a viewer opens is on-demand from the start', async () => {
    const { DeviceID: device } = await post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: cam.url });
    const pk = await channelPk(device, '1');
    await t.ctx.db.updateTable('channels').set({ on_demand: 0, parental: 1 }).where('id', '=', pk).execute();
    await t.ctx.alwaysOn.reconcile();
    expect(mainHub(pk)).toBeUndefined();
    const res = await t.app.inject({ url: '/api/v1/getchannelstream', headers: { token: admin }, query: { device, channel: '1' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(mainHub(pk)?.onDemand).toBe(true);
  });

  it("an administrator's stopstream holds: no pass opens it again, a viewer gets it on-demand, an edit makes it always-on again", async () => {
    const { DeviceID: device } = await post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: cam.url });
    const pk = await channelPk(device, '1');
    await post('/api/v1/editchannel', { DeviceID: device, ChannelID: '1', OnDemand: 0 });
    const first = await until(() => mainHub(pk)?.state === 'live' && mainHub(pk), 20_000, { what: 'the always-on channel live' });

    const res = await t.app.inject({ url: '/api/v1/stopstream', headers: { token: admin, 'accept-language': 'en-US' }, query: { device, channel: '1' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().EasyDarwin.Body).toEqual({ AlwaysOn: 1, Note: reason('alwaysOnStopped', 'en-US') });
    expect(first.state).toBe('stopped');
    // The regular pass (every 10 s) used to open it again at once.
    await t.ctx.alwaysOn.reconcile();
    expect(mainHub(pk)?.state ?? 'stopped').toBe('stopped');

    // A viewer still gets it, on-demand: it stops after them.
    const open = await t.app.inject({ url: '/api/v1/getchannelstream', headers: { token: admin }, query: { device, channel: '1' } });
    expect(open.statusCode, open.body).toBe(200);
    const viewed = mainHub(pk)!;
    expect(viewed.onDemand).toBe(true);
    await t.ctx.alwaysOn.reconcile();
    expect(viewed.onDemand).toBe(true);
    await until(() => viewed.state === 'stopped', GRACE_MS + 15_000, { what: 'the held stream stopped after its viewer' });
    await t.ctx.alwaysOn.reconcile();
    expect(mainHub(pk)?.state ?? 'stopped').toBe('stopped');

    // An edit of the channel ends the hold.
    await post('/api/v1/editchannel', { DeviceID: device, ChannelID: '1', Name: 'Renamed' });
    await until(() => mainHub(pk)?.state === 'live', 20_000, { what: 'always-on again after the edit' });
    expect(mainHub(pk)).toMatchObject({ onDemand: false });

    // The sub stream or an on-demand channel: a plain stop, nothing held.
    const sub = await t.app.inject({ url: '/api/v1/stopstream', headers: { token: admin }, query: { device, channel: '1', stream: '1' } });
    expect(sub.json().EasyDarwin.Body).toEqual({});
    expect(t.ctx.alwaysOn.isHeld(pk)).toBe(false);
  });

  it('a disabled device or channel is not kept open; enabled again it starts at once', async () => {
    const { DeviceID: device } = await post('/api/v1/adddevice', { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: cam.url });
    const pk = await channelPk(device, '1');
    await post('/api/v1/editchannel', { DeviceID: device, ChannelID: '1', OnDemand: 0 });
    await until(() => mainHub(pk)?.state === 'live', 20_000);

    await post('/api/v1/editchannel', { DeviceID: device, ChannelID: '1', Enable: 0 });
    await t.ctx.alwaysOn.reconcile();
    expect(mainHub(pk)).toBeUndefined();
    await post('/api/v1/editchannel', { DeviceID: device, ChannelID: '1', Enable: 1 });
    await until(() => mainHub(pk)?.state === 'live', 20_000, { what: 'live again after the channel was enabled' });

    await post('/api/v1/editdevice', { DeviceID: device, Enable: 0 });
    await t.ctx.alwaysOn.reconcile();
    expect(mainHub(pk)).toBeUndefined();
    await post('/api/v1/editdevice', { DeviceID: device, Enable: 1 });
    await until(() => mainHub(pk)?.state === 'live', 20_000, { what: 'live again after the device was enabled' });
  });
});
