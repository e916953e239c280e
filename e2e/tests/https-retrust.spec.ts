/**
 * An https:// HLS channel held to the rtsps:// certificate policy, in Chromium against the real
 * server: a real HTTPS server (a self-signed certificate of the server tests' fixtures) serves a live
 * playlist of segments ffmpeg wrote; the stream checker pins its certificate at first use; the server
 * then presents another one, the channel goes offline with nothing fetched and the channel form shows
 * both fingerprints under the same section as an rtsps:// camera's (服务器证书); 信任新证书 and its confirmation
 * pin the new one, and the console's player plays the channel (ffmpeg through the pull gateway).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { makeTestCerts, type TestCerts } from '../../apps/server/test/fixtures/tls-certs';
import { addRtspDevice } from '../support/api';
import { expect, test } from '../support/fixtures';
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
    execFileSync('ffmpeg', [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25', '-t', String(SEGMENTS),
      '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-pix_fmt', 'yuv420p',
      '-f', 'hls', '-hls_time', '1', '-hls_list_size', '0', '-hls_segment_filename', path.join(dir, 'seg%d.ts'), path.join(dir, 'written.m3u8'),
    ]); // prettier-ignore
    const startedAt = Date.now();
    server = https.createServer(certs.selfSigned, (req, res) => {
      const name = (req.url ?? '/').split('?')[0].slice(1);
      requests.push(name);
      // Live: a segment a second from the server's start.
      const end = Math.min(SEGMENTS, WINDOW + Math.floor((Date.now() - startedAt) / 1000));
      if (name === 'live.m3u8') {
        const first = end - WINDOW;
        const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:1', `#EXT-X-MEDIA-SEQUENCE:${first}`];
        for (let i = first; i < end; i++) lines.push('#EXTINF:1.000000,', `seg${i}.ts`);
        res.writeHead(200, { 'Content-Type': 'application/vnd.apple.mpegurl' }).end(lines.join('\n') + '\n');
        return;
      }
      const n = /^seg(\d+)\.ts$/.exec(name);
      if (!n || Number(n[1]) >= end) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'video/mp2t' }).end(fs.readFileSync(path.join(dir, name)));
    });
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
