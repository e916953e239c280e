import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/index.js';
import { buildApp } from '../../src/app.js';
import { form, initialise, login, makeOperator, md5, STRONG } from './support.js';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  await t.close();
});

describe('login', () => {
  it('returns a random token, its lifetime and the user info in the EasyDarwin envelope', async () => {
    const a = await login(t, 'admin', 'admin');
    expect(a.res.statusCode).toBe(200);
    const env = a.res.json().EasyDarwin;
    expect(env.Header).toMatchObject({ ErrorNum: '200', MessageType: 'MSG_SC_SERVER_LOGIN_ACK', Version: 'v1' });
    expect(env.Body.Token).toMatch(/^[0-9a-f]{64}$/);
    expect(env.Body.TokenTimeout).toBe(7 * 24 * 3600);
    expect(env.Body.UserInfo).toMatchObject({ id: 1, name: 'admin', role: 'admin', role_name: 'admin', Status: 1 });
    const b = await login(t, 'admin', 'admin');
    expect(b.token).not.toBe(a.token);
  });

  it('accepts POST with a form body and an upper-case digest', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      ...form({ username: 'admin', password: md5('admin').toUpperCase() }),
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a wrong password and an unknown user with the same message', async () => {
    const wrong = await login(t, 'admin', 'nope');
    const unknown = await login(t, 'ghost', 'admin');
    expect(wrong.res.statusCode).toBe(400);
    expect(unknown.res.statusCode).toBe(400);
    expect(wrong.res.json().msg).toBe('用户名或密码错误');
    expect(unknown.res.json().msg).toBe(wrong.res.json().msg);
  });

  it('names the bad field when the password is not an md5 digest', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/login', query: { username: 'admin', password: 'plain' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('password');
    expect(res.json().EasyDarwin.Header.ErrorNum).toBe('400');
  });

  it('answers in English when asked', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/login',
      query: { username: 'admin', password: md5('x') },
      headers: { 'accept-language': 'en-US,en;q=0.9' },
    });
    expect(res.json().msg).toBe('Wrong user name or password');
  });
});

describe('lock-out', () => {
  it('locks a user name from one address after five failures, for 15 minutes, even with the right password', async () => {
    for (let i = 0; i < 4; i++) expect((await login(t, 'admin', 'bad', '10.0.0.5')).res.statusCode).toBe(400);
    const fifth = await login(t, 'admin', 'bad', '10.0.0.5');
    expect(fifth.res.statusCode).toBe(429);
    expect(fifth.res.json().msg).toBe('登录失败次数过多，请15分钟后再试');
    const right = await login(t, 'admin', 'admin', '10.0.0.5');
    expect(right.res.statusCode).toBe(429);
    // The same user from another address is not locked.
    expect((await login(t, 'admin', 'admin', '10.0.0.6')).res.statusCode).toBe(200);
  });

  it('survives a restart of the server', async () => {
    for (let i = 0; i < 5; i++) await login(t, 'admin', 'bad', '10.0.0.7');
    await t.app.close();
    const again = await buildApp(t.settings);
    try {
      const res = await again.app.inject({
        url: '/api/v1/login',
        query: { username: 'admin', password: md5('admin') },
        remoteAddress: '10.0.0.7',
      });
      expect(res.statusCode).toBe(429);
    } finally {
      await again.app.close();
    }
  });

  it('a success before the fifth failure clears the count', async () => {
    for (let i = 0; i < 4; i++) await login(t, 'admin', 'bad');
    expect((await login(t, 'admin', 'admin')).res.statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(t, 'admin', 'bad')).res.statusCode).toBe(400);
  });
});

