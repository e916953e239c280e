/**
 * SUBSCRIBE to a device's Alarm, Catalog and MobilePosition events (GB/T 28181-2016 9.6.2, 9.11),
 * for the devices whose alarm_subscribe / catalog_subscribe / position_subscribe flag is on.
 * Catalog uses `Event: Catalog`, alarm and position `Event: presence` (as the standard's examples
 * and the devices in the field do). A subscription is a dialog: the refresh before expiry repeats
 * Call-ID and tags with the next CSeq; a flag turned off sends Expires 0. The NOTIFYs the device
 * sends in the dialog are answered 200 by the SIP server and reach the Catalog/Alarm/MobilePosition
 * handlers like MESSAGEs do.
 * Flags are read at a first registration and on a sweep (every 30 s by default), so an edit of the
 * device is picked up without the device form knowing about SIP, and a REGISTER refresh costs no query.
 * The sweep runs only while a GB device is online (it reconciles online devices only): a registration
 * wakes it, and it sleeps again once it finds none online (issue 4: a server without GB devices arms
 * no timer for it).
 */
import { encodeAlarmSubscribe, encodeCatalogSubscribe, encodeMobilePositionSubscribe, type ManscdpBody } from '@opencvr/manscdp';
import { header, newCallId, newTag } from '@opencvr/sip';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { GbLog } from './core.js';
import type { GbApi, ManscdpClient } from './manscdp-client.js';

export const SUBSCRIPTION_KINDS = ['catalog', 'alarm', 'position'] as const;
export type SubscriptionKind = (typeof SUBSCRIPTION_KINDS)[number];

export interface SubscriptionState {
  kind: SubscriptionKind;
  callId: string;
  fromTag: string;
  toTag?: string;
  cseq: number;
  /** The Event header's id (RFC 6665: the same for the life of the subscription). */
  eventId: number;
  /** ms; 0 while the first SUBSCRIBE is in flight. */
  expiresAt: number;
  /** A refused or unanswered SUBSCRIBE is retried after this (ms). */
  retryAt?: number;
  lastError?: string;
}

export interface SubscriptionOptions {
  /** Asked lifetime in seconds (default 3600). */
  expires?: number;
  /** MobilePosition interval asked of the device, seconds (default 5). */
  positionInterval?: number;
  /** Flags sweep, ms (default 30 s). */
  sweepMs?: number;
  /** After a refusal, try again this much later (default 5 min). */
  retryMs?: number;
}

const FLAG: Record<SubscriptionKind, 'catalog_subscribe' | 'alarm_subscribe' | 'position_subscribe'> = {
  catalog: 'catalog_subscribe',
  alarm: 'alarm_subscribe',
  position: 'position_subscribe',
};

export class GbSubscriptions {
  private readonly subs = new Map<string, Map<SubscriptionKind, SubscriptionState>>();
  private readonly busy = new Set<string>();
  private readonly unhooks: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  /** Devices seen registering or online since and not seen offline: the sweep runs while there are any. */
  private readonly online = new Set<string>();
  private o: Required<SubscriptionOptions>;

  constructor(
    private readonly gb: GbApi,
    private readonly client: ManscdpClient,
    private readonly db: Kysely<Database>,
    private readonly log: GbLog,
    opts: SubscriptionOptions = {},
  ) {
    this.o = { expires: 3600, positionInterval: 5, sweepMs: 30_000, retryMs: 300_000, ...opts };
  }

  start() {
    this.started = true;
    // A first registration subscribes at once; refreshes of the registration cost nothing (the sweep keeps the rest).
    this.unhooks.push(
      this.gb.onRegistered((s, { first }) => {
        this.woken(s.deviceId);
        if (first) void this.reconcile(s.deviceId);
      }),
    );
    this.unhooks.push(
      this.gb.onDeviceStatus((e) => {
        if (e.online) return this.woken(e.deviceId);
        // Offline: the device forgot its subscriptions or will on its next registration; start over then.
        this.subs.delete(e.deviceId);
        this.online.delete(e.deviceId);
      }),
    );
  }

  /** A device is online: the sweep is armed if it was asleep. */
  private woken(deviceId: string) {
    this.online.add(deviceId);
    if (this.started && !this.timer) this.arm();
  }

