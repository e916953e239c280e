/**
 * Keeps the Online flag of pulled channels (devices of type RTSP and ONVIF; rtsp:// addresses get an
 * RTSP OPTIONS/DESCRIBE, rtmp(s) ones an RTMP play, http(s) ones a look at the answer (FLV, HLS
 * playlist), rtsps ones the RTSP probe inside TLS: access/stream-probe.ts) true to life: every
 * interval it probes each enabled channel that has a stream URL, spread evenly over the interval and
 * at most `concurrency` at once, and records the result with setOnline (which logs a change once and
 * pushes it). A channel added or edited is probed at once. An endpoint (host:port) that stops
 * answering is retried sooner, with back-off, and once it answers its offline channels follow at once
 * in a lane of their own (stream-recovery.ts says why); the round skips a channel probed less than
 * half an interval ago. A channel whose stream is live (a viewer, the recorder) is online without a
 * probe: its source is delivering; one whose stream is being opened, or is about to be (its hub's
 * retry comes before the probe could end), waits for its next turn. A probe
 * that only waits (a live HLS playlist's next segment: onWait) no longer counts against the bounds.
 * stop() leaves no timer and no socket.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Reason } from '@opencvr/shared';
import type { ProbeOptions, ProbeResult } from '../../access/rtsp/probe.js';
import { SOURCE_BACK_DELAY_MS } from '../../media/hub.js';
import { StreamRecovery } from './stream-recovery.js';

export interface CheckTarget {
  pk: number;
  deviceId: string;
  channelId: string;
  url: string;
  username: string;
  password: string;
}

/** What the checker needs from the rest of the app (tests may pass plain objects). */
export interface StreamCheckerDeps {
  listTargets(): Promise<CheckTarget[]>;
  /** `why` is the probe's catalogue reason (stored; the log gets its words). */
  setOnline(pk: number, online: boolean, why: Reason | undefined): Promise<boolean>;
  subscribe(fn: () => void): () => void;
  probe(url: string, opts: ProbeOptions): Promise<ProbeResult>;
  /**
   * The channel's stream in the platform now: 'live' (a hub of it is receiving: it is there, online
   * without a probe), 'connecting' (a hub is opening it, or waits out a back-off that ends within
   * `withinMs`: this turn is skipped, the hub's answer comes first), or undefined (none running or
   * none about to: probed). A probe beside a running or opening stream costs the source one more
   * session, and a source that serves one client at a time (an RTMP box, a camera at its session
   * limit) refused it, or took its one slot from the hub: the channel read offline while it played,
   * or the hub's retry was refused at every probe.
   */
  streamState?(pk: number, withinMs: number): 'live' | 'connecting' | undefined;
  /** The channel's source answered a probe: a stream of it waiting to retry connects now (StreamHub.retryNow). */
  sourceBack?(pk: number): void;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/**
 * How long after a probe ends a hub's connection may still find the source busy: a one-client
 * source frees the probe's session first (the hub waits as long after a probe: SOURCE_BACK_DELAY_MS).
 */
const SOURCE_RELEASE_MS = SOURCE_BACK_DELAY_MS;

/** What a live stream says of its source, instead of a probe. */
const LIVE: ProbeResult = { ok: true, status: 0, answered: true, reason: 'OK', codecs: [], latencyMs: 0 };

export interface StreamCheckerOptions {
  /** Seconds between two checks of a channel; 0 turns the checker off. */
  intervalSeconds: number;
  concurrency?: number;
  /** Per probe; default min(3000, interval). */
  timeoutMs?: number;
  /** First retry of an endpoint that stopped answering, doubling up to retryMaxMs; defaults 1 s and min(5 s, interval). */
  retryMs?: number;
  retryMaxMs?: number;
  /**
   * Follow-up probes of an endpoint that answers again: at most `concurrency` at once per endpoint
   * (the camera server just came back) and this many across endpoints; default 3 × concurrency.
   */
  followConcurrency?: number;
}

/** Why a probe runs: its lane decides which bound it counts against. */
type Lane = 'check' | 'follow';

/** Device types whose channels the platform pulls from a URL. */
export const CHECKED_DEVICE_TYPES = ['RTSP', 'ONVIF'];

/** Every enabled RTSP/ONVIF channel with a stream URL, with its credentials (the device's when the channel has none). */
export async function listCheckTargets(db: Kysely<Database>): Promise<CheckTarget[]> {
  const rows = await db
    .selectFrom('channels')
    .innerJoin('devices', 'devices.device_id', 'channels.parent_device_id')
    .select([
      'channels.id as pk',
      'channels.parent_device_id as deviceId',
      'channels.channel_id as channelId',
      'channels.rtsp_url as url',
      'channels.username as username',
      'channels.password as password',
      'devices.device_username as deviceUsername',
      'devices.device_password as devicePassword',
    ])
    .where('devices.device_type', 'in', CHECKED_DEVICE_TYPES)
    .where('channels.enable', '=', 1)
    .where('devices.enable', '=', 1)
    .where('channels.rtsp_url', '!=', '')
    .orderBy('channels.id')
    .execute();
  return rows.map((r) => ({
    pk: r.pk,
    deviceId: r.deviceId,
    channelId: r.channelId,
    url: r.url,
    username: r.username || r.deviceUsername,
    password: r.username ? r.password : r.devicePassword,
  }));
}

const signature = (t: CheckTarget) => `${t.url}\n${t.username}\n${t.password}`;

export class StreamChecker {
  private readonly intervalMs: number;
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private targets = new Map<number, CheckTarget>();
  /** This round's channels in order, the next one to start, and when the round began. */
  private round: number[] = [];
  private next = 0;
  private roundStart = 0;
  /** Added or edited channels, probed before the round's. */
  private urgent: number[] = [];
  /**
   * Channels whose probe a hub connecting (or about to) put off, with when to look again: once that
   * attempt has run, not a round later, so a watched camera that died reads offline within seconds.
   */
  private deferred = new Map<number, number>();
  /** Offline channels of an endpoint that answered again, probed ahead of the round in the follow lane. */
  private follow = new Set<number>();
  private readonly recovery: StreamRecovery;
  private readonly followConcurrency: number;
  private inFlight = new Map<number, { sig: string; lane: Lane; endpoint: string; abort: AbortController; done: Promise<void> }>();
  private inLane: Record<Lane, number> = { check: 0, follow: 0 };
  private perEndpoint = new Map<string, number>();
  /** When each channel's last probe started: one within half an interval covers its round turn. */
  private probedAt = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private running = false;
  private refreshing: Promise<void> | undefined;
  /** The current round's channel list query, awaited by stop() so no query outlives the app. */
  private loading: Promise<void> | undefined;
  private refreshAgain = false;
  private roundLoading = false;

