/**
 * LL-HLS output: one HlsSession per stream (created on the first HLS request, removed a grace period
 * after the last one), subscribed to the hub like any viewer. Units go through an fMP4 Fragmenter cut
 * at keyframes and every `partTarget` seconds; each fragment is an LL-HLS part, parts make segments
 * (HlsSegmenter). Tracks changing (camera back with other parameters) start a new init segment and a
 * discontinuity. Clients are counted (distinct address + user agent seen in the last seconds) for the
 * status feed. A unit the fragmenter refuses is dropped and counted; nothing throws into the hub.
 */
import type { AccessUnit, Track } from '@opencvr/codec';
import type { Reason } from '@opencvr/shared';
import { Fragmenter, parameterSetsChanged } from '@opencvr/fmp4';
import { videoTrackFromParameterSets, findParameterSets } from '@opencvr/codec';
import type { HubState, StreamHub, Subscriber } from '../hub.js';
import { DEFAULT_SEGMENTER_OPTIONS, HlsSegmenter, type HlsSegmenterOptions } from './hls-segmenter.js';

export class HlsOutput implements Subscriber {
  private fragmenter?: Fragmenter;
  private tracksNow: Track[] = [];
  readonly stats = { parts: 0, errors: 0, bytes: 0 };

  constructor(
    readonly segmenter: HlsSegmenter,
    private readonly onError?: (err: unknown) => void,
    private readonly onStopped?: (reason: string, why?: Reason) => void,
  ) {}

  tracks(tracks: Track[]) {
    try {
      // A camera that came back: what the last fragmenter still holds (up to a part) ends the old
      // timeline, then the new init and its discontinuity (the new fragmenter's times start anew).
      if (this.fragmenter) for (const frag of this.fragmenter.flush()) this.add(frag);
      this.start(tracks);
    } catch (err) {
      this.fragmenter = undefined;
      this.stats.errors++;
      this.onError?.(err);
    }
  }

  private start(tracks: Track[]) {
    this.tracksNow = tracks;
    this.fragmenter = new Fragmenter(tracks, { maxFragmentDuration: this.segmenter.opts.partTarget });
    this.segmenter.setInit(this.fragmenter.init);
  }

  unit(track: number, unit: AccessUnit) {
    const f = this.fragmenter;
    if (!f) return;
    try {
      const t = this.tracksNow[track];
      if (unit.kind === 'video' && unit.keyframe && t?.kind === 'video' && parameterSetsChanged(t, unit)) {
        // In-band parameter sets unlike the init segment's: a new init segment from them.
        const ps = findParameterSets(t.codec, unit.nalus, { vps: t.vps, sps: t.sps, pps: t.pps });
        const next = this.tracksNow.slice();
        next[track] = videoTrackFromParameterSets(t.codec, { sps: ps.sps!, pps: ps.pps!, vps: ps.vps });
        for (const frag of f.flush()) this.add(frag);
        this.start(next);
        for (const frag of this.fragmenter!.push(unit, track)) this.add(frag);
        return;
      }
      for (const frag of f.push(unit, track)) this.add(frag);
    } catch (err) {
      this.stats.errors++;
      this.onError?.(err);
    }
  }

  private add(frag: { data: Uint8Array; duration: number; keyframe: boolean }) {
    this.segmenter.addPart(frag);
    this.stats.parts++;
    this.stats.bytes += frag.data.byteLength;
  }

  state(state: HubState, reason: string, why?: Reason) {
    if (state === 'stopped') this.onStopped?.(reason, why);
  }
}

/** The hub's words and catalogue reason when it stopped. */
export interface HlsStopped {
  reason: string;
  why?: Reason;
}

export interface HlsSessionOptions {
  segmenter: HlsSegmenterOptions;
  /** The session ends this long after its last request. */
  idleMs: number;
  /** A client counts as a viewer for this long after its last request. */
  viewerMs: number;
}

export const DEFAULT_HLS_OPTIONS: HlsSessionOptions = {
  segmenter: DEFAULT_SEGMENTER_OPTIONS,
  idleMs: 30_000,
  viewerMs: 10_000,
};

