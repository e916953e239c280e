/**
 * The four transaction state machines of RFC 3261 §17, as pure objects: they send through a
 * callback and set timers through an injected TimerHost, so tests drive them with a fake clock.
 * Timer names follow the RFC (A/B/D client INVITE, E/F/K client non-INVITE, G/H/I server INVITE,
 * J server non-INVITE). On a reliable transport (TCP) nothing is retransmitted and the
 * wait-for-retransmissions timers (D, I, J, K) are zero, as §17 says.
 */
import { ackFor } from './builders.js';
import type { SipRequest, SipResponse } from './message.js';

export interface TimerHost {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface TimerValues {
  /** RTT estimate (500 ms). */
  T1: number;
  /** Longest retransmit interval for non-INVITE requests and INVITE responses (4 s). */
  T2: number;
  /** Longest time a message stays in the network (5 s). */
  T4: number;
}
export const DEFAULT_TIMERS: TimerValues = { T1: 500, T2: 4000, T4: 5000 };

export const realTimers: TimerHost = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** Small helper: named timers that are cleared together. */
class Timers {
  private handles = new Map<string, unknown>();
  constructor(private readonly host: TimerHost) {}
  set(name: string, ms: number, fn: () => void) {
    this.clear(name);
    this.handles.set(
      name,
      this.host.setTimeout(() => {
        this.handles.delete(name);
        fn();
      }, ms),
    );
  }
  clear(name: string) {
    const h = this.handles.get(name);
    if (h !== undefined) this.host.clearTimeout(h);
    this.handles.delete(name);
  }
  clearAll() {
    for (const h of this.handles.values()) this.host.clearTimeout(h);
    this.handles.clear();
  }
  has(name: string) {
    return this.handles.has(name);
  }
}

export interface TransactionContext {
  reliable: boolean;
  timers: TimerHost;
  values: TimerValues;
}

export interface ClientCallbacks {
  /** Every response the transaction passes up (provisional and final). */
  onResponse(res: SipResponse): void;
  /** Timer B/F: no final response in time. */
  onTimeout(): void;
  /** The transport could not send. */
  onTransportError?(err: Error): void;
  /** The transaction is gone (remove it from the table). */
  onTerminated(): void;
}

export type ClientState = 'calling' | 'trying' | 'proceeding' | 'completed' | 'terminated';

/**
 * What the four machines share: their timers (cleared together), a send whose transport failure
 * ends the transaction, and ending once (onTerminated is called a single time).
 */
abstract class Transaction<
  Out extends SipRequest | SipResponse,
  State extends string,
  Cb extends { onTransportError?(err: Error): void; onTerminated(): void },
> {
  abstract state: State;
  protected readonly timers: Timers;

  constructor(
    readonly request: SipRequest,
    protected readonly ctx: TransactionContext,
    protected readonly send: (msg: Out) => void,
    protected readonly cb: Cb,
  ) {
    this.timers = new Timers(ctx.timers);
  }

  protected transmit(msg: Out) {
    try {
      this.send(msg);
    } catch (err) {
      this.cb.onTransportError?.(err as Error);
      this.terminate();
    }
  }

  terminate() {
    if (this.state === 'terminated') return;
    this.state = 'terminated' as State;
    this.timers.clearAll();
    this.cb.onTerminated();
  }
}

/** Client non-INVITE transaction (§17.1.2): Trying → Proceeding → Completed → Terminated. */
export class NonInviteClientTransaction extends Transaction<SipRequest, ClientState, ClientCallbacks> {
  state: ClientState = 'trying';
  private interval: number;

  constructor(request: SipRequest, ctx: TransactionContext, send: (msg: SipRequest) => void, cb: ClientCallbacks) {
    super(request, ctx, send, cb);
    this.interval = ctx.values.T1;
  }

  start() {
    this.transmit(this.request);
    if (this.state === 'terminated') return;
    if (!this.ctx.reliable) this.timers.set('E', this.interval, () => this.timerE());
    this.timers.set('F', 64 * this.ctx.values.T1, () => {
      if (this.state !== 'trying' && this.state !== 'proceeding') return;
      this.cb.onTimeout();
      this.terminate();
    });
  }

  private timerE() {
    if (this.state !== 'trying' && this.state !== 'proceeding') return;
    this.transmit(this.request);
    this.interval = this.state === 'trying' ? Math.min(2 * this.interval, this.ctx.values.T2) : this.ctx.values.T2;
    this.timers.set('E', this.interval, () => this.timerE());
  }

  receive(res: SipResponse) {
    if (this.state === 'trying' || this.state === 'proceeding') {
      if (res.status < 200) {
        this.state = 'proceeding';
        this.cb.onResponse(res);
        return;
      }
      this.timers.clear('E');
      this.timers.clear('F');
      this.state = 'completed';
      this.cb.onResponse(res);
      const k = this.ctx.reliable ? 0 : this.ctx.values.T4;
      if (k === 0) this.terminate();
      else this.timers.set('K', k, () => this.terminate());
    }
    // Completed: retransmitted finals are absorbed.
  }
}

/** Client INVITE transaction (§17.1.1): Calling → Proceeding → Completed/Terminated; ACKs 3xx–6xx itself. */
export class InviteClientTransaction extends Transaction<SipRequest, ClientState, ClientCallbacks> {
  state: ClientState = 'calling';
  private interval: number;
  private ack: SipRequest | undefined;

