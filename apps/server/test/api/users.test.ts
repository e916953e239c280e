import { describe, expect, it } from 'vitest';
import { useAdminApp } from './admin-app.js';
import { form, login, makeOperator, md5 } from './support.js';

const api = useAdminApp();
const { get, postForm: post } = api;

describe('roles rule the server, not just the menu', () => {
  it('a non-admin gets 403 from every admin-only call', async () => {
    const op = await makeOperator(api.t, api.admin);
    const calls: [string, string, Record<string, string | number>?][] = [
      ['GET', '/api/v1/userlist'],
      ['POST', '/api/v1/adduser', { username: 'x', password: md5('x'), roleid: 1 }],
      ['POST', '/api/v1/updateuser', { id: 1, roleid: op.roleId }],
      ['POST', '/api/v1/deleteuser', { id: 1 }],
      ['GET', '/api/v1/rolelist'],
      ['POST', '/api/v1/addrole', { name: 'x' }],
      ['POST', '/api/v1/role', { id: op.roleId, name: 'y' }],
      ['POST', '/api/v1/deleterole', { id: op.roleId }],
      ['POST', '/api/v1/setotherconfig', { Title: 'pwned' }],
      ['POST', '/api/v2/config/basic/switch', { ai_platform: 1 }],
      ['POST', '/api/v1/vqd/base_config', { is_show: 1 }],
      ['GET', '/api/v1/ip'],
      ['POST', '/api/v1/setip', { sip_host: '10.1.1.1' }],
      ['GET', '/api/v1/getusertoken?id=1'],
    ];
    for (const [method, url, body] of calls) {
      const res =
        method === 'GET' ? await get(url, op.token) : await api.t.app.inject({ method: 'POST', url, ...form(body ?? {}, op.token) });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().msg).toBe('没有权限执行此操作');
    }
    // nothing changed
    expect((await get('/api/v1/getotherconfig')).json().EasyDarwin.Body.Title).toBe('OpenCVR');
    // and the calls every user needs still work
    for (const url of ['/api/v1/getuserinfo', '/api/v1/getotherconfig', '/api/v1/getserverinfo', '/api/v2/state/top', '/api/v1/newslist']) {
      expect((await get(url, op.token)).statusCode, url).toBe(200);
    }
    expect((await get('/api/v1/getuserinfo', op.token)).json().EasyDarwin.Body).toMatchObject({ role: `role-op1`, role_name: 'role-op1' });
  });
});

describe('users', () => {
  it('adds, lists with paging and search, updates and deletes', async () => {
    const { roleId } = await makeOperator(api.t, api.admin, 'seed');
    for (let i = 0; i < 25; i++) {
      const res = await post('/api/v1/adduser', { username: `user${String(i).padStart(2, '0')}`, password: md5('P4ss!word'), roleid: roleId, name: `User ${i}` });
      expect(res.statusCode).toBe(200);
    }
    const page1 = (await get('/api/v1/userlist?pageindex=1&pagesize=20')).json();
    expect(page1.count).toBe(27);
    expect(page1.data).toHaveLength(20);
    expect(page1.data[0]).toMatchObject({ ID: 1, Username: 'admin', RoleName: 'admin' });
    const page2 = (await get('/api/v1/userlist?pageindex=2&pagesize=20')).json();
    expect(page2.data).toHaveLength(7);
    const search = (await get('/api/v1/userlist?q=user1')).json();
    expect(search.count).toBe(10);

    const dup = await post('/api/v1/adduser', { username: 'user01', password: md5('x'), roleid: roleId });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().msg).toBe('user01已存在');
    const badRole = await post('/api/v1/adduser', { username: 'zz', password: md5('x'), roleid: 999 });
    expect(badRole.statusCode).toBe(400);
    const badName = await post('/api/v1/adduser', { username: 'a b', password: md5('x'), roleid: roleId });
    expect(badName.statusCode).toBe(400);
    expect(badName.json().msg).toContain('username');
    expect((await get('/api/v1/userlist')).json().count).toBe(27);

    const target = page1.data.find((u: { Username: string }) => u.Username === 'user00').ID;
    const userTok = (await login(api.t, 'user00', 'P4ss!word')).token!;
    expect((await post('/api/v1/updateuser', { id: target, nick_name: 'Zero', password: md5('N3w!pass99') })).statusCode).toBe(200);
    // a password reset ends the user's sessions
    expect((await get('/api/v1/getuserinfo', userTok)).statusCode).toBe(401);
    expect((await login(api.t, 'user00', 'N3w!pass99')).res.statusCode).toBe(200);
    expect((await post('/api/v1/updateuser', { id: target, enable: 0 })).statusCode).toBe(200);
    expect((await login(api.t, 'user00', 'N3w!pass99')).res.statusCode).toBe(403);

    expect((await post('/api/v1/deleteuser', { id: target })).statusCode).toBe(200);
    expect((await get('/api/v1/userlist')).json().count).toBe(26);
    expect((await post('/api/v1/deleteuser', { id: target })).statusCode).toBe(404);
  });

  it('the admin cannot delete itself, nor remove the last admin', async () => {
    const self = await post('/api/v1/deleteuser', { id: 1 });
    expect(self.statusCode).toBe(400);
    expect(self.json().msg).toBe('不能删除当前登录用户');
    const { roleId } = await makeOperator(api.t, api.admin);
    const demote = await post('/api/v1/updateuser', { id: 1, roleid: roleId });
    expect(demote.statusCode).toBe(400);
    expect(demote.json().msg).toBe('不能删除最后一个管理员');
    // with a second admin, the first can be removed by the second
    await post('/api/v1/adduser', { username: 'admin2', password: md5('Adm1n!two'), roleid: 1 });
    const second = (await login(api.t, 'admin2', 'Adm1n!two')).token!;
    expect((await post('/api/v1/deleteuser', { id: 1 }, second)).statusCode).toBe(200);
    const secondId = (await get('/api/v1/getuserinfo', second)).json().EasyDarwin.Body.id;
    const last = await post('/api/v1/updateuser', { id: secondId, enable: 0 }, second);
    expect(last.statusCode).toBe(400);
    expect((await get('/api/v1/userlist', second)).json().data.filter((u: { RoleID: number; Enable: number }) => u.RoleID === 1 && u.Enable).length).toBe(1);
  });
});

