/**
 * The stream checker's probe of addresses that are not rtsp:// (stream-probe.ts): an HTTP(S) source
 * must answer 2xx (with the channel's credentials when it asks), RTMP must take a TCP connection;
 * rtsp:// still gets the RTSP probe, and a refused or malformed address says why.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeStream } from '../../src/access/stream-probe.js';
import { startTestApp, until } from '../helpers/index.js';
import { initialise } from '../api/support.js';

let server: http.Server;
let tcp: net.Server;
let base: string;
let tcpPort: number;
let closedPort: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/live.flv') {
      // An HTTP-FLV answer never ends: the probe must not wait for it.
      res.writeHead(200, { 'Content-Type': 'video/x-flv' });
      res.write('FLV');
      return;
    }
    if (req.url === '/private.flv') {
      if (req.headers.authorization === `Basic ${Buffer.from('cam:pa:ss').toString('base64')}`) res.writeHead(200).end();
      else res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="x"' }).end();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tcp = net.createServer((s) => s.destroy());
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  tcpPort = (tcp.address() as AddressInfo).port;
  const gone = net.createServer();
  await new Promise<void>((r) => gone.listen(0, '127.0.0.1', r));
  closedPort = (gone.address() as AddressInfo).port;
  await new Promise((r) => gone.close(r));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await new Promise((r) => tcp.close(r));
});

describe('probeStream', () => {
  it('HTTP: 2xx is online (an endless HTTP-FLV answer included), other statuses say which', async () => {
    expect(await probeStream(`${base}/live.flv`)).toMatchObject({ ok: true, status: 200 });
    expect(await probeStream(`${base}/x.m3u8`)).toMatchObject({ ok: false, status: 404, reason: '404 Not Found' });
  });

  it('HTTP: the channel’s credentials are sent when given', async () => {
    expect(await probeStream(`${base}/private.flv`)).toMatchObject({ ok: false, status: 401 });
    expect(await probeStream(`${base}/private.flv`, { username: 'cam', password: 'pa:ss' })).toMatchObject({ ok: true, status: 200 });
  });

  it('RTMP: a TCP connection is online, a refused one is not', async () => {
    expect(await probeStream(`rtmp://127.0.0.1:${tcpPort}/live/x`)).toMatchObject({ ok: true });
    expect(await probeStream(`rtmp://127.0.0.1:${closedPort}/live/x`)).toMatchObject({ ok: false, reason: 'connection refused' });
  });

  it('rtsp:// still goes to the RTSP probe; a malformed pull address is refused without a connection', async () => {
    expect(await probeStream(`rtsp://127.0.0.1:${closedPort}/s`)).toMatchObject({ ok: false, reason: 'connection refused' });
    expect(await probeStream('rtmp://127.0.0.1/a b')).toMatchObject({ ok: false, reason: expect.stringMatching(/spaces or control characters/) });
  });
});

describe('the stream checker with pulled addresses', () => {
  it('marks an HTTP-FLV channel online, and one whose server refuses offline with the reason', async () => {
    const t = await startTestApp({ overrides: { channelCheckInterval: 1 } });
    try {
      const token = await initialise(t);
      const add = async (name: string, url: string) => {
        const res = await t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token }, payload: { DeviceName: name, DeviceType: 'RTSP', RtspUrl: url } });
        expect(res.statusCode, res.body).toBe(200);
        return res.json().EasyDarwin.Body.DeviceID as string;
      };
      const channel = async (device: string) =>
        (await t.app.inject({ url: '/api/v1/channelsconfig', query: { device }, headers: { token } })).json().EasyDarwin.Body.Channels[0] as { Online: number; StatusReason: string };
      const up = await add('FLV', `${base}/live.flv`);
      const down = await add('RTMP gone', `rtmp://127.0.0.1:${closedPort}/live/x`);
      await until(async () => (await channel(up)).Online === 1, 15_000, { what: 'the HTTP-FLV channel online' });
      await until(async () => (await channel(down)).StatusReason, 15_000, { what: 'the RTMP channel checked' });
      expect(await channel(down)).toMatchObject({ Online: 0, StatusReason: '连接被拒绝' }) // the probe's reason, in the answer's language;
    } finally {
      await t.close();
    }
  }, 40_000);
});
