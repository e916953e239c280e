/**
 * Matches messages to transactions (RFC 3261 §17.1.3, §17.2.3) and keeps the tables. Transport
 * independent: a peer is whatever the caller uses to address a remote (address, port, transport,
 * connection), and `isReliable(peer)` says whether retransmissions are needed.
 */
import { BRANCH_COOKIE } from './ids.js';
import { responseTo } from './builders.js';
import { header, headerAll, type SipMessage, type SipRequest, type SipResponse } from './message.js';
import { parseCSeq, parseVia, tagOf } from './header-values.js';
import {
  DEFAULT_TIMERS,
  InviteClientTransaction,
  InviteServerTransaction,
  NonInviteClientTransaction,
  NonInviteServerTransaction,
  realTimers,
  type ClientTransaction,
  type ServerTransaction,
  type TimerHost,
  type TimerValues,
} from './transactions.js';

export interface TransactionLayerOptions<P> {
  timers?: TimerHost;
  values?: TimerValues;
  isReliable(peer: P): boolean;
  /** Hands bytes-to-be to the transport; may throw (then the transaction ends with a transport error). */
  send(msg: SipMessage, peer: P): void;
  /**
   * A new request. `tx` answers it; it is undefined for an ACK to a 2xx (no transaction: the
   * dialog layer's business). CANCEL is answered here and reported through onCancel.
   */
  onRequest(req: SipRequest, tx: ServerTransaction | undefined, peer: P): void;
  /** A response no client transaction matches (e.g. a retransmitted 2xx to an INVITE: re-ACK it). */
  onStrayResponse?(res: SipResponse, peer: P): void;
  /** An INVITE was cancelled by the peer (already answered 487). */
  onCancel?(invite: SipRequest, peer: P): void;
}

export interface RequestCallbacks {
  onResponse(res: SipResponse): void;
  onTimeout(): void;
  onTransportError?(err: Error): void;
  onTerminated?(): void;
}

export class TransactionLayer<P> {
  private readonly timers: TimerHost;
  private readonly values: TimerValues;
  private readonly clients = new Map<string, ClientTransaction>();
  private readonly servers = new Map<string, ServerTransaction>();

  constructor(private readonly opts: TransactionLayerOptions<P>) {
    this.timers = opts.timers ?? realTimers;
    this.values = opts.values ?? DEFAULT_TIMERS;
  }

  get clientCount() {
    return this.clients.size;
  }
  get serverCount() {
    return this.servers.size;
  }

  /** A parsed message from the transport. */
  receive(msg: SipMessage, peer: P) {
    if (msg.kind === 'response') this.receiveResponse(msg, peer);
    else this.receiveRequest(msg, peer);
  }

  /** Sends a request through a new client transaction. The top Via must carry a fresh z9hG4bK branch. */
  request(req: SipRequest, peer: P, cb: RequestCallbacks): ClientTransaction {
    const key = clientKey(req);
    if (!key) throw new Error('request without a Via branch or CSeq');
    if (this.clients.has(key)) throw new Error(`a transaction ${key} is already running`);
    const ctx = { reliable: this.opts.isReliable(peer), timers: this.timers, values: this.values };
    const send = (m: SipRequest) => this.opts.send(m, peer);
    const callbacks = {
      onResponse: (r: SipResponse) => cb.onResponse(r),
      onTimeout: () => cb.onTimeout(),
      onTransportError: (e: Error) => cb.onTransportError?.(e),
      onTerminated: () => {
        if (this.clients.get(key) === tx) this.clients.delete(key);
        cb.onTerminated?.();
      },
    };
    const tx: ClientTransaction =
      req.method === 'INVITE' ? new InviteClientTransaction(req, ctx, send, callbacks) : new NonInviteClientTransaction(req, ctx, send, callbacks);
    this.clients.set(key, tx);
    tx.start();
    return tx;
  }

  /** Sends outside any transaction (the ACK of a 2xx, a 2xx retransmission). */
  sendStateless(msg: SipMessage, peer: P) {
    this.opts.send(msg, peer);
  }

  /** Ends every transaction and its timers (shutdown). */
  stop() {
    for (const t of [...this.clients.values()]) t.terminate();
    for (const t of [...this.servers.values()]) t.terminate();
    this.clients.clear();
    this.servers.clear();
  }

  private receiveResponse(res: SipResponse, peer: P) {
    const key = clientKey(res);
    const tx = key ? this.clients.get(key) : undefined;
    if (tx) tx.receive(res);
    else this.opts.onStrayResponse?.(res, peer);
  }

  private receiveRequest(req: SipRequest, peer: P) {
    const key = serverKey(req);
    const existing = this.servers.get(key);
    if (req.method === 'ACK') {
      if (existing instanceof InviteServerTransaction) existing.receiveAck();
      else this.opts.onRequest(req, undefined, peer);
      return;
    }
    if (existing) {
      existing.receiveRequest();
      return;
    }
    const ctx = { reliable: this.opts.isReliable(peer), timers: this.timers, values: this.values };
    const send = (m: SipResponse) => this.opts.send(m, peer);
    const callbacks = {
      onTerminated: () => {
        if (this.servers.get(key) === tx) this.servers.delete(key);
      },
    };
    const tx: ServerTransaction =
      req.method === 'INVITE' ? new InviteServerTransaction(req, ctx, send, callbacks) : new NonInviteServerTransaction(req, ctx, send, callbacks);
    this.servers.set(key, tx);
    if (req.method === 'CANCEL') {
      this.cancel(req, tx as NonInviteServerTransaction, peer);
      return;
    }
    if (tx instanceof InviteServerTransaction) tx.respond(responseTo(req, 100));
    this.opts.onRequest(req, tx, peer);
  }

  private cancel(req: SipRequest, tx: NonInviteServerTransaction, peer: P) {
    const invite = this.servers.get(serverKey({ ...req, method: 'INVITE' }));
    if (!(invite instanceof InviteServerTransaction)) {
      tx.respond(responseTo(req, 481));
      return;
    }
    tx.respond(responseTo(req, 200));
    if (invite.state === 'proceeding') {
      invite.respond(responseTo(invite.request, 487, { toTag: tagOf(header(req, 'To')) ?? 'cancelled' }));
      this.opts.onCancel?.(invite.request, peer);
    }
  }
}

/** Client transactions: branch of the top Via + CSeq method (§17.1.3). */
function clientKey(msg: SipMessage): string | undefined {
  const via = parseVia(headerAll(msg, 'Via')[0] ?? '');
  const cseq = parseCSeq(header(msg, 'CSeq') ?? '');
  const branch = via?.params.branch;
  if (!branch || !cseq) return undefined;
  return `${branch}|${cseq.method === 'ACK' ? 'INVITE' : cseq.method}`;
}

/** Server transactions: branch + sent-by + method, or the RFC 2543 fallback for branches without the cookie (§17.2.3). */
function serverKey(req: SipRequest): string {
  const method = req.method === 'ACK' ? 'INVITE' : req.method;
  const topVia = headerAll(req, 'Via')[0] ?? '';
  const via = parseVia(topVia);
  const branch = via?.params.branch ?? '';
  if (branch.startsWith(BRANCH_COOKIE) && via) return `${branch}|${via.host}:${via.port ?? ''}|${method}`;
  const cseq = parseCSeq(header(req, 'CSeq') ?? '');
  return `2543|${header(req, 'Call-ID')}|${cseq?.seq}|${tagOf(header(req, 'From'))}|${topVia}|${method}`;
}
