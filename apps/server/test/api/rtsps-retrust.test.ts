/**
 * An administrator trusts an rtsps:// camera's new certificate (a firmware upgrade, a reset) without
 * changing its address: the channel lists give administrators the channel's TlsCert (the pin, and the
 * refused certificate's fingerprint while it is offline with tlsCertChanged), operators none; editchannel's
 * TlsPin pins the offered fingerprint, the running stream opens again and plays with the new
 * certificate, the checker finds it online at once. A malformed fingerprint, a pin for an rtsp://
 * channel and an operator's call are refused and change nothing. Real TLS on loopback: the GStreamer
 * camera (Digest) behind the TLS proxy fixture with openssl's certificates.
 */
import crypto from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_HUB_OPTIONS, type HubOptions } from '../../src/media/hub.js';
import { makeTestCerts, type KeyAndCert } from '../fixtures/tls-certs.js';
import { startTlsProxy, type TlsProxy } from '../fixtures/tls-proxy.js';
import { useCamera } from '../fixtures/use-camera.js';
import { until } from '../helpers/index.js';
import { useAdminApp, type AdminApp } from './admin-app.js';
import { makeOperator } from './support.js';
import { playWsFmp4 } from '../media/open-stream.js';

const certs = makeTestCerts();
afterAll(() => certs.remove());
const USER = 'viewer';
const PASS = 'S3cret!pass';
const cam = useCamera({ username: USER, password: PASS, auth: 'digest' });
let proxy: TlsProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

const fingerprint = (c: KeyAndCert) => new crypto.X509Certificate(c.cert).fingerprint256;

/**
 * Retries every 2.5 s: with a viewer's stream retrying every second beside the checker's round of a
 * second, the checker (which skips a channel whose stream is connecting) went 15 s without probing
 * it in 2 runs of 3 here.
 */
function steadyRetries(api: AdminApp) {
  (api.t.ctx.streams as unknown as { hubDefaults: Omit<HubOptions, 'onDemand'> }).hubDefaults = { ...DEFAULT_HUB_OPTIONS, graceMs: 60_000, retryMinMs: 2500, retryMaxMs: 2500 };
}

