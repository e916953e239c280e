/**
 * One hub per live stream: it runs one ingest (a MediaSource) and fans its access units out to
 * every viewer and output, so many viewers of one camera cost one connection to the camera. The
 * units since the last video keyframe are kept, so a new viewer starts on a picture at once.
 *
 * Sources and subscribers are plain objects with a few functions (narrow dependencies): the RTSP
 * client, a GB28181 PS receiver or a test double are all MediaSources; a WebSocket fMP4 output, the
 * recorder or a stats probe are all Subscribers.
 */
import { copyUnit, unitByteLength, type AccessUnit, type Track, type VideoAccessUnit, type VideoTrack } from '@opencvr/codec';
import type { AssemblyMemory } from '@opencvr/rtp';
import type { Reason } from '@opencvr/shared';
import { GopLog } from './gop-log.js';
import { GopStore, gopAudioChunks, gopChunks } from './gop-store.js';
import { HubTimeline } from './hub-timeline.js';
import { latencyProbe } from './latency-probe.js';

export type HubState = 'idle' | 'connecting' | 'live' | 'retrying' | 'stopped';

/** What a source reports to its hub. */
export interface SourceSink {
  tracks(tracks: Track[]): void;
  /**
   * The unit is lent: its bytes may be reused by the source once this returns (the hub copies what it
   * keeps), unless they were assembled in the track's memory().
   */
  unit(track: number, unit: AccessUnit): void;
  /**
   * Memory to assemble the track's units in, after tracks() (the hub's GOP store of that track: a unit
   * assembled there is kept without a copy). Valid while this source runs; undefined when none.
   */
  memory?(track: number): AssemblyMemory | undefined;
  /**
   * The source failed or ended; the hub retries with back-off. `reason`: its own words (the log's);
   * `why`: the same as a catalogue reason, which is what a user reads (in their language).
   */
  failed(reason: string, why?: Reason): void;
  /**
   * What the stream plays without, while it plays on (its audio could not be encoded: rtmp-source.ts):
   * the live hub's reason and why until the source says '' (fine again) or the next connection.
   */
  note?(reason: string, why?: Reason): void;
  /**
   * The source runs but its own input is away (a transcoded leg whose original hub retries its
   * camera): the hub says 'retrying' with these words to its viewers, as a hub of the camera does,
   * keeps the source and retries nothing; its next unit makes it live again.
   */
  waiting?(reason: string, why?: Reason): void;
  /** The source is over for good (a leg no longer needed): the hub stops with these words, no retry. */
  ended?(reason: string, why?: Reason): void;
}

export interface MediaSource {
  start(sink: SourceSink): void;
  stop(): void;
}

export interface Subscriber {
  /**
   * Called first, and again when the source reconnects (with the same tracks or others). The units'
   * times carry on across a reconnect, never going back (hub-timeline.ts).
   */
  tracks(tracks: Track[]): void;
  /**
   * The unit's bytes are valid during this call: a subscriber that keeps bytes for later (a write
   * queue, a parameter set, a retransmission history) copies them. The units of the cached GOP stay
   * whole until the next keyframe arrives, so a subscriber may still read those replayed by
   * subscribe() in a microtask. `kept`: this unit is one of the cached GOP, whole until gopEnd().
   */
  unit(track: number, unit: AccessUnit, kept?: boolean): void;
  /** `reason`: the source's words; `why`: the catalogue's reason when the source (or stop()) gave one. */
  state?(state: HubState, reason: string, why?: Reason): void;
  /**
   * The kept units are about to be written over: a new GOP starts with `next`, a keyframe of track
   * `track` (lent: valid during this call), or, without them, the cache is dropped (new tracks, a
   * GOP past maxGopUnits, the hub stopping). Called before the unit() of that keyframe.
   */
  gopEnd?(track?: number, next?: AccessUnit): void;
}