describe('roles', () => {
  it('adds, renames, refuses duplicates and the built-in role, deletes only when unused', async () => {
    const add = await post('/api/v1/addrole', { name: 'guards', describe: 'night shift' });
    const id = add.json().EasyDarwin.Body.ID;
    expect((await post('/api/v1/addrole', { name: 'guards' })).statusCode).toBe(409);
    expect((await post('/api/v1/addrole', { name: 'admin' })).statusCode).toBe(409);
    expect((await post('/api/v1/addrole', { name: '' })).statusCode).toBe(400);
    expect((await post('/api/v1/role', { id, name: 'watch' })).statusCode).toBe(200);
    const builtin = await post('/api/v1/role', { id: 1, name: 'root' });
    expect(builtin.statusCode).toBe(400);
    expect(builtin.json().msg).toBe('不能修改或删除内置管理员角色');
    expect((await post('/api/v1/deleterole', { id: 1 })).statusCode).toBe(400);

    await post('/api/v1/adduser', { username: 'w1', password: md5('x'), roleid: id });
    const inUse = await post('/api/v1/deleterole', { id });
    expect(inUse.json().msg).toBe('角色仍有用户使用，不能删除');
    const list = (await get('/api/v1/rolelist')).json();
    expect(list.count).toBe(2);
    expect(list.data[1]).toMatchObject({ Name: 'watch', Describe: 'night shift', UserCount: 1, Builtin: 0 });
    const users = (await get('/api/v1/userlist?q=w1')).json();
    await post('/api/v1/deleteuser', { id: users.data[0].ID });
    expect((await post('/api/v1/deleterole', { id })).statusCode).toBe(200);
    expect((await get('/api/v1/rolelist')).json().count).toBe(1);
  });
});

describe('errors name what is missing in the request language', () => {
  it('a missing user or role reads in Chinese by default and in English when asked, never mixed', async () => {
    const zh = await get('/api/v1/getusertoken?id=999');
    expect(zh.statusCode).toBe(404);
    expect(zh.json().EasyDarwin.Header.ErrorString).toBe('用户 999不存在');
    const en = await api.t.app.inject({ url: '/api/v1/getusertoken?id=999', headers: { token: api.admin, 'accept-language': 'en-US' } });
    expect(en.json().EasyDarwin.Header.ErrorString).toBe('User 999 does not exist');
    // the console's language in the query wins over the browser's (websockets cannot set headers)
    const asked = await api.t.app.inject({ url: '/api/v1/getusertoken?id=999&lang=en-US', headers: { token: api.admin, 'accept-language': 'zh-CN' } });
    expect(asked.json().EasyDarwin.Header.ErrorString).toBe('User 999 does not exist');
    const role = await post('/api/v1/deleterole', { id: 999 });
    expect(role.statusCode).toBe(404);
    expect(JSON.stringify(role.json())).toContain('角色 999不存在');
  });
});
