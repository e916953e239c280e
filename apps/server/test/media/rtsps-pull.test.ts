/**
 * rtsps:// channels play through the server's own RTSP client inside TLS (rtsp-source.ts over
 * access/tls/rtsps-trust.ts), not ffmpeg, with real TLS on loopback: a TLS proxy (tls-proxy.ts) with
 * openssl-made certificates (tls-certs.ts) in front of the GStreamer camera, which asks for Digest.
 * A self-signed camera is pinned for its channel at first use and plays to a WS-fMP4 viewer
 * (ffprobed) without any ffmpeg process; another certificate later is refused with tlsCertChanged
 * before a single byte of RTSP (so no credentials) goes inside TLS, by the pull and the stream
 * checker's probe alike; changing the channel's address clears the pin. A certificate from a CA in
 * RTSPS_CA_FILE is taken without pinning. A wrong password is the camera's refusal (no password in
 * the log's words); a port without TLS is a socket error, nothing pinned.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reason } from '@opencvr/shared';
import { probeStream } from '../../src/access/stream-probe.js';
import { DEFAULT_HUB_OPTIONS, type HubOptions, type StreamHub } from '../../src/media/hub.js';
import { RtspSource } from '../../src/media/ingest/rtsp-source.js';
import { useAdminApp, type AdminApp } from '../api/admin-app.js';
import { makeTestCerts, type KeyAndCert } from '../fixtures/tls-certs.js';
import { startTlsProxy, type TlsProxy } from '../fixtures/tls-proxy.js';
import { useCamera } from '../fixtures/use-camera.js';
import { collectWs, until } from '../helpers/index.js';
import { addPulledDevice, playWsFmp4 } from './open-stream.js';

const certs = makeTestCerts();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'rtsps-pull-'));
afterAll(() => {
  certs.remove();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const USER = 'viewer';
const PASS = 'S3cret!pass';
const cam = useCamera({ audio: 'aac', username: USER, password: PASS, auth: 'digest' });

let proxy: TlsProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

const fingerprint = (c: KeyAndCert) => new crypto.X509Certificate(c.cert).fingerprint256;

/** The camera behind TLS with this certificate: its rtsps:// address. */
async function rtspsCamera(cert: KeyAndCert) {
  proxy = await startTlsProxy(cert, cam.port);
  return `rtsps://127.0.0.1:${proxy.port}${new URL(cam.url).pathname}`;
}

/** ffmpeg processes started by this process (the app runs in it): there must be none. */
function ffmpegChildren(): number[] {
  const pids: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm.startsWith('ffmpeg') && ppid === process.pid) pids.push(Number(pid));
    } catch {
      /* gone meanwhile */
    }
  }
  return pids;
}

function quickRetries(api: AdminApp) {
  (api.t.ctx.streams as unknown as { hubDefaults: Omit<HubOptions, 'onDemand'> }).hubDefaults = { ...DEFAULT_HUB_OPTIONS, graceMs: 60_000, retryMinMs: 300, retryMaxMs: 1000 };
}

let added = 0;
/** A device with this address and the camera's login, its channel opened over WS-fMP4. */
async function openChannel(api: AdminApp, url: string, password = PASS) {
  const dev = await addPulledDevice(api, `RTSPS ${++added}`, url, { DeviceUserName: USER, DeviceUserPW: password });
  const channel = await api.t.ctx.db.selectFrom('channels').select(['id']).where('parent_device_id', '=', dev).executeTakeFirstOrThrow();
  return { dev, pk: channel.id, ...(await playWsFmp4(api, dev)) };
}


const pinOf = async (api: AdminApp, pk: number) =>
  (await api.t.ctx.db.selectFrom('channels').select('tls_pin').where('id', '=', pk).executeTakeFirstOrThrow()).tls_pin;

const sourceOf = (hub: StreamHub) => (hub as unknown as { source?: unknown }).source;

