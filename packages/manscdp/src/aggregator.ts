/**
 * Collects the pages of a multi-response answer (GB/T 28181-2016 annex N: a Catalog or RecordInfo answer
 * split over many MESSAGEs, each carrying SumNum) until SumNum items have arrived.
 * - correlated by (DeviceID, SN): many devices and many queries at once never mix;
 * - duplicates (a page resent over UDP) and out-of-order pages are harmless: items are keyed;
 * - rejected items (malformed in the page) count as arrived, so a bad item does not stall the answer;
 * - an answer that stops short ends by time-out, reporting how many of SumNum arrived.
 * Pure: the clock is injected, nothing runs by itself; call `expire()` from a timer.
 */
import type { CatalogItem, CatalogResponse, RejectedItem } from './decode/catalog.js';
import type { RecordInfoResponse, RecordItem } from './decode/record.js';

export interface AggregatorOptions<T> {
  /** Milliseconds; injected so tests and the server decide what time is. */
  now: () => number;
  /** An answer with no new page for this long ends as timed out. Default 10 s. */
  idleTimeoutMs?: number;
  /** An answer still open this long after it started ends as timed out. Default 5 min. */
  totalTimeoutMs?: number;
  /** Identity of an item for duplicate detection. */
  keyOf: (item: T) => string;
  /** Items kept per answer at most (a device claiming SumNum 10^9 cannot exhaust memory). Default 200,000. */
  maxItems?: number;
  /** Answers open at once at most; the oldest is dropped (reported as timed out) past it. Default 10,000. */
  maxOpen?: number;
  /** Order of the items in a result (default: first arrival). */
  order?: (a: T, b: T) => number;
  /** Accept pages of an answer nobody started (e.g. a catalog sent after a SUBSCRIBE). Default true. */
  acceptUnsolicited?: boolean;
}

export interface AggregateResult<T> {
  deviceId: string;
  sn: number;
  /** The largest SumNum any page announced. */
  sumNum: number;
  items: T[];
  rejected: RejectedItem[];
  /** Distinct items and rejected items that arrived (what counts toward SumNum). */
  received: number;
  duplicates: number;
  pages: number;
  complete: boolean;
  /** Why it ended. */
  reason: 'complete' | 'idle-timeout' | 'total-timeout' | 'cancelled' | 'overflow';
  startedAt: number;
  endedAt: number;
}

export interface PageAdded<T> {
  /** Set when this page finished the answer. */
  done?: AggregateResult<T>;
  /** False when the page was for an answer not started and unsolicited pages are refused. */
  accepted: boolean;
  received: number;
  sumNum: number;
}

interface Open<T> {
  deviceId: string;
  sn: number;
  sumNum: number;
  items: Map<string, T>;
  rejected: RejectedItem[];
  rejectedKeys: Set<string>;
  duplicates: number;
  pages: number;
  startedAt: number;
  lastAt: number;
  started: boolean;
}

const keyOfAnswer = (deviceId: string, sn: number) => `${deviceId}\u0000${sn}`;

export class PagedAggregator<T> {
  private readonly open = new Map<string, Open<T>>();
  private readonly idle: number;
  private readonly total: number;
  private readonly maxItems: number;
  private readonly maxOpen: number;

  constructor(private readonly opts: AggregatorOptions<T>) {
    this.idle = opts.idleTimeoutMs ?? 10_000;
    this.total = opts.totalTimeoutMs ?? 300_000;
    this.maxItems = opts.maxItems ?? 200_000;
    this.maxOpen = opts.maxOpen ?? 10_000;
  }

  /** Registers a query just sent, so its time-out runs even if no page ever arrives. */
  start(deviceId: string, sn: number): AggregateResult<T> | undefined {
    const k = keyOfAnswer(deviceId, sn);
    const existing = this.open.get(k);
    if (existing) {
      existing.started = true;
      return undefined;
    }
    const dropped = this.makeRoom();
    const now = this.opts.now();
    this.open.set(k, {
      deviceId,
      sn,
      sumNum: 0,
      items: new Map(),
      rejected: [],
      rejectedKeys: new Set(),
      duplicates: 0,
      pages: 0,
      startedAt: now,
      lastAt: now,
      started: true,
    });
    return dropped;
  }

