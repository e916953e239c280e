/**
 * The CDN push over rtmps:// through the whole server, with real TLS: ffmpeg listening as the CDN's
 * RTMP ingest behind a TLS proxy of the test's (as a CDN terminates TLS in front of its ingest), the
 * certificates openssl's (tls-certs.ts). A certificate of a CA the deployment trusts (RTMPS_CA_FILE)
 * gets the stream, ffprobed; a self-signed one gets no byte of RTMP, the administrator's CdnPush
 * retrying with the certificate's problem in their language; RTMPS_INSECURE=1 pushes to it anyway.
 */
import { execFileSync, spawn } from 'node:child_process';
import net, { type AddressInfo } from 'node:net';
import tls from 'node:tls';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ChannelRow } from '@opencvr/shared';
import { until } from '../helpers/index.js';
import { freePort } from '../fixtures/camera.js';
import { makeTestCerts, type KeyAndCert } from '../fixtures/tls-certs.js';
import { useAdminApp, type AdminApp } from '../api/admin-app.js';
import { useCdnRig } from './cdn-support.js';

const certs = makeTestCerts();
afterAll(() => certs.remove());
// Before useAdminApp(): the camera stops after the app has closed.
const rig = useCdnRig();

/** A TLS proxy with this certificate to an RTMP server's port; `bytesIn` counts what clients sent through it. */
async function tlsProxy(cert: KeyAndCert, upstreamPort: number) {
  const open = new Set<net.Socket>();
  const stats = { bytesIn: 0 };
  const proxy = tls.createServer(cert, (s) => {
    const c = net.connect(upstreamPort, '127.0.0.1');
    open.add(s).add(c);
    s.on('data', (d: Buffer) => (stats.bytesIn += d.length));
    s.pipe(c).pipe(s);
    s.on('error', () => c.destroy());
    c.on('error', () => s.destroy());
  });
  proxy.on('tlsClientError', () => undefined);
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  rig.children.push({
    kill() {
      for (const x of open) x.destroy();
      proxy.close();
    },
  });
  return { port: (proxy.address() as AddressInfo).port, stats };
}

/** ffmpeg as the ingest: keeps 3 s of what it gets in `out`; its exit code (or 'timeout'). */
function ffmpegIngest(port: number, out: string) {
  const server = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-listen', '1', '-f', 'flv', '-i', `rtmp://127.0.0.1:${port}/live/cdn`, '-c', 'copy', '-t', '3', '-y', out], { stdio: 'ignore' });
  rig.children.push(server);
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
  return Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 30_000))]);
}

async function channelRow(api: AdminApp, dev: string, lang: string): Promise<ChannelRow> {
  const res = await api.t.app.inject({ url: `/api/v1/channelsconfig?device=${dev}&start=0&limit=10`, headers: { token: api.admin, 'accept-language': lang } });
  return res.json().EasyDarwin.Body.Channels[0] as ChannelRow;
}

/** The camera's push to rtmps://HOST:port/live/cdn through a proxy with `cert`: what ffmpeg kept, ffprobed. */
async function pushThrough(api: AdminApp, cert: KeyAndCert, host: string) {
  const dev = await rig.addCamera(api);
  const ingest = await freePort();
  const out = path.join(api.t.settings.dataDir, 'cdn.flv');
  const received = ffmpegIngest(ingest, out);
  const proxy = await tlsProxy(cert, ingest);
  expect((await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', EnableCdn: 1, CdnUrl: `rtmps://${host}:${proxy.port}/live/cdn` })).statusCode).toBe(200);
  expect(await received).toBe(0);
  const probed = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-count_packets', '-show_streams', '-of', 'json', out], { encoding: 'utf8' }));
  return probed.streams.find((s: { codec_type: string }) => s.codec_type === 'video');
}

describe('CDN push over rtmps://, the CA trusted with RTMPS_CA_FILE', () => {
  const api = useAdminApp({ overrides: { rtmpsCaFile: certs.caFile } });
  afterEach(() => rig.stopServers());

  it('pushes the channel to an ingest whose certificate that CA signed for its name', async () => {
    const video = await pushThrough(api, certs.leaf, 'localhost');
    expect(video).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
    expect(Number(video.nb_read_packets)).toBeGreaterThanOrEqual(30);
  }, 60_000);
});

describe('CDN push over rtmps:// to a self-signed ingest', () => {
  const api = useAdminApp();
  afterEach(() => rig.stopServers());

  it('by default: refused before any RTMP, CdnPush retrying with the certificate’s problem in the asker’s language', async () => {
    const dev = await rig.addCamera(api);
    const proxy = await tlsProxy(certs.selfSigned, await freePort());
    expect((await api.post('/api/v1/editchannel', { DeviceID: dev, ChannelID: '1', EnableCdn: 1, CdnUrl: `rtmps://127.0.0.1:${proxy.port}/live/S3CRETKEY` })).statusCode).toBe(200);
    const row = await until(async () => {
      const r = await channelRow(api, dev, 'en-US');
      return r.CdnPush?.State === 'retrying' && r;
    }, 20_000, { what: 'the push retrying' });
    expect(row.CdnPush).toMatchObject({
      Url: `rtmps://127.0.0.1:${proxy.port}/live/***`,
      ReasonCode: 'tlsCertSelfSigned',
      Reason: "the server's TLS certificate is self-signed and not trusted (RTMPS_CA_FILE can trust it)",
    });
    expect((await channelRow(api, dev, 'zh-CN')).CdnPush?.Reason).toBe('服务器的 TLS 证书是自签名证书，不受信任（可用 RTMPS_CA_FILE 信任它）');
    expect(api.t.ctx.cdn.active()[0]!.lastReason).toBe('TLS certificate refused: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)');
    // Nothing went inside the TLS: no handshake, no connect, no key.
    expect(proxy.stats.bytesIn).toBe(0);
  }, 60_000);
});

describe('CDN push over rtmps:// with RTMPS_INSECURE=1', () => {
  const api = useAdminApp({ overrides: { rtmpsInsecure: true } });
  afterEach(() => rig.stopServers());

  it('pushes to a self-signed ingest anyway', async () => {
    const video = await pushThrough(api, certs.selfSigned, '127.0.0.1');
    expect(video).toMatchObject({ codec_name: 'h264' });
  }, 60_000);
});
