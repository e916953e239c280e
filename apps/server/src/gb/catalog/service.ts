/**
 * The catalog of GB devices: queried after a first registration and on devices/fetchcatalog, its
 * pages collected by (device, SN) until SumNum items arrived (the package's CatalogAggregator), then
 * stored as the device's channel tree. One query per device at a time: a second fetch while one runs
 * joins it. An answer that stops short ends by time-out, and what arrived is still stored (a partial
 * catalog adds and updates, it never removes). Catalog NOTIFYs (ADD/DEL/UPDATE/ON/OFF) are applied
 * as they come. Progress is kept per device and pushed to admins (events topic 'catalog').
 */
import { CatalogAggregator, encodeCatalogQuery, type AggregateResult, type CatalogItem, type CatalogNotify } from '@opencvr/manscdp';
import type { CatalogOutcome, CatalogProgress } from '@opencvr/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { EventBus } from '../../services/events.js';
import type { NewsService } from '../../services/news/news.js';
import type { GbLog } from '../core.js';
import type { GbApi, ManscdpClient } from '../manscdp-client.js';
import type { InboundMessage } from '../messages.js';
import { DeviceSerial } from '../serial.js';
import { applyCatalogNotify } from './notify.js';
import { storeCatalog } from './store.js';

export interface CatalogDeps {
  gb: GbApi;
  client: ManscdpClient;
  db: Kysely<Database>;
  news: Pick<NewsService, 'add'>;
  events: Pick<EventBus, 'publish'>;
  /** Called after the channels of a device changed (the tree, the stream checker, the recorder). */
  changed: () => void;
  /** Removes channels and their sub-channels (the inventory's rule). */
  removeChannels: (deviceId: string, channelIds: string[]) => Promise<string[]>;
  log: GbLog;
  now?: () => number;
}

export interface CatalogTimeouts {
  /** No new page for this long ends an answer (default 10 s). */
  idleTimeoutMs: number;
  /** An answer still open after this long ends (default 5 min). */
  totalTimeoutMs: number;
}

/** Catalog answers open at once per device (ours and unasked ones); pages of more are dropped, so a device cannot fill memory. */
const MAX_OPEN_PER_DEVICE = 4;

interface Running {
  sn: number;
  progress: CatalogProgress;
  waiters: ((p: CatalogProgress) => void)[];
}

