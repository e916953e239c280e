/** GB28181 whitelist/blacklist: the admission rule the SIP server asks on REGISTER, and the list calls. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/index.js';

const DEV = '34020000001320000001';
const OTHER = '34020000001320000002';

describe('GbLists.admits', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp();
  });
  afterEach(async () => t?.close());

  const entry = (deviceId: string, ip: string) => ({ deviceId, ip, name: '', description: '' });

  it('admits everyone with empty lists and the whitelist off', async () => {
    expect(await t.ctx.gbLists.admits(DEV, '10.0.0.5')).toBe('ok');
  });

  it('refuses a blacklisted device ID, address or block; both fields must match when both are given', async () => {
    await t.ctx.gbLists.add('black', entry(DEV, ''));
    await t.ctx.gbLists.add('black', entry('', '192.168.7.0/24'));
    await t.ctx.gbLists.add('black', entry(OTHER, '10.9.9.9'));
    expect(await t.ctx.gbLists.admits(DEV, '10.0.0.5')).toBe('black');
    expect(await t.ctx.gbLists.admits(OTHER, '192.168.7.44')).toBe('black');
    // IPv4 seen through an IPv6 socket.
    expect(await t.ctx.gbLists.admits(OTHER, '::ffff:192.168.7.44')).toBe('black');
    expect(await t.ctx.gbLists.admits(OTHER, '10.9.9.9')).toBe('black');
    expect(await t.ctx.gbLists.admits(OTHER, '10.9.9.8')).toBe('ok');
    expect(await t.ctx.gbLists.admits('34020000001320000003', '10.9.9.9')).toBe('ok');
  });

  it('with the whitelist on admits only listed devices, and the blacklist still wins', async () => {
    await t.ctx.gbLists.add('white', entry(DEV, ''));
    await t.ctx.gbLists.add('white', entry('', '172.16.0.0/12'));
    expect(await t.ctx.gbLists.admits(OTHER, '10.0.0.1')).toBe('ok'); // switch off
    await t.ctx.gbLists.setWhiteSwitch(true);
    expect(await t.ctx.gbLists.admits(DEV, '10.0.0.1')).toBe('ok');
    expect(await t.ctx.gbLists.admits(OTHER, '10.0.0.1')).toBe('not-white');
    expect(await t.ctx.gbLists.admits(OTHER, '172.20.1.1')).toBe('ok');
    await t.ctx.gbLists.add('black', entry(DEV, ''));
    expect(await t.ctx.gbLists.admits(DEV, '10.0.0.1')).toBe('black');
  });

  it('sees edits and deletes at once', async () => {
    const e = await t.ctx.gbLists.add('black', entry(DEV, ''));
    expect(await t.ctx.gbLists.admits(DEV, '10.0.0.1')).toBe('black');
    await t.ctx.gbLists.edit('black', e.id, entry(OTHER, ''));
    expect(await t.ctx.gbLists.admits(DEV, '10.0.0.1')).toBe('ok');
    expect(await t.ctx.gbLists.admits(OTHER, '10.0.0.1')).toBe('black');
    await t.ctx.gbLists.remove('black', [e.id]);
    expect(await t.ctx.gbLists.admits(OTHER, '10.0.0.1')).toBe('ok');
  });

  it('refuses an empty entry, a bad address and a duplicate', async () => {
    await expect(t.ctx.gbLists.add('white', entry('', ''))).rejects.toMatchObject({ key: 'gbListEntryEmpty' });
    await expect(t.ctx.gbLists.add('white', entry('', '300.1.1.1'))).rejects.toMatchObject({ key: 'gbListBadAddress' });
    await expect(t.ctx.gbLists.add('white', entry('', '10.0.0.0/33'))).rejects.toMatchObject({ key: 'gbListBadAddress' });
    await t.ctx.gbLists.add('white', entry(DEV, '10.0.0.1'));
    await expect(t.ctx.gbLists.add('white', entry(` ${DEV} `, '10.0.0.1'))).rejects.toMatchObject({ key: 'duplicate' });
    expect((await t.ctx.gbLists.list('white', { start: 0, limit: 20 })).total).toBe(1);
  });
});
