import { describe, expect, it } from 'vitest';
import os from 'node:os';
import { buildApp } from '../../src/app.js';
import { useAdminApp } from './admin-app.js';
import { form } from './support.js';

const api = useAdminApp();
const { get } = api;

describe('configuration', () => {
  it('other-config: defaults, validated changes, DefaultPlayer and Version fixed, kept across a restart', async () => {
    const body = (await get('/api/v1/getotherconfig')).json().EasyDarwin.Body;
    expect(body).toEqual({
      Copyright: '© OpenCVR',
      Initial: false,
      DefaultPlayer: 'ep',
      Title: 'OpenCVR',
      Version: '3.7.3',
      RecordVersion: true,
      MapKey: '',
    });
    const set = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/setotherconfig',
      ...form({ Title: 'City CCTV', RecordVersion: 'false', MapKey: 'k1', DefaultPlayer: 'other', Version: '9' }, api.admin),
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().EasyDarwin.Body).toMatchObject({ Title: 'City CCTV', RecordVersion: false, DefaultPlayer: 'ep', Version: '3.7.3' });
    const tooLong = await api.t.app.inject({ method: 'POST', url: '/api/v1/setotherconfig', ...form({ Title: 'x'.repeat(65) }, api.admin) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().msg).toContain('Title');

    await api.t.app.close();
    const again = await buildApp(api.t.settings);
    try {
      const home = await again.app.inject({ url: '/api/v1/gethomeotherconfig' });
      expect(home.json().EasyDarwin.Body).toEqual({ Title: 'City CCTV', Version: '3.7.3', Copyright: '© OpenCVR', Initial: false, RecordVersion: false });
      const login = await again.app.inject({ url: '/api/v1/getloginconfig' });
      expect(login.json().EasyDarwin.Body).toMatchObject({ Title: 'City CCTV', Version: '3.7.3' });
    } finally {
      await again.app.close();
    }
  });

  it('module switches (v2 envelope) and the diagnostics base config', async () => {
    expect((await get('/api/v2/config/basic/switch')).json()).toEqual({ code: 200, msg: 'success', data: { ai_platform: false, vqd_show: false } });
    const on = await api.t.app.inject({ method: 'POST', url: '/api/v2/config/basic/switch', ...form({ ai_platform: 1 }, api.admin) });
    expect(on.json().data).toEqual({ ai_platform: true, vqd_show: false });
    const bad = await api.t.app.inject({ method: 'POST', url: '/api/v2/config/basic/switch', ...form({ vqd_show: 'maybe' }, api.admin) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 400, data: null });
    expect((await get('/api/v1/vqd/base_config')).json().EasyDarwin.Body).toEqual({ is_show: false });
    await api.t.app.inject({ method: 'POST', url: '/api/v1/vqd/base_config', payload: { is_show: true }, headers: { token: api.admin } });
    expect((await get('/api/v1/vqd/base_config')).json().EasyDarwin.Body).toEqual({ is_show: true });
  });
});

describe('system figures', () => {
  it('getserverinfo reports this machine', async () => {
    const b = (await get('/api/v1/getserverinfo')).json().EasyDarwin.Body;
    expect(b.CPUCount).toBe(os.cpus().length);
    expect(b.MemTotal).toBe(os.totalmem());
    expect(b.Hostname).toBe(os.hostname());
    expect(b.DiskTotal).toBeGreaterThan(0);
    expect(b.DiskUsed).toBeGreaterThan(0);
    expect(b.DiskPath).toBe(api.t.settings.dataDir);
    expect(b.Version).toBe('3.7.3');
    expect(b.Database).toBe(api.t.storage.engine);
    expect(b.RunningSeconds).toBeGreaterThanOrEqual(0);
  });

  it('state/device counts what the database holds', async () => {
    const now = new Date().toISOString();
    await api.t.ctx.db
      .insertInto('devices')
      .values([
        { device_id: 'd1', device_name: 'A', device_type: 'RTSP', online: 1, enable: 1, created_at: now },
        { device_id: 'd2', device_name: 'B', device_type: 'GB28181', online: 0, enable: 1, created_at: now },
      ])
      .execute();
    await api.t.ctx.db
      .insertInto('channels')
      .values([
        { channel_id: 'c1', parent_device_id: 'd1', name: 'c1', online: 1, enable: 1, created_at: now },
        { channel_id: 'c2', parent_device_id: 'd1', name: 'c2', online: 0, enable: 1, created_at: now },
        { channel_id: 'c3', parent_device_id: 'd2', name: 'c3', online: 0, enable: 1, created_at: now },
      ])
      .execute();
    const v2 = (await get('/api/v2/state/device')).json();
    expect(v2).toEqual({ code: 200, msg: 'success', data: { devices: { total: 2, online: 1 }, channels: { total: 3, online: 1 }, users: 1 } });
    expect((await get('/api/v1/state/device')).json().EasyDarwin.Body.channels.total).toBe(3);
    expect((await get('/api/v1/getserverinfo')).json().EasyDarwin.Body.ChannelCount).toBe(3);
    const top = (await get('/api/v2/state/top')).json().data;
    expect(top.memory.total).toBe(os.totalmem());
    expect(top.cpu).toBeGreaterThanOrEqual(0);
  });
});

describe('HTTP hygiene', () => {
  it('sends security headers, no CORS, and 404 in the envelope', async () => {
    const res = await api.t.app.inject({ url: '/api/v1/gethomeotherconfig', headers: { origin: 'http://evil.example' } });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const missing = await api.t.app.inject({ url: '/api/v1/nosuchcall', headers: { token: api.admin } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().EasyDarwin.Header.ErrorNum).toBe('404');
  });

  it('refuses a body over the limit and malformed JSON with a client error', async () => {
    const big = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/setotherconfig',
      headers: { token: api.admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ Title: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(big.statusCode).toBe(413);
    const broken = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/setotherconfig',
      headers: { token: api.admin, 'content-type': 'application/json' },
      payload: '{"Title":',
    });
    expect(broken.statusCode).toBe(400);
  });

  it('a 500 tells nothing of the internals', async () => {
    await api.t.ctx.db.schema.dropTable('news_state').execute();
    const res = await get('/api/v1/newslist');
    expect(res.statusCode).toBe(500);
    expect(res.json().msg).toBe('服务器内部错误');
    expect(res.body).not.toMatch(/news_state|at .*\.ts|stack/i);
  });

  it('serves the OpenAPI document', async () => {
    const res = await api.t.app.inject({ url: '/apidoc/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3/);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/login', '/api/v1/setinitial', '/api/v1/userlist']));
  });
});