export interface HubOptions {
  /** Keep running with no viewer (always-on channel) or stop after the last one leaves. */
  onDemand: boolean;
  /** How long an on-demand stream outlives its last viewer. */
  graceMs: number;
  /** Retry delays after a failure: doubles from min to max. */
  retryMinMs: number;
  retryMaxMs: number;
  /** Upper bound of the cached GOP, so a camera with no keyframes cannot grow it without end. */
  maxGopUnits: number;
}

/** How soon a hub retries once its source answered a probe again (StreamHub.retryNow). */
export const SOURCE_BACK_DELAY_MS = 1000;

export const DEFAULT_HUB_OPTIONS: HubOptions = {
  onDemand: true,
  graceMs: 10_000,
  retryMinMs: 1000,
  retryMaxMs: 30_000,
  maxGopUnits: 2000,
};

export class StreamHub {
  private _state: HubState = 'idle';
  private _reason = '';
  private _why?: Reason;
  /** The source's note (SourceSink.note): the reason of the live state. */
  private note?: { reason: string; why?: Reason };
  /** The words of the last failure since it was last live: the same again is not told (onFailure). */
  private lastFailure?: string;
  private _tracks: Track[] = [];
  /** The units since the last video keyframe (columns: see gop-log.ts). */
  private readonly gop = new GopLog();
  /** The bytes of `gop`, a store per track (see gop-store.ts). */
  private stores: GopStore[] = [];
  private subs = new Set<Subscriber>();
  /** The media clock across reconnects: a source that came back carries on the times (hub-timeline.ts). */
  private readonly timeline = new HubTimeline();
  private graceTimer?: NodeJS.Timeout;
  private retryTimer?: NodeJS.Timeout;
  /** When the armed retry fires (Date.now() clock). */
  private retryDueAt = 0;
  private retryDelay: number;
  private running = false;
  /** options.onDemand at first; the channel's OnDemand edit changes it (setOnDemand). */
  private _onDemand: boolean;
  /** Counters for the stream-status feed. */
  readonly stats = { units: 0, bytes: 0, keyframes: 0, startedAt: 0, lastUnitAt: 0, restarts: 0, subscriberErrors: 0 };

  constructor(
    readonly key: string,
    private readonly makeSource: () => MediaSource,
    private readonly options: HubOptions = DEFAULT_HUB_OPTIONS,
    private readonly onIdle?: (hub: StreamHub) => void,
  ) {
    this.retryDelay = options.retryMinMs;
    this._onDemand = options.onDemand;
    if (!options.onDemand) this.ensureRunning();
  }

  private source?: MediaSource;

  get state() {
    return this._state;
  }

  /**
   * The source is known to answer again (the stream checker's probe of a stopped camera succeeded):
   * a hub waiting out its back-off (up to retryMaxMs, 30 s) connects within SOURCE_BACK_DELAY_MS, so a
   * wall cell resumes within the checker's few seconds instead of the rest of a 30 s wait. Not at
   * once: the probe has only just let go of the source, and a camera that serves one client (or an
   * RTMP server serving one player, as ffmpeg -listen does) refuses until it has freed that session;
   * connecting at that instant failed and doubled the back-off (e2e pull.spec.ts). Nothing else
   * changes state.
   */
  retryNow(): void {
    if (this._state !== 'retrying' || !this.running) return;
    if (this.retryDueAt - Date.now() <= SOURCE_BACK_DELAY_MS) return;
    this.armRetry(SOURCE_BACK_DELAY_MS);
  }
  /**
   * When a hub waiting out its back-off connects next (Date.now() clock); undefined in any other
   * state. The stream checker keeps its probes away from that moment (app.ts streamState).
   */
  get retryAt(): number | undefined {
    return this._state === 'retrying' && this.running ? this.retryDueAt : undefined;
  }
  /** Why it is not live, in the source's words (the log's). */
  get reason() {
    return this._reason;
  }
  /** The same as a catalogue reason, for the user; undefined when the words came without one. */
  get why() {
    return this._why;
  }
  get tracks() {
    return this._tracks;
  }
  get viewers() {
    return this.subs.size;
  }
  get onDemand() {
    return this._onDemand;
  }