export class HlsSession {
  readonly segmenter: HlsSegmenter;
  readonly output: HlsOutput;
  private unsubscribe?: () => void;
  private idleTimer?: NodeJS.Timeout;
  private clients = new Map<string, number>();
  closed = false;
  /** Why the session ended, when its hub stopped (not when it sat idle). */
  stopped?: HlsStopped;

  constructor(
    readonly hub: StreamHub,
    private readonly opts: HlsSessionOptions,
    private readonly onClose: (s: HlsSession) => void,
    onError?: (err: unknown) => void,
  ) {
    this.segmenter = new HlsSegmenter(opts.segmenter);
    this.output = new HlsOutput(this.segmenter, onError, (reason, why) => this.close({ reason, why }));
    this.touch();
    this.unsubscribe = hub.subscribe(this.output);
  }

  /** A request from `client` (address + user agent): keeps the session and counts the viewer. */
  touch(client?: string) {
    if (client) this.clients.set(client, Date.now());
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.close(), this.opts.idleMs);
    this.idleTimer.unref?.();
  }

  get viewers(): number {
    const since = Date.now() - this.opts.viewerMs;
    for (const [c, at] of this.clients) if (at < since) this.clients.delete(c);
    return this.clients.size;
  }

  close(stopped?: HlsStopped) {
    if (this.closed) return;
    this.closed = true;
    this.stopped = stopped;
    clearTimeout(this.idleTimer);
    this.segmenter.close();
    const u = this.unsubscribe;
    this.unsubscribe = undefined;
    u?.();
    this.onClose(this);
  }
}

/** How long a stream whose hub stopped answers its HLS requests with why (HlsSessions.stoppedOf). */
export const STOPPED_KEPT_MS = 60_000;

/** The HLS sessions of one app, by stream key. */
export class HlsSessions {
  private sessions = new Map<string, HlsSession>();
  /**
   * Streams whose session ended because the hub stopped, and when: a client's next request for one of
   * its files is told why (a player that waits for a part or reloads its playlist), not "not found".
   */
  private stopped = new Map<string, HlsStopped & { at: number }>();

  constructor(
    private readonly opts: HlsSessionOptions = DEFAULT_HLS_OPTIONS,
    private readonly onError?: (err: unknown) => void,
  ) {}

  /** The live session of a hub, or a new one subscribed to it. */
  open(hub: StreamHub): HlsSession {
    const s = this.sessions.get(hub.key);
    if (s && !s.closed && s.hub === hub) return s;
    s?.close();
    this.stopped.delete(hub.key);
    const created = new HlsSession(
      hub,
      this.opts,
      (gone) => {
        if (this.sessions.get(gone.hub.key) !== gone) return;
        this.sessions.delete(gone.hub.key);
        if (gone.stopped) this.remember(gone.hub.key, gone.stopped);
      },
      this.onError,
    );
    this.sessions.set(hub.key, created);
    return created;
  }

  get(key: string) {
    return this.sessions.get(key);
  }

  /** Why the stream's last session ended, when its hub stopped within STOPPED_KEPT_MS and no session followed. */
  stoppedOf(key: string): HlsStopped | undefined {
    const s = this.stopped.get(key);
    if (s && Date.now() - s.at > STOPPED_KEPT_MS) this.stopped.delete(key);
    return this.stopped.get(key);
  }

  private remember(key: string, stopped: HlsStopped) {
    const now = Date.now();
    // Streams stopped long ago are forgotten here, so the map holds only the last minute's.
    for (const [k, s] of this.stopped) if (now - s.at > STOPPED_KEPT_MS) this.stopped.delete(k);
    this.stopped.set(key, { ...stopped, at: now });
  }

  /** Clients seen recently on a stream's session. */
  viewers(key: string): number {
    const s = this.sessions.get(key);
    return s && !s.closed ? s.viewers : 0;
  }

  closeAll() {
    for (const s of [...this.sessions.values()]) s.close();
  }
}
