/**
 * The stream checker's HTTP probe holds every https:// host to the pull's certificate policy
 * (access/tls/https-trust.ts), redirects included: only the channel address's own host may be pinned;
 * a host a redirect leads to needs an authority; an http:// address has no pin, so the https:// server
 * it redirects to needs one too. Real TLS on loopback (openssl's certificates, tls-certs.ts); the pins
 * in memory as the database keeps them (the first one wins).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeEach, expect, it } from 'vitest';
import { probeHttpStream } from '../../src/access/http-stream-probe.js';
import { setHttpsTrust } from '../../src/access/tls/https-trust.js';
import { makeTestCerts, type KeyAndCert } from '../fixtures/tls-certs.js';

const certs = makeTestCerts();
afterAll(() => certs.remove());
const FLV = Buffer.from('FLV\x01\x05\x00\x00\x00\x09\x00\x00\x00\x00', 'latin1');
const servers: (http.Server | https.Server)[] = [];
let pins: Map<number, string>;
let hits: string[];

beforeEach(() => {
  pins = new Map();
  hits = [];
  setHttpsTrust(
    { caFile: certs.caFile },
    {
      pinned: async (c) => pins.get(c) ?? '',
      pin: async (c, f) => {
        if (!pins.get(c)) pins.set(c, f);
        return pins.get(c)!;
      },
    },
  );
});

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A server answering /live.flv with FLV and /go?to=<url> with a 302 there. */
async function start(cert?: KeyAndCert): Promise<number> {
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    hits.push(`${cert ? 'https' : 'http'} ${req.url}`);
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
    if (to) res.writeHead(302, { Location: to }).end();
    else res.writeHead(200, { 'Content-Type': 'video/x-flv' }).end(FLV);
  };
  const s = cert ? https.createServer(cert, handler) : http.createServer(handler);
  s.on('tlsClientError', () => undefined);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
}

const fingerprint = (c: KeyAndCert) => new crypto.X509Certificate(c.cert).fingerprint256;
const probe = (url: string) => probeHttpStream(url, { timeoutMs: 3000, pinFor: 7 });

it("the address's own self-signed server is pinned at first use; another certificate is refused before the request", async () => {
  const port = await start(certs.selfSigned);
  expect(await probe(`https://127.0.0.1:${port}/live.flv`)).toMatchObject({ ok: true, status: 200 });
  expect(pins.get(7)).toBe(fingerprint(certs.selfSigned));
  pins.set(7, fingerprint(certs.leaf));
  hits = [];
  const refused = await probe(`https://127.0.0.1:${port}/live.flv`);
  expect(refused).toMatchObject({ ok: false, why: { key: 'tlsServerCertChanged', vars: { pinned: fingerprint(certs.leaf), presented: fingerprint(certs.selfSigned) } } });
  expect(hits).toEqual([]);
});

it('a redirect to another host with a self-signed certificate is refused (tlsCertNotOwnHost), nothing pinned', async () => {
  const other = await start(certs.selfSigned);
  const own = await start(certs.leaf);
  // localhost: another host name for the same loopback server; the CA's leaf names both.
  const r = await probe(`https://localhost:${own}/go?to=${encodeURIComponent(`https://127.0.0.1:${other}/live.flv`)}`);
  expect(r).toMatchObject({ ok: false, why: { key: 'tlsCertNotOwnHost', vars: { host: '127.0.0.1' } } });
  expect(hits).toEqual([`https /go?to=${encodeURIComponent(`https://127.0.0.1:${other}/live.flv`)}`]);
  expect(pins.size).toBe(0);
});

it('a redirect to another host an authority vouches for is followed', async () => {
  const ca = await start(certs.leaf);
  const own = await start(certs.selfSigned);
  const r = await probe(`https://127.0.0.1:${own}/go?to=${encodeURIComponent(`https://localhost:${ca}/live.flv`)}`);
  expect(r).toMatchObject({ ok: true, status: 200 });
  expect(pins.get(7)).toBe(fingerprint(certs.selfSigned));
});

it('http:// redirected to a self-signed https:// server: refused, an http:// address has no pin', async () => {
  const tls = await start(certs.selfSigned);
  const plain = await start();
  const r = await probe(`http://127.0.0.1:${plain}/go?to=${encodeURIComponent(`https://127.0.0.1:${tls}/live.flv`)}`);
  expect(r).toMatchObject({ ok: false, why: { key: 'tlsCertNotOwnHost' } });
  expect(pins.size).toBe(0);
});

it("an authority's certificate for another host is refused with tlsCertWrongHost, not pinned", async () => {
  const port = await start(certs.wrongHost);
  const r = await probe(`https://127.0.0.1:${port}/live.flv`);
  expect(r).toMatchObject({ ok: false, why: { key: 'tlsCertWrongHost', vars: { host: '127.0.0.1' } } });
  expect(pins.size).toBe(0);
  expect(hits).toEqual([]);
});
