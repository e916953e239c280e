/** Shared steps of the API tests: log in, finish initialisation, make users of a role. */
import crypto from 'node:crypto';
import type { TestApp } from '../helpers/index.js';

export const md5 = (s: string) => crypto.createHash('md5').update(s).digest('hex');
export const STRONG = 'Str0ng!Pass';

export type Inject = TestApp['app']['inject'];

export async function login(t: TestApp, username: string, password: string, remoteAddress = '127.0.0.1') {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/v1/login',
    query: { username, password: md5(password) },
    remoteAddress,
  });
  return { res, token: res.statusCode === 200 ? (res.json().EasyDarwin.Body.Token as string) : undefined };
}

/** A form-encoded POST body, as the console sends for users, roles and config; with the token when given. */
export function form(payload: Record<string, string | number | boolean>, token?: string) {
  return {
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(token ? { token } : {}) },
    payload: new URLSearchParams(Object.entries(payload).map(([k, v]): [string, string] => [k, String(v)])).toString(),
  };
}

/** Runs first-run initialisation and returns a fresh admin token with the new password. */
export async function initialise(t: TestApp, newPassword = STRONG): Promise<string> {
  const { token } = await login(t, 'admin', 'admin');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/setinitial',
    headers: { token: token! },
    payload: { SipPassword: 'sip12345', EhomePassword: 'ehome123', OldPassword: md5('admin'), NewPassword: newPassword },
  });
  if (res.statusCode !== 200) throw new Error(`setinitial failed: ${res.body}`);
  const again = await login(t, 'admin', newPassword);
  return again.token!;
}

/** Adds a role and a user of it; returns the user's token. */
export async function makeOperator(t: TestApp, adminToken: string, username = 'op1', password = 'Op3rator!x') {
  const role = await t.app.inject({
    method: 'POST',
    url: '/api/v1/addrole',
    ...form({ name: `role-${username}`, describe: 'operators' }, adminToken),
  });
  const roleId = role.json().EasyDarwin.Body.ID as number;
  const user = await t.app.inject({
    method: 'POST',
    url: '/api/v1/adduser',
    ...form({ username, password: md5(password), roleid: roleId }, adminToken),
  });
  const userId = user.json().EasyDarwin.Body.ID as number;
  const { token } = await login(t, username, password);
  return { token: token!, userId, roleId, password };
}
