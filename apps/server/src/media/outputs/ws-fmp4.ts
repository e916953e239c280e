/**
 * Live output: fragmented MP4 over a WebSocket, for the browser's Media Source Extensions.
 * Text frames carry JSON control messages ({type:'init', mime} before each init segment, and
 * `continues` in it when a camera came back and its media carries on the viewer's timeline;
 * {type:'state', state, reason, code, vars} on ingest changes: `reason` the source's words, `code`
 * and `vars` the catalogue reason the console shows in its language, LiveStateMessage); binary
 * frames carry the init segment and then media fragments (moof+mdat).
 *
 * Live (the default): one fragment per access unit, sent in the same tick the unit reaches the hub
 * (LiveFragmenter), so a frame leaves the server within a millisecond or so instead of waiting for a
 * fragment to fill. A new viewer's cached GOP (the units the hub hands over synchronously right
 * after tracks()) goes out as ONE fragment, so the player starts with one append on a keyframe.
 * With `fragmentSeconds` (recording playback) fragments are cut at keyframes or every that many
 * seconds instead (Fragmenter).
 *
 * A slow viewer never holds up the others: when its socket has too much unsent data, its fragments
 * are dropped until the next keyframe fragment, so it skips ahead to live instead of drifting.
 *
 * Fragments are written into buffers of the shared fragmentPool and given back once the socket has
 * written them (the send callback): no allocation per fragment (see buffer-pool.ts). Where the socket
 * can (`sendInPlace`), each live fragment is written WS_HEADROOM bytes into its buffer, and the
 * WebSocket frame header goes in front of it there: one write per fragment (ws-in-place.ts).
 */
import { copyUnit, type AccessUnit, type Track } from '@opencvr/codec';
import { Fragmenter, LiveFragmenter, type BatchItem, type Fragment } from '@opencvr/fmp4';
import type { LiveStateMessage, Reason } from '@opencvr/shared';
import type { HubState, Subscriber } from '../hub.js';
import { fragmentPool } from './buffer-pool.js';
import { latencyProbe } from '../latency-probe.js';
import { WS_HEADROOM } from './ws-in-place.js';

export interface WsLike {
  readonly bufferedAmount: number;
  readonly readyState: number;
  /** `done` is called once the bytes are written (or the send failed): then `data` may be reused. */
  send(data: string | Uint8Array, done?: (err?: Error) => void): void;
}

const take = (size: number) => fragmentPool.take(size);

const OPEN = 1;

/**
 * Browsers' MSE plays H.264/H.265 and AAC in MP4 but not G.711: such audio is left out of the
 * stream (the recorder keeps it) rather than making the whole SourceBuffer fail.
 */
const playableInMse = (t: Track) => t.kind === 'video' || t.codec === 'aac';

/** A live viewer's unsent bytes above which its fragments are dropped until the next keyframe. */
export const LIVE_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface WsFmp4Options {
  /** Unsent bytes on the socket above which fragments are dropped until the next keyframe. */
  maxBufferedBytes: number;
  /** Group units into fragments of up to this many seconds; unset: one fragment per unit (live). */
  fragmentSeconds?: number;
  /**
   * Sends `payload`, which has WS_HEADROOM free bytes before it in its buffer, on the same socket as
   * one binary message, the frame header written into those bytes (ws-in-place.ts). Live mode then
   * leaves that room before every fragment.
   */
  sendInPlace?: (payload: Uint8Array, done: (err?: Error | null) => void) => void;
}

export class WsFmp4Output implements Subscriber {
  private fragmenter?: Fragmenter | LiveFragmenter;
  /** Live mode: units handed over in the tick of tracks() (the hub's cached GOP), sent as one fragment. */
  private startup?: BatchItem[];
  /** Hub track index → index in this output's tracks (undefined: left out); an array, read per unit. */
  private map: (number | undefined)[] = [];
  private skipping = false;
  /** Opt-in bench probe (MEDIA_LATENCY_PROBE); undefined normally. */
  private readonly probe = latencyProbe?.fmp4('ws-fmp4');
  /** Fragments sent and dropped, and bytes sent, for the stream-status feed. */
  readonly stats = { fragments: 0, dropped: 0, bytes: 0 };

  constructor(
    private readonly ws: WsLike,
    private readonly opts: WsFmp4Options = { maxBufferedBytes: LIVE_MAX_BUFFERED_BYTES },
  ) {}

