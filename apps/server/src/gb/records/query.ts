/**
 * RecordInfo queries (GB/T 28181-2016 9.7, A.2.4.5): which recordings a device (an NVR's disk, a
 * camera's SD card) keeps for a channel in a time range. The answer comes as many MESSAGEs (pages of
 * a few items each, SumNum for the whole) under the SN of the query; they are collected by
 * (DeviceID of the body, SN) in the package's RecordInfoAggregator until SumNum items arrived. An
 * answer that stops short ends by time-out and is still returned, marked incomplete with the count,
 * so the console can show what came and say that some is missing. A device answering SumNum 0
 * (nothing recorded) ends at once.
 *
 * Identical queries running at once (a calendar and a timeline asking for the same day) share one
 * answer, and a finished answer is kept a few seconds: devices are slow and a page load asks twice.
 */
import { encodeRecordInfoQuery, RecordInfoAggregator, type AggregateResult, type RecordItem, type RecordType } from '@opencvr/manscdp';
import type { GbLog } from '../core.js';
import type { GbApi, ManscdpClient } from '../manscdp-client.js';
import type { InboundMessage } from '../messages.js';
import { dateOfGbTime, gbTimeOf } from './time.js';

export interface RecordSearch {
  /** The device asked (SIP target) and the channel asked about (DeviceID of the query). */
  deviceId: string;
  channelId: string;
  from: Date;
  to: Date;
  type?: RecordType;
}

/** One recording the device keeps, with times as Dates of the server's zone. */
export interface DeviceRecord {
  channelId: string;
  name?: string;
  filePath?: string;
  start: Date;
  end: Date;
  type?: string;
  fileSize?: number;
  streamNumber?: number;
}

export interface RecordSearchResult {
  records: DeviceRecord[];
  /** All SumNum items arrived. */
  complete: boolean;
  reason: AggregateResult<RecordItem>['reason'];
  received: number;
  sumNum: number;
  pages: number;
  /** Items the device sent that could not be read (bad times). */
  rejected: number;
}

export interface RecordQueryTimeouts {
  /** No page for this long ends the answer (default 10 s; also how long a silent device is waited for). */
  idleTimeoutMs: number;
  /** An answer still open this long ends (default 60 s). */
  totalTimeoutMs: number;
  /** A finished answer is reused this long (default 5 s). */
  cacheMs: number;
}

export interface RecordQueryDeps {
  gb: Pick<GbApi, 'onMessage' | 'onDeviceStatus'>;
  client: Pick<ManscdpClient, 'nextSn' | 'send' | 'encodingOf' | 'heard'>;
  log: GbLog;
  now?: () => number;
}

interface Waiting {
  resolve: (r: RecordSearchResult) => void;
  key: string;
}

export class GbRecordQuery {
  private timeouts: RecordQueryTimeouts = { idleTimeoutMs: 10_000, totalTimeoutMs: 60_000, cacheMs: 5000 };
  private aggregator: RecordInfoAggregator;
  /** (channel, sn) → the caller waiting for that answer. */
  private readonly waiting = new Map<string, Waiting>();
  private readonly shared = new Map<string, Promise<RecordSearchResult>>();
  private readonly cache = new Map<string, { at: number; result: RecordSearchResult }>();
  private readonly unhooks: (() => void)[] = [];
  private timer?: NodeJS.Timeout;
  private readonly now: () => number;

  constructor(private readonly deps: RecordQueryDeps) {
    this.now = deps.now ?? Date.now;
    this.aggregator = this.newAggregator();
  }

  start() {
    if (this.unhooks.length) return;
    this.unhooks.push(this.deps.gb.onMessage('RecordInfo', (m) => this.onPage(m)));
    this.unhooks.push(
      this.deps.gb.onDeviceStatus((e) => {
        if (e.online) return;
        // A device gone offline will not finish its answers: end them now with what came.
        for (const [k, w] of [...this.waiting]) {
          const [deviceId, channelId, sn] = k.split('|');
          if (deviceId !== e.deviceId) continue;
          const res = this.aggregator.cancel(channelId, Number(sn));
          if (res) this.settle(k, w, res);
        }
      }),
    );
  }

  stop() {
    for (const u of this.unhooks.splice(0)) u();
    clearInterval(this.timer);
    this.timer = undefined;
    for (const [k, w] of [...this.waiting]) {
      const [, channelId, sn] = k.split('|');
      const res = this.aggregator.cancel(channelId, Number(sn));
      if (res) this.settle(k, w, res);
    }
  }

  configure(t: Partial<RecordQueryTimeouts>) {
    this.timeouts = { ...this.timeouts, ...t };
    if (this.aggregator.openCount === 0) this.aggregator = this.newAggregator();
  }

