/**
 * https:// channels held to the rtsps:// certificate policy (access/tls/https-trust.ts): the stream
 * checker's probe in Node, and ffmpeg's fetches through the pull gateway (media/ingest/pull-gateway.ts).
 * A real HTTPS server on loopback serves a live HLS playlist of segments ffmpeg wrote; its certificate
 * (openssl's, tls-certs.ts) can be changed for the next handshakes. An authority's certificate plays
 * with nothing pinned; a self-signed one is pinned at first use and plays; another one later is
 * refused with tlsServerCertChanged by the pull and the probe before any request reaches the server; TlsPin
 * trusts it and it plays again; an authority's expired certificate is refused with tlsCertExpired.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_HUB_OPTIONS, type HubOptions } from '../../src/media/hub.js';
import { makeTestCerts, type KeyAndCert } from '../fixtures/tls-certs.js';
import { until } from '../helpers/index.js';
import { useAdminApp, type AdminApp } from '../api/admin-app.js';
import { addPulledDevice, playWsFmp4 } from './open-stream.js';

const SEGMENTS = 40;
const WINDOW = 3;
const certs = makeTestCerts();
let dir: string;
let server: https.Server | undefined;
/** Requests the server answered since it started or its certificate last changed. */
let requests: string[] = [];
/** When each playlist (one per test: /<name>/live.m3u8) was first asked for: it grows a segment a second from there. */
const started = new Map<string, number>();

const fingerprint = (c: KeyAndCert) => new crypto.X509Certificate(c.cert).fingerprint256;

function playlist(name: string): string {
  if (!started.has(name)) started.set(name, Date.now());
  const end = Math.min(SEGMENTS, WINDOW + Math.floor((Date.now() - started.get(name)!) / 1000));
  const first = end - WINDOW;
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:1', `#EXT-X-MEDIA-SEQUENCE:${first}`];
  for (let i = first; i < end; i++) lines.push('#EXTINF:1.000000,', `seg${i}.ts`);
  return lines.join('\n') + '\n';
}

async function serve(cert: KeyAndCert): Promise<number> {
  requests = [];
  server = https.createServer(cert, (req, res) => {
    requests.push(req.url ?? '');
    const [, name, file] = /^\/(\w+)\/([\w.]+)$/.exec(req.url ?? '') ?? [];
    if (name && file === 'live.m3u8') {
      res.writeHead(200, { 'Content-Type': 'application/vnd.apple.mpegurl' }).end(playlist(name));
      return;
    }
    const n = /^seg(\d+)\.ts$/.exec(file ?? '');
    if (!n || Number(n[1]) >= SEGMENTS) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'video/mp2t' }).end(fs.readFileSync(path.join(dir, file)));
  });
  // A client that gives up in the handshake (a refused certificate) is not the test's failure.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

function setCertificate(cert: KeyAndCert) {
  server!.setSecureContext(cert);
  requests = [];
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'https-pull-'));
  // 40 segments of 1 s (H.264, a keyframe each second).
  execFileSync('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=160x120:rate=25`, '-t', String(SEGMENTS),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-pix_fmt', 'yuv420p',
    '-f', 'hls', '-hls_time', '1', '-hls_list_size', '0', '-hls_segment_filename', path.join(dir, 'seg%d.ts'), path.join(dir, 'written.m3u8'),
  ]); // prettier-ignore
}, 60_000);

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  certs.remove();
});

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

/**
 * Retries every 2.5 s, and the stream kept without viewers (the test reads the hub's state): the
 * checker skips a channel whose stream is connecting or about to retry, so with retries a second
 * apart it never probed a refused one (as rtsps-retrust.test.ts found).
 */
function steadyRetries(api: AdminApp) {
  (api.t.ctx.streams as unknown as { hubDefaults: Omit<HubOptions, 'onDemand'> }).hubDefaults = { ...DEFAULT_HUB_OPTIONS, graceMs: 60_000, retryMinMs: 2500, retryMaxMs: 2500 };
}

function helpers(api: AdminApp) {
  return {
    addDevice: (name: string, url: string) => addPulledDevice(api, name, url),
    row: async (dev: string, lang = 'en-US') => (await api.body(`/api/v1/channelsconfig?device=${dev}&lang=${lang}`)).Channels[0],
    pinOf: async (dev: string) => (await api.t.ctx.db.selectFrom('channels').select('tls_pin').where('parent_device_id', '=', dev).executeTakeFirstOrThrow()).tls_pin,
    pkOf: async (dev: string) => (await api.t.ctx.db.selectFrom('channels').select('id').where('parent_device_id', '=', dev).executeTakeFirstOrThrow()).id,
    play: async (dev: string) => (await playWsFmp4(api, dev)).hub,
  };
}

