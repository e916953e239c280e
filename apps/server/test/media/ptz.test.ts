/**
 * PTZ of ONVIF channels against the ONVIF responder (answers recorded from real cameras): the SOAP
 * request the device receives for each command (direction → velocity sign, speed 1-100 → 0.01-1,
 * stop of pan/tilt and zoom), presets, credentials, the role check and the device's errors.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeOperator } from '../api/support.js';
import { startOnvifResponder, type OnvifResponder } from '../fixtures/onvif-responder.js';
import { resetPtzClients } from '../../src/access/onvif/ptz.js';
import { useAdminApp } from '../api/admin-app.js';

let cam: OnvifResponder;
// Registered before useAdminApp(): the device is up before the app starts and closed after the app.
beforeEach(async () => {
  resetPtzClients();
  cam = await startOnvifResponder({ username: 'admin', password: 'cam-secret' });
});
afterEach(async () => {
  await cam.close();
});
const api = useAdminApp();
const { get } = api;
async function addOnvif(password = 'cam-secret') {
  const res = await api.t.app.inject({
    method: 'POST',
    url: '/api/v1/adddevice',
    headers: { token: api.admin },
    payload: { DeviceName: 'Dome', DeviceType: 'ONVIF', DeviceIp: '127.0.0.1', DevicePort: cam.port, DeviceUserName: 'admin', DeviceUserPW: password, RtspUrl: 'rtsp://127.0.0.1:1/unused' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body.DeviceID as string;
}
/** The last request of an action, with the PTZ element's body. */
const last = (action: string) => [...cam.requests].reverse().find((r) => r.action === action)!;
const attr = (xml: string, el: string) => {
  const m = new RegExp(`<${el}\\b([^>]*)/?>`).exec(xml);
  return m ? Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]])) : undefined;
};

describe('ptzcontrol', () => {
  it('turns each direction into a ContinuousMove velocity and stop into Stop', async () => {
    const dev = await addOnvif();
    const cases: [string, number, { x?: string; y?: string; zoom?: string }][] = [
      ['up', 50, { x: '0', y: '0.5', zoom: '0' }],
      ['down', 100, { x: '0', y: '-1', zoom: '0' }],
      ['left', 30, { x: '-0.3', y: '0', zoom: '0' }],
      ['right', 1, { x: '0.01', y: '0', zoom: '0' }],
      ['upleft', 20, { x: '-0.2', y: '0.2', zoom: '0' }],
      ['upright', 20, { x: '0.2', y: '0.2', zoom: '0' }],
      ['downleft', 70, { x: '-0.7', y: '-0.7', zoom: '0' }],
      ['downright', 70, { x: '0.7', y: '-0.7', zoom: '0' }],
      ['zoomin', 40, { x: '0', y: '0', zoom: '0.4' }],
      ['zoomout', 40, { x: '0', y: '0', zoom: '-0.4' }],
    ];
    for (const [command, speed, want] of cases) {
      const res = await get(`/api/v1/ptzcontrol?device=${dev}&channel=1&command=${command}&speed=${speed}`);
      expect(res.statusCode, `${command}: ${res.body}`).toBe(200);
      expect(res.json().EasyDarwin.Header).toMatchObject({ MessageType: 'MSG_SC_PTZ_CONTROL_ACK', ErrorNum: '200' });
      const body = last('ContinuousMove').body;
      // the profile of the device's first media profile (GetProfiles recording)
      expect(body).toMatch(/<ProfileToken>[^<]+<\/ProfileToken>/);
      expect({ ...attr(body, 'PanTilt'), zoom: attr(body, 'Zoom')?.x }).toMatchObject({ x: want.x, y: want.y, zoom: want.zoom });
    }
    expect(cam.requests.filter((r) => r.action === 'ContinuousMove')).toHaveLength(cases.length);
    // one connection handshake for the whole burst
    expect(cam.actions.filter((a) => a === 'GetSystemDateAndTime')).toHaveLength(1);

    const stop = await get(`/api/v1/ptzcontrol?device=${dev}&channel=1&command=stop`);
    expect(stop.statusCode).toBe(200);
    expect(last('Stop').body).toMatch(/<PanTilt>true<\/PanTilt><Zoom>true<\/Zoom>/);
    // the default speed is 50
    await get(`/api/v1/ptzcontrol?device=${dev}&channel=1&command=right`);
    expect(attr(last('ContinuousMove').body, 'PanTilt')).toMatchObject({ x: '0.5', y: '0' });
  });

  it('validates the command and speed', async () => {
    const dev = await addOnvif();
    expect((await get(`/api/v1/ptzcontrol?device=${dev}&channel=1&command=spin`)).statusCode).toBe(400);
    expect((await get(`/api/v1/ptzcontrol?device=${dev}&channel=1&command=up&speed=0`)).statusCode).toBe(400);
    expect((await get(`/api/v1/ptzcontrol?device=${dev}&channel=1&command=up&speed=101`)).statusCode).toBe(400);
    expect(cam.requests.some((r) => r.action === 'ContinuousMove')).toBe(false);
  });

  it('uses the channel\'s ONVIF service URL and its credentials; a wrong password is the device\'s refusal', async () => {
    const res = await api.t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token: api.admin }, payload: { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: 'rtsp://127.0.0.1:1/x' } });
    const dev = res.json().EasyDarwin.Body.DeviceID as string;
    // an RTSP channel without an ONVIF URL has no PTZ, said in one language
    const none = await get(`/api/v1/ptzcontrol?device=${dev}&channel=1&command=up`);
    expect(none.statusCode).toBe(400);
    expect(none.json().msg).toBe('该通道不支持云台控制（不是 ONVIF 或 GB28181 通道）');
    const edit = (onvif: string) =>
      api.t.app.inject({ method: 'POST', url: '/api/v1/editchannel', headers: { token: api.admin }, payload: { DeviceID: dev, ChannelID: '1', Onvif: onvif } });
    expect((await edit(`http://admin:wrong@127.0.0.1:${cam.port}/onvif/device_service`)).statusCode).toBe(200);
    const refused = await get(`/api/v1/ptzcontrol?device=${dev}&channel=1&command=up`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toMatch(/127\.0\.0\.1/);
    expect((await edit(`http://admin:cam-secret@127.0.0.1:${cam.port}/onvif/device_service`)).statusCode).toBe(200);
    const ok = await get(`/api/v1/ptzcontrol?device=${dev}&channel=1&command=zoomin&speed=10`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(last('ContinuousMove').path).toBe('/onvif/services'); // the PTZ XAddr's path, on the address we were given
    expect(attr(last('ContinuousMove').body, 'Zoom')).toMatchObject({ x: '0.1' });
  });

  it('an unreachable device is a 502 with the address', async () => {
    const dev = await addOnvif();
    await cam.close();
    const res = await get(`/api/v1/ptzcontrol?device=${dev}&channel=1&command=up`);
    expect(res.statusCode).toBe(502);
    expect(res.json().msg).toContain(`127.0.0.1:${cam.port}`);
  });
});