  /**
   * Asks the device and resolves with every recording of the channel overlapping [from, to), sorted by
   * start. Rejects only when the device cannot be asked (not registered, MESSAGE refused or unanswered).
   */
  search(q: RecordSearch): Promise<RecordSearchResult> {
    const key = [q.deviceId, q.channelId, q.from.getTime(), q.to.getTime(), q.type ?? 'all'].join('|');
    const cached = this.cache.get(key);
    if (cached && this.now() - cached.at < this.timeouts.cacheMs) return Promise.resolve(cached.result);
    const running = this.shared.get(key);
    if (running) return running;
    const p = this.ask(q).finally(() => this.shared.delete(key));
    this.shared.set(key, p);
    void p.then(
      (result) => {
        if (result.complete) this.cache.set(key, { at: this.now(), result });
        for (const [k, c] of this.cache) if (this.now() - c.at >= this.timeouts.cacheMs) this.cache.delete(k);
      },
      () => undefined,
    );
    return p;
  }

  private async ask(q: RecordSearch): Promise<RecordSearchResult> {
    const { client } = this.deps;
    const sn = client.nextSn();
    const body = encodeRecordInfoQuery(
      { sn, deviceId: q.channelId, startTime: gbTimeOf(q.from), endTime: gbTimeOf(q.to), type: q.type },
      { encoding: client.encodingOf(q.deviceId) },
    );
    const k = `${q.deviceId}|${q.channelId}|${sn}`;
    const answer = new Promise<RecordSearchResult>((resolve) => this.waiting.set(k, { resolve, key: k }));
    this.aggregator.start(q.channelId, sn);
    this.arm();
    try {
      await client.send(q.deviceId, body);
    } catch (err) {
      this.waiting.delete(k);
      this.aggregator.cancel(q.channelId, sn);
      throw err;
    }
    const result = await answer;
    this.deps.log.info(
      { device: q.deviceId, channel: q.channelId, sn, received: result.received, sumNum: result.sumNum, pages: result.pages, reason: result.reason },
      'gb records: RecordInfo answered',
    );
    // The device's answer lists whole files; keep those touching the range asked.
    result.records = result.records.filter((r) => r.end > q.from && r.start < q.to);
    return result;
  }

  private onPage(m: InboundMessage) {
    this.deps.client.heard(m);
    if (m.message.kind !== 'record-info') return;
    const page = m.message;
    // Devices answer with the channel's ID in the body; a few write their own: try both.
    let k = `${m.deviceId}|${page.deviceId}|${page.sn}`;
    if (!this.waiting.has(k)) {
      const mine = [...this.waiting.keys()].find((x) => x.startsWith(`${m.deviceId}|`) && x.endsWith(`|${page.sn}`));
      if (!mine) return;
      k = mine;
    }
    const channelId = k.split('|')[1];
    const added = this.aggregator.add(channelId, page.sn, page.sumNum, page.items, page.rejected);
    if (added.done) this.settle(k, this.waiting.get(k)!, added.done);
  }

  private settle(k: string, w: Waiting, res: AggregateResult<RecordItem>) {
    this.waiting.delete(k);
    const records: DeviceRecord[] = [];
    let rejected = res.rejected.length;
    for (const i of res.items) {
      const start = dateOfGbTime(i.startTime);
      const end = dateOfGbTime(i.endTime);
      if (!start || !end) {
        rejected++;
        continue;
      }
      records.push({ channelId: i.deviceId, name: i.name, filePath: i.filePath, start, end, type: i.type, fileSize: i.fileSize, streamNumber: i.streamNumber });
    }
    w.resolve({ records, complete: res.complete, reason: res.reason, received: res.received, sumNum: res.sumNum, pages: res.pages, rejected });
    if (this.waiting.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Time-outs are checked while answers are open. */
  private arm() {
    if (this.timer) return;
    this.timer = setInterval(() => {
      for (const res of this.aggregator.expire()) {
        const k = [...this.waiting.keys()].find((x) => x.endsWith(`|${res.deviceId}|${res.sn}`));
        if (k) this.settle(k, this.waiting.get(k)!, res);
      }
    }, 250);
    this.timer.unref();
  }

  private newAggregator() {
    return new RecordInfoAggregator({
      now: this.now,
      idleTimeoutMs: this.timeouts.idleTimeoutMs,
      totalTimeoutMs: this.timeouts.totalTimeoutMs,
      // Pages of an answer nobody waits for (a late one after a time-out) are dropped.
      acceptUnsolicited: false,
    });
  }
}

/** Merged day ranges of device records (touching or overlapping files joined), clipped to [from, to). */
export function mergeDeviceRecords(records: readonly DeviceRecord[], from: Date, to: Date, toleranceMs = 2000): { start: Date; end: Date; records: DeviceRecord[] }[] {
  const out: { start: Date; end: Date; records: DeviceRecord[] }[] = [];
  for (const r of [...records].sort((a, b) => a.start.getTime() - b.start.getTime())) {
    const s = r.start < from ? from : r.start;
    const e = r.end > to ? to : r.end;
    if (e <= s) continue;
    const last = out[out.length - 1];
    if (last && s.getTime() - last.end.getTime() <= toleranceMs) {
      if (e > last.end) last.end = e;
      last.records.push(r);
    } else out.push({ start: s, end: e, records: [r] });
  }
  return out;
}