describe('an https:// server no authority vouches for', () => {
  // Checked every second: the changed certificate and the trusted one are seen within the test.
  const api = useAdminApp({ overrides: { channelCheckInterval: 1 } });
  beforeEach(() => steadyRetries(api));
  const h = helpers(api);

  it('is pinned at first use and plays; another certificate is refused before any request; TlsPin trusts it and it plays again', async () => {
    const port = await serve(certs.selfSigned);
    const dev = await h.addDevice('Self-signed HLS', `https://127.0.0.1:${port}/self/live.m3u8`);
    const first = await h.play(dev);
    await until(() => first.state === 'live', 30_000, { what: 'the HLS stream live' });
    const oldPin = fingerprint(certs.selfSigned);
    expect(await h.pinOf(dev)).toBe(oldPin);
    await until(async () => (await h.row(dev)).Online === 1, 15_000, { what: 'the channel online' });
    expect((await h.row(dev)).TlsCert).toEqual({ State: 'pinned', Pin: oldPin });
    // ffmpeg fetched the segments (through the gateway), not only the probe its playlist.
    expect(requests.some((r) => /seg\d+\.ts$/.test(r))).toBe(true);

    // The server's certificate is replaced (or someone stands in for it): refused by the pull and the probe.
    setCertificate(certs.leaf);
    api.t.ctx.streams.restartChannel(await h.pkOf(dev));
    const refused = await h.play(dev);
    await until(() => refused.why?.key === 'tlsServerCertChanged', 20_000, { what: 'the changed certificate refused' });
    await until(async () => (await h.row(dev)).Online === 0, 15_000, { what: 'the checker to find the certificate changed' });
    const newPin = fingerprint(certs.leaf);
    const row = await h.row(dev);
    expect(row.TlsCert).toEqual({ State: 'pinned', Pin: oldPin, Presented: newPin });
    expect(row.StatusReason).toContain(`the stream server's TLS certificate is not the one pinned at the first connection (now SHA-256 ${newPin}, pinned ${oldPin})`);
    expect((await h.row(dev, 'zh-CN')).StatusReason).toContain(`流服务器的 TLS 证书与首次连接时记录的不同（现为 SHA-256 ${newPin}，记录为 ${oldPin}）`);
    expect(await h.pinOf(dev)).toBe(oldPin);
    // Nothing was fetched with the new certificate: every connection ended after its handshake.
    expect(requests).toEqual([]);

    const trust = await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', TlsPin: newPin });
    expect(trust.statusCode, trust.body).toBe(200);
    expect(await h.pinOf(dev)).toBe(newPin);
    const again = await h.play(dev);
    await until(() => again.state === 'live', 30_000, { what: 'the stream live with the trusted certificate' });
    await until(async () => (await h.row(dev)).Online === 1, 15_000, { what: 'the channel online again' });
    expect((await h.row(dev)).TlsCert).toEqual({ State: 'pinned', Pin: newPin });
  }, 120_000);
});

describe('an https:// server an authority vouches for', () => {
  const api = useAdminApp({ overrides: { channelCheckInterval: 1, httpsCaFile: certs.caFile } });
  beforeEach(() => steadyRetries(api));
  const h = helpers(api);

  it('plays and is online with nothing pinned: TlsCert says an authority vouches for it', async () => {
    const port = await serve(certs.leaf);
    const dev = await h.addDevice('CA HLS', `https://127.0.0.1:${port}/ca/live.m3u8`);
    const stream = await h.play(dev);
    await until(() => stream.state === 'live', 30_000, { what: 'the HLS stream live' });
    await until(async () => (await h.row(dev)).Online === 1, 15_000, { what: 'the channel online' });
    expect((await h.row(dev)).TlsCert).toEqual({ State: 'authority', Pin: '' });
    expect(await h.pinOf(dev)).toBe('');
  }, 60_000);

  it('an expired certificate is refused with tlsCertExpired, not pinned, and nothing is fetched', async () => {
    const port = await serve(certs.expired);
    const dev = await h.addDevice('Expired HLS', `https://127.0.0.1:${port}/expired/live.m3u8`);
    const stream = await h.play(dev);
    await until(() => stream.why?.key === 'tlsCertExpired', 20_000, { what: 'the expired certificate refused' });
    await until(async () => (await h.row(dev)).StatusReason === "the server's TLS certificate has expired", 15_000, { what: 'the checker to say the certificate expired' });
    expect((await h.row(dev)).Online).toBe(0);
    expect((await h.row(dev, 'zh-CN')).StatusReason).toBe('服务器的 TLS 证书已过期');
    expect(await h.pinOf(dev)).toBe('');
    expect(requests).toEqual([]);
    expect(stream.state).not.toBe('live');
  }, 60_000);
});
