import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/index.js';
import { form, login, md5, STRONG } from './support.js';

let t: TestApp;
let token: string;
beforeEach(async () => {
  t = await startTestApp();
  token = (await login(t, 'admin', 'admin')).token!;
});
afterEach(async () => {
  await t.close();
});

const good = { SipPassword: 'sip12345', EhomePassword: 'ehome123', OldPassword: md5('admin'), NewPassword: STRONG };
const setinitial = (b: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/v1/setinitial', ...form(b, token) });

describe('first-run initialisation', () => {
  it('is pending on a new platform: public config says Initial and admin calls answer 426', async () => {
    const home = await t.app.inject({ url: '/api/v1/gethomeotherconfig' });
    expect(home.json().EasyDarwin.Body).toMatchObject({ Initial: true, Version: '3.7.3', Title: 'OpenCVR' });
    const blocked = await t.app.inject({ url: '/api/v1/userlist', headers: { token } });
    expect(blocked.statusCode).toBe(426);
    expect(blocked.json().msg).toBe('请先完成系统初始化');
    // the calls the dialogs need still answer
    for (const url of ['/api/v1/getuserinfo', '/api/v1/getotherconfig', '/api/v1/ip', '/api/v1/check_ip', '/api/v2/config/basic/switch']) {
      expect((await t.app.inject({ url, headers: { token } })).statusCode, url).toBe(200);
    }
  });

  it('checks every rule with the spec messages and changes nothing on a refusal', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ ...good, OldPassword: '' }, '原始密码不能为空!'],
      [{ ...good, NewPassword: '' }, '新密码不能为空!'],
      [{ ...good, NewPassword: 'short1A' }, '密码最少8位，需包含大写字母、小写字母、数字、特殊字符中的三种'],
      [{ ...good, NewPassword: 'abcdefgh12' }, '密码最少8位，需包含大写字母、小写字母、数字、特殊字符中的三种'],
      [{ ...good, SipPassword: '' }, 'SIP密码不能为空!'],
      [{ ...good, EhomePassword: '' }, 'EHOME密码不能为空!'],
      [{ ...good, OldPassword: md5('wrong') }, '原始密码错误'],
    ];
    for (const [body, msg] of cases) {
      const res = await setinitial(body);
      expect(res.statusCode, msg).toBe(400);
      expect(res.json()).toMatchObject({ code: 400, msg });
    }
    expect((await t.app.inject({ url: '/api/v1/gethomeotherconfig' })).json().EasyDarwin.Body.Initial).toBe(true);
    expect((await login(t, 'admin', 'admin')).res.statusCode).toBe(200);
  });

  it('on success: Initial off, sessions ended, new password and name work, device passwords stored, runs once', async () => {
    const res = await setinitial({ ...good, Username: 'chief' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 200, msg: '初始化成功，3秒后跳转到登录页', status: 200 });
    expect((await t.app.inject({ url: '/api/v1/getuserinfo', headers: { token } })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/v1/gethomeotherconfig' })).json().EasyDarwin.Body.Initial).toBe(false);
    expect((await login(t, 'admin', 'admin')).res.statusCode).toBe(400);
    const fresh = (await login(t, 'chief', STRONG)).token!;
    const info = await t.app.inject({ url: '/api/v1/getuserinfo', headers: { token: fresh } });
    expect(info.json().EasyDarwin.Body).toMatchObject({ id: 1, name: 'chief', role: 'admin' });
    expect((await t.app.inject({ url: '/api/v1/userlist', headers: { token: fresh } })).statusCode).toBe(200);
    expect(await t.ctx.config.get('gb')).toMatchObject({ DevicePassword: 'sip12345' });
    expect(await t.ctx.config.get('ehome')).toEqual({ Password: 'ehome123' });
    token = fresh;
    const twice = await setinitial({ ...good, OldPassword: md5(STRONG), NewPassword: 'An0ther!pass' });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().msg).toBe('系统已完成初始化');
  });

  it('is refused to a non-admin', async () => {
    await setinitial(good);
    const admin = (await login(t, 'admin', STRONG)).token!;
    const role = await t.app.inject({ method: 'POST', url: '/api/v1/addrole', ...form({ name: 'ops' }, admin) });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/adduser',
      ...form({ username: 'op', password: md5('Op3rator!x'), roleid: role.json().EasyDarwin.Body.ID }, admin),
    });
    token = (await login(t, 'op', 'Op3rator!x')).token!;
    expect((await setinitial({ ...good, OldPassword: md5('Op3rator!x') })).statusCode).toBe(403);
  });
});

describe('network choice', () => {
  it('lists this machine\'s addresses, asks until chosen, validates and stores the choice', async () => {
    const ip = await t.app.inject({ url: '/api/v1/ip', headers: { token } });
    const body = ip.json().EasyDarwin.Body;
    expect(body.CheckIP).toBe(true);
    expect(body.LocalIPs.length).toBeGreaterThan(0);
    for (const a of body.LocalIPs) expect(a).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const setip = (b: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/v1/setip', ...form(b, token) });

    const none = await setip({ sip_host: '' });
    expect(none.json().msg).toBe('请选择网络!');
    const bad = await setip({ sip_host: '999.1.1.1', terminal_host: '999.1.1.1' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('sip_host');
    expect((await t.app.inject({ url: '/api/v1/check_ip', headers: { token } })).json().EasyDarwin.Body.CheckIP).toBe(true);

    const local = body.LocalIPs[0];
    const ok = await setip({ sip_host: local, rtc_host: '', terminal_host: local, ehome_host: local });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().EasyDarwin.Header.ErrorString).toBe('IP设置成功!');
    expect((await t.app.inject({ url: '/api/v1/check_ip', headers: { token } })).json().EasyDarwin.Body.CheckIP).toBe(false);
    const again = (await t.app.inject({ url: '/api/v1/ip', headers: { token } })).json().EasyDarwin.Body;
    expect(again.Current).toEqual({ sip_host: local, rtc_host: '', terminal_host: local, ehome_host: local });
  });
});
