/**
 * An https:// HLS channel held to the rtsps:// certificate policy, in Chromium against the real
 * server: a real HTTPS server (a self-signed certificate of the server tests' fixtures) serves a live
 * playlist of segments ffmpeg wrote; the stream checker pins its certificate at first use; the server
 * then presents another one, the channel goes offline with nothing fetched and the channel form shows
 * both fingerprints under the same section as an rtsps:// camera's (服务器证书); 信任新证书 and its confirmation
 * pin the new one, and the console's player plays the channel (ffmpeg through the pull gateway).
 */
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { makeTestCerts, type TestCerts } from '../../apps/server/test/fixtures/tls-certs';
import { addRtspDevice } from '../support/api';
import { expect, test } from '../support/fixtures';
import { liveHlsHandler, writeHlsSegments } from '../support/hls-source';
import { expectAdvancing, openAs } from '../support/page';
import { fingerprint, firstChannel, trustPresentedInForm } from '../support/tls-cert';

const RUN = Date.now().toString(36);
const SEGMENTS = 120;
const WINDOW = 3;
test.describe.configure({ mode: 'serial', timeout: 150_000 });

test.describe('trusting an https:// HLS server new certificate', () => {
  let certs: TestCerts | undefined;
  let dir = '';
  let server: https.Server | undefined;
  let dev = '';
  /** Requests since the certificate last changed. */
  let requests: string[] = [];

  test.beforeAll(async ({ api, admin }) => {
    certs = makeTestCerts();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-https-hls-'));
    writeHlsSegments(dir, SEGMENTS, '160x120');
    const startedAt = Date.now();
    // Live: a segment a second from the server's start.
    const end = () => Math.min(SEGMENTS, WINDOW + Math.floor((Date.now() - startedAt) / 1000));
    server = https.createServer(certs.selfSigned, liveHlsHandler({ dir, window: WINDOW, end, onRequest: (name) => requests.push(name) }));
    // The server's refused handshakes are not the test's failure.
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    dev = await addRtspDevice(api, admin.Token, `E2E HTTPS ${RUN}`, `https://127.0.0.1:${(server.address() as AddressInfo).port}/live.m3u8`);
  });
  test.afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    fs.rmSync(dir, { recursive: true, force: true });
    certs?.remove();
  });

  test('the form shows both fingerprints, 信任新证书 pins the new one and the channel plays again', async ({ page, api, admin }) => {
    const channel = () => firstChannel(api, admin.Token, dev);
    const oldPin = fingerprint(certs!.selfSigned);
    const newPin = fingerprint(certs!.leaf);
    // The checker (every second here) pins the server's certificate at first use.
    await expect.poll(async () => (await channel()).TlsCert, { timeout: 20_000 }).toEqual({ State: 'pinned', Pin: oldPin });

    server!.setSecureContext(certs!.leaf);
    requests = [];
    await expect.poll(async () => (await channel()).TlsCert?.Presented, { timeout: 20_000 }).toBe(newPin);
    expect((await channel()).Online).toBe(0);
    // Refused after the handshake, before any request.
    expect(requests).toEqual([]);

    // The section speaks of a stream server (服务器证书).
    await trustPresentedInForm(page, admin, dev, '服务器证书', oldPin, newPin);
    await expect.poll(async () => (await channel()).Online, { timeout: 20_000 }).toBe(1);
    expect((await channel()).TlsCert).toEqual({ State: 'pinned', Pin: newPin });

    // And it plays: ffmpeg's fetches through the pull gateway take the new certificate.
    await openAs(page, admin, `/video/player/${dev}/1/0`);
    const player = page.getByTestId('live-player');
    await expectAdvancing(player.locator('video'), 'HTTPS HLS player');
    await expect(player).toHaveAttribute('data-phase', 'playing');
    expect(requests.some((r) => /^seg\d+\.ts$/.test(r))).toBe(true);
  });
});
