/**
 * SIP over TCP: a listener on the SIP port. Each connection has its own framer; requests to a
 * device go back over the connection it registered on, or a new one to its address when that
 * connection is gone. A connection that sends an unframeable stream is closed (it cannot be
 * resynchronised); one that sends nothing for `idleMs` is closed too.
 */
import net from 'node:net';
import { SipError, StreamFramer } from '@opencvr/sip';
import { plainAddress, type Peer } from './peer.js';

export interface TcpTransportOptions {
  host: string;
  port: number;
  onMessage(bytes: Uint8Array, peer: Peer): void;
  onError(err: Error, peer?: Peer): void;
  maxConnections?: number;
  /** Close a silent connection after this long (default 10 minutes: keepalives come every minute). */
  idleMs?: number;
  connectTimeoutMs?: number;
}

const CRLF = Buffer.from('\r\n');

export class TcpTransport {
  private server: net.Server | undefined;
  private readonly conns = new Map<string, net.Socket>();
  private readonly connecting = new Map<string, Promise<net.Socket>>();

  constructor(private readonly opts: TcpTransportOptions) {}

  get connectionCount() {
    return this.conns.size;
  }

  async start(port = this.opts.port): Promise<number> {
    const server = net.createServer((socket) => this.adopt(socket));
    server.maxConnections = this.opts.maxConnections ?? 20_000;
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host: this.opts.host }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (err) => this.opts.onError(err));
    return (server.address() as net.AddressInfo).port;
  }

  private adopt(socket: net.Socket): string {
    const peer: Peer = { transport: 'TCP', address: plainAddress(socket.remoteAddress ?? ''), port: socket.remotePort ?? 0 };
    const key = `${peer.address}:${peer.port}`;
    this.conns.set(key, socket);
    const framer = new StreamFramer();
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 30_000);
    socket.setTimeout(this.opts.idleMs ?? 600_000, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      let messages: Uint8Array[];
      try {
        messages = framer.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
      } catch (err) {
        if (err instanceof SipError) this.opts.onError(err, peer);
        socket.destroy();
        return;
      }
      // RFC 5626: a double-CRLF ping is answered with one CRLF.
      for (let i = framer.takePings(); i > 0; i--) socket.write(CRLF);
      for (const m of messages) this.opts.onMessage(m, peer);
    });
    socket.on('error', () => {
      // Reset by the device: the close handler cleans up.
    });
    socket.on('close', () => {
      if (this.conns.get(key) === socket) this.conns.delete(key);
    });
    return key;
  }

  /** Sends over the peer's connection, opening one to its address when there is none. */
  send(bytes: Uint8Array, peer: Peer) {
    const key = `${peer.address}:${peer.port}`;
    const socket = this.conns.get(key);
    if (socket && !socket.destroyed) {
      socket.write(bytes);
      return;
    }
    void this.connect(peer)
      .then((s) => s.write(bytes))
      .catch((err: Error) => this.opts.onError(err, peer));
  }

  private connect(peer: Peer): Promise<net.Socket> {
    const key = `${peer.address}:${peer.port}`;
    const pending = this.connecting.get(key);
    if (pending) return pending;
    const p = new Promise<net.Socket>((resolve, reject) => {
      if (!this.server) return reject(new Error('SIP TCP transport is not running'));
      const socket = net.connect({ host: peer.address, port: peer.port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`TCP connect to ${key} timed out`));
      }, this.opts.connectTimeoutMs ?? 5000);
      socket.once('connect', () => {
        clearTimeout(timer);
        // Outgoing connections are registered under the device's address, so its answers match.
        this.adoptOutgoing(socket, key);
        resolve(socket);
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    }).finally(() => this.connecting.delete(key));
    this.connecting.set(key, p);
    return p;
  }

  private adoptOutgoing(socket: net.Socket, key: string) {
    const adopted = this.adopt(socket);
    if (adopted !== key) {
      // remoteAddress normalisation differs from what the caller used: keep both names.
      this.conns.set(key, socket);
      socket.on('close', () => {
        if (this.conns.get(key) === socket) this.conns.delete(key);
      });
    }
  }

  async stop() {
    const server = this.server;
    this.server = undefined;
    for (const s of this.conns.values()) s.destroy();
    this.conns.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
