/**
 * devices/channelstreamalladdr (spec 7 "Channels and devices"; EasyCVR: `device`, `channel` → the URLs
 * of every protocol): opens the channel's stream like getchannelstream and answers the play URL of
 * every output (WS fMP4, HLS, FLV, WS-FLV, WebRTC), each with a play token for that stream when play
 * authentication is on, and the token's expiry. A non-admin gets it only for a channel of its role
 * (404 otherwise); bad parameters are 400, an unknown channel 404, a disabled channel 400.
 * Source: the GStreamer RTSP camera.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_HUB_OPTIONS, type HubOptions } from '../../src/media/hub.js';
import { playPaths } from '../../src/services/media/streams.js';
import { makeOperator } from './support.js';
import { useAdminApp } from './admin-app.js';
import { useCamera } from '../fixtures/use-camera.js';

const cam = useCamera();
const api = useAdminApp();
beforeEach(async () => {
  // Hubs opened here must outlive the slowest call of the test (the real grace is 10 s).
  (api.t.ctx.streams as unknown as { hubDefaults: Omit<HubOptions, 'onDemand'> }).hubDefaults = {
    ...DEFAULT_HUB_OPTIONS,
    graceMs: 60_000,
  };
});

/** Keys of the hubs that are open (not stopped). */
const openKeys = () =>
  api.t.ctx.streams.hubs
    .list()
    .filter((h) => h.state !== 'stopped')
    .map((h) => h.key);

const PROTOCOL_KEYS = ['FLV', 'HLS', 'WEBRTC', 'WS_FLV', 'WS_FMP4'];

const call = (token: string | undefined, query: Record<string, string | number>) =>
  api.t.app.inject({
    url: '/api/v1/devices/channelstreamalladdr',
    headers: token ? { token } : {},
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  });

const post = (url: string, payload: Record<string, unknown>, token = api.admin) =>
  api.t.app.inject({ method: 'POST', url, payload, headers: { token } });

async function addCamera(name: string, rtspUrl = cam.url) {
  const add = await post('/api/v1/adddevice', { DeviceName: name, DeviceType: 'RTSP', RtspUrl: rtspUrl });
  expect(add.statusCode, add.body).toBe(200);
  return add.json().EasyDarwin.Body.DeviceID as string;
}

interface AllAddr {
  URLs: Record<string, string>;
  Stream: string;
  ExpiresAt: number;
  UrlsExpireIn?: number;
}

/** Every protocol's URL is its play path plus a play token valid for this stream only. */
async function expectTokenUrls(body: AllAddr) {
  const paths = playPaths(body.Stream);
  expect(Object.keys(body.URLs).sort()).toEqual(PROTOCOL_KEYS);
  const tokens = new Set<string>();
  for (const p of PROTOCOL_KEYS) {
    const [path, query] = body.URLs[p].split('?');
    expect(path, p).toBe(paths[p as keyof typeof paths]);
    const token = new URLSearchParams(query).get('play_token');
    expect(token, p).toBeTruthy();
    tokens.add(token!);
    const check = await api.t.ctx.streams.checkToken(token!, body.Stream);
    expect(check.ok, p).toBe(true);
    // Bound to this stream: it does not open the other flow of the same channel.
    expect(
      (
        await api.t.ctx.streams.checkToken(
          token!,
          body.Stream.replace(/_(\d)$/, (_, f) => `_${1 - Number(f)}`),
        )
      ).ok,
      p,
    ).toBe(false);
  }
  expect(tokens.size).toBe(1);
}

