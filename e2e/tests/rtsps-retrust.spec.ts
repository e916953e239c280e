/**
 * An administrator trusts an rtsps:// camera's replaced certificate from the channel form, in
 * Chromium against the real server: the GStreamer camera behind a TLS proxy (the server tests'
 * fixtures) with a self-signed certificate, pinned by the stream checker at first use; the proxy then
 * presents another certificate (a camera reset), the channel goes offline and the form shows both
 * fingerprints; 信任新证书 and its confirmation (both fingerprints) pin the new one, and the channel
 * plays again in the console's player with the new certificate.
 */
import { makeTestCerts, type TestCerts } from '../../apps/server/test/fixtures/tls-certs';
import { startTlsProxy, type TlsProxy } from '../../apps/server/test/fixtures/tls-proxy';
import { addRtspDevice } from '../support/api';
import { startCamera, type Camera } from '../support/camera';
import { expect, test } from '../support/fixtures';
import { expectAdvancing, openAs } from '../support/page';
import { fingerprint, firstChannel, trustPresentedInForm } from '../support/tls-cert';

const RUN = Date.now().toString(36);
test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.describe('trusting an rtsps:// camera new certificate', () => {
  let certs: TestCerts | undefined;
  let camera: Camera | undefined;
  let proxy: TlsProxy | undefined;
  let dev = '';

  test.beforeAll(async ({ api, admin }) => {
    certs = makeTestCerts();
    camera = await startCamera();
    proxy = await startTlsProxy(certs.selfSigned, camera.port);
    dev = await addRtspDevice(api, admin.Token, `E2E RTSPS ${RUN}`, `rtsps://127.0.0.1:${proxy.port}${new URL(camera.url).pathname}`);
  });
  test.afterAll(async () => {
    await proxy?.close();
    await camera?.stop();
    certs?.remove();
  });

  test('the form shows both fingerprints, 信任新证书 pins the new one and the channel plays again', async ({ page, api, admin }) => {
    const channel = () => firstChannel(api, admin.Token, dev);
    const oldPin = fingerprint(certs!.selfSigned);
    const newPin = fingerprint(certs!.leaf);
    // The checker (every second here) pins the camera's certificate at first use.
    await expect.poll(async () => (await channel()).TlsCert, { timeout: 20_000 }).toEqual({ State: 'pinned', Pin: oldPin });

    proxy!.setCertificate(certs!.leaf);
    await expect.poll(async () => (await channel()).TlsCert?.Presented, { timeout: 20_000 }).toBe(newPin);
    expect((await channel()).Online).toBe(0);

    // The section speaks of a camera (摄像机证书).
    await trustPresentedInForm(page, admin, dev, '摄像机证书', oldPin, newPin);
    await expect.poll(async () => (await channel()).Online, { timeout: 20_000 }).toBe(1);
    expect((await channel()).TlsCert).toEqual({ State: 'pinned', Pin: newPin });

    // And it plays, with the new certificate.
    await openAs(page, admin, `/video/player/${dev}/1/0`);
    const player = page.getByTestId('live-player');
    await expectAdvancing(player.locator('video'), 'RTSPS player');
    await expect(player).toHaveAttribute('data-phase', 'playing');
  });
});
