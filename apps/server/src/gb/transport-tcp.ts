/**
 * SIP over TCP: a listener on the SIP port. Each connection has its own framer; requests to a
 * device go back over the connection it registered on. A connection that sends an unframeable
 * stream is closed (it cannot be resynchronised); one that sends nothing for `idleMs` is closed too.
 */
import net from 'node:net';
import { SipError, StreamFramer } from '@opencvr/sip';
import { plainAddress, type Peer } from './peer.js';
import { SipTransportError } from './transport-error.js';

export interface TcpTransportOptions {
  host: string;
  port: number;
  onMessage(bytes: Uint8Array, peer: Peer): void;
  onError(err: Error, peer?: Peer): void;
  maxConnections?: number;
  /** Close a silent connection after this long (default 10 minutes: keepalives come every minute). */
  idleMs?: number;
}

const CRLF = Buffer.from('\r\n');

export class TcpTransport {
  private server: net.Server | undefined;
  private readonly conns = new Map<string, net.Socket>();

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

  private adopt(socket: net.Socket) {
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
  }

  /**
   * Sends over the peer's connection. A device on TCP is reached over the connection it registered
   * on; when that is gone the device reconnects and registers again, so there is nothing to dial
   * (its source port listens for nothing): the send fails at once and the transaction reports it.
   */
  send(bytes: Uint8Array, peer: Peer) {
    const socket = this.conns.get(`${peer.address}:${peer.port}`);
    if (!socket || socket.destroyed) {
      const address = `${peer.address}:${peer.port}`;
      throw new SipTransportError(`no TCP connection from ${address}`, { key: 'gbTcpConnectionGone', vars: { address } });
    }
    socket.write(bytes);
  }

  async stop() {
    const server = this.server;
    this.server = undefined;
    for (const s of this.conns.values()) s.destroy();
    this.conns.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
