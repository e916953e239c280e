/** SIP over UDP: one socket on the SIP port; each datagram is one message. */
import dgram from 'node:dgram';
import net from 'node:net';
import { plainAddress, type Peer } from './peer.js';
import { SipTransportError } from './transport-error.js';

export interface UdpTransportOptions {
  host: string;
  port: number;
  onDatagram(bytes: Uint8Array, peer: Peer): void;
  onError(err: Error): void;
}

export class UdpTransport {
  private socket: dgram.Socket | undefined;

  constructor(private readonly opts: UdpTransportOptions) {}

  /** Binds; resolves with the bound port (useful when asked for port 0). */
  async start(): Promise<number> {
    const type = net.isIPv6(this.opts.host) ? 'udp6' : 'udp4';
    const socket = dgram.createSocket({ type, reuseAddr: false });
    this.socket = socket;
    socket.on('message', (msg, rinfo) => {
      this.opts.onDatagram(new Uint8Array(msg.buffer, msg.byteOffset, msg.length), {
        transport: 'UDP',
        address: plainAddress(rinfo.address),
        port: rinfo.port,
      });
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(this.opts.port, this.opts.host, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    // After binding, a socket error (ICMP unreachable reported on some systems) must not crash the app.
    socket.on('error', (err) => this.opts.onError(err));
    try {
      socket.setRecvBufferSize(4 * 1024 * 1024);
    } catch {
      // Limited by the system (net.core.rmem_max): the default buffer works, only bursts suffer.
    }
    return socket.address().port;
  }

  send(bytes: Uint8Array, peer: Peer) {
    if (!this.socket) throw new SipTransportError('SIP UDP transport is not running', { key: 'gbSipNotRunning' });
    this.socket.send(bytes, peer.port, peer.address, (err) => {
      if (err) this.opts.onError(err);
    });
  }

  async stop() {
    const s = this.socket;
    this.socket = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}