  /**
   * The channel's OnDemand changed (or an always-on GB channel's device went offline): always-on
   * keeps the ingest running with nobody watching; on-demand stops it one grace period after the
   * last viewer, so with nobody watching now the grace period starts now.
   */
  setOnDemand(onDemand: boolean) {
    if (this._onDemand === onDemand || this._state === 'stopped') return;
    this._onDemand = onDemand;
    if (!onDemand) {
      clearTimeout(this.graceTimer);
      this.graceTimer = undefined;
      this.ensureRunning();
    } else if (this.subs.size === 0 && this.running) {
      this.armGrace();
    }
  }

  /**
   * A copy of the cached GOP's keyframe with its video track, or undefined when none is cached (not
   * live yet, no video, a GOP cut short at maxGopUnits). Unlike subscribe() it touches nothing: a
   * background reader (the thumbnail refresher) does not keep an on-demand stream alive.
   */
  cachedKeyframe(): { track: VideoTrack; unit: VideoAccessUnit } | undefined {
    if (!this.gop.length) return undefined;
    const first = this.gop.at(0);
    const track = this._tracks[first.track];
    if (track?.kind !== 'video' || first.unit.kind !== 'video' || !first.unit.keyframe || first.unit.damaged) return undefined;
    return { track, unit: copyUnit(first.unit) as VideoAccessUnit };
  }

  /** Adds a viewer; it gets the tracks and the cached GOP at once if the stream is live. */
  subscribe(sub: Subscriber): () => void {
    this.subs.add(sub);
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.deliver(sub, (x) => x.state?.(this._state, this._reason, this._why));
    if (this._tracks.length && this.subs.has(sub)) {
      this.deliver(sub, (x) => x.tracks(this._tracks));
      for (let i = 0; i < this.gop.length; i++) {
        if (!this.subs.has(sub)) break;
        const c = this.gop.at(i);
        this.deliver(sub, (x) => x.unit(c.track, c.unit, true));
      }
    }
    this.ensureRunning();
    return () => this.unsubscribe(sub);
  }

  private unsubscribe(sub: Subscriber) {
    if (!this.subs.delete(sub)) return;
    if (this.subs.size === 0 && this._onDemand) this.armGrace();
  }

  /** Keeps an on-demand stream alive for another grace period without a viewer (touchchannelstream). */
  touch() {
    this.ensureRunning();
    if (this.subs.size === 0 && this._onDemand) this.armGrace();
  }

  private armGrace() {
    clearTimeout(this.graceTimer);
    this.graceTimer = setTimeout(() => this.stop(), this.options.graceMs);
    this.graceTimer.unref?.();
  }

  private ensureRunning() {
    if (this.running) return;
    this.running = true;
    this.connect();
  }