describe('ONVIF presets', () => {
  it('lists, sets (name escaped), goes to and removes presets', async () => {
    const dev = await addOnvif();
    const list = await get(`/api/v1/onvifgetpresetlist?device=${dev}&channel=1`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().EasyDarwin.Body).toEqual({
      PresetCount: 4,
      Presets: [
        { Token: 'P001', Name: 'P001' },
        { Token: 'P002', Name: 'P002' },
        { Token: 'P003', Name: 'P003' },
        { Token: 'Home', Name: 'Home' },
      ],
    });

    const set = await get(`/api/v1/onvifsetpreset?device=${dev}&channel=1&name=${encodeURIComponent('Gate <north> & "yard"')}`);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().EasyDarwin.Body).toEqual({ Token: '20', Name: 'Gate <north> & "yard"' });
    expect(last('SetPreset').body).toContain('<PresetName>Gate &lt;north&gt; &amp; &quot;yard&quot;</PresetName>');
    // An existing preset's token overwrites it; a number that is no preset of the camera's yet (the
    // console saves under a number) creates one without a token, the device naming it (ONVIF's
    // SetPreset: an unknown token is the NoToken fault).
    expect((await get(`/api/v1/onvifsetpreset?device=${dev}&channel=1&token=P002&name=Door`)).statusCode).toBe(200);
    expect(last('SetPreset').body).toContain('<PresetToken>P002</PresetToken>');
    const added = await get(`/api/v1/onvifsetpreset?device=${dev}&channel=1&token=5&name=${encodeURIComponent('预置位 5')}`);
    expect(added.statusCode, added.body).toBe(200);
    expect(last('SetPreset').body).not.toContain('PresetToken');
    expect(added.json().EasyDarwin.Body).toEqual({ Token: '20', Name: '预置位 5' });

    const go = await get(`/api/v1/onvifgotopreset?device=${dev}&channel=1&token=P002`);
    expect(go.statusCode).toBe(200);
    expect(go.json().EasyDarwin.Header.MessageType).toBe('MSG_SC_PTZ_GOTO_PRESET_ACK');
    expect(last('GotoPreset').body).toContain('<PresetToken>P002</PresetToken>');

    const rm = await get(`/api/v1/onvifremovepreset?device=${dev}&channel=1&token=P003`);
    expect(rm.statusCode).toBe(200);
    expect(last('RemovePreset').body).toContain('<PresetToken>P003</PresetToken>');
    // a token that could break the SOAP body is refused before it reaches the device
    expect((await get(`/api/v1/onvifremovepreset?device=${dev}&channel=1&token=${encodeURIComponent('</PresetToken>')}`)).statusCode).toBe(400);
  });

  it('a user sees and steers only the channels of their role', async () => {
    const dev = await addOnvif();
    const op = await makeOperator(api.t, api.admin);
    expect((await get(`/api/v1/ptzcontrol?device=${dev}&channel=1&command=up`, op.token)).statusCode).toBe(404);
    expect((await get(`/api/v1/onvifgetpresetlist?device=${dev}&channel=1`, op.token)).statusCode).toBe(404);
    expect(cam.requests.some((r) => r.action === 'ContinuousMove')).toBe(false);
    await api.t.app.inject({ method: 'POST', url: '/api/v1/role/channels', headers: { token: api.admin }, payload: { roleid: op.roleId, channels: [{ DeviceID: dev, ChannelID: '1' }] } });
    expect((await get(`/api/v1/ptzcontrol?device=${dev}&channel=1&command=up`, op.token)).statusCode).toBe(200);
    expect((await api.t.app.inject({ url: `/api/v1/ptzcontrol?device=${dev}&channel=1&command=up` })).statusCode).toBe(401);
  });
});