/** What ffprobe reads in a WS-fMP4 viewer's first seconds: "video:h264 320x240", "audio:aac". */
async function ffprobeViewer(wsUrl: string): Promise<string[]> {
  const got = await collectWs(wsUrl, (b) => b.length > 25, 20_000);
  expect(got.binary.length).toBeGreaterThan(25);
  const file = path.join(scratch, `view-${Date.now()}.mp4`);
  fs.writeFileSync(file, Buffer.concat(got.binary));
  const out = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', file], { encoding: 'utf8' })) as {
    streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
  };
  return out.streams.map((s) => `${s.codec_type}:${s.codec_name}${s.width ? ` ${s.width}x${s.height}` : ''}`);
}

describe('rtsps:// pulled natively, a self-signed camera pinned at first use', () => {
  const api = useAdminApp({ listen: true });
  beforeEach(() => quickRetries(api));

  it('plays to a WS-fMP4 viewer through the RTSP client with Digest over TLS, no ffmpeg; the certificate is pinned', async () => {
    const url = await rtspsCamera(certs.selfSigned);
    const { hub, wsUrl, pk } = await openChannel(api, url);
    await until(() => hub.state === 'live', 20_000, { what: 'the RTSPS stream live' });
    expect(sourceOf(hub)).toBeInstanceOf(RtspSource);
    expect(hub.tracks.map((t) => `${t.kind}:${t.codec}`)).toEqual(['video:h264', 'audio:aac']);
    expect(ffmpegChildren()).toEqual([]);
    expect((await ffprobeViewer(wsUrl)).sort()).toEqual(['audio:aac', 'video:h264 320x240']);
    // Pinned at this first use: the SHA-256 of the proxy's certificate.
    expect(await pinOf(api, pk)).toBe(fingerprint(certs.selfSigned));
    // The probe agrees, with the pin.
    expect(await probeStream(url, { username: USER, password: PASS, pinFor: pk, timeoutMs: 3000 })).toMatchObject({ ok: true, codecs: expect.arrayContaining(['H264']) });
  }, 60_000);

  it('a wrong password over TLS is refused by the camera (Digest), in the catalogue words, no password logged', async () => {
    const logged: string[] = [];
    const log = api.t.ctx.streams.hubs.onFailure;
    api.t.ctx.streams.hubs.onFailure = (h, words, why) => {
      logged.push(words);
      log?.(h, words, why);
    };
    const url = await rtspsCamera(certs.selfSigned);
    const { hub } = await openChannel(api, url, 'wrong-pass');
    await until(() => hub.why?.key === 'streamUnauthorized', 20_000, { what: 'the refused login' });
    expect(hub.state).not.toBe('live');
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('\n')).not.toMatch(/wrong-pass|viewer/);
    const probed = await probeStream(url, { username: USER, password: 'wrong-pass', timeoutMs: 3000 });
    expect(probed).toMatchObject({ ok: false, status: 401, why: { key: 'statusUnauthorized' } });
  }, 60_000);

  it('an rtsps:// address at a port that speaks no TLS fails with the socket error and retries, nothing pinned', async () => {
    const { hub, pk } = await openChannel(api, `rtsps://127.0.0.1:${cam.port}${new URL(cam.url).pathname}`);
    await until(() => hub.why?.key === 'streamSocketError', 20_000, { what: 'the TLS failure' });
    expect(hub.why?.vars?.code).toMatch(/^ERR_SSL_|^ECONNRESET/);
    expect(hub.state).not.toBe('live');
    expect(await pinOf(api, pk)).toBe('');
    const probed = await probeStream(`rtsps://127.0.0.1:${cam.port}/cam`, { username: USER, password: PASS, pinFor: pk, timeoutMs: 3000 });
    expect(probed).toMatchObject({ ok: false, why: { key: 'statusSocketError' } });
  }, 60_000);

  it('another certificate later is refused with its reason before any request; the probe agrees; a new address is pinned afresh', async () => {
    const url = await rtspsCamera(certs.selfSigned);
    const { dev, pk, hub } = await openChannel(api, url);
    await until(() => hub.state === 'live', 20_000, { what: 'the RTSPS stream live' });
    expect(await pinOf(api, pk)).toBe(fingerprint(certs.selfSigned));

    // The certificate changes (an attacker on the path, or a camera reset): a CA's leaf the server does not trust.
    proxy!.setCertificate(certs.leaf);
    api.t.ctx.streams.restartChannel(pk);
    const again = (await playWsFmp4(api, dev)).hub;
    await until(() => again.why?.key === 'tlsCertChanged', 20_000, { what: 'the changed certificate refused' });
    expect(again.why).toEqual({ key: 'tlsCertChanged', vars: { pinned: fingerprint(certs.selfSigned), presented: fingerprint(certs.leaf) } });
    expect(again.state).not.toBe('live');
    expect(reason('tlsCertChanged', 'en-US', again.why!.vars)).toContain("the camera's TLS certificate is not the one pinned");
    expect(reason('tlsCertChanged', 'zh-CN', again.why!.vars)).toContain('摄像机的 TLS 证书与首次连接时记录的不同');
    // The probe: offline with the same reason, the camera there (answered), its pin unchanged.
    const probed = await probeStream(url, { username: USER, password: PASS, pinFor: pk, timeoutMs: 3000 });
    expect(probed).toMatchObject({ ok: false, answered: true, why: { key: 'tlsCertChanged' } });
    expect(await pinOf(api, pk)).toBe(fingerprint(certs.selfSigned));
    // Handshakes happened, and not one byte of RTSP (no DESCRIBE, no Digest answer) went inside them.
    expect(proxy!.connections).toBeGreaterThan(0);
    expect(proxy!.bytesIn).toBe(0);

    // An administrator changes the channel's address (here: by name instead of IP): the pin is cleared, the new certificate pinned.
    const byName = url.replace('127.0.0.1', 'localhost');
    const edit = await api.post('/api/v1/editchannel', { ParentDeviceID: dev, ChannelID: '1', RtspUrl: byName });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await pinOf(api, pk)).toBe('');
    const renewed = (await playWsFmp4(api, dev)).hub;
    await until(() => renewed.state === 'live', 20_000, { what: 'the stream live at its new address' });
    expect(await pinOf(api, pk)).toBe(fingerprint(certs.leaf));
  }, 90_000);
});