  constructor(request: SipRequest, ctx: TransactionContext, send: (msg: SipRequest) => void, cb: ClientCallbacks) {
    super(request, ctx, send, cb);
    this.interval = ctx.values.T1;
  }

  start() {
    this.transmit(this.request);
    if (this.state === 'terminated') return;
    if (!this.ctx.reliable) this.timers.set('A', this.interval, () => this.timerA());
    this.timers.set('B', 64 * this.ctx.values.T1, () => {
      if (this.state !== 'calling') return;
      this.cb.onTimeout();
      this.terminate();
    });
  }

  private timerA() {
    if (this.state !== 'calling') return;
    this.transmit(this.request);
    this.interval *= 2;
    this.timers.set('A', this.interval, () => this.timerA());
  }

  receive(res: SipResponse) {
    if (this.state === 'calling' || this.state === 'proceeding') {
      if (res.status < 200) {
        this.state = 'proceeding';
        this.timers.clear('A');
        this.timers.clear('B');
        this.cb.onResponse(res);
        return;
      }
      this.timers.clear('A');
      this.timers.clear('B');
      if (res.status < 300) {
        // 2xx: the TU sends the ACK (a new transaction) and absorbs retransmissions.
        this.cb.onResponse(res);
        this.terminate();
        return;
      }
      this.state = 'completed';
      this.ack = ackFor(this.request, res);
      this.transmit(this.ack);
      this.cb.onResponse(res);
      const d = this.ctx.reliable ? 0 : 32_000;
      if (d === 0) this.terminate();
      else this.timers.set('D', d, () => this.terminate());
      return;
    }
    if (this.state === 'completed' && res.status >= 300 && this.ack) this.transmit(this.ack);
  }
}

export interface ServerCallbacks {
  /** Timer H: a 3xx–6xx to an INVITE was never acknowledged. */
  onTimeout?(): void;
  onTransportError?(err: Error): void;
  onTerminated(): void;
}

export type ServerState = 'trying' | 'proceeding' | 'completed' | 'confirmed' | 'terminated';

/** Server non-INVITE transaction (§17.2.2): answers retransmitted requests with the last response. */
export class NonInviteServerTransaction extends Transaction<SipResponse, ServerState, ServerCallbacks> {
  state: ServerState = 'trying';
  private last: SipResponse | undefined;

  constructor(request: SipRequest, ctx: TransactionContext, send: (msg: SipResponse) => void, cb: ServerCallbacks) {
    super(request, ctx, send, cb);
  }

  /** A retransmission of the request arrived. */
  receiveRequest() {
    if ((this.state === 'proceeding' || this.state === 'completed') && this.last) this.transmit(this.last);
  }

  /** The TU's response. Ignored once a final was sent. */
  respond(res: SipResponse) {
    if (this.state === 'completed' || this.state === 'confirmed' || this.state === 'terminated') return;
    this.last = res;
    if (res.status < 200) {
      this.state = 'proceeding';
      this.transmit(res);
      return;
    }
    this.state = 'completed';
    this.transmit(res);
    if (this.state !== 'completed') return;
    const j = this.ctx.reliable ? 0 : 64 * this.ctx.values.T1;
    if (j === 0) this.terminate();
    else this.timers.set('J', j, () => this.terminate());
  }

  get finalSent(): boolean {
    return this.state === 'completed' || (this.state === 'terminated' && !!this.last && this.last.status >= 200);
  }
}

/** Server INVITE transaction (§17.2.1): retransmits a 3xx–6xx until the ACK (G), gives up at H, absorbs ACKs (I). */
export class InviteServerTransaction extends Transaction<SipResponse, ServerState, ServerCallbacks> {
  state: ServerState = 'proceeding';
  private last: SipResponse | undefined;
  private interval: number;

  constructor(request: SipRequest, ctx: TransactionContext, send: (msg: SipResponse) => void, cb: ServerCallbacks) {
    super(request, ctx, send, cb);
    this.interval = ctx.values.T1;
  }

  receiveRequest() {
    if ((this.state === 'proceeding' || this.state === 'completed') && this.last) this.transmit(this.last);
  }

  receiveAck() {
    if (this.state !== 'completed') return;
    this.state = 'confirmed';
    this.timers.clear('G');
    this.timers.clear('H');
    const i = this.ctx.reliable ? 0 : this.ctx.values.T4;
    if (i === 0) this.terminate();
    else this.timers.set('I', i, () => this.terminate());
  }

  respond(res: SipResponse) {
    if (this.state !== 'proceeding') return;
    this.last = res;
    if (res.status < 200) {
      this.transmit(res);
      return;
    }
    if (res.status < 300) {
      this.transmit(res);
      // The TU retransmits its 2xx until the ACK (§13.3.1.4); the transaction is done.
      this.terminate();
      return;
    }
    this.state = 'completed';
    this.transmit(res);
    if (this.state !== 'completed') return;
    if (!this.ctx.reliable) this.timers.set('G', this.interval, () => this.timerG());
    this.timers.set('H', 64 * this.ctx.values.T1, () => {
      if (this.state !== 'completed') return;
      this.cb.onTimeout?.();
      this.terminate();
    });
  }

  private timerG() {
    if (this.state !== 'completed' || !this.last) return;
    this.transmit(this.last);
    this.interval = Math.min(2 * this.interval, this.ctx.values.T2);
    this.timers.set('G', this.interval, () => this.timerG());
  }
}

export type ClientTransaction = NonInviteClientTransaction | InviteClientTransaction;
export type ServerTransaction = NonInviteServerTransaction | InviteServerTransaction;
