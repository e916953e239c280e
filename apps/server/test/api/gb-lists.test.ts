/** GB28181 whitelist/blacklist: the admission rule the SIP server asks on REGISTER, and the list calls. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/index.js';
import { form, initialise, makeOperator } from './support.js';

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

describe('whitelist and blacklist calls', () => {
  let t: TestApp;
  let admin: string;
  beforeEach(async () => {
    t = await startTestApp();
    admin = await initialise(t);
  });
  afterEach(async () => t?.close());
  const get = (url: string, query: Record<string, string> = {}, token = admin) => t.app.inject({ url, query, headers: { token } });
  const post = (url: string, payload: Record<string, string | number>, token = admin) => t.app.inject({ method: 'POST', url, ...form(payload, token) });

  it('v1 whitelist: add (form-encoded), page, edit, delete, batch delete, switch', async () => {
    const added = await post('/api/v1/addwhite', { DeviceID: DEV, IP: '192.168.1.0/24', Name: 'Gate NVR', Description: 'north gate' });
    expect(added.statusCode).toBe(200);
    const item = added.json().EasyDarwin.Body;
    expect(item).toMatchObject({ ID: expect.any(Number), DeviceID: DEV, IP: '192.168.1.0/24', Name: 'Gate NVR', Description: 'north gate' });
    for (let i = 0; i < 24; i++) expect((await post('/api/v1/addwhite', { IP: `10.0.0.${i + 1}` })).statusCode).toBe(200);

    const first = (await get('/api/v1/white')).json().EasyDarwin.Body;
    expect(first.Total).toBe(25);
    expect(first.List).toHaveLength(20);
    expect(first.WhiteSwitch).toBe(false);
    expect(first.List[0].IP).toBe('10.0.0.24'); // newest first
    const second = (await get('/api/v1/white', { start: '20', limit: '20' })).json().EasyDarwin.Body;
    expect(second.List).toHaveLength(5);
    expect(second.List.at(-1).ID).toBe(item.ID);
    expect((await get('/api/v1/white', { q: 'gate' })).json().EasyDarwin.Body).toMatchObject({ Total: 1 });

    const edited = await post('/api/v1/editwhite', { ID: item.ID, DeviceID: OTHER, IP: '', Name: 'renamed' });
    expect(edited.json().EasyDarwin.Body).toMatchObject({ ID: item.ID, DeviceID: OTHER, IP: '', Name: 'renamed' });
    expect((await post('/api/v1/editwhite', { ID: 99999, DeviceID: OTHER })).statusCode).toBe(404);

    expect((await get('/api/v1/delwhite', { id: String(item.ID) })).json().EasyDarwin.Body).toEqual({ Deleted: 1 });
    const ids = (await get('/api/v1/white', { limit: '3' })).json().EasyDarwin.Body.List.map((e: { ID: number }) => e.ID);
    expect((await post('/api/v1/delwhites', { ids: ids.join(',') })).json().EasyDarwin.Body).toEqual({ Deleted: 3 });
    // A JSON array works as well.
    const two = (await get('/api/v1/white', { limit: '2' })).json().EasyDarwin.Body.List.map((e: { ID: number }) => e.ID);
    const json = await t.app.inject({ method: 'POST', url: '/api/v1/delwhites', headers: { token: admin }, payload: { ids: two } });
    expect(json.json().EasyDarwin.Body).toEqual({ Deleted: 2 });
    expect((await get('/api/v1/white')).json().EasyDarwin.Body.Total).toBe(19);

    expect((await post('/api/v1/white/switch', { WhiteSwitch: 1 })).json().EasyDarwin.Body).toEqual({ WhiteSwitch: true });
    expect((await get('/api/v1/white/switch')).json().EasyDarwin.Body).toEqual({ WhiteSwitch: true });
    expect((await get('/api/v1/getbaseconfig')).json().EasyDarwin.Body.WhiteSwitch).toBe(true);
    expect(await t.ctx.gbLists.admits(DEV, '8.8.8.8')).toBe('not-white');
    expect(await t.ctx.gbLists.admits(DEV, '10.0.0.5')).toBe('ok');
  });

  it('v1 blacklist and the v2 paths; bad input is refused with nothing changed', async () => {
    const b = (await post('/api/v1/addblack', { DeviceID: DEV })).json().EasyDarwin.Body;
    expect(await t.ctx.gbLists.admits(DEV, '1.2.3.4')).toBe('black');
    expect((await post('/api/v1/editblack', { ID: b.ID, DeviceID: DEV, IP: '1.2.3.4' })).statusCode).toBe(200);
    expect(await t.ctx.gbLists.admits(DEV, '1.2.3.5')).toBe('ok');
    expect((await post('/api/v1/delblack', { ID: b.ID })).json().EasyDarwin.Body).toEqual({ Deleted: 1 });
    expect((await get('/api/v1/black')).json().EasyDarwin.Body).toEqual({ Total: 0, List: [] });

    const bad: Record<string, string>[] = [{}, { IP: 'not-an-ip' }, { DeviceID: 'a/b' }, { DeviceID: 'x'.repeat(65) }, { IP: '10.0.0.0/40' }];
    for (const payload of bad) {
      const res = await post('/api/v1/addblack', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    await post('/api/v1/addblack', { DeviceID: DEV });
    const f = form({ DeviceID: DEV }, admin);
    const dup = await t.app.inject({ method: 'POST', url: '/api/v1/addblack', payload: f.payload, headers: { ...f.headers, 'accept-language': 'en-US' } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().msg).toContain('already exists');
    expect((await post('/api/v1/white/switch', { WhiteSwitch: 'perhaps' })).statusCode).toBe(400);

    const base = '/api/v2/config/device/access';
    const add = await t.app.inject({ method: 'POST', url: `${base}/black`, headers: { token: admin }, payload: { IP: '10.10.0.0/16', Name: 'lab' } });
    expect(add.json()).toMatchObject({ code: 200, data: { IP: '10.10.0.0/16', Name: 'lab' } });
    const id = add.json().data.ID;
    const put = await t.app.inject({ method: 'PUT', url: `${base}/black`, headers: { token: admin }, payload: { ID: id, IP: '10.11.0.0/16' } });
    expect(put.json().data.IP).toBe('10.11.0.0/16');
    expect((await get(`${base}/black`)).json()).toMatchObject({ code: 200, data: { Total: 2 } });
    expect((await t.app.inject({ method: 'DELETE', url: `${base}/black/${id}`, headers: { token: admin } })).json()).toMatchObject({ data: { Deleted: 1 } });
    const w1 = (await t.app.inject({ method: 'POST', url: `${base}/white`, headers: { token: admin }, payload: { DeviceID: DEV } })).json().data.ID;
    const w2 = (await t.app.inject({ method: 'POST', url: `${base}/white`, headers: { token: admin }, payload: { DeviceID: OTHER } })).json().data.ID;
    const batch = await t.app.inject({ method: 'DELETE', url: `${base}/whites`, query: { ids: `${w1},${w2}` }, headers: { token: admin } });
    expect(batch.json()).toMatchObject({ code: 200, data: { Deleted: 2 } });
    const sw = await t.app.inject({ method: 'PUT', url: `${base}/white/switch`, headers: { token: admin }, payload: { WhiteSwitch: true } });
    expect(sw.json()).toEqual({ code: 200, msg: 'success', data: { WhiteSwitch: true } });
    expect((await get(`${base}/white`)).json().data).toMatchObject({ Total: 0, WhiteSwitch: true });
  });

  it('is closed to non-admins', async () => {
    const op = await makeOperator(t, admin);
    expect((await get('/api/v1/white', {}, op.token)).statusCode).toBe(403);
    expect((await get('/api/v2/config/device/access/black', {}, op.token)).statusCode).toBe(403);
    expect((await post('/api/v1/addblack', { DeviceID: DEV }, op.token)).statusCode).toBe(403);
    expect((await post('/api/v1/white/switch', { WhiteSwitch: 1 }, op.token)).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/v1/black' })).statusCode).toBe(401);
    expect(await t.ctx.gbLists.admits(DEV, '1.1.1.1')).toBe('ok');
  });
});