export class GbCatalog {
  private aggregator: CatalogAggregator;
  private timeouts: CatalogTimeouts = { idleTimeoutMs: 10_000, totalTimeoutMs: 300_000 };
  private readonly running = new Map<string, Running>();
  /**
   * Our answers that ended and are being stored. Until stored they are still what wait() and status()
   * report: between the last page and the end of the store (several round trips on PostgreSQL) they
   * returned the previous answer's outcome (fetchcatalog?wait=1 answered with the catalog before).
   */
  private readonly storing = new Map<string, Running>();
  private readonly last = new Map<string, CatalogProgress>();
  /** SNs of the open answers of each device. */
  private readonly openSns = new Map<string, Set<number>>();
  private readonly serial = new DeviceSerial();
  private readonly unhooks: (() => void)[] = [];
  private readonly pending = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly deps: CatalogDeps) {
    this.now = deps.now ?? Date.now;
    this.aggregator = this.newAggregator();
  }

  start() {
    const { gb } = this.deps;
    this.unhooks.push(gb.onMessage('Catalog', (m) => this.onCatalog(m)));
    this.unhooks.push(
      gb.onRegistered((s, { first }) => {
        if (first) this.track(this.fetch(s.deviceId).catch((err: Error) => this.deps.log.info({ device: s.deviceId, err: err.message }, 'gb: catalog query after registration failed')));
      }),
    );
    this.unhooks.push(
      gb.onDeviceStatus((e) => {
        const r = this.running.get(e.deviceId);
        if (!e.online && r) {
          const res = this.aggregator.cancel(e.deviceId, r.sn);
          if (res) this.track(this.finish(res, `device went offline (${e.reason})`));
        }
      }),
    );
  }

  async stop() {
    for (const u of this.unhooks.splice(0)) u();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.pending]);
  }

  /** Changes the time-outs (tests, settings); applies to answers started afterwards. */
  configure(t: Partial<CatalogTimeouts>) {
    this.timeouts = { ...this.timeouts, ...t };
    if (this.aggregator.openCount === 0) this.aggregator = this.newAggregator();
  }

  /** Progress of the running query, else the last one's outcome. */
  status(deviceId: string): CatalogProgress | undefined {
    const r = this.running.get(deviceId) ?? this.storing.get(deviceId);
    return r ? { ...r.progress } : this.last.get(deviceId);
  }

  /**
   * Starts a catalog query (or joins the one running) and returns its progress at once. Rejects when
   * the device cannot be asked (not registered, no answer to the MESSAGE, refused).
   */
  async fetch(deviceId: string): Promise<CatalogProgress> {
    const joined = this.running.get(deviceId);
    if (joined) return { ...joined.progress };
    const sn = this.deps.client.nextSn();
    const progress: CatalogProgress = { DeviceID: deviceId, SN: sn, Running: true, Received: 0, SumNum: 0, StartedAt: new Date(this.now()).toISOString() };
    const run: Running = { sn, progress, waiters: [] };
    this.running.set(deviceId, run);
    this.opened(deviceId, sn, true);
    const dropped = this.aggregator.start(deviceId, sn);
    if (dropped) this.track(this.finish(dropped));
    this.armTimer();
    this.publish(progress);
    try {
      await this.deps.client.send(deviceId, encodeCatalogQuery({ sn, deviceId }, { encoding: this.deps.client.encodingOf(deviceId) }));
    } catch (err) {
      const res = this.aggregator.cancel(deviceId, sn);
      const message = (err as Error).message;
      if (res) await this.finish(res, message, 'failed');
      throw err;
    }
    return { ...progress };
  }

  /** Resolves with the outcome of the running query of a device (at once with the last one when none runs). */
  wait(deviceId: string): Promise<CatalogProgress | undefined> {
    const r = this.running.get(deviceId) ?? this.storing.get(deviceId);
    if (!r) return Promise.resolve(this.last.get(deviceId));
    return new Promise((resolve) => r.waiters.push(resolve));
  }

  private onCatalog(m: InboundMessage) {
    this.deps.client.heard(m);
    const msg = m.message;
    if (msg.kind === 'catalog-notify') return this.serial.run(m.deviceId, () => this.applyNotify(m.deviceId, msg));
    if (msg.kind !== 'catalog') return;
    if (!this.opened(m.deviceId, msg.sn, false)) {
      this.deps.log.info({ device: m.deviceId, sn: msg.sn, open: MAX_OPEN_PER_DEVICE }, 'gb: catalog page dropped (too many answers open for this device)');
      return;
    }
    // Keyed by the sender: a device that writes a channel's ID in the body's DeviceID still matches its query.
    const page = this.aggregator.add(m.deviceId, msg.sn, msg.sumNum, msg.items, msg.rejected);
    const run = this.running.get(m.deviceId);
    if (run && run.sn === msg.sn) {
      run.progress.Received = page.received;
      run.progress.SumNum = page.sumNum;
    }
    this.armTimer();
    if (page.done) return this.finish(page.done);
  }

  private async applyNotify(deviceId: string, msg: CatalogNotify) {
    const session = this.deps.gb.session(deviceId);
    const r = await applyCatalogNotify(this.deps, deviceId, msg.items, session?.online ?? true);
    if (msg.rejected.length) this.deps.log.info({ device: deviceId, rejected: msg.rejected }, 'gb: catalog notify items rejected');
    if (r.touched) this.deps.changed();
  }

  /** Stores an ended answer (complete or what arrived) and reports it. */
  private async finish(res: AggregateResult<CatalogItem>, error?: string, outcome?: CatalogOutcome) {
    const deviceId = res.deviceId;
    const run = this.running.get(deviceId);
    // A complete answer under another SN while our query has heard nothing: the device answered with an
    // SN of its own (or sent its catalog unasked just then); it answers our query all the same.
    const adopted = !!run && run.sn !== res.sn && res.reason === 'complete' && run.progress.Received === 0;
    const ours = run?.sn === res.sn || adopted;
    if (adopted) {
      this.aggregator.cancel(deviceId, run.sn);
      this.closed(deviceId, run.sn);
    }
    this.closed(deviceId, res.sn);
    if (ours) {
      // A new fetch may start from here; this answer's waiters wait for its store.
      this.running.delete(deviceId);
      this.storing.set(deviceId, run!);
    }
    const progress: CatalogProgress = {
      ...(ours ? run!.progress : { DeviceID: deviceId, SN: res.sn, StartedAt: new Date(res.startedAt).toISOString() }),
      Running: false,
      Received: res.received,
      SumNum: res.sumNum,
      EndedAt: new Date(res.endedAt).toISOString(),
      Outcome: outcome ?? res.reason,
      Rejected: res.rejected.length,
    };
    if (!error && res.reason !== 'complete') error = describeEnd(res);
    if (error) progress.Error = error;
    await this.serial.run(deviceId, async () => {
      if (!res.items.length && !(res.complete && res.reason === 'complete' && res.pages > 0)) return;
      try {
        const session = this.deps.gb.session(deviceId);
        const stored = await storeCatalog(this.deps.db, deviceId, res.items, {
          complete: res.complete && res.reason === 'complete',
          defaultOnline: session?.online ?? true,
        });
        Object.assign(progress, { Added: stored.added, Updated: stored.updated, Removed: stored.removed });
        for (const c of stored.changes) await this.deps.news.add({ deviceId, channelId: c.channelId, channelName: c.name, online: c.online });
        this.deps.changed();
      } catch (err) {
        progress.Outcome = 'failed';
        progress.Error = `catalog not stored: ${(err as Error).message}`;
        this.deps.log.warn({ err, device: deviceId }, 'gb: catalog not stored');
      }
    });
    this.last.set(deviceId, progress);
    this.deps.log.info(
      { device: deviceId, sn: res.sn, outcome: progress.Outcome, received: res.received, sumNum: res.sumNum, pages: res.pages, ms: res.endedAt - res.startedAt },
      'gb: catalog answer ended',
    );
    if (ours && this.storing.get(deviceId) === run) this.storing.delete(deviceId);
    this.publish(progress);
    if (ours) for (const w of run!.waiters) w(progress);
  }

  /** Counts an answer as open; false when the device has too many open already (ours always opens). */
  private opened(deviceId: string, sn: number, ours: boolean): boolean {
    let set = this.openSns.get(deviceId);
    if (set?.has(sn)) return true;
    if (!ours && set && set.size >= MAX_OPEN_PER_DEVICE) return false;
    if (!set) this.openSns.set(deviceId, (set = new Set()));
    set.add(sn);
    return true;
  }

  private closed(deviceId: string, sn: number) {
    const set = this.openSns.get(deviceId);
    set?.delete(sn);
    if (set && !set.size) this.openSns.delete(deviceId);
  }

  private armTimer() {
    if (this.timer || this.aggregator.openCount === 0) return;
    this.timer = setInterval(() => {
      for (const res of this.aggregator.expire()) this.track(this.finish(res));
      if (this.aggregator.openCount === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    }, Math.min(1000, Math.max(50, this.timeouts.idleTimeoutMs / 4)));
    this.timer.unref();
  }

  private newAggregator() {
    return new CatalogAggregator({ now: () => this.now(), ...this.timeouts });
  }

  private publish(p: CatalogProgress) {
    this.deps.events.publish({ topic: 'catalog', payload: { ...p } });
  }

  private track<T>(p: Promise<T>) {
    const w = p.catch((err) => this.deps.log.warn({ err }, 'gb: catalog task failed'));
    this.pending.add(w);
    void w.finally(() => this.pending.delete(w));
  }
}

function describeEnd(res: AggregateResult<CatalogItem>): string {
  const got = `${res.received} of ${res.sumNum || '?'} items in ${res.pages} pages`;
  switch (res.reason) {
    case 'idle-timeout':
      return res.pages ? `the device stopped sending pages: ${got}` : 'the device accepted the query but sent no catalog';
    case 'total-timeout':
      return `the catalog took too long: ${got}`;
    case 'overflow':
      return `too many catalog answers open at once: ${got}`;
    case 'cancelled':
      return `cancelled: ${got}`;
    default:
      return got;
  }
}