  private arm() {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.sweep()
        .catch((err) => this.log.warn({ err }, 'gb: subscriptions sweep failed'))
        .finally(() => {
          // Still online, as the GB service says: the sweep goes on; none: asleep until a registration.
          for (const id of this.online) if (!this.gb.session(id)?.online) this.online.delete(id);
          if (this.started && !this.timer && this.online.size) this.arm();
        });
    }, this.o.sweepMs);
    this.timer.unref();
  }

  /** Whether the sweep is armed (tests). */
  get armed(): boolean {
    return this.timer !== undefined;
  }

  stop() {
    this.started = false;
    for (const u of this.unhooks.splice(0)) u();
    clearTimeout(this.timer);
    this.timer = undefined;
    this.subs.clear();
    this.online.clear();
  }

  /** Changes the options (tests, settings); a new sweep period applies from the next sweep armed. */
  configure(opts: SubscriptionOptions) {
    this.o = { ...this.o, ...opts };
  }

  state(deviceId: string): SubscriptionState[] {
    return [...(this.subs.get(deviceId)?.values() ?? [])].map((s) => ({ ...s }));
  }

  /** Checks every registered GB device with a flag on (or a subscription to end). */
  async sweep() {
    const rows = await this.db
      .selectFrom('devices')
      .select('device_id')
      .where('device_type', '=', 'GB28181')
      .where((eb) => eb.or([eb('alarm_subscribe', '=', 1), eb('catalog_subscribe', '=', 1), eb('position_subscribe', '=', 1)]))
      .execute();
    const ids = new Set([...rows.map((r) => r.device_id), ...this.subs.keys()]);
    for (const id of ids) if (this.gb.session(id)?.online) await this.reconcile(id);
  }

  /** Brings one device's subscriptions in line with its flags, refreshing those near expiry. */
  async reconcile(deviceId: string): Promise<void> {
    if (this.busy.has(deviceId)) return;
    this.busy.add(deviceId);
    try {
      const d = await this.db
        .selectFrom('devices')
        .select(['alarm_subscribe', 'catalog_subscribe', 'position_subscribe', 'device_type'])
        .where('device_id', '=', deviceId)
        .executeTakeFirst();
      const now = Date.now();
      for (const kind of SUBSCRIPTION_KINDS) {
        const want = !!d && d.device_type === 'GB28181' && d[FLAG[kind]] === 1;
        const have = this.subs.get(deviceId)?.get(kind);
        if (want && have?.retryAt && now < have.retryAt) continue;
        // Refreshed when a fifth of the lifetime (at most 5 min) is left.
        const margin = Math.min(300_000, (this.o.expires * 1000) / 5);
        if (want && (!have || !have.toTag || have.expiresAt - margin <= now)) await this.subscribe(deviceId, kind);
        else if (!want && have) await this.unsubscribe(deviceId, kind);
      }
    } catch (err) {
      this.log.warn({ err, device: deviceId }, 'gb: subscriptions not reconciled');
    } finally {
      this.busy.delete(deviceId);
    }
  }

  private body(deviceId: string, kind: SubscriptionKind): ManscdpBody {
    const sn = this.client.nextSn();
    const encoding = this.client.encodingOf(deviceId);
    if (kind === 'catalog') return encodeCatalogSubscribe({ sn, deviceId }, { encoding });
    if (kind === 'alarm') return encodeAlarmSubscribe({ sn, deviceId }, { encoding });
    return encodeMobilePositionSubscribe({ sn, deviceId, interval: this.o.positionInterval }, { encoding });
  }

  private async subscribe(deviceId: string, kind: SubscriptionKind) {
    let map = this.subs.get(deviceId);
    if (!map) this.subs.set(deviceId, (map = new Map()));
    const prev = map.get(kind);
    // A refresh stays in the dialog; a first SUBSCRIBE (or one after a refusal) starts a new one.
    const s: SubscriptionState = prev?.toTag ? { ...prev, cseq: prev.cseq + 1, retryAt: undefined } : { kind, callId: newCallId(), fromTag: newTag(), cseq: 1, eventId: this.client.nextSn(), expiresAt: 0 };
    map.set(kind, s);
    const body = this.body(deviceId, kind);
    try {
      const { response } = await this.gb.sendRequest(deviceId, {
        method: 'SUBSCRIBE',
        body: body.bytes,
        contentType: body.contentType,
        callId: s.callId,
        fromTag: s.fromTag,
        toTag: s.toTag,
        cseq: s.cseq,
        headers: [
          { name: 'Event', value: kind === 'catalog' ? `Catalog;id=${s.eventId}` : 'presence' },
          { name: 'Expires', value: String(this.o.expires) },
        ],
      });
      if (response.status >= 300) {
        s.toTag = undefined;
        s.retryAt = Date.now() + this.o.retryMs;
        s.lastError = `${response.status} ${response.reason}`;
        this.log.info({ device: deviceId, kind, status: response.status }, 'gb: SUBSCRIBE refused');
        return;
      }
      const granted = Number(header(response, 'Expires') ?? this.o.expires);
      s.toTag = /;\s*tag=([^;>\s]+)/i.exec(header(response, 'To') ?? '')?.[1] ?? s.toTag ?? '';
      s.expiresAt = Date.now() + (Number.isFinite(granted) && granted > 0 ? granted : this.o.expires) * 1000;
      s.lastError = undefined;
    } catch (err) {
      s.toTag = undefined;
      s.retryAt = Date.now() + Math.min(this.o.retryMs, 60_000);
      s.lastError = (err as Error).message;
      this.log.info({ device: deviceId, kind, err: s.lastError }, 'gb: SUBSCRIBE failed');
    }
  }

  private async unsubscribe(deviceId: string, kind: SubscriptionKind) {
    const s = this.subs.get(deviceId)?.get(kind);
    this.subs.get(deviceId)?.delete(kind);
    if (!s?.toTag) return;
    const body = this.body(deviceId, kind);
    await this.gb
      .sendRequest(deviceId, {
        method: 'SUBSCRIBE',
        body: body.bytes,
        contentType: body.contentType,
        callId: s.callId,
        fromTag: s.fromTag,
        toTag: s.toTag,
        cseq: s.cseq + 1,
        headers: [
          { name: 'Event', value: kind === 'catalog' ? `Catalog;id=${s.eventId}` : 'presence' },
          { name: 'Expires', value: '0' },
        ],
      })
      .catch((err: Error) => this.log.info({ device: deviceId, kind, err: err.message }, 'gb: unSUBSCRIBE failed'));
  }
}