  /** Adds one page. Returns the finished answer when this page completed it. */
  add(
    deviceId: string,
    sn: number,
    sumNum: number,
    items: readonly T[],
    rejected: readonly RejectedItem[] = [],
  ): PageAdded<T> {
    const k = keyOfAnswer(deviceId, sn);
    let a = this.open.get(k);
    if (!a) {
      if (this.opts.acceptUnsolicited === false) return { accepted: false, received: 0, sumNum };
      this.makeRoom();
      const now = this.opts.now();
      a = {
        deviceId,
        sn,
        sumNum: 0,
        items: new Map(),
        rejected: [],
        rejectedKeys: new Set(),
        duplicates: 0,
        pages: 0,
        startedAt: now,
        lastAt: now,
        started: false,
      };
      this.open.set(k, a);
    }
    a.pages++;
    a.lastAt = this.opts.now();
    if (Number.isInteger(sumNum) && sumNum > a.sumNum) a.sumNum = sumNum;
    for (const item of items) {
      const key = this.opts.keyOf(item);
      if (a.items.has(key)) a.duplicates++;
      else if (a.items.size + a.rejected.length < this.maxItems) a.items.set(key, item);
    }
    for (const r of rejected) {
      // A resent page repeats its rejected items too: key them by what they said.
      const key = `${r.deviceId ?? ''}\u0000${r.index}\u0000${r.reason}`;
      if (a.rejectedKeys.has(key)) a.duplicates++;
      else if (a.items.size + a.rejected.length < this.maxItems) {
        a.rejectedKeys.add(key);
        a.rejected.push(r);
      }
    }
    const received = a.items.size + a.rejected.length;
    const target = Math.min(a.sumNum, this.maxItems);
    if (received >= target) {
      this.open.delete(k);
      return { accepted: true, received, sumNum: a.sumNum, done: this.result(a, 'complete') };
    }
    return { accepted: true, received, sumNum: a.sumNum };
  }

  /** Ends every answer past its idle or total time-out; call periodically. */
  expire(): AggregateResult<T>[] {
    const now = this.opts.now();
    const out: AggregateResult<T>[] = [];
    for (const [k, a] of this.open) {
      const reason =
        now - a.startedAt >= this.total ? 'total-timeout' : now - a.lastAt >= this.idle ? 'idle-timeout' : undefined;
      if (reason) {
        this.open.delete(k);
        out.push(this.result(a, reason));
      }
    }
    return out;
  }

  /** Ends an answer now (device went offline, query abandoned). */
  cancel(deviceId: string, sn: number): AggregateResult<T> | undefined {
    const k = keyOfAnswer(deviceId, sn);
    const a = this.open.get(k);
    if (!a) return undefined;
    this.open.delete(k);
    return this.result(a, 'cancelled');
  }

  /** Progress of an open answer, if any. */
  progress(deviceId: string, sn: number): { received: number; sumNum: number } | undefined {
    const a = this.open.get(keyOfAnswer(deviceId, sn));
    return a && { received: a.items.size + a.rejected.length, sumNum: a.sumNum };
  }

  get openCount(): number {
    return this.open.size;
  }

  /** The earliest time (ms) at which expire() could end something; undefined when nothing is open. */
  nextDeadline(): number | undefined {
    let next: number | undefined;
    for (const a of this.open.values()) {
      const d = Math.min(a.lastAt + this.idle, a.startedAt + this.total);
      if (next === undefined || d < next) next = d;
    }
    return next;
  }

  private makeRoom(): AggregateResult<T> | undefined {
    if (this.open.size < this.maxOpen) return undefined;
    const [k, oldest] = this.open.entries().next().value as [string, Open<T>];
    this.open.delete(k);
    return this.result(oldest, 'overflow');
  }

  private result(a: Open<T>, reason: AggregateResult<T>['reason']): AggregateResult<T> {
    const received = a.items.size + a.rejected.length;
    return {
      deviceId: a.deviceId,
      sn: a.sn,
      sumNum: a.sumNum,
      items: this.opts.order ? [...a.items.values()].sort(this.opts.order) : [...a.items.values()],
      rejected: a.rejected,
      received,
      duplicates: a.duplicates,
      pages: a.pages,
      complete: received >= Math.min(a.sumNum, this.maxItems),
      reason,
      startedAt: a.startedAt,
      endedAt: this.opts.now(),
    };
  }
}

type Common<T> = Omit<AggregatorOptions<T>, 'keyOf' | 'order'>;

/** Catalog answers: items keyed by their DeviceID (a channel listed twice is one channel). */
export class CatalogAggregator extends PagedAggregator<CatalogItem> {
  constructor(opts: Common<CatalogItem>) {
    super({ ...opts, keyOf: (i) => i.deviceId });
  }

  addResponse(m: CatalogResponse): PageAdded<CatalogItem> {
    return this.add(m.deviceId, m.sn, m.sumNum, m.items, m.rejected);
  }
}

/** RecordInfo answers: a recording is the same when channel, span, path and type are. Sorted by start when done. */
export class RecordInfoAggregator extends PagedAggregator<RecordItem> {
  constructor(opts: Common<RecordItem>) {
    super({
      ...opts,
      keyOf: (r) => [r.deviceId, r.startTime, r.endTime, r.filePath ?? '', r.type ?? ''].join('\u0000'),
      order: (x, y) => (x.startTime < y.startTime ? -1 : x.startTime > y.startTime ? 1 : 0),
    });
  }

  addResponse(m: RecordInfoResponse): PageAdded<RecordItem> {
    return this.add(m.deviceId, m.sn, m.sumNum, m.items, m.rejected);
  }
}
