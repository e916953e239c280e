/** probeRtsp against a real camera (GStreamer's RTSP server), a closed port and a silent server. */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeRtsp } from '../../src/access/rtsp/probe.js';
import { freePort, startCamera, type Camera } from '../fixtures/camera.js';

describe('probeRtsp', () => {
  let open: Camera;
  let digest: Camera;
  let basic: Camera;
  beforeAll(async () => {
    [open, digest, basic] = await Promise.all([
      startCamera(),
      startCamera({ username: 'admin', password: 'Pa ss:w0rd' }),
      startCamera({ username: 'viewer', password: 'secret', auth: 'basic' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([open?.stop(), digest?.stop(), basic?.stop()]);
  });

  it('reads H264 from an open camera', async () => {
    const r = await probeRtsp(open.url, { timeoutMs: 5000 });
    expect(r).toMatchObject({ ok: true, status: 200, reason: 'OK', codecs: ['H264'] });
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    expect(r.latencyMs).toBeLessThan(5000);
  });

  it('gives 404 Not Found for an unknown path', async () => {
    const r = await probeRtsp(`rtsp://127.0.0.1:${open.port}/nothing`, { timeoutMs: 5000 });
    expect(r).toMatchObject({ ok: false, status: 404, reason: '404 Not Found', codecs: [] });
  });

  it('answers a Digest challenge with the right credentials (options)', async () => {
    const r = await probeRtsp(digest.url, { username: 'admin', password: 'Pa ss:w0rd', timeoutMs: 5000 });
    expect(r).toMatchObject({ ok: true, codecs: ['H264'] });
  });

  it('takes credentials from the URL user info (percent-encoded)', async () => {
    const url = `rtsp://admin:${encodeURIComponent('Pa ss:w0rd')}@127.0.0.1:${digest.port}/cam`;
    const r = await probeRtsp(url, { username: 'wrong', password: 'wrong', timeoutMs: 5000 });
    expect(r).toMatchObject({ ok: true, codecs: ['H264'] });
  });

  it('gives 401 Unauthorized with wrong credentials, and without any', async () => {
    const wrong = await probeRtsp(digest.url, { username: 'admin', password: 'nope', timeoutMs: 5000 });
    expect(wrong).toMatchObject({ ok: false, status: 401, reason: '401 Unauthorized' });
    const none = await probeRtsp(digest.url, { timeoutMs: 5000 });
    expect(none).toMatchObject({ ok: false, status: 401, reason: '401 Unauthorized' });
  });

  it('answers a Basic challenge', async () => {
    expect(await probeRtsp(basic.url, { username: 'viewer', password: 'secret', timeoutMs: 5000 })).toMatchObject({ ok: true, codecs: ['H264'] });
    expect(await probeRtsp(basic.url, { username: 'viewer', password: 'bad', timeoutMs: 5000 })).toMatchObject({ ok: false, status: 401 });
  });

  it('says "connection refused" for a closed port', async () => {
    const port = await freePort();
    const r = await probeRtsp(`rtsp://127.0.0.1:${port}/cam`, { timeoutMs: 3000 });
    expect(r).toMatchObject({ ok: false, status: 0, reason: 'connection refused' });
  });

  it('times out against a server that accepts and never answers', async () => {
    const sockets = new Set<net.Socket>();
    const server = net.createServer((s) => {
      sockets.add(s);
      s.on('error', () => {});
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as net.AddressInfo;
    const t0 = Date.now();
    const r = await probeRtsp(`rtsp://127.0.0.1:${port}/cam`, { timeoutMs: 500 });
    const took = Date.now() - t0;
    expect(r).toMatchObject({ ok: false, status: 0, reason: 'timeout after 500 ms' });
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(2000);
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });

  it('stops at once when aborted', async () => {
    const server = net.createServer((s) => s.on('error', () => {}));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as net.AddressInfo;
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const r = await probeRtsp(`rtsp://127.0.0.1:${port}/cam`, { timeoutMs: 5000, signal: ac.signal });
    expect(r).toMatchObject({ ok: false, reason: 'aborted' });
    server.close();
  });

  it('refuses what it cannot probe', async () => {
    expect(await probeRtsp('rtsps://127.0.0.1/cam')).toMatchObject({ ok: false, reason: 'rtsps:// is not supported yet' });
    expect(await probeRtsp('http://127.0.0.1/cam')).toMatchObject({ ok: false, reason: 'not an rtsp:// URL (http:)' });
    expect(await probeRtsp('not a url')).toMatchObject({ ok: false, reason: 'invalid URL' });
    expect(await probeRtsp('rtsp://no-such-host.invalid/cam', { timeoutMs: 3000 })).toMatchObject({ ok: false });
  });
});
