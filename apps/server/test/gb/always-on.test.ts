/**
 * An always-on GB28181 channel (OnDemand 0) is INVITEd while its device is registered, with nobody
 * watching: when the device registers (again), never while it is offline (no INVITE at a device that
 * cannot answer), and its stream is let go when the device goes offline.
 * Source: the GB device double (registration, catalog of one camera, PS over RTP answers to INVITE).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { streamKey } from '../../src/services/media/streams.js';
import { until } from '../helpers/index.js';
import { CH, DEV, startRig, type GbRig } from './invite-support.js';

let r: GbRig;
beforeEach(async (test) => {
  // The keepalive test: offline after one missed keepalive of 5 s (the shortest the settings take).
  r = await startRig(test.task.name.includes('keepalive') ? { gb: { KeepaliveTimeout: 5, KeepaliveCount: 1 } } : {});
});
afterEach(async () => {
  await r.close();
});

async function mainHub() {
  const row = await r.t.ctx.db.selectFrom('channels').select('id').where('parent_device_id', '=', DEV).where('channel_id', '=', CH).executeTakeFirstOrThrow();
  return r.t.ctx.streams.get(streamKey(row.id, 0));
}

async function setOnDemand(value: 0 | 1) {
  const res = await r.t.app.inject({
    method: 'POST',
    url: '/api/v1/editchannel',
    headers: { token: r.admin },
    payload: { DeviceID: DEV, ChannelID: CH, OnDemand: value },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const offline = () => until(() => !r.t.ctx.gb.session(DEV)?.online, 20_000, { what: 'the device offline' });

describe('always-on GB28181 channel', () => {
  it('is INVITEd when its device registers and not before; let go while the device is offline, INVITEd again when it is back', async () => {
    // Offline first: set to always-on, nothing is asked of the device.
    expect((await r.dev.unregister()).status).toBe(200);
    await offline();
    await setOnDemand(0);
    await r.t.ctx.alwaysOn.reconcile();
    expect(r.media.invites).toHaveLength(0);
    expect(await mainHub()).toBeUndefined();

    // It registers: its channel is INVITEd with nobody watching and goes live.
    expect((await r.dev.register()).status).toBe(200);
    await until(() => r.media.invites.length === 1, 15_000, { what: 'the INVITE after the registration' });
    const hub = await until(async () => {
      const h = await mainHub();
      return h?.state === 'live' && h;
    }, 20_000, { what: 'the always-on GB channel live' });
    expect(hub).toMatchObject({ viewers: 0, onDemand: false });

    // Offline again: the stream nobody watches stops and no INVITE follows, pass after pass.
    expect((await r.dev.unregister()).status).toBe(200);
    await offline();
    await until(() => hub.state === 'stopped', 15_000, { what: 'the hub stopped while the device is offline' });
    await r.t.ctx.alwaysOn.reconcile();
    await r.t.ctx.alwaysOn.reconcile();
    expect(r.media.invites).toHaveLength(1);
    expect(await mainHub()).toBeUndefined();

    // Back: INVITEd again.
    expect((await r.dev.register()).status).toBe(200);
    await until(() => r.media.invites.length === 2, 15_000, { what: 'the INVITE after the device came back' });
    await until(async () => (await mainHub())?.state === 'live', 20_000, { what: 'live again' });
  });

  it('a device offline by keepalive timeout (still registered) gets no INVITE; its next keepalive brings the channel back', async () => {
    await setOnDemand(0);
    await until(() => r.media.invites.length === 1, 15_000, { what: 'the INVITE of the online device' });
    const hub = await until(async () => {
      const h = await mainHub();
      return h?.state === 'live' && h;
    }, 20_000, { what: 'the always-on GB channel live' });

    // No keepalive: offline, but its registration stands (a request would still be sent to it).
    await offline();
    expect(r.t.ctx.gb.session(DEV)).toBeDefined();
    await until(() => hub.state === 'stopped', 15_000, { what: 'the hub stopped while the device is offline' });
    await r.t.ctx.alwaysOn.reconcile();
    expect(r.media.invites).toHaveLength(1);

    expect((await r.dev.keepalive()).status).toBe(200);
    await until(() => r.media.invites.length === 2, 15_000, { what: 'the INVITE after the keepalive' });
    await until(async () => (await mainHub())?.state === 'live', 20_000, { what: 'live again' });
  });

  it('an on-demand GB channel (the default) is not INVITEd when its device registers', async () => {
    expect((await r.dev.unregister()).status).toBe(200);
    await offline();
    expect((await r.dev.register()).status).toBe(200);
    await until(() => r.t.ctx.gb.session(DEV)?.online, 10_000);
    await r.t.ctx.alwaysOn.reconcile();
    expect(r.media.invites).toHaveLength(0);
    expect(await mainHub()).toBeUndefined();
  });
});
