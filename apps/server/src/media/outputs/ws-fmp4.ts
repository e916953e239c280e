/**
 * Live output: fragmented MP4 over a WebSocket, for the browser's Media Source Extensions.
 * Text frames carry JSON control messages ({type:'init', mime} before each init segment,
 * {type:'state', state, reason} on ingest changes); binary frames carry the init segment and then
 * media fragments (moof+mdat), each cut at a keyframe or every 500 ms for low latency.
 *
 * A slow viewer never holds up the others: when its socket has too much unsent data, its fragments
 * are dropped until the next keyframe fragment, so it skips ahead to live instead of drifting.
 *
 * Fragments are written into buffers of the shared fragmentPool and given back once the socket has
 * written them (the send callback): no allocation per fragment (see buffer-pool.ts).
 */
import type { AccessUnit, Track } from '@opencvr/codec';
import { Fragmenter } from '@opencvr/fmp4';
import type { HubState, Subscriber } from '../hub.js';
import { fragmentPool } from './buffer-pool.js';
import { latencyProbe } from '../latency-probe.js';

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

export class WsFmp4Output implements Subscriber {
  private fragmenter?: Fragmenter;
  /** Hub track index → index in this output's tracks (absent: left out). */
  private map = new Map<number, number>();
  private skipping = false;
  /** Opt-in bench probe (MEDIA_LATENCY_PROBE); undefined normally. */
  private readonly probe = latencyProbe?.fmp4('ws-fmp4');
  /** Fragments sent and dropped, and bytes sent, for the stream-status feed. */
  readonly stats = { fragments: 0, dropped: 0, bytes: 0 };

  constructor(
    private readonly ws: WsLike,
    private readonly opts: { maxBufferedBytes: number; fragmentSeconds: number } = { maxBufferedBytes: 4 * 1024 * 1024, fragmentSeconds: 0.5 },
  ) {}

  tracks(all: Track[]) {
    this.map.clear();
    const tracks: Track[] = [];
    all.forEach((t, i) => {
      if (!playableInMse(t)) return;
      this.map.set(i, tracks.length);
      tracks.push(t);
    });
    if (!tracks.length) {
      this.fragmenter = undefined;
      if (this.ws.readyState === OPEN) this.ws.send(JSON.stringify({ type: 'state', state: 'unsupported', reason: 'no track a browser can play' }));
      return;
    }
    this.fragmenter = new Fragmenter(tracks, { maxFragmentDuration: this.opts.fragmentSeconds, allocate: take });
    this.skipping = false;
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
      }),
    );
    this.ws.send(this.fragmenter.init);
  }

  unit(hubTrack: number, unit: AccessUnit) {
    const track = this.map.get(hubTrack);
    if (!this.fragmenter || track === undefined) return;
    for (const f of this.fragmenter.push(unit, track)) {
      if (this.ws.readyState !== OPEN) {
        fragmentPool.give(f.data);
        continue;
      }
      if (this.skipping && !f.keyframe) {
        this.stats.dropped++;
        fragmentPool.give(f.data);
        continue;
      }
      if (this.ws.bufferedAmount > this.opts.maxBufferedBytes) {
        this.skipping = true;
        this.stats.dropped++;
        fragmentPool.give(f.data);
        continue;
      }
      this.skipping = false;
      const data = f.data;
      this.ws.send(data, () => fragmentPool.give(data));
      this.probe?.sent(f.tracks, track);
      this.stats.fragments++;
      this.stats.bytes += f.data.byteLength;
    }
    this.probe?.pushed(track, unit);
  }

  state(state: HubState, reason: string) {
    if (this.ws.readyState === OPEN) this.ws.send(JSON.stringify({ type: 'state', state, reason }));
  }
}
