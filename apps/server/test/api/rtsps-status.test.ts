/**
 * The stream checker holds rtsps:// cameras to the pull's certificate policy
 * (access/tls/rtsps-trust.ts): a self-signed camera that nobody plays is online and its certificate
 * pinned for the channel by the checker's own probe; once the camera presents another certificate
 * the channel is offline, the lists saying why in the asker's language. Real TLS on loopback: the
 * GStreamer camera (Digest) behind a TLS proxy with openssl's certificates.
 */
import crypto from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { makeTestCerts } from '../fixtures/tls-certs.js';
import { startTlsProxy, type TlsProxy } from '../fixtures/tls-proxy.js';
import { useCamera } from '../fixtures/use-camera.js';
import { until } from '../helpers/index.js';
import { useAdminApp } from './admin-app.js';

const certs = makeTestCerts();
afterAll(() => certs.remove());
const cam = useCamera({ username: 'viewer', password: 'S3cret!pass', auth: 'digest' });
let proxy: TlsProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

describe('an rtsps:// channel checked, not played', () => {
  // Checked every second, so the changed certificate is seen within the test.
  const api = useAdminApp({ overrides: { channelCheckInterval: 1 } });

  it('is online with its certificate pinned by the check, and offline with tlsCertChanged once the certificate changes', async () => {
    proxy = await startTlsProxy(certs.selfSigned, cam.port);
    const add = await api.post('/api/v1/adddevice', {
      DeviceName: 'Protect',
      DeviceType: 'RTSP',
      RtspUrl: `rtsps://127.0.0.1:${proxy.port}${new URL(cam.url).pathname}`,
      DeviceUserName: 'viewer',
      DeviceUserPW: 'S3cret!pass',
    });
    expect(add.statusCode, add.body).toBe(200);
    const dev = add.json().EasyDarwin.Body.DeviceID as string;
    const row = async (lang: string) => (await api.body(`/api/v1/channels?device=${dev}&lang=${lang}`)).Channels[0];
    const pin = async () => (await api.t.ctx.db.selectFrom('channels').select('tls_pin').where('parent_device_id', '=', dev).executeTakeFirstOrThrow()).tls_pin;

    await until(async () => (await row('en-US')).Online === 1, 15_000, { what: 'the checker to find the channel online' });
    // Nobody played it: the checker's probe pinned it.
    expect(api.t.ctx.streams.hubs.list()).toEqual([]);
    const pinned = new crypto.X509Certificate(certs.selfSigned.cert).fingerprint256;
    expect(await pin()).toBe(pinned);

    proxy.setCertificate(certs.leaf);
    await until(async () => (await row('en-US')).Online === 0, 15_000, { what: 'the checker to find the certificate changed' });
    const presented = new crypto.X509Certificate(certs.leaf.cert).fingerprint256;
    expect((await row('en-US')).StatusReason).toBe(
      `the camera's TLS certificate is not the one pinned at the first connection (now SHA-256 ${presented}, pinned ${pinned}): refused; if it was replaced on purpose, an administrator checks the fingerprint and trusts the new certificate on the channel's edit page`,
    );
    expect((await row('zh-CN')).StatusReason).toContain(`摄像机的 TLS 证书与首次连接时记录的不同（现为 SHA-256 ${presented}，记录为 ${pinned}）`);
    expect(await pin()).toBe(pinned);
    // The camera got no request inside the new certificate's connections.
    expect(proxy.bytesIn).toBe(0);
  }, 40_000);
});