  tracks(all: Track[]) {
    // A viewer that has had media keeps its timeline when the camera comes back (the hub's times carry
    // on, hub-timeline.ts): the new fragmenter starts where the last ended, and the init says
    // `continues`, so the player appends it to the same SourceBuffer instead of a new MediaSource.
    const before = this.fragmenter instanceof LiveFragmenter && this.fragmenter.end > 0 ? this.fragmenter : undefined;
    this.map = [];
    this.startup = undefined;
    const tracks: Track[] = [];
    all.forEach((t, i) => {
      if (!playableInMse(t)) return;
      this.map[i] = tracks.length;
      tracks.push(t);
    });
    if (!tracks.length) {
      this.fragmenter = undefined;
      this.sendState('unsupported', 'no track a browser can play', { key: 'streamNoBrowserTrack' });
      return;
    }
    this.fragmenter =
      this.opts.fragmentSeconds === undefined
        ? new LiveFragmenter(tracks, { allocate: take, headroom: this.opts.sendInPlace ? WS_HEADROOM : 0, after: before })
        : new Fragmenter(tracks, { maxFragmentDuration: this.opts.fragmentSeconds, allocate: take });
    this.skipping = false;
    if (this.fragmenter instanceof LiveFragmenter) {
      const batch: BatchItem[] = [];
      this.startup = batch;
      queueMicrotask(() => this.sendStartup(batch));
    }
    if (this.ws.readyState !== OPEN) return;
    this.ws.send(
      JSON.stringify({
        type: 'init',
        mime: this.fragmenter.mimeType,
        tracks: tracks.map((t) =>
          t.kind === 'video'
            ? { kind: t.kind, codec: t.codec, codecString: t.codecString, width: t.width, height: t.height }
            : { kind: t.kind, codec: t.codec, codecString: t.codecString, sampleRate: t.sampleRate, channels: t.channels },
        ),
        ...(before ? { continues: true } : {}),
      }),
    );
    this.ws.send(this.fragmenter.init);
  }

  unit(hubTrack: number, unit: AccessUnit) {
    const track = this.map[hubTrack];
    const fragmenter = this.fragmenter;
    if (!fragmenter || track === undefined) return;
    if (fragmenter instanceof LiveFragmenter) {
      if (this.startup) {
        // Held until the microtask: copied, as the hub lends a unit's bytes (a cached GOP's until the
        // next keyframe, which a reconnecting camera may send in the same read as tracks()).
        this.startup.push({ track, unit: copyUnit(unit) });
        return;
      }
      const f = fragmenter.push(unit, track);
      if (f && this.send(f)) latencyProbe?.record('ws-fmp4', latencyProbe.arrivalOf(unit));
      return;
    }
    for (const f of fragmenter.push(unit, track)) {
      if (this.send(f)) this.probe?.sent(f.tracks, track);
    }
    this.probe?.pushed(track, unit);
  }

  /** The cached GOP as one fragment (not probed: those units arrived before this viewer). */
  private sendStartup(batch: BatchItem[]) {
    if (this.startup !== batch) return; // tracks() again meanwhile: that batch is void
    this.startup = undefined;
    if (!(this.fragmenter instanceof LiveFragmenter) || !batch.length) return;
    const f = this.fragmenter.batch(batch);
    if (f) this.send(f);
  }

  /** Sends a fragment unless the socket is closed or too far behind; false when dropped. */
  private send(f: Fragment): boolean {
    const data = f.data;
    if (this.ws.readyState !== OPEN) {
      fragmentPool.give(data);
      return false;
    }
    if (this.skipping && !f.keyframe) {
      this.stats.dropped++;
      fragmentPool.give(data);
      return false;
    }
    if (this.ws.bufferedAmount > this.opts.maxBufferedBytes) {
      this.skipping = true;
      this.stats.dropped++;
      fragmentPool.give(data);
      return false;
    }
    this.skipping = false;
    // bind, not an arrow function: the server runs under tsx, whose esbuild wraps every arrow
    // function it names in a defineProperty call, once per fragment here (1 % of the hub's profile).
    const done = fragmentPool.give.bind(fragmentPool, data);
    const inPlace = this.opts.sendInPlace;
    if (inPlace && data.byteOffset >= WS_HEADROOM) inPlace(data, done);
    else this.ws.send(data, done);
    this.stats.fragments++;
    this.stats.bytes += data.byteLength;
    return true;
  }

  state(state: HubState, reason: string, why?: Reason) {
    this.sendState(state, reason, why);
  }

  private sendState(state: LiveStateMessage['state'], reason: string, why?: Reason) {
    if (this.ws.readyState !== OPEN) return;
    const msg: LiveStateMessage = { type: 'state', state, reason, ...(why ? { code: why.key, ...(why.vars ? { vars: why.vars } : {}) } : {}) };
    this.ws.send(JSON.stringify(msg));
  }
}
