/** Checks useAdminApp itself: a fresh initialised app per test, the admin's token, calls bound to both. */
import { afterAll, describe, expect, it } from 'vitest';
import { useAdminApp } from './admin-app.js';

describe('useAdminApp', () => {
  const api = useAdminApp();
  const seen: string[] = [];

  it('gives a test an initialised app and the admin token, bound into get/body/post/postForm', async () => {
    seen.push(api.t.settings.dataDir);
    expect((await api.body('/api/v1/getuserinfo')).name).toBe('admin');
    expect((await api.body('/api/v1/gethomeotherconfig')).Initial).toBe(false);
    const added = await api.post('/api/v1/addlabel', { name: 'Site', parentid: 0 });
    expect(added.statusCode, added.body).toBe(200);
    const role = await api.postForm('/api/v1/addrole', { name: 'operators', describe: 'x' });
    expect(role.statusCode, role.body).toBe(200);
    // Another token instead of the admin's.
    expect((await api.get('/api/v1/userlist', 'not-a-token')).statusCode).toBe(401);
  });

  it('gives the next test a fresh app on fresh storage', async () => {
    expect(api.t.settings.dataDir).not.toBe(seen[0]);
    // Only the built-in role: the one added by the test before is not here.
    expect((await api.get('/api/v1/rolelist')).json().count).toBe(1);
  });

  afterAll(() => {
    // Outside a test there is no app to hand out.
    expect(() => api.t).toThrow(/only inside a test/);
  });
});
