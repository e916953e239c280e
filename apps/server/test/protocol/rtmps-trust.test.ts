/**
 * rtmps:// certificates are checked (access/rtmp/tls-connect.ts), by the CDN push (publisher.ts) and
 * the stream checker's play (play-session.ts, which the probe uses), with real TLS on loopback (the
 * RTMP server double behind certificates made by openssl: tls-certs.ts): a CA's leaf is taken once
 * the CA is trusted (RTMPS_CA_FILE or NODE_EXTRA_CA_CERTS), by IP and by name; refused with its
 * problem when self-signed, from an unknown CA, expired or for another host, and nothing is published
 * or played; RTMPS_INSECURE takes any, logging each server once; a CA file that cannot be read or
 * holds no certificate is refused at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openRtmpPublish, RtmpPublishError } from '../../src/access/rtmp/publisher.js';
import { probeStream } from '../../src/access/stream-probe.js';
import { setRtmpsTrust } from '../../src/access/rtmp/tls-connect.js';
import { loadConfig } from '../../src/config/index.js';
import { startRtmpServer, type RtmpServerDouble } from '../fixtures/rtmp-server.js';
import { makeTestCerts, type KeyAndCert } from '../fixtures/tls-certs.js';

const certs = makeTestCerts();
afterAll(() => certs.remove());

let server: RtmpServerDouble | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  setRtmpsTrust({});
});

/** An RTMPS ingest and player double with this certificate. */
async function serverWith(tls: KeyAndCert) {
  server = await startRtmpServer({ app: 'live', published: ['cam1'], tls });
  return server;
}

