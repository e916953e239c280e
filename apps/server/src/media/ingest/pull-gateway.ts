/**
 * ffmpeg's only way to http(s):// servers while it pulls a channel (ffmpeg-pull-source.ts): an HTTP
 * proxy on loopback, one per source, named to ffmpeg in its environment (`http_proxy`, which its
 * http and tls protocols read for every connection they open: the address, its redirects, an HLS
 * playlist's variants, segments and keys). ffmpeg 5.1 cannot hold a server to a pin (its TLS options
 * are a CA file and tls_verify, which Debian's GnuTLS build checks against the name too, and the HLS
 * demuxer does not pass them on to segments), so the certificates are judged here, per connection,
 * by the same code as the stream checker's (access/tls/https-trust.ts):
 *
 * - https://: ffmpeg asks for a tunnel (CONNECT host:port); the gateway connects to the server
 *   itself, judges its certificate before a byte is sent (an authority's; else the channel's pin, for
 *   the address's own host only), and then stands in for it: ffmpeg's TLS ends here, with a loopback
 *   certificate (loopback-certificate.ts) ffmpeg does not check, and the bytes go on inside the checked
 *   connection. A refused certificate ends the tunnel (502) and the source with its reason (onRefused);
 * - http://: forwarded as a plain proxy does (so an http:// address that redirects to https:// is
 *   judged too).
 *
 * Only this source's ffmpeg may use it: a random password (Basic, asked with 407 as ffmpeg expects),
 * so another local user cannot reach other hosts through the server.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type net from 'node:net';
import tls from 'node:tls';
import { connectHttps, ownHost, pinHttpsFirstUse, TlsRefused, type HttpsPeer, type TlsMiss } from '../../access/tls/https-trust.js';
import { loopbackCertificate } from '../../access/tls/loopback-certificate.js';

export interface PullGatewayOptions {
  /** The channel's address (its host's certificate may be pinned). */
  address: URL;
  /** The channel whose pin the address's host holds; none: nothing is pinned. */
  channel?: number;
  /** A server's certificate was refused (the tunnel is closed already). */
  onRefused(miss: TlsMiss): void;
}

const USER = 'opencvr';
const NEEDS_LOGIN = 'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="opencvr"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n';
const BAD_GATEWAY = 'HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n';

export class PullGateway {
  /** The last error reaching a server (ffmpeg sees only a 502): what the source's reason says instead. */
  upstreamError?: { err: NodeJS.ErrnoException; host: string };
  private readonly open = new Set<net.Socket>();
  private readonly login: Buffer;

  private constructor(
    private readonly o: PullGatewayOptions,
    private readonly server: http.Server,
    private readonly context: tls.SecureContext,
    private readonly password: string,
  ) {
    this.login = Buffer.from(`Basic ${Buffer.from(`${USER}:${password}`).toString('base64')}`);
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => this.forward(req, res));
    server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => void this.tunnel(req, socket, head));
    server.on('connection', (s: net.Socket) => this.track(s));
    server.on('clientError', (_err, socket: net.Socket) => socket.destroy());
  }

  static async open(o: PullGatewayOptions): Promise<PullGateway> {
    const context = tls.createSecureContext(await loopbackCertificate());
    const server = http.createServer();
    const gateway = new PullGateway(o, server, context, crypto.randomBytes(24).toString('hex'));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return gateway;
  }

  /** What ffmpeg's environment names as its proxy (with the password: the environment, unlike the command line, is the server user's alone). */
  get proxyUrl(): string {
    return `http://${USER}:${this.password}@127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The environment of an ffmpeg that must use this gateway: no `no_proxy` lets a host go round it. */
  ffmpegEnv(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!/^(https?_proxy|no_proxy|all_proxy)$/i.test(k)) env[k] = v;
    env.http_proxy = this.proxyUrl;
    return env;
  }

  close() {
    for (const s of this.open) s.destroy();
    this.server.close();
  }

  private track(s: net.Socket) {
    this.open.add(s);
    s.on('close', () => this.open.delete(s));
    s.on('error', () => undefined);
  }

  private allowed(req: http.IncomingMessage): boolean {
    const given = Buffer.from(req.headers['proxy-authorization'] ?? '');
    return given.length === this.login.length && crypto.timingSafeEqual(given, this.login);
  }

  /** A plain http:// request, in a proxy's absolute form. */
  private forward(req: http.IncomingMessage, res: http.ServerResponse) {
    if (!this.allowed(req)) {
      res.writeHead(407, { 'Proxy-Authenticate': 'Basic realm="opencvr"', Connection: 'close' }).end();
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (target.protocol !== 'http:') {
      res.writeHead(400).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const up = http.request(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', (err: NodeJS.ErrnoException) => {
      this.upstreamError = { err, host: target.host };
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { Connection: 'close' }).end();
    });
    res.on('close', () => up.destroy());
    req.pipe(up);
  }

  /** An https:// server (CONNECT host:port): judged, then stood in for. */
  private async tunnel(req: http.IncomingMessage, socket: net.Socket, head: Buffer) {
    if (!this.allowed(req)) {
      socket.end(NEEDS_LOGIN);
      return;
    }
    const target = /^(\[[0-9a-f:.]+\]|[^:[\]]+):(\d{1,5})$/i.exec(req.url ?? '');
    if (!target) {
      socket.end(BAD_GATEWAY);
      return;
    }
    const url = new URL(`https://${target[1]}:${target[2]}/`);
    let checked: { socket: tls.TLSSocket; peer: HttpsPeer };
    try {
      checked = await connectHttps(url.hostname, Number(target[2]), { channel: this.o.channel, own: ownHost(url, this.o.address) });
    } catch (err) {
      if (err instanceof TlsRefused) this.o.onRefused(err.miss);
      else this.upstreamError = { err: err as NodeJS.ErrnoException, host: url.host };
      socket.end(BAD_GATEWAY);
      return;
    }
    const upstream = checked.socket;
    this.track(upstream);
    if (socket.destroyed) {
      upstream.destroy();
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) socket.unshift(head);
    const local = new tls.TLSSocket(socket, { isServer: true, secureContext: this.context });
    local.on('error', () => upstream.destroy());
    local.on('close', () => upstream.destroy());
    upstream.on('close', () => local.destroy());
    local.pipe(upstream);
    // The server's first answer pins a first-use certificate (rtsps' "answered as a camera"): held until it is.
    upstream.once('data', (first: Buffer) => {
      upstream.pause();
      void pinHttpsFirstUse(checked.peer).then((refused) => {
        if (refused) {
          upstream.destroy();
          this.o.onRefused(refused);
          return;
        }
        local.write(first);
        upstream.pipe(local);
      }, () => upstream.destroy());
    });
  }
}