  private connect() {
    this.setState('connecting', '');
    // The last source's depacketisers assemble nothing more in the stores.
    for (const s of this.stores) s.unlease();
    this.timeline.session();
    this.note = undefined;
    const source = this.makeSource();
    this.source = source;
    // A sink bound to this attempt: late calls from a stopped source are ignored.
    const alive = () => this.source === source && this.running;
    source.start({
      tracks: (tracks) => {
        if (!alive()) return;
        this._tracks = tracks;
        this.dropGop();
        this.storesFor(tracks);
        this.stats.startedAt = Date.now();
        for (const s of this.subs) this.deliver(s, (x) => x.tracks(tracks));
      },
      unit: (track, own) => {
        if (!alive()) return;
        const clockRate = this._tracks[track]?.clockRate;
        // One clock read per unit (the timeline's and the stats' time).
        const now = Date.now();
        const lent = clockRate ? this.timeline.map(track, clockRate, own, now) : own;
        const arrival = latencyProbe ? performance.now() : 0;
        if (this._state !== 'live') {
          this.retryDelay = this.options.retryMinMs;
          this.lastFailure = undefined;
          this.setState('live', this.note?.reason ?? '', this.note?.why);
        }
        const kept = this.cache(track, lent);
        const unit = kept ?? lent;
        latencyProbe?.arrived(unit, arrival);
        this.stats.units++;
        this.stats.lastUnitAt = now;
        this.stats.bytes += unitByteLength(unit);
        this.fanOut(track, unit, kept !== undefined);
      },
      memory: (track) => (alive() && track < this.stores.length ? this.stores[track].lease() : undefined),
      note: (reason, why) => {
        if (!alive()) return;
        this.note = reason ? { reason, why } : undefined;
        if (this._state === 'live') this.setState('live', reason, this.note?.why);
      },
      waiting: (reason, why) => {
        if (alive()) this.setState('retrying', reason, why);
      },
      ended: (reason, why) => {
        if (alive()) this.stop(reason, why);
      },
      failed: (reason, why) => {
        if (!alive()) return;
        this.source = undefined;
        try {
          source.stop();
        } catch {
          /* already gone */
        }
        if (reason !== this.lastFailure) this.onFailure?.(this, reason, why);
        this.lastFailure = reason;
        this.scheduleRetry(reason, why);
      },
    });
  }

  /** A store per track: the chunks' size fits the track's kind. */
  private storesFor(tracks: Track[]) {
    const stores = tracks.map((t, i) => {
      const pool = t.kind === 'audio' ? gopAudioChunks : gopChunks;
      const old = this.stores[i];
      // A store a source assembles in stays (its unit in progress is there).
      return old && (old.pool === pool || old.isLeased) ? old : new GopStore(pool);
    });
    for (const s of this.stores) if (!stores.includes(s)) s.release();
    this.stores = stores;
  }

  /**
   * Keeps a unit of the current GOP in its track's store (where the source may have assembled it, else
   * a copy) and returns it; undefined when it is not kept.
   */
  private cache(track: number, unit: AccessUnit): AccessUnit | undefined {
    const store = this.stores[track];
    if (!store) return undefined; // a unit of a track the source did not announce
    // Only a store a source assembles in can hold a unit (the others copy: no lookup per unit for them).
    const inStore = store.isLeased && store.holds(unit);
    if (unit.kind === 'video' && unit.keyframe) {
      this.dropGop(track, unit, inStore ? unit : undefined);
      this.stats.keyframes++;
    }
    // Before the first keyframe nothing is worth replaying to a new viewer.
    if (this.gop.length === 0 && this.hasVideo() && !(unit.kind === 'video' && unit.keyframe)) {
      // Assembled in the store: its bytes may go at once (reset() keeps what is still being assembled).
      if (inStore) store.reset();
      return undefined;
    }
    if (this.gop.length >= this.options.maxGopUnits) this.dropGop(undefined, undefined, inStore ? unit : undefined);
    // Not in a store that a source writes in: a copy there (a unit the depacketiser had begun before
    // it was given the store cannot go in it: it gets bytes of its own).
    const kept = inStore ? unit : store.isLeased ? copyUnit(unit) : store.copy(unit);
    this.gop.push(track, kept);
    return kept;
  }

  /**
   * The cached GOP ends (see Subscriber.gopEnd): subscribers are told before its bytes are reused.
   * `keep`: a unit assembled in a store, which the new GOP starts with.
   */
  private dropGop(track?: number, next?: AccessUnit, keep?: AccessUnit) {
    if (this.gop.length) {
      for (const s of this.subs) {
        if (!s.gopEnd) continue;
        try {
          s.gopEnd(track, next);
        } catch (err) {
          this.dropFailed(s, err);
        }
      }
    }
    this.gop.clear();
    for (const s of this.stores) s.reset(keep);
  }

  private hasVideo() {
    for (let i = 0; i < this._tracks.length; i++) if (this._tracks[i].kind === 'video') return true;
    return false;
  }