describe('rtsps:// with RTSPS_CA_FILE', () => {
  const api = useAdminApp({ listen: true, overrides: { rtspsCaFile: certs.caFile } });
  beforeEach(() => quickRetries(api));

  it("a certificate of a trusted CA is taken without a pin; a self-signed one is still pinned at first use", async () => {
    const url = await rtspsCamera(certs.leaf);
    const { hub, pk, wsUrl } = await openChannel(api, url);
    await until(() => hub.state === 'live', 20_000, { what: 'the RTSPS stream live' });
    expect((await ffprobeViewer(wsUrl)).sort()).toEqual(['audio:aac', 'video:h264 320x240']);
    expect(await probeStream(url, { username: USER, password: PASS, pinFor: pk, timeoutMs: 3000 })).toMatchObject({ ok: true });
    expect(await pinOf(api, pk)).toBe('');

    const self = await startTlsProxy(certs.selfSigned, cam.port);
    try {
      const selfUrl = `rtsps://127.0.0.1:${self.port}${new URL(cam.url).pathname}`;
      const other = await openChannel(api, selfUrl);
      await until(() => other.hub.state === 'live', 20_000, { what: 'the self-signed stream live' });
      expect(await pinOf(api, other.pk)).toBe(fingerprint(certs.selfSigned));
    } finally {
      await self.close();
    }
  }, 60_000);

  it('an RTSPS_CA_FILE that cannot be read stops the server with the reason', async () => {
    const { setRtspsTrust } = await import('../../src/access/tls/rtsps-trust.js');
    const missing = path.join(scratch, 'none.pem');
    expect(() => setRtspsTrust({ caFile: missing })).toThrow(`RTSPS_CA_FILE: cannot read ${missing} (ENOENT)`);
    // Its key is no certificate.
    const key = path.join(scratch, 'key.pem');
    fs.writeFileSync(key, certs.leaf.key);
    expect(() => setRtspsTrust({ caFile: key })).toThrow(`RTSPS_CA_FILE: ${key} holds no PEM certificate`);
  });
});
