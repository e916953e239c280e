/** probeRtsp against a real camera (GStreamer's RTSP server), also as RTSPS through a TLS proxy, a closed port and a silent server. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
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
    expect(r).toMatchObject({ ok: false, status: 404, reason: '404 Not Found', why: { key: 'statusAnswered', vars: { status: 404, phrase: 'Not Found' } }, codecs: [] });
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
    expect(wrong).toMatchObject({ ok: false, status: 401, reason: '401 Unauthorized', why: { key: 'statusUnauthorized', vars: { status: 401, phrase: 'Unauthorized' } } });
    const none = await probeRtsp(digest.url, { timeoutMs: 5000 });
    expect(none).toMatchObject({ ok: false, status: 401, reason: '401 Unauthorized', why: { key: 'statusUnauthorized', vars: { status: 401, phrase: 'Unauthorized' } } });
  });

  it('answers a Basic challenge', async () => {
    expect(await probeRtsp(basic.url, { username: 'viewer', password: 'secret', timeoutMs: 5000 })).toMatchObject({ ok: true, codecs: ['H264'] });
    expect(await probeRtsp(basic.url, { username: 'viewer', password: 'bad', timeoutMs: 5000 })).toMatchObject({ ok: false, status: 401 });
  });

  it('says "connection refused" for a closed port', async () => {
    const port = await freePort();
    const r = await probeRtsp(`rtsp://127.0.0.1:${port}/cam`, { timeoutMs: 3000 });
    expect(r).toMatchObject({ ok: false, status: 0, reason: 'connection refused', why: { key: 'connectionRefused' } });
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
    expect(r).toMatchObject({ ok: false, status: 0, reason: 'timeout after 500 ms', why: { key: 'statusNoAnswerWithin', vars: { ms: 500 } } });
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

  it('RTSPS: the same OPTIONS/DESCRIBE inside TLS (a self-signed certificate, as cameras have): H264, and 404 for a wrong path', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rtsps-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
    const piped = new Set<net.Socket>();
    const proxy = tls.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) }, (s) => {
      const c = net.connect(open.port, '127.0.0.1');
      piped.add(s).add(c);
      s.pipe(c).pipe(s);
      s.on('error', () => c.destroy());
      c.on('error', () => s.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const port = (proxy.address() as net.AddressInfo).port;
      const camera = new URL(open.url);
      expect(await probeRtsp(`rtsps://127.0.0.1:${port}${camera.pathname}`, { timeoutMs: 5000 })).toMatchObject({ ok: true, status: 200, codecs: ['H264'] });
      expect(await probeRtsp(`rtsps://127.0.0.1:${port}/nothing`, { timeoutMs: 5000 })).toMatchObject({ ok: false, status: 404 });
    } finally {
      for (const x of piped) x.destroy();
      await new Promise((r) => proxy.close(r));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses what it cannot probe', async () => {
    expect(await probeRtsp('http://127.0.0.1/cam')).toMatchObject({ ok: false, reason: 'not an rtsp:// URL (http:)', why: { key: 'statusNotRtspUrl', vars: { protocol: 'http:' } } });
    expect(await probeRtsp('not a url')).toMatchObject({ ok: false, reason: 'invalid URL', why: { key: 'statusBadUrl' } });
    expect(await probeRtsp('rtsp://no-such-host.invalid/cam', { timeoutMs: 3000 })).toMatchObject({ ok: false });
  });
});
