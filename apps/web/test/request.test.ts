import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@opencvr/shared';
import { appendPathParams, buildRequest, request, RequestError, v1Body } from '../src/lib/request';
import { useSession } from '../src/lib/stores/session';
import { useUi } from '../src/lib/stores/ui';
import { setNavigator } from '../src/lib/navigation';
import { bindNotifiers } from '../src/lib/notify';
import { setLang } from '../src/i18n';

const notices: { kind: string; text: string }[] = [];
const fakeMessage = {
  success: (o: { content: string }) => notices.push({ kind: 'success', text: o.content }),
  warning: (o: { content: string }) => notices.push({ kind: 'warning', text: o.content }),
  error: (o: { content: string; duration: number }) => notices.push({ kind: `error:${o.duration}`, text: o.content }),
};
const fakeNotification = { error: (o: { description: string }) => notices.push({ kind: 'notification', text: o.description }) };

function reply(status: number, body: unknown) {
  return vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
}

function setPath(p: string) {
  window.history.replaceState(null, '', p);
}

let navigated: string[];

beforeEach(() => {
  notices.length = 0;
  navigated = [];
  setNavigator((to) => {
    navigated.push(to);
  });
  bindNotifiers(fakeMessage as any, fakeNotification as any);
  useSession.getState().clear();
  useUi.getState().closeModifyPwd();
  setPath('/video/square/0');
  setLang('zh-CN');
});
afterEach(() => {
  vi.unstubAllGlobals();
  setNavigator(null);
});

describe('buildRequest', () => {
  it('turns a GET payload into query parameters plus s_time', () => {
    const { url, init } = buildRequest('/api/v1/userlist', { data: { pageindex: 1, pagesize: 20, q: 'ab c' } }, 1700000000000);
    const u = new URL(url, 'http://x');
    expect(u.pathname).toBe('/api/v1/userlist');
    expect(u.searchParams.get('pageindex')).toBe('1');
    expect(u.searchParams.get('pagesize')).toBe('20');
    expect(u.searchParams.get('q')).toBe('ab c');
    expect(u.searchParams.get('s_time')).toBe('1700000000000');
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();
  });

  it('appends path_params (string or object values) to the path and leaves them out of the query', () => {
    expect(appendPathParams('/api/v2/ai/platform', '7')).toBe('/api/v2/ai/platform/7');
    expect(appendPathParams('/api/v2/ai/aioutput', { apid: 3, apcid: 'c 1' })).toBe('/api/v2/ai/aioutput/3/c%201');
    const { url } = buildRequest('/api/v2/ai/platform', { data: { path_params: { id: 9 }, x: 1 } });
    expect(url.startsWith('/api/v2/ai/platform/9?')).toBe(true);
    expect(url).not.toContain('path_params');
  });

  it('uses ServerHost as the base url', () => {
    const { url } = buildRequest('/api/v1/getserverinfo', { data: { ServerHost: 'http://10.1.1.1:18000/' } });
    expect(url.startsWith('http://10.1.1.1:18000/api/v1/getserverinfo?')).toBe(true);
    expect(url).not.toContain('ServerHost');
  });

  it('sends the token header only when logged in, and Accept-Language from the language', () => {
    expect(buildRequest('/api/v1/getuserinfo').init.headers.token).toBeUndefined();
    useSession.getState().login('tok123', { id: 1, name: 'admin', nick_name: '', role: 'admin', role_name: 'admin', role_id: 1, Status: 1, MustChangePassword: false });
    const { headers } = buildRequest('/api/v1/getuserinfo').init;
    expect(headers.token).toBe('tok123');
    expect(headers['Accept-Language']).toBe('zh-CN');
    setLang('en-US');
    expect(buildRequest('/api/v1/getuserinfo').init.headers['Accept-Language']).toBe('en-US');
  });

  it('form-encodes the POSTs the spec names and sends JSON otherwise', () => {
    const form = buildRequest('/api/v1/adduser', { method: 'POST', data: { username: 'bob', roleid: 2 } });
    expect(form.init.headers['Content-Type']).toContain('application/x-www-form-urlencoded');
    expect(form.init.body).toBe('username=bob&roleid=2');
    for (const p of ['/api/v1/addrole', '/api/v1/role', '/api/v1/setinitial', '/api/v1/setotherconfig', '/api/v1/clearalarm', '/api/v1/addwhite', '/api/v1/cascade/add', '/api/v1/addlabel']) {
      expect(buildRequest(p, { method: 'POST', data: {} }).init.headers['Content-Type'], p).toContain('form-urlencoded');
    }
    const json = buildRequest('/api/v1/setip', { method: 'POST', data: { sip_host: '1.2.3.4' } });
    expect(json.init.headers['Content-Type']).toContain('application/json');
    expect(JSON.parse(json.init.body as string)).toEqual({ sip_host: '1.2.3.4' });
  });
});