describe('tokens', () => {
  it('401 without a token, with a malformed one, and after logout', async () => {
    expect((await t.app.inject({ url: '/api/v1/getuserinfo' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/v1/getuserinfo', headers: { token: 'abc' } })).statusCode).toBe(401);
    const { token } = await login(t, 'admin', 'admin');
    expect((await t.app.inject({ url: '/api/v1/getuserinfo', headers: { token: token! } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/v1/logout', headers: { token: token! } })).statusCode).toBe(200);
    const after = await t.app.inject({ url: '/api/v1/getuserinfo', headers: { token: token! } });
    expect(after.statusCode).toBe(401);
    expect(after.json().msg).toBe('登录已失效，请重新登录');
  });

  it('is accepted from the header, the query and a cookie', async () => {
    const { token } = await login(t, 'admin', 'admin');
    expect((await t.app.inject({ url: `/api/v1/getuserinfo?token=${token}` })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/v1/getuserinfo', headers: { cookie: `a=b; token=${token}` } })).statusCode).toBe(200);
  });

  it('stores only a hash of the token', async () => {
    const { token } = await login(t, 'admin', 'admin');
    const rows = await t.ctx.db.selectFrom('tokens').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).not.toContain(token);
  });

  it('expires', async () => {
    await t.close();
    t = await startTestApp({ overrides: { tokenTtlSeconds: 1 } });
    const { token } = await login(t, 'admin', 'admin');
    expect((await t.app.inject({ url: '/api/v1/getuserinfo', headers: { token: token! } })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 1200));
    expect((await t.app.inject({ url: '/api/v1/getuserinfo', headers: { token: token! } })).statusCode).toBe(401);
  });

  it('gentoken makes a long-lived API token; gettoken tells the current one; getusertoken lists them', async () => {
    const admin = await initialise(t);
    const gen = await t.app.inject({ method: 'POST', url: '/api/v1/gentoken', headers: { token: admin }, payload: { days: 30 } });
    const api = gen.json().EasyDarwin.Body;
    expect(api.Token).toMatch(/^[0-9a-f]{64}$/);
    const days = (new Date(api.ExpiresAt).getTime() - Date.now()) / 86400000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    const cur = await t.app.inject({ url: '/api/v1/gettoken', headers: { token: api.Token } });
    expect(cur.json().EasyDarwin.Body.Token).toBe(api.Token);
    const list = await t.app.inject({ url: '/api/v1/getusertoken?id=1', headers: { token: admin } });
    expect(list.json().EasyDarwin.Body.Tokens.map((x: { kind: string }) => x.kind).sort()).toEqual(['api', 'session']);
    const bad = await t.app.inject({ method: 'POST', url: '/api/v1/gentoken', headers: { token: admin }, payload: { days: 0 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('days');
  });
});

describe('modifypassword', () => {
  it('checks the rules, then changes the password and ends every session', async () => {
    const admin = await initialise(t);
    const other = (await login(t, 'admin', STRONG)).token!;
    const call = (b: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/v1/modifypassword', ...form(b, admin) });

    let res = await call({ oldpassword: md5(STRONG), newpassword: '' });
    expect(res.json()).toMatchObject({ code: 400, msg: '新密码不能为空!' });
    res = await call({ oldpassword: md5(STRONG), newpassword: 'alllowercase' });
    expect(res.json().msg).toBe('密码最少8位，需包含大写字母、小写字母、数字、特殊字符中的三种');
    res = await call({ oldpassword: md5(STRONG), newpassword: STRONG });
    expect(res.json().msg).toBe('新密码与原始密码相同，请重新输入');
    res = await call({ oldpassword: md5('Wrong!Pass1'), newpassword: 'N3w!Passw0rd' });
    expect(res.json().msg).toBe('原始密码错误');
    // nothing changed so far
    expect((await login(t, 'admin', STRONG)).res.statusCode).toBe(200);

    res = await call({ oldpassword: md5(STRONG), newpassword: 'N3w!Passw0rd' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 200, msg: '修改成功' });
    expect((await t.app.inject({ url: '/api/v1/getuserinfo', headers: { token: other } })).statusCode).toBe(401);
    expect((await login(t, 'admin', STRONG)).res.statusCode).toBe(400);
    expect((await login(t, 'admin', 'N3w!Passw0rd')).res.statusCode).toBe(200);
  });

  it('a user created with mustchange gets 426 everywhere except the calls that let it change its password', async () => {
    const admin = await initialise(t);
    const role = await t.app.inject({ method: 'POST', url: '/api/v1/addrole', ...form({ name: 'ops' }, admin) });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/adduser',
      ...form({ username: 'new1', password: md5('Temp!pass1'), roleid: role.json().EasyDarwin.Body.ID, mustchange: 1 }, admin),
    });
    const { token } = await login(t, 'new1', 'Temp!pass1');
    const blocked = await t.app.inject({ url: '/api/v1/getserverinfo', headers: { token: token! } });
    expect(blocked.statusCode).toBe(426);
    expect(blocked.json().msg).toBe('请先修改密码');
    const info = await t.app.inject({ url: '/api/v1/getuserinfo', headers: { token: token! } });
    expect(info.json().EasyDarwin.Body.MustChangePassword).toBe(true);
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/v1/modifypassword',
      ...form({ oldpassword: md5('Temp!pass1'), newpassword: 'Mine!pass22' }, token!),
    });
    expect(change.statusCode).toBe(200);
    const fresh = (await login(t, 'new1', 'Mine!pass22')).token!;
    expect((await t.app.inject({ url: '/api/v1/getserverinfo', headers: { token: fresh } })).statusCode).toBe(200);
  });

  it('refuses to change another user\'s password by naming it', async () => {
    const admin = await initialise(t);
    const op = await makeOperator(t, admin);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/modifypassword',
      ...form({ username: 'admin', oldpassword: md5(op.password), newpassword: 'Hack3d!pass' }, op.token),
    });
    expect(res.statusCode).toBe(403);
    expect((await login(t, 'admin', STRONG)).res.statusCode).toBe(200);
  });
});
