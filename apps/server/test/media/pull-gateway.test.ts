/**
 * The pull gateway (media/ingest/pull-gateway.ts), ffmpeg's only way to http(s):// servers: only the
 * holder of its password may use it (another local user gets 407 for a tunnel and a forwarded
 * request alike), and ffmpeg, told of it by its environment alone, goes through it for the address
 * and for a redirect to another host, whose self-signed certificate is refused (no pin of its own)
 * before a request reaches that host. Real TLS on loopback (tls-certs.ts) and Debian's ffmpeg.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeEach, expect, it } from 'vitest';
import { setHttpsTrust, type TlsMiss } from '../../src/access/tls/https-trust.js';
import { PullGateway } from '../../src/media/ingest/pull-gateway.js';
import { PULL_PROTOCOLS } from '../../src/media/ingest/pull-url.js';
import { makeTestCerts } from '../fixtures/tls-certs.js';

const certs = makeTestCerts();
afterAll(() => certs.remove());
const servers: http.Server[] = [];
let gateway: PullGateway | undefined;
let refusals: TlsMiss[];
let hits: string[];

beforeEach(() => {
  refusals = [];
  hits = [];
  const pins = new Map<number, string>();
  setHttpsTrust(
    {},
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
  gateway?.close();
  gateway = undefined;
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function listen(s: http.Server, label: string): Promise<number> {
  s.on('request', (req: http.IncomingMessage) => hits.push(`${label} ${req.url}`));
  s.on('tlsClientError', () => undefined);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
}

const open = (address: string) => PullGateway.open({ address: new URL(address), channel: 1, onRefused: (m) => refusals.push(m) });

/** The first line of the gateway's answer to `request`, sent raw. */
function ask(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(request));
    let got = '';
    s.on('data', (d) => {
      got += d.toString('latin1');
      if (got.includes('\r\n')) {
        s.destroy();
        resolve(got.split('\r\n')[0]!);
      }
    });
    s.on('error', reject);
  });
}

it('asks for its password (407) from anyone without it: a tunnel and a forwarded request alike', async () => {
  const target = await listen(http.createServer((_req, res) => res.end('secret')), 'http');
  gateway = await open(`http://127.0.0.1:${target}/`);
  const port = Number(new URL(gateway.proxyUrl).port);
  expect(await ask(port, `CONNECT 127.0.0.1:${target} HTTP/1.1\r\nHost: 127.0.0.1:${target}\r\n\r\n`)).toBe('HTTP/1.1 407 Proxy Authentication Required');
  expect(await ask(port, `GET http://127.0.0.1:${target}/ HTTP/1.1\r\nHost: 127.0.0.1:${target}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 407/);
  const wrong = `Proxy-Authorization: Basic ${Buffer.from('opencvr:guess').toString('base64')}\r\n`;
  expect(await ask(port, `GET http://127.0.0.1:${target}/ HTTP/1.1\r\nHost: 127.0.0.1:${target}\r\n${wrong}\r\n`)).toMatch(/^HTTP\/1\.1 407/);
  expect(hits).toEqual([]);
  // The password is in what ffmpeg's environment holds, and nowhere else to be guessed.
  expect(gateway.ffmpegEnv().http_proxy).toBe(gateway.proxyUrl);
  expect(new URL(gateway.proxyUrl).password).toMatch(/^[0-9a-f]{48}$/);
});

it("ffmpeg follows a redirect through it; another host's self-signed certificate is refused before a request", async () => {
  const other = await listen(https.createServer(certs.selfSigned, (_req, res) => res.end()), 'other');
  const own = await listen(
    https.createServer(certs.selfSigned, (_req, res) => res.writeHead(302, { Location: `https://localhost:${other}/live.flv` }).end()),
    'own',
  );
  gateway = await open(`https://127.0.0.1:${own}/live.flv`);
  const env = gateway.ffmpegEnv();
  const exit = await new Promise<number | null>((resolve) => {
    const ff = spawn('ffmpeg', ['-v', 'error', '-protocol_whitelist', PULL_PROTOCOLS.https, '-i', `https://127.0.0.1:${own}/live.flv`, '-f', 'null', '-'], { env, stdio: 'ignore' });
    ff.on('close', resolve);
  });
  expect(exit).not.toBe(0);
  expect(hits).toEqual(['own /live.flv']);
  expect(refusals).toEqual([expect.objectContaining({ why: { key: 'tlsCertNotOwnHost', vars: { host: 'localhost' } } })]);
}, 30_000);
