/**
 * A registered GB28181 device switched off (Enable 0) is dropped: it and its channels go offline
 * saying why, its keepalives do not bring it back and its REGISTER is refused; switched on again,
 * its next registration brings device and channels back. TypeScript device double over UDP.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/index.js';
import { initialise } from '../api/support.js';
import { GbDevice } from '../fixtures/gb-device.js';

const DEV = '34020000001320000007';
const CH = '34020000001310000007';

describe('a GB device switched off', () => {
  let t: TestApp;
  let dev: GbDevice;
  let admin = '';
  beforeEach(async () => {
    t = await startTestApp();
    admin = await initialise(t);
    await t.ctx.config.set('gb', { DevicePassword: 'pw' });
    dev = await GbDevice.start({ deviceId: DEV, password: 'pw', serverPort: t.ctx.gb.port });
  });
  afterEach(async () => {
    await dev?.close();
    await t?.close();
  });
  const edit = (Enable: number) =>
    t.app.inject({ method: 'POST', url: '/api/v1/editdevice', headers: { token: admin }, payload: { DeviceID: DEV, Enable } });
  const channel = () => t.ctx.db.selectFrom('channels').select(['online', 'status_reason']).where('channel_id', '=', CH).executeTakeFirstOrThrow();

  it('is unregistered and stays offline with its channels until enabled and registered again', async () => {
    expect((await dev.register()).status).toBe(200);
    // A channel of the device, inserted as the catalog does.
    await t.ctx.db
      .insertInto('channels')
      .values({ channel_id: CH, parent_device_id: DEV, name: 'gate', online: 1, enable: 1, created_at: new Date().toISOString() })
      .execute();

    expect((await edit(0)).statusCode).toBe(200);
    expect(t.ctx.gb.session(DEV)).toBeUndefined();
    expect(await t.ctx.inventory.devices.get(DEV)).toMatchObject({ online: 0, status_reason: 'statusDeviceDisabled' });
    expect(await channel()).toEqual({ online: 0, status_reason: 'statusDeviceDisabled' });
    // Its keepalives are those of a device not registered: nothing changes.
    await dev.keepalive();
    expect((await t.ctx.inventory.devices.get(DEV))?.online).toBe(0);
    expect((await dev.register()).status).toBe(403);

    expect((await edit(1)).statusCode).toBe(200);
    // Offline until it registers; then its channels come back with it.
    expect(await channel()).toEqual({ online: 0, status_reason: 'statusWithDevice' });
    expect((await dev.register()).status).toBe(200);
    expect((await t.ctx.inventory.devices.get(DEV))?.online).toBe(1);
    expect(await channel()).toEqual({ online: 1, status_reason: '' });
  }, 30_000);
});