  constructor(
    private readonly deps: StreamCheckerDeps,
    opts: StreamCheckerOptions,
  ) {
    this.intervalMs = opts.intervalSeconds * 1000;
    this.concurrency = opts.concurrency ?? 8;
    this.timeoutMs = opts.timeoutMs ?? Math.max(500, Math.min(3000, this.intervalMs));
    const retryMs = opts.retryMs ?? 1000;
    this.recovery = new StreamRecovery(retryMs, Math.max(retryMs, opts.retryMaxMs ?? Math.min(5000, this.intervalMs)));
    this.followConcurrency = opts.followConcurrency ?? 3 * this.concurrency;
  }

  get enabled() {
    return this.intervalMs > 0;
  }

  start() {
    if (this.running || !this.enabled) return;
    this.running = true;
    this.unsubscribe = this.deps.subscribe(() => this.onChange());
    this.loading = this.newRound();
  }

  async stop() {
    this.running = false;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const f of this.inFlight.values()) f.abort.abort();
    await Promise.allSettled([...this.inFlight.values()].map((f) => f.done));
    await this.refreshing?.catch(() => {});
    await this.loading?.catch(() => {});
  }

  /**
   * Probes this channel ahead of the round (its rtsps:// pin changed: the address did not, so the
   * list refresh does not see an edit). A probe of it in flight still records its answer; this one follows.
   */
  checkNow(pk: number) {
    if (!this.running) return;
    if (!this.urgent.includes(pk)) this.urgent.push(pk);
    this.pump();
  }

