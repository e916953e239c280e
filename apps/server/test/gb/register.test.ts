/**
 * REGISTER and keepalive against the app's real SIP port on loopback, with the TypeScript device
 * double over UDP and TCP: digest, the device's own password, wrong credentials, unregister, lists,
 * keepalive refresh, and the message log.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { header } from '@opencvr/sip';
import { startTestApp, type TestApp } from '../helpers/index.js';
import { GbDevice } from '../fixtures/gb-device.js';

const DEV = '34020000001320000001';
const PASSWORD = '12345678';

describe.each(['UDP', 'TCP'] as const)('GB REGISTER over %s', (transport) => {
  let t: TestApp;
  const devices: GbDevice[] = [];
  const device = async (o: Partial<Parameters<typeof GbDevice.start>[0]> = {}) => {
    const d = await GbDevice.start({ deviceId: DEV, password: PASSWORD, serverPort: t.ctx.gb.port, transport, ...o });
    devices.push(d);
    return d;
  };
  beforeEach(async () => {
    t = await startTestApp();
    await t.ctx.config.set('gb', { DevicePassword: PASSWORD });
  });
  afterEach(async () => {
    await Promise.all(devices.splice(0).map((d) => d.close()));
    await t?.close();
  });

  it('challenges, then registers with the global password; the device row is created online with its address', async () => {
    const dev = await device();
    const res = await dev.register();
    expect(res.status).toBe(200);
    expect(header(res, 'Date')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
    expect(header(res, 'Expires')).toBe('3600');
    const row = await t.ctx.inventory.devices.get(DEV);
    expect(row).toMatchObject({ device_type: 'GB28181', online: 1, transport, sip_transport: transport, device_ip: '127.0.0.1', sip_remote_ip: '127.0.0.1' });
    expect(row!.device_port).toBeGreaterThan(0);
    expect(row!.last_seen_at).not.toBe('');
    expect(t.ctx.gb.session(DEV)?.online).toBe(true);
  });

  it('the 401 carries a digest challenge in the configured realm', async () => {
    await t.ctx.config.set('gb', { Realm: '4401020049' });
    const dev = await device({ realm: '4401020049' });
    expect((await dev.register()).status).toBe(200);
    // A wrong password gets 403, never a second challenge loop.
    expect((await dev.register({ password: 'nope' })).status).toBe(403);
  });

  it('verifies against the device’s own password (DeviceUserPW) when it has one', async () => {
    await t.ctx.inventory.devices.create({ DeviceID: DEV, DeviceName: 'cam', DeviceType: 'GB28181', DeviceUserPW: 'own-secret' });
    const dev = await device();
    expect((await dev.register()).status).toBe(403);
    expect((await dev.register({ password: 'own-secret' })).status).toBe(200);
  });

  it('unregisters with Expires 0: offline, message log written', async () => {
    const dev = await device();
    await dev.register();
    const res = await dev.unregister();
    expect(res.status).toBe(200);
    expect(header(res, 'Expires')).toBe('0');
    expect((await t.ctx.inventory.devices.get(DEV))?.online).toBe(0);
    expect(t.ctx.gb.session(DEV)).toBeUndefined();
    const news = await t.ctx.db.selectFrom('news').selectAll().where('device_id', '=', DEV).orderBy('id').execute();
    expect(news.map((n) => n.status)).toEqual(['ON', 'OFF']);
  });

  it('refuses blacklisted devices, and unlisted ones when the whitelist is on', async () => {
    await t.ctx.gbLists.add('black', { deviceId: DEV, ip: '', name: '', description: '' });
    const dev = await device();
    const res = await dev.register();
    expect(res.status).toBe(403);
    expect(res.reason).toMatch(/blacklist/);
    expect(await t.ctx.inventory.devices.get(DEV)).toBeUndefined();
    const other = await device({ deviceId: '34020000001320000002' });
    await t.ctx.gbLists.setWhiteSwitch(true);
    expect((await other.register()).status).toBe(403);
    await t.ctx.gbLists.add('white', { deviceId: '', ip: '127.0.0.0/8', name: '', description: '' });
    expect((await other.register()).status).toBe(200);
  });

  it('answers keepalives with 200 and refreshes keepalive_at; an unknown device gets 404, a known unregistered one 403', async () => {
    const stranger = await device({ deviceId: '34020000001320000009' });
    expect((await stranger.keepalive()).status).toBe(404);
    const dev = await device();
    await dev.register();
    const before = (await t.ctx.inventory.devices.get(DEV))!.keepalive_at;
    await new Promise((r) => setTimeout(r, 5));
    expect((await dev.keepalive()).status).toBe(200);
    // Keepalive times are written in batches (at most a second later): write them now.
    await t.ctx.gb.store.flushKeepalives();
    expect((await t.ctx.inventory.devices.get(DEV))!.keepalive_at > before).toBe(true);
    await dev.unregister();
    expect((await dev.keepalive()).status).toBe(403);
  });

  it('a request still waiting for a silent device ends when the SIP server stops (shutdown is not held for AckTimeout)', async () => {
    const dev = await device();
    await dev.register();
    await dev.close(); // the device goes silent: nothing will ever answer
    const waiting = t.ctx.gb.sendRequest(DEV, { method: 'MESSAGE', body: Buffer.from('<Query/>'), contentType: 'Application/MANSCDP+xml', timeoutMs: 600_000 });
    const outcome = waiting.then(
      () => 'answered',
      (err: Error) => err.message,
    );
    await t.ctx.gb.stop();
    expect(await outcome).toMatch(/stopping/);
  });
});