describe('devices/channelstreamalladdr', () => {
  it('opens the stream and answers the URL of every protocol with a play token and its expiry', async () => {
    const dev = await addCamera('Gate');
    const before = Math.floor(Date.now() / 1000);
    const res = await call(api.admin, { device: dev, channel: '1' });
    expect(res.statusCode, res.body).toBe(200);
    const env = res.json().EasyDarwin;
    expect(env.Header).toMatchObject({ ErrorNum: '200', MessageType: 'MSG_SC_SERVER_CHANNEL_STREAM_ALL_ACK' });
    const body = env.Body as AllAddr;
    expect(body.Stream).toMatch(/^stream_\d+_0$/);
    await expectTokenUrls(body);
    // The token lives for the configured TokenTimeout (default 3600 s).
    const { TokenTimeout } = await api.t.ctx.config.get('play');
    expect(body.ExpiresAt).toBeGreaterThanOrEqual(before + TokenTimeout);
    expect(body.ExpiresAt).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + TokenTimeout);
    // The same end as a count by the server's clock, as channelstream gives it (a script on a host
    // whose clock differs renews in time).
    expect(body.UrlsExpireIn).toBeGreaterThan(TokenTimeout - 5);
    expect(body.UrlsExpireIn).toBeLessThanOrEqual(TokenTimeout);
    // The stream behind the URLs was opened (as getchannelstream does).
    const hub = api.t.ctx.streams.get(body.Stream);
    expect(hub).toBeDefined();
    expect(hub!.state).not.toBe('stopped');

    // The same addresses as getchannelstream gives for that stream.
    const open = await api.t.app.inject({
      url: '/api/v1/getchannelstream',
      headers: { token: api.admin },
      query: { device: dev, channel: '1' },
    });
    expect(open.json().EasyDarwin.Body.Stream).toBe(body.Stream);
    expect(Object.keys(open.json().EasyDarwin.Body.URLs).sort()).toEqual(Object.keys(body.URLs).sort());

    // stream=sub (or 1): the sub-stream's key and URLs.
    for (const stream of ['sub', 1]) {
      const sub = await call(api.admin, { device: dev, channel: '1', stream });
      expect(sub.statusCode, sub.body).toBe(200);
      const subBody = sub.json().EasyDarwin.Body as AllAddr;
      expect(subBody.Stream).toBe(body.Stream.replace(/_0$/, '_1'));
      await expectTokenUrls(subBody);
    }
    // stream=main: the main stream again.
    expect((await call(api.admin, { device: dev, channel: '1', stream: 'main' })).json().EasyDarwin.Body.Stream).toBe(
      body.Stream,
    );
  });

  it('with play authentication off the URLs are the bare play paths', async () => {
    await api.t.ctx.config.set('play', { PlayAuth: false });
    const dev = await addCamera('Gate');
    const res = await call(api.admin, { device: dev, channel: '1' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().EasyDarwin.Body as AllAddr;
    expect(body.URLs).toEqual(playPaths(body.Stream));
    expect(body.ExpiresAt).toBe(0);
    expect(body).not.toHaveProperty('UrlsExpireIn');
  });

  it('a non-admin gets the addresses only of the channels of its role', async () => {
    const mine = await addCamera('Mine');
    const other = await addCamera('Other');
    const op = await makeOperator(api.t, api.admin);

    // No channels granted yet: not found, and no stream opened on its behalf.
    const none = await call(op.token, { device: mine, channel: '1' });
    expect(none.statusCode, none.body).toBe(404);
    expect(openKeys()).toEqual([]);

    const grant = await post('/api/v1/role/channels', {
      roleid: op.roleId,
      channels: [{ DeviceID: mine, ChannelID: '1' }],
    });
    expect(grant.statusCode, grant.body).toBe(200);
    const ok = await call(op.token, { device: mine, channel: '1' });
    expect(ok.statusCode, ok.body).toBe(200);
    await expectTokenUrls(ok.json().EasyDarwin.Body as AllAddr);

    // The other device's channel stays hidden from the operator, and nothing of it was opened.
    const hidden = await call(op.token, { device: other, channel: '1' });
    expect(hidden.statusCode, hidden.body).toBe(404);
    expect(openKeys()).toEqual([ok.json().EasyDarwin.Body.Stream]);
    // The admin sees both.
    expect((await call(api.admin, { device: other, channel: '1' })).statusCode).toBe(200);
  });

  it('bad input: 400 for missing or malformed parameters, 404 for an unknown channel, 400 for a disabled one, 401 without login', async () => {
    const dev = await addCamera('Gate');
    const bad: Record<string, string | number>[] = [
      { channel: '1' },
      { device: dev },
      { device: dev, channel: '1', stream: 2 },
      { device: dev, channel: '1', stream: 'third' },
      { device: '', channel: '1' },
    ];
    for (const q of bad) {
      const res = await call(api.admin, q);
      expect(res.statusCode, JSON.stringify(q)).toBe(400);
      expect(res.json().EasyDarwin.Header.ErrorNum, JSON.stringify(q)).toBe('400');
    }
    expect((await call(api.admin, { device: dev, channel: '99' })).statusCode).toBe(404);
    expect((await call(api.admin, { device: '99999', channel: '1' })).statusCode).toBe(404);
    expect((await call(undefined, { device: dev, channel: '1' })).statusCode).toBe(401);

    // A disabled channel has no addresses.
    const edit = await post('/api/v1/editchannel', {
      ParentDeviceID: dev,
      ChannelID: '1',
      Name: 'Gate',
      RtspUrl: cam.url,
      Enable: 0,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const disabled = await call(api.admin, { device: dev, channel: '1' });
    expect(disabled.statusCode, disabled.body).toBe(400);
    expect(openKeys()).toEqual([]);
  });
});
