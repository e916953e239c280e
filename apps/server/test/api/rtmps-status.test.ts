/**
 * A channel pulled from an rtmps:// address whose server's certificate is not trusted is offline, and
 * the channel lists say why in the asker's language (the stream checker's play refuses the
 * certificate: access/rtmp/tls-connect.ts); the same server is online once its certificate is
 * trusted with RTMPS_CA_FILE. Real TLS: the RTMP double behind openssl's certificates.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { until } from '../helpers/index.js';
import { startRtmpServer, type RtmpServerDouble } from '../fixtures/rtmp-server.js';
import { makeTestCerts } from '../fixtures/tls-certs.js';
import { useAdminApp, type AdminApp } from './admin-app.js';

const certs = makeTestCerts();
afterAll(() => certs.remove());
let server: RtmpServerDouble | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A device pulling the double's published stream over rtmps://; its channel row as `lang` reads it, once checked. */
async function checkedChannel(api: AdminApp) {
  server = await startRtmpServer({ app: 'live', published: ['cam1'], tls: certs.selfSigned });
  const add = await api.post('/api/v1/adddevice', {
    DeviceName: 'Ingest',
    DeviceType: 'RTSP',
    RtspUrl: server.url('live/cam1'),
  });
  const dev = add.json().EasyDarwin.Body.DeviceID as string;
  const row = async (lang: string) => (await api.body(`/api/v1/channels?device=${dev}&lang=${lang}`)).Channels[0];
  return { dev, row };
}

describe('an rtmps:// channel whose server has a self-signed certificate', () => {
  const api = useAdminApp();

  it('is offline, the certificate’s problem its StatusReason', async () => {
    const { row } = await checkedChannel(api);
    await until(async () => (await row('zh-CN')).StatusReason, 15_000, {
      what: 'the checker to mark the channel offline',
    });
    expect(await row('zh-CN')).toMatchObject({
      Online: 0,
      StatusReason: '服务器的 TLS 证书是自签名证书，不受信任（可用 RTMPS_CA_FILE 信任它）',
    });
    expect((await row('en-US')).StatusReason).toBe(
      "the server's TLS certificate is self-signed and not trusted (RTMPS_CA_FILE can trust it)",
    );
    expect(server!.plays).toEqual([]);
  }, 30_000);
});

describe('the same, its certificate trusted with RTMPS_CA_FILE', () => {
  const api = useAdminApp({ overrides: { rtmpsCaFile: certs.selfSigned.file } });

  it('is online', async () => {
    const { row } = await checkedChannel(api);
    await until(async () => (await row('en-US')).Online === 1, 15_000, {
      what: 'the checker to mark the channel online',
    });
    expect(server!.plays.length).toBeGreaterThanOrEqual(1);
  }, 30_000);
});