  /** Loads the channel list; new or changed channels go to the urgent queue when `urgent`. */
  private async refresh(urgent: boolean) {
    const list = await this.deps.listTargets();
    if (!this.running) return;
    const fresh = new Map(list.map((t) => [t.pk, t]));
    if (urgent) {
      for (const t of list) {
        const old = this.targets.get(t.pk);
        if (!old || signature(old) !== signature(t)) {
          if (!this.urgent.includes(t.pk)) this.urgent.push(t.pk);
        }
      }
    }
    this.targets = fresh;
    this.recovery.setTargets(list);
    for (const pk of this.follow) if (!fresh.has(pk)) this.follow.delete(pk);
    for (const pk of this.deferred.keys()) if (!fresh.has(pk)) this.deferred.delete(pk);
    for (const pk of this.probedAt.keys()) if (!fresh.has(pk)) this.probedAt.delete(pk);
  }

  private onChange() {
    if (!this.running) return;
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        try {
          await this.refresh(true);
        } catch (err) {
          if (this.running) this.deps.log.warn({ err }, 'stream checker: cannot list channels');
        }
      } while (this.refreshAgain && this.running);
    })().finally(() => {
      this.refreshing = undefined;
      this.pump();
    });
  }

  private async newRound() {
    if (!this.running) return;
    this.roundLoading = true;
    try {
      await this.refresh(false);
    } catch (err) {
      if (this.running) this.deps.log.warn({ err }, 'stream checker: cannot list channels');
    } finally {
      this.roundLoading = false;
    }
    if (!this.running) return;
    this.round = [...this.targets.keys()];
    this.next = 0;
    this.roundStart = Date.now();
    this.pump();
  }

  /** Starts what is due, then sleeps until the next thing is. */
  private pump() {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const now = Date.now();
    this.pumpFollow();
    let wakeAt: number | undefined;
    const wake = (at: number) => (wakeAt = wakeAt === undefined ? at : Math.min(wakeAt, at));
    let roundDone = false;
    for (const [pk, at] of this.deferred) {
      if (at > now) wake(at);
      else {
        this.deferred.delete(pk);
        if (!this.urgent.includes(pk)) this.urgent.push(pk);
      }
    }
    while (this.inLane.check < this.concurrency) {
      const u = this.urgent.findIndex((pk) => !this.inFlight.has(pk));
      if (u >= 0) {
        const [pk] = this.urgent.splice(u, 1);
        this.launch(pk, 'check');
        continue;
      }
      if (this.next < this.round.length) {
        const due = this.roundStart + (this.next * this.intervalMs) / this.round.length;
        if (due <= now) {
          const pk = this.round[this.next++];
          // Being probed, or probed less than half an interval ago (an edit, a retry, a follow-up):
          // this round's turn is covered. Probing it again took a returned server's slots from its
          // follow-ups (seen: the round re-probing channels just back while 130 others waited).
          const recent = now - (this.probedAt.get(pk) ?? -Infinity) < this.intervalMs / 2;
          if (!this.inFlight.has(pk) && !recent) this.launch(pk, 'check');
          continue;
        }
        wake(due);
      } else {
        const end = this.roundStart + this.intervalMs;
        if (end <= now) roundDone = true;
        else wake(end);
      }
      // Nothing of the round is due: an offline endpoint's retry may be.
      const retry = this.recovery.nextRetry(now, (pk) => this.inFlight.has(pk));
      if (retry && 'pk' in retry) {
        this.launch(retry.pk, 'check');
        continue;
      }
      if (retry) wake(retry.wakeAt);
      break;
    }
    if (roundDone) {
      // Once: probes ending while the next round's list loads call pump() again.
      if (!this.roundLoading) this.loading = this.newRound();
      return;
    }
    if (wakeAt !== undefined) {
      this.timer = setTimeout(() => this.pump(), Math.max(0, wakeAt - now));
      this.timer.unref?.();
    }
  }

  /** Follow-ups of endpoints that answer again: their own lane, at most `concurrency` per endpoint. */
  private pumpFollow() {
    for (const pk of this.follow) {
      if (this.inLane.follow >= this.followConcurrency) return;
      const endpoint = this.recovery.endpointOf(pk);
      // Gone, or answered meanwhile (its round turn): nothing to follow up.
      if (endpoint === undefined || !this.recovery.isOffline(pk)) {
        this.follow.delete(pk);
        continue;
      }
      if (this.inFlight.has(pk) || (this.perEndpoint.get(endpoint) ?? 0) >= this.concurrency) continue;
      this.follow.delete(pk);
      this.launch(pk, 'follow');
    }
  }

  private launch(pk: number, lane: Lane) {
    const t = this.targets.get(pk);
    if (!t) return; // deleted, disabled or its URL removed since
    const sig = signature(t);
    const endpoint = this.recovery.endpointOf(pk) ?? '';
    const abort = new AbortController();
    this.probedAt.set(pk, Date.now());
    let outcome: { ok: boolean; answered: boolean } | undefined;
    /** A hub's attempt that this probe would meet ends within this long (streamState). */
    const hubWithinMs = this.timeoutMs + SOURCE_RELEASE_MS;
    let putOff = false;
    // A probe that only waits (a live HLS playlist's next segment) gives its slot back: a source with
    // 10 s segments held one for up to 15 s, and enough of them held up the round for everyone else.
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      this.inLane[lane]--;
      this.perEndpoint.set(endpoint, (this.perEndpoint.get(endpoint) ?? 1) - 1);
      if (!this.perEndpoint.get(endpoint)) this.perEndpoint.delete(endpoint);
    };
    const onWait = () => {
      release();
      if (this.running) this.pump();
    };
    const done = (async () => {
      // A hub connecting before this probe could end and the source free it (a retry the last probe
      // called with retryNow, or its own back-off) goes first: on a one-client source the probe held
      // the only slot just when the retry came, again and again (e2e, CHANNEL_CHECK_INTERVAL=1).
      const stream = this.deps.streamState?.(pk, hubWithinMs);
      if (stream === 'connecting') {
        putOff = true;
        return;
      }
      const r =
        stream === 'live'
          ? LIVE
          : // pinFor: an rtsps:// or https:// certificate is pinned for this channel (access/tls/).
            await this.deps.probe(t.url, { username: t.username, password: t.password, timeoutMs: this.timeoutMs, signal: abort.signal, onWait, pinFor: pk });
      if (!this.running) return;
      // Edited while probing: this answer is about the old settings; the urgent re-probe decides.
      const now = this.targets.get(pk);
      if (!now || signature(now) !== sig) return;
      outcome = { ok: r.ok, answered: r.answered ?? r.status !== 0 };
      if (r.ok && stream === undefined) this.deps.sourceBack?.(pk);
      const changed = await this.deps.setOnline(pk, r.ok, r.ok ? undefined : (r.why ?? { key: 'statusCheckFailed' }));
      if (changed) {
        this.deps.log.info(
          { device: t.deviceId, channel: t.channelId, online: r.ok, reason: r.reason, codecs: r.codecs },
          r.ok ? 'channel online' : 'channel offline',
        );
      }
    })()
      .catch((err) => {
        if (this.running) this.deps.log.warn({ err, device: t.deviceId, channel: t.channelId }, 'stream checker: check failed');
      })
      .finally(() => {
        this.inFlight.delete(pk);
        release();
        if (!this.running) return;
        if (putOff) this.deferred.set(pk, Date.now() + hubWithinMs);
        for (const f of this.recovery.record(pk, outcome, Date.now())) if (f !== pk) this.follow.add(f);
        this.pump();
      });
    this.inFlight.set(pk, { sig, lane, endpoint, abort, done });
    this.inLane[lane]++;
    this.perEndpoint.set(endpoint, (this.perEndpoint.get(endpoint) ?? 0) + 1);
  }
}
