/**
 * The SIP endpoint: UDP and TCP on one port feeding one transaction layer. Malformed requests that
 * still show a Via get a 400 (so the device sees why); anything else unreadable is dropped. Nothing
 * a peer sends can throw out of here.
 */
import {
  responseTo,
  serializeSip,
  TransactionLayer,
  tryParseSip,
  type RequestCallbacks,
  type ServerTransaction,
  type SipMessage,
  type SipRequest,
  type SipResponse,
  type TimerValues,
} from '@opencvr/sip';
import type { Peer } from './peer.js';
import { TcpTransport } from './transport-tcp.js';
import { UdpTransport } from './transport-udp.js';

export interface EndpointLog {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface EndpointOptions {
  host: string;
  port: number;
  log: EndpointLog;
  onRequest(req: SipRequest, tx: ServerTransaction | undefined, peer: Peer): void;
  onStrayResponse?(res: SipResponse, peer: Peer): void;
  timers?: TimerValues;
}

export class SipEndpoint {
  private readonly udp: UdpTransport;
  private readonly tcp: TcpTransport;
  readonly layer: TransactionLayer<Peer>;
  /** The bound port (the configured one, or the one the system chose for port 0). */
  port = 0;
  /** Messages dropped because they did not parse (a figure for the logs/tests). */
  dropped = 0;

  constructor(private readonly opts: EndpointOptions) {
    this.udp = new UdpTransport({
      host: opts.host,
      port: opts.port,
      onDatagram: (b, p) => this.onBytes(b, p),
      onError: (err) => opts.log.debug({ err }, 'sip: udp error'),
    });
    this.tcp = new TcpTransport({
      host: opts.host,
      port: opts.port,
      onMessage: (b, p) => this.onBytes(b, p),
      onError: (err, peer) => opts.log.debug({ err, peer }, 'sip: tcp error'),
    });
    this.layer = new TransactionLayer<Peer>({
      values: opts.timers,
      isReliable: (p) => p.transport === 'TCP',
      send: (msg, peer) => this.sendRaw(msg, peer),
      onRequest: (req, tx, peer) => this.opts.onRequest(req, tx, peer),
      onStrayResponse: (res, peer) => this.opts.onStrayResponse?.(res, peer),
    });
  }

  async start() {
    // UDP first: with port 0 the system picks a port, and TCP then takes the same number. That number
    // may already be the local port of some outgoing TCP connection (UDP and TCP share the ephemeral
    // range): with port 0, let the system pick again rather than fail.
    const attempts = this.opts.port === 0 ? 20 : 1;
    for (let attempt = 1; ; attempt++) {
      this.port = await this.udp.start();
      try {
        await this.tcp.start(this.port);
        return;
      } catch (err) {
        await this.udp.stop();
        if (attempt >= attempts || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
        this.opts.log.debug({ port: this.port, attempt }, 'sip: TCP port taken, picking another');
      }
    }
  }

  async stop() {
    this.layer.stop();
    await Promise.all([this.udp.stop(), this.tcp.stop()]);
  }

  get tcpConnections() {
    return this.tcp.connectionCount;
  }

  /** Sends a request through a client transaction (retransmitted over UDP). */
  request(req: SipRequest, peer: Peer, cb: RequestCallbacks) {
    return this.layer.request(req, peer, cb);
  }

  sendRaw(msg: SipMessage, peer: Peer) {
    const bytes = serializeSip(msg);
    if (peer.transport === 'TCP') this.tcp.send(bytes, peer);
    else this.udp.send(bytes, peer);
  }

  private onBytes(bytes: Uint8Array, peer: Peer) {
    // A UDP keep-alive ("\r\n\r\n" or a single CRLF) carries nothing.
    if (bytes.length <= 4 && bytes.every((b) => b === 0x0d || b === 0x0a)) return;
    const parsed = tryParseSip(bytes);
    if (!parsed.ok) {
      this.dropped++;
      const partial = parsed.error.partial;
      this.opts.log.debug({ peer, err: parsed.error.message }, 'sip: malformed message');
      if (partial?.kind === 'request' && partial.method !== 'ACK' && partial.headers.some((h) => h.name === 'Via')) {
        const req: SipRequest = { kind: 'request', method: partial.method ?? '', uri: partial.uri ?? '', headers: partial.headers, body: new Uint8Array(0) };
        try {
          this.sendRaw(responseTo(req, 400, { reason: `Bad Request (${parsed.error.code})` }), peer);
        } catch {
          // nowhere to send: dropped
        }
      }
      return;
    }
    try {
      this.layer.receive(parsed.message, peer);
    } catch (err) {
      // A handler bug must not take the SIP server down with it.
      this.opts.log.warn({ err, peer }, 'sip: request handling failed');
    }
  }
}