  private scheduleRetry(reason: string, why?: Reason) {
    this.stats.restarts++;
    this.setState('retrying', reason, why);
    const delay = this.retryDelay;
    this.retryDelay = Math.min(this.retryDelay * 2, this.options.retryMaxMs);
    this.armRetry(delay);
  }

  /** The next connection attempt in `delay` ms (replacing any armed one). */
  private armRetry(delay: number) {
    clearTimeout(this.retryTimer);
    this.retryDueAt = Date.now() + delay;
    this.retryTimer = setTimeout(() => {
      if (this.running) this.connect();
    }, delay);
    this.retryTimer.unref?.();
  }

  private setState(state: HubState, reason: string, why?: Reason) {
    this._state = state;
    this._reason = reason;
    this._why = why;
    for (const s of this.subs) this.deliver(s, (x) => x.state?.(state, reason, why));
  }

  /** Every unit to every subscriber: the per-unit path, without a closure per subscriber (see deliver). */
  private fanOut(track: number, unit: AccessUnit, kept: boolean) {
    for (const s of this.subs) {
      try {
        s.unit(track, unit, kept);
      } catch (err) {
        this.dropFailed(s, err);
      }
    }
  }

  private dropFailed(sub: Subscriber, err: unknown) {
    this.stats.subscriberErrors++;
    this.subs.delete(sub);
    this.onSubscriberError?.(sub, err);
  }

  /**
   * One viewer's failure (a bug in an output, a unit it cannot package) must not stop delivery to
   * the others: it is counted and that viewer is dropped.
   */
  private deliver(sub: Subscriber, call: (s: Subscriber) => void) {
    try {
      call(sub);
    } catch (err) {
      this.dropFailed(sub, err);
    }
  }

  /** Told when a viewer threw and was dropped (the app logs it). */
  onSubscriberError?: (sub: Subscriber, err: unknown) => void;

  /**
   * Told when its source failed, with its words (which the user does not read when `why` is given: the
   * app logs them); not again for the same words until it was live, so a camera retried for hours is logged once.
   */
  onFailure?: (hub: StreamHub, reason: string, why?: Reason) => void;

  /** Ends the ingest (last viewer gone, stopstream, channel deleted, shutdown); `why`: the same for the user. */
  stop(reason = 'stopped', why: Reason | undefined = reason === 'stopped' ? { key: 'streamStopped' } : undefined) {
    clearTimeout(this.graceTimer);
    clearTimeout(this.retryTimer);
    this.graceTimer = undefined;
    this.retryTimer = undefined;
    if (!this.running && this._state === 'stopped') return;
    this.running = false;
    const source = this.source;
    this.source = undefined;
    try {
      source?.stop();
    } catch {
      /* already gone */
    }
    this.dropGop();
    for (const s of this.stores) s.release();
    this.stores = [];
    this._tracks = [];
    this.setState('stopped', reason, why);
    this.onIdle?.(this);
  }
}

/** The hubs of one node, by stream key (device/channel/flow). */
export class HubRegistry {
  private hubs = new Map<string, StreamHub>();
  /** Given to every hub it makes (StreamHub.onFailure): the app logs a source's words there. */
  onFailure?: (hub: StreamHub, reason: string, why?: Reason) => void;

  get(key: string) {
    return this.hubs.get(key);
  }

  /** The running hub of a key, or a new one built from the factory. */
  open(key: string, makeSource: () => MediaSource, options: HubOptions): StreamHub {
    const existing = this.hubs.get(key);
    if (existing && existing.state !== 'stopped') return existing;
    const hub = new StreamHub(key, makeSource, options, (h) => {
      if (this.hubs.get(h.key) === h) this.hubs.delete(h.key);
    });
    hub.onFailure = (h, reason, why) => this.onFailure?.(h, reason, why);
    this.hubs.set(key, hub);
    return hub;
  }

  list() {
    return [...this.hubs.values()];
  }

  stopAll(reason = 'shutdown', why?: Reason) {
    for (const h of [...this.hubs.values()]) h.stop(reason, why);
  }
}
