/** GB28181 settings: getbaseconfig/setbaseconfig and v2 config/device/access/gb (admin only, validated, applied live). */
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/index.js';
import { buildApp } from '../../src/app.js';
import { freePort } from '../fixtures/camera.js';
import { useAdminApp } from './admin-app.js';
import { form, initialise, makeOperator, md5, STRONG } from './support.js';

const api = useAdminApp();
const { get } = api;


describe('GB28181 settings', () => {
  it('answers the flat object with the password set at initialisation, to the admin only', async () => {
    const body = (await get('/api/v1/getbaseconfig')).json().EasyDarwin.Body;
    expect(body).toMatchObject({
      Serial: '34020000002000000001',
      Realm: '3402000000',
      Port: 15060,
      DevicePassword: 'sip12345',
      MediaTransport: 'UDP',
      WhiteSwitch: false,
      // The test app binds SIP_PORT=0 (any free port): the answer names the bound one.
      ListenPort: api.t.ctx.gb.port,
      PortFromEnv: true,
    });
    expect(body.ListenPort).toBeGreaterThan(0);
    const op = await makeOperator(api.t, api.admin);
    for (const url of ['/api/v1/getbaseconfig', '/api/v2/config/device/access/gb']) {
      const res = await get(url, op.token);
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('sip12345');
    }
    expect((await api.t.app.inject({ url: '/api/v1/getbaseconfig' })).statusCode).toBe(401);
    const set = await api.t.app.inject({ method: 'POST', url: '/api/v1/setbaseconfig', ...form({ Port: 5060 }, op.token) });
    expect(set.statusCode).toBe(403);
    expect((await api.t.ctx.config.get('gb')).Port).toBe(15060);
  });

  it('saves a form-encoded change, keeps it across a restart, and tells watchers at once', async () => {
    const seen: { Port: number; Serial: string }[] = [];
    api.t.ctx.config.onChange('gb', (next, prev) => seen.push({ Port: next.Port, Serial: prev.Serial }));
    const res = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/setbaseconfig',
      ...form({ Serial: '44010200492000000001', Realm: '4401020049', Port: 5061, Host: 'sip.example.org', MediaIP: '10.1.2.3', KeepaliveTimeout: 30, WhiteSwitch: 'on', MediaTransport: 'TCP', MediaTransportMode: 'active' }, api.admin),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().EasyDarwin.Body).toMatchObject({ Serial: '44010200492000000001', Port: 5061, WhiteSwitch: true, DevicePassword: 'sip12345' });
    expect(seen).toEqual([{ Port: 5061, Serial: '34020000002000000001' }]);

    await api.t.app.close();
    const again = await buildApp(api.t.settings);
    try {
      const login = await again.app.inject({ url: '/api/v1/login', query: { username: 'admin', password: md5(STRONG) } });
      const token = login.json().EasyDarwin.Body.Token as string;
      const v2 = (await again.app.inject({ url: '/api/v2/config/device/access/gb', headers: { token } })).json();
      expect(v2).toMatchObject({ code: 200, data: { Serial: '44010200492000000001', Realm: '4401020049', Host: 'sip.example.org', MediaIP: '10.1.2.3', KeepaliveTimeout: 30, MediaTransportMode: 'active' } });
    } finally {
      await again.app.close();
    }
  });

  it('refuses bad values and changes nothing', async () => {
    const before = await api.t.ctx.config.get('gb');
    const bad: Record<string, string | number>[] = [
      { Serial: '1234' },
      { Realm: 'abc' },
      { Port: 70000 },
      { Host: 'bad host!' },
      { MediaIP: '-x-' },
      { KeepaliveTimeout: 1 },
      { MediaTransport: 'SCTP' },
      { RtpPortMin: 40000, RtpPortMax: 30000 },
      { RtpPortMin: 31000, RtpPortMax: 31000 },
      { WhiteSwitch: 'maybe' },
    ];
    for (const payload of bad) {
      const res = await api.t.app.inject({ method: 'POST', url: '/api/v1/setbaseconfig', ...form(payload, api.admin) });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().msg).toBeTruthy();
    }
    // The RTP range is checked against the stored other end too.
    const half = await api.t.app.inject({ method: 'POST', url: '/api/v2/config/device/access/gb', headers: { token: api.admin, 'accept-language': 'en-US' }, payload: { RtpPortMin: 40000 } });
    expect(half.statusCode).toBe(400);
    expect(half.json()).toMatchObject({ code: 400, data: null });
    expect(half.json().msg).toContain('40000');
    expect(await api.t.ctx.config.get('gb')).toEqual(before);
  });

  it('v2 PUT and POST save JSON; SIP_PORT wins over Port', async () => {
    const put = await api.t.app.inject({ method: 'PUT', url: '/api/v2/config/device/access/gb', headers: { token: api.admin }, payload: { AckTimeout: 20, DevicePassword: 'n3w-secret' } });
    expect(put.json()).toMatchObject({ code: 200, data: { AckTimeout: 20, DevicePassword: 'n3w-secret' } });
    await api.t.close();
    const port = await freePort();
    // An app started with SIP_PORT set (on its own fresh storage), closed by this test.
    const again = await startTestApp({ overrides: { sipPort: port } });
    try {
      const token = await initialise(again);
      const base = await again.app.inject({ url: '/api/v1/getbaseconfig', headers: { token } });
      expect(base.json().EasyDarwin.Body).toMatchObject({ Port: 15060, ListenPort: port, PortFromEnv: true });
    } finally {
      await again.close();
    }
  });
});