describe('trusting an rtsps:// camera new certificate', () => {
  // Checked every second: the changed certificate and the trusted one are seen within the test.
  const api = useAdminApp({ listen: true, overrides: { channelCheckInterval: 1 } });
  beforeEach(() => steadyRetries(api));

  async function addDevice(name: string, url: string) {
    const add = await api.post('/api/v1/adddevice', { DeviceName: name, DeviceType: 'RTSP', RtspUrl: url, DeviceUserName: USER, DeviceUserPW: PASS });
    expect(add.statusCode, add.body).toBe(200);
    return add.json().EasyDarwin.Body.DeviceID as string;
  }
  const row = async (dev: string, token?: string) => (await api.body(`/api/v1/channelsconfig?device=${dev}&lang=en-US`, token)).Channels[0];
  const pkOf = async (dev: string) => (await api.t.ctx.db.selectFrom('channels').select('id').where('parent_device_id', '=', dev).executeTakeFirstOrThrow()).id;
  const pinOf = async (dev: string) => (await api.t.ctx.db.selectFrom('channels').select('tls_pin').where('parent_device_id', '=', dev).executeTakeFirstOrThrow()).tls_pin;
  const edit = (body: object, token?: string) =>
    api.t.app.inject({ method: 'POST', url: '/api/v1/editchannel?lang=en-US', payload: { ChannelID: '1', ...body }, headers: { token: token ?? api.admin } });
  const play = async (dev: string) => (await playWsFmp4(api, dev)).hub;

  it('admins see the pin and the refused certificate, operators nothing; TlsPin trusts the new one and the channel plays again', async () => {
    proxy = await startTlsProxy(certs.selfSigned, cam.port);
    const dev = await addDevice('Protect', `rtsps://127.0.0.1:${proxy.port}${new URL(cam.url).pathname}`);
    const plain = await addDevice('Plain', cam.url);
    const op = await makeOperator(api.t, api.admin);
    const grant = await api.post('/api/v1/role/channels', { roleid: op.roleId, channels: [{ DeviceID: dev, ChannelID: '1' }] });
    expect(grant.statusCode, grant.body).toBe(200);

    const first = await play(dev);
    await until(() => first.state === 'live', 20_000, { what: 'the RTSPS stream live' });
    const oldPin = fingerprint(certs.selfSigned);
    await until(async () => (await row(dev)).Online === 1, 15_000, { what: 'the channel online' });
    expect((await row(dev)).TlsCert).toEqual({ State: 'pinned', Pin: oldPin });
    // Operators get no certificate state; an rtsp:// channel has none.
    const opRow = await row(dev, op.token);
    expect(opRow.ChannelID).toBe('1');
    expect(opRow.TlsCert).toBeUndefined();
    expect((await row(plain)).TlsCert).toBeUndefined();

    // The camera's certificate is replaced: refused, the channel offline saying so, the new fingerprint offered.
    proxy.setCertificate(certs.leaf);
    api.t.ctx.streams.restartChannel(await pkOf(dev));
    const refused = await play(dev);
    await until(() => refused.why?.key === 'tlsCertChanged', 20_000, { what: 'the changed certificate refused' });
    await until(async () => (await row(dev)).Online === 0, 15_000, { what: 'the checker to find the certificate changed' });
    const newPin = fingerprint(certs.leaf);
    expect((await row(dev)).TlsCert).toEqual({ State: 'pinned', Pin: oldPin, Presented: newPin });
    expect((await row(dev, op.token)).TlsCert).toBeUndefined();

    // Refused, nothing changed: an operator; a malformed fingerprint; a pin for an rtsp:// channel.
    expect((await edit({ DeviceID: dev, TlsPin: newPin }, op.token)).statusCode).toBe(403);
    for (const bad of [newPin.slice(0, -1), newPin.replace(/^../, 'ZZ'), `${newPin}:00`, 'AB:CD', newPin.replace(/:/g, '-')]) {
      const res = await edit({ DeviceID: dev, TlsPin: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().msg).toContain('TlsPin');
      expect(res.json().msg).toContain('a SHA-256 certificate fingerprint (64 hex digits, colons between pairs allowed), or empty to clear the pin');
    }
    const notRtsps = await edit({ DeviceID: plain, TlsPin: newPin });
    expect(notRtsps.statusCode).toBe(400);
    expect(notRtsps.json().msg).toContain('only an rtsps:// or https:// channel has a pinned certificate');
    expect(await pinOf(plain)).toBe('');
    expect(await pinOf(dev)).toBe(oldPin);
    expect(refused.state).not.toBe('live');

    // The administrator trusts the offered certificate (typed bare and lower case: stored in Node's form).
    const trust = await edit({ DeviceID: dev, TlsPin: newPin.replace(/:/g, '').toLowerCase() });
    expect(trust.statusCode, trust.body).toBe(200);
    expect(await pinOf(dev)).toBe(newPin);
    // The refused stream was stopped to open again; the viewer's reopen plays with the new certificate.
    expect(refused.state).toBe('stopped');
    const again = await play(dev);
    await until(() => again.state === 'live', 20_000, { what: 'the stream live with the trusted certificate' });
    await until(async () => (await row(dev)).Online === 1, 15_000, { what: 'the channel online again' });
    expect((await row(dev)).TlsCert).toEqual({ State: 'pinned', Pin: newPin });
    expect(await pinOf(dev)).toBe(newPin);
  }, 120_000);
});

describe('clearing an rtsps:// pin', () => {
  // A round every 30 s: what happens within seconds is the edit's own doing.
  const api = useAdminApp({ overrides: { channelCheckInterval: 30 } });
  const pinOf = async (dev: string) => (await api.t.ctx.db.selectFrom('channels').select('tls_pin').where('parent_device_id', '=', dev).executeTakeFirstOrThrow()).tls_pin;

  it('an empty TlsPin clears the pin and the checker probes the channel at once, pinning the certificate it meets', async () => {
    proxy = await startTlsProxy(certs.selfSigned, cam.port);
    const add = await api.post('/api/v1/adddevice', {
      DeviceName: 'Protect',
      DeviceType: 'RTSP',
      RtspUrl: `rtsps://127.0.0.1:${proxy.port}${new URL(cam.url).pathname}`,
      DeviceUserName: USER,
      DeviceUserPW: PASS,
    });
    expect(add.statusCode, add.body).toBe(200);
    const dev = add.json().EasyDarwin.Body.DeviceID as string;
    // The added channel's urgent probe pins it.
    await until(async () => (await pinOf(dev)) === fingerprint(certs.selfSigned), 10_000, { what: 'the checker to pin the certificate' });
    proxy.setCertificate(certs.leaf);

    const clear = await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', TlsPin: '' });
    expect(clear.statusCode, clear.body).toBe(200);
    // Not the next round (30 s away): the edit's probe takes the certificate the camera presents now.
    await until(async () => (await pinOf(dev)) === fingerprint(certs.leaf), 8_000, { what: 'the new certificate pinned afresh' });
    const row = (await api.body(`/api/v1/channelsconfig?device=${dev}`)).Channels[0];
    expect(row.Online).toBe(1);
    expect(row.TlsCert).toEqual({ State: 'pinned', Pin: fingerprint(certs.leaf) });
  }, 40_000);
});

describe('an rtsps:// camera an authority vouches for', () => {
  const api = useAdminApp({ overrides: { channelCheckInterval: 1, rtspsCaFile: certs.caFile } });

  it('is online with nothing pinned: TlsCert says an authority vouches for it', async () => {
    proxy = await startTlsProxy(certs.leaf, cam.port);
    const add = await api.post('/api/v1/adddevice', {
      DeviceName: 'CA',
      DeviceType: 'RTSP',
      RtspUrl: `rtsps://127.0.0.1:${proxy.port}${new URL(cam.url).pathname}`,
      DeviceUserName: USER,
      DeviceUserPW: PASS,
    });
    expect(add.statusCode, add.body).toBe(200);
    const dev = add.json().EasyDarwin.Body.DeviceID as string;
    const channel = async () => (await api.body(`/api/v1/channelsconfig?device=${dev}`)).Channels[0];
    // Before any connection: nothing pinned yet.
    expect((await channel()).TlsCert).toMatchObject({ Pin: '' });
    await until(async () => (await channel()).Online === 1, 15_000, { what: 'the checker to find the channel online' });
    expect((await channel()).TlsCert).toEqual({ State: 'authority', Pin: '' });
  }, 40_000);
});