describe('request error catalogue', () => {
  it('returns /api/v1 answers raw', async () => {
    const body = { EasyDarwin: { Header: { ErrorNum: '200', ErrorString: 'OK' }, Body: { a: 1 } } };
    vi.stubGlobal('fetch', reply(200, body));
    const raw = await request('/api/v1/x');
    expect(raw).toEqual(body);
    expect(v1Body(raw as never)).toEqual({ a: 1 });
  });

  it('keeps a text/plain answer as text even when it reads as JSON (querymonthly\'s day flags)', async () => {
    // A month recorded from its 1st: as JSON it was 1.111111111111111e+29, and the calendar read
    // its characters, '.', 'e', '+', as unrecorded days.
    const flags = `${'1'.repeat(29)}0`;
    vi.stubGlobal('fetch', vi.fn(async () => new Response(flags, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })));
    await expect(request('/api/v1/record/querymonthly', { data: { id: '1:1', period: '202611' } })).resolves.toBe(flags);
    vi.stubGlobal('fetch', vi.fn(async () => new Response('0042', { status: 200, headers: { 'Content-Type': 'text/plain' } })));
    await expect(request('/api/v1/record/querymonthly')).resolves.toBe('0042');
    // A JSON answer is still parsed.
    vi.stubGlobal('fetch', reply(200, 42));
    await expect(request('/api/v1/x')).resolves.toBe(42);
  });

  it('401 off the login page cleans the session and goes to /login with msg and type', async () => {
    localStorage.setItem(STORAGE_KEYS.multiScreenLayout, '4');
    useSession.getState().login('t', { id: 2, name: 'u', nick_name: '', role: 'x', role_name: 'x', role_id: 2, Status: 1, MustChangePassword: false });
    vi.stubGlobal('fetch', reply(401, { code: 401, msg: '登录已失效，请重新登录' }));
    await expect(request('/api/v1/getuserinfo')).rejects.toMatchObject({ code: 401, msg: '登录已失效，请重新登录' });
    expect(useSession.getState().token).toBe('');
    expect(localStorage.getItem(STORAGE_KEYS.userinfo)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.multiScreenLayout)).toBeNull();
    expect(navigated).toEqual([`/login?msg=${encodeURIComponent('登录已失效，请重新登录').replace(/%20/g, '+')}&type=401`]);
  });

  it('401 on a /share/ page keeps the page', async () => {
    setPath('/share/a/b/c');
    vi.stubGlobal('fetch', reply(401, { code: 401, msg: 'no' }));
    await expect(request('/api/v1/x')).rejects.toBeInstanceOf(RequestError);
    expect(navigated).toEqual([]);
  });

  it('401 on the login page is passed on without a notice', async () => {
    setPath('/login');
    vi.stubGlobal('fetch', reply(401, { code: 401, msg: '用户名或密码错误' }));
    await expect(request('/api/v1/login')).rejects.toMatchObject({ code: 401, msg: '用户名或密码错误' });
    expect(navigated).toEqual([]);
    expect(notices).toEqual([]);
  });

  it('426 turns on the change-password prompt with a 2 s error notice, then resolves quietly while it shows', async () => {
    vi.stubGlobal('fetch', reply(426, { code: 426, msg: '请先修改密码' }));
    await expect(request('/api/v1/userlist')).rejects.toMatchObject({ code: 426 });
    expect(useUi.getState().showNavBarModifyPWD).toBe(true);
    expect(useUi.getState().modifyPwdForced).toBe(true);
    expect(notices).toEqual([{ kind: 'error:2', text: '请先修改密码' }]);
    await expect(request('/api/v1/userlist')).resolves.toEqual({ code: 426, msg: '请先修改密码' });
    expect(notices).toHaveLength(1);
  });

  it('426 on the login page resolves with code and msg and opens nothing', async () => {
    setPath('/login');
    vi.stubGlobal('fetch', reply(426, { code: 426, msg: 'x' }));
    await expect(request('/api/v1/x')).resolves.toEqual({ code: 426, msg: 'x' });
    expect(useUi.getState().showNavBarModifyPWD).toBe(false);
  });

  it('400 shows the server text and rejects with code 400; quiet suppresses the notice', async () => {
    vi.stubGlobal('fetch', reply(400, { code: 400, msg: '参数 name 不合法: 必填' }));
    await expect(request('/api/v1/adduser', { method: 'POST', data: {} })).rejects.toMatchObject({ code: 400 });
    expect(notices).toEqual([{ kind: 'error:2', text: '参数 name 不合法: 必填' }]);
    notices.length = 0;
    await expect(request('/api/v1/streaminfo', { quiet: true })).rejects.toMatchObject({ code: 400 });
    expect(notices).toEqual([]);
  });

  it('other errors show a notification with the server text (from msg or ErrorString) and reject', async () => {
    vi.stubGlobal('fetch', reply(500, { EasyDarwin: { Header: { ErrorNum: '500', ErrorString: '服务器内部错误' }, Body: {} } }));
    await expect(request('/api/v1/x')).rejects.toMatchObject({ code: 500, msg: '服务器内部错误' });
    expect(notices).toEqual([{ kind: 'notification', text: '服务器内部错误' }]);
  });

  it('no answer at all (server down): code 0 and the console\'s network text, not the browser\'s', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(request('/api/v1/devices/channelstream')).rejects.toMatchObject({ code: 0, msg: '网络异常，请检查与服务器的连接' });
    expect(notices).toEqual([{ kind: 'notification', text: '网络异常，请检查与服务器的连接' }]);
  });

  it('quiet passes other errors on silently (browse page)', async () => {
    vi.stubGlobal('fetch', reply(403, { code: 403, msg: 'nope' }));
    await expect(request('/api/v1/x', { quiet: true })).rejects.toMatchObject({ code: 403 });
    expect(notices).toEqual([]);
  });
});
