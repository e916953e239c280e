/**
 * A real SIP peer: sipp scenarios (apps/server/test/fixtures/sipp) play a GB28181 camera against the
 * app's SIP port on loopback, over UDP and TCP: digest registration, wrong password, unregister,
 * keepalive, and the whitelist/blacklist refusals.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/index.js';
import { hasSipp, runSipp } from './sipp.js';

const DEV = '34020000001320000001';
const PASSWORD = '12345678';

describe.skipIf(!hasSipp).each(['UDP', 'TCP'] as const)('sipp GB device over %s', (transport) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp();
    await t.ctx.config.set('gb', { DevicePassword: PASSWORD });
  });
  afterEach(async () => t?.close());
  // The platform queries a newly registered device (Catalog, DeviceInfo...): those requests are
  // outside the scenario's call, so an out-of-call scenario answers them 200.
  const run = (scenario: string, o: { password?: string; deviceId?: string } = {}) =>
    runSipp(scenario, { port: t.ctx.gb.port, transport, deviceId: o.deviceId ?? DEV, password: o.password ?? PASSWORD, ooc: 'answer-200.xml' });

  it('registers with digest: 401, then 200 with Date and Expires; the device is online', async () => {
    const r = await run('register-digest.xml');
    expect(r.errors, `sipp errors:\n${r.errors}`).toBe('');
    expect(r.code).toBe(0);
    expect(await t.ctx.inventory.devices.get(DEV)).toMatchObject({ online: 1, device_type: 'GB28181', sip_transport: transport });
  });

  it('a wrong password gets 403 and creates nothing', async () => {
    const r = await run('register-wrong-password.xml', { password: 'not-it' });
    expect(r.errors, `sipp errors:\n${r.errors}`).toBe('');
    expect(r.code).toBe(0);
    expect(await t.ctx.inventory.devices.get(DEV)).toBeUndefined();
  });

  it('unregisters with Expires 0: the device goes offline', async () => {
    const r = await run('unregister.xml');
    expect(r.errors, `sipp errors:\n${r.errors}`).toBe('');
    expect(r.code).toBe(0);
    expect(await t.ctx.inventory.devices.get(DEV)).toMatchObject({ online: 0, status_reason: 'statusUnregistered' });
  });

  it('keepalive MESSAGE with a MANSCDP body is answered 200 and recorded', async () => {
    const r = await run('keepalive.xml');
    expect(r.errors, `sipp errors:\n${r.errors}`).toBe('');
    expect(r.code).toBe(0);
    const d = await t.ctx.inventory.devices.get(DEV);
    expect(d?.online).toBe(1);
    expect(d!.keepalive_at >= d!.registered_at).toBe(true);
  });

  it('a blacklisted device, or an unlisted one with the whitelist on, gets 403 before any challenge', async () => {
    await t.ctx.gbLists.add('black', { deviceId: DEV, ip: '', name: '', description: '' });
    const black = await run('register-refused.xml');
    expect(black.errors, `sipp errors:\n${black.errors}`).toBe('');
    expect(black.code).toBe(0);
    await t.ctx.gbLists.setWhiteSwitch(true);
    const unlisted = await run('register-refused.xml', { deviceId: '34020000001320000002' });
    expect(unlisted.code).toBe(0);
    await t.ctx.gbLists.add('white', { deviceId: '34020000001320000002', ip: '', name: '', description: '' });
    expect((await run('register-digest.xml', { deviceId: '34020000001320000002' })).code).toBe(0);
  });
});