/** The publish's refusal (it must be refused). */
async function publishRefusal(url: string): Promise<RtmpPublishError> {
  const err = await openRtmpPublish(new URL(url), { timeoutMs: 5000 }).then(
    async (pub) => {
      await pub.close();
      throw new Error('published');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RtmpPublishError);
  return err as RtmpPublishError;
}

describe('rtmps:// certificates', () => {
  it('a CA trusted with RTMPS_CA_FILE: the push publishes and the check plays, by IP and by the name localhost', async () => {
    setRtmpsTrust({ caFile: certs.caFile });
    const s = await serverWith(certs.leaf);
    for (const url of [s.url('live/KEY'), s.url('live/KEY').replace('127.0.0.1', 'localhost')]) {
      expect(url).toMatch(/^rtmps:/);
      const pub = await openRtmpPublish(new URL(url), { timeoutMs: 5000 });
      await pub.close();
    }
    expect(s.publishes).toEqual(['KEY', 'KEY']);
    expect(await probeStream(s.url('live/cam1'), { timeoutMs: 3000 })).toMatchObject({ ok: true, answered: true });
  });

  it('by default (system and Node CAs only) a self-signed ingest and one of an unknown CA are refused, saying so, and get no key', async () => {
    let s = await serverWith(certs.selfSigned);
    let err = await publishRefusal(s.url('live/KEY'));
    expect(err.why).toEqual({ key: 'tlsCertSelfSigned' });
    expect(err.message).toBe('TLS certificate refused: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)');
    expect(err.auth).toBe(false);
    // The checker: offline with the reason, though the server is there.
    expect(await probeStream(s.url('live/cam1'), { timeoutMs: 3000 })).toMatchObject({
      ok: false,
      answered: true,
      why: { key: 'tlsCertSelfSigned' },
    });
    expect([s.publishes, s.plays, s.connects]).toEqual([[], [], []]);
    await s.close();

    s = await serverWith(certs.leaf);
    err = await publishRefusal(s.url('live/KEY'));
    expect(err.why).toEqual({ key: 'tlsCertUntrusted' });
    expect(await probeStream(s.url('live/cam1'), { timeoutMs: 3000 })).toMatchObject({
      ok: false,
      why: { key: 'tlsCertUntrusted' },
    });
    expect(s.connects).toEqual([]);
  });

  it('with the CA trusted, an expired certificate and one for another host are still refused, with their problem', async () => {
    setRtmpsTrust({ caFile: certs.caFile });
    let s = await serverWith(certs.expired);
    expect((await publishRefusal(s.url('live/KEY'))).why).toEqual({ key: 'tlsCertExpired' });
    expect(await probeStream(s.url('live/cam1'), { timeoutMs: 3000 })).toMatchObject({
      ok: false,
      answered: true,
      why: { key: 'tlsCertExpired' },
    });
    await s.close();

    s = await serverWith(certs.wrongHost);
    const wrong = { key: 'tlsCertWrongHost', vars: { host: '127.0.0.1', names: 'DNS:other.example' } };
    expect((await publishRefusal(s.url('live/KEY'))).why).toEqual(wrong);
    expect(await probeStream(s.url('live/cam1'), { timeoutMs: 3000 })).toMatchObject({ ok: false, why: wrong });
    expect((await publishRefusal(s.url('live/KEY').replace('127.0.0.1', 'localhost'))).why).toEqual({
      ...wrong,
      vars: { ...wrong.vars, host: 'localhost' },
    });
    expect(s.connects).toEqual([]);
  });

  it('NODE_EXTRA_CA_CERTS still counts (a ca of our own replaces Node’s store, extras included: read here)', async () => {
    const before = process.env.NODE_EXTRA_CA_CERTS;
    process.env.NODE_EXTRA_CA_CERTS = certs.caFile;
    try {
      setRtmpsTrust({});
    } finally {
      if (before === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
      else process.env.NODE_EXTRA_CA_CERTS = before;
    }
    const s = await serverWith(certs.leaf);
    await (await openRtmpPublish(new URL(s.url('live/KEY')), { timeoutMs: 5000 })).close();
    expect(s.publishes).toEqual(['KEY']);
  });

  it('a self-signed certificate trusted as itself (RTMPS_CA_FILE naming it) is taken', async () => {
    setRtmpsTrust({ caFile: certs.selfSigned.file });
    const s = await serverWith(certs.selfSigned);
    await (await openRtmpPublish(new URL(s.url('live/KEY')), { timeoutMs: 5000 })).close();
    expect(s.publishes).toEqual(['KEY']);
  });

  it('RTMPS_INSECURE=1 takes any certificate, said at start and once per server with its problem', async () => {
    const logged: string[] = [];
    setRtmpsTrust({ insecure: true }, { warn: (o, m) => logged.push(`${m} ${JSON.stringify(o)}`) });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^RTMPS_INSECURE=1: rtmps:\/\/ certificates are not checked/);
    const s = await serverWith(certs.selfSigned);
    for (let i = 0; i < 2; i++) await (await openRtmpPublish(new URL(s.url('live/KEY')), { timeoutMs: 5000 })).close();
    expect(await probeStream(s.url('live/cam1'), { timeoutMs: 3000 })).toMatchObject({ ok: true });
    expect(s.publishes).toEqual(['KEY', 'KEY']);
    const port = new URL(s.url('x')).port;
    expect(logged.slice(1)).toEqual([
      `rtmps: certificate not trusted, taken anyway (RTMPS_INSECURE=1) {"server":"127.0.0.1:${port}","problem":"DEPTH_ZERO_SELF_SIGNED_CERT"}`,
    ]);
  });

  it('a CA file that cannot be read, or holds no certificate, is refused with its problem; RTMPS_INSECURE takes 0 or 1 only', () => {
    const missing = path.join(path.dirname(certs.caFile), 'none.pem');
    expect(() => setRtmpsTrust({ caFile: missing })).toThrow(`RTMPS_CA_FILE: cannot read ${missing} (ENOENT)`);
    const key = path.join(path.dirname(certs.caFile), 'ca.key');
    expect(fs.existsSync(key)).toBe(true);
    expect(() => setRtmpsTrust({ caFile: key })).toThrow(`RTMPS_CA_FILE: ${key} holds no PEM certificate`);
    expect(loadConfig({ RTMPS_CA_FILE: certs.caFile, RTMPS_INSECURE: '1' })).toMatchObject({
      rtmpsCaFile: certs.caFile,
      rtmpsInsecure: true,
    });
    expect(loadConfig({})).toMatchObject({ rtmpsInsecure: false });
    expect(() => loadConfig({ RTMPS_INSECURE: 'yes' })).toThrow('RTMPS_INSECURE must be 0 or 1');
  });
});
