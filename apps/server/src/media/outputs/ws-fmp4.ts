/**
 * Live output: fragmented MP4 over a WebSocket, for the browser's Media Source Extensions.
 * Text frames carry JSON control messages ({type:'init', mime} before each init segment,
 * {type:'state', state, reason} on ingest changes); binary frames carry the init segment and then
 * media fragments (moof+mdat), each cut at a keyframe or every 500 ms for low latency.
 *
 * A slow viewer never holds up the others: when its socket has too much unsent data, its fragments
 * are dropped until the next keyframe fragment, so it skips ahead to live instead of drifting.
 */
import type { AccessUnit, Track } from '@opencvr/codec';
import { Fragmenter } from '@opencvr/fmp4';
import type { HubState, Subscriber } from '../hub.js';

export interface WsLike {
  readonly bufferedAmount: number;
  readonly readyState: number;
  send(data: string | Uint8Array): void;
}

const OPEN = 1;

export class WsFmp4Output implements Subscriber {
  private fragmenter?: Fragmenter;
  private skipping = false;
  /** Fragments sent and dropped, and bytes sent, for the stream-status feed. */
  readonly stats = { fragments: 0, dropped: 0, bytes: 0 };

  constructor(
    private readonly ws: WsLike,
    private readonly opts: { maxBufferedBytes: number; fragmentSeconds: number } = { maxBufferedBytes: 4 * 1024 * 1024, fragmentSeconds: 0.5 },
  ) {}

  tracks(tracks: Track[]) {
    this.fragmenter = new Fragmenter(tracks, { maxFragmentDuration: this.opts.fragmentSeconds });
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

  unit(track: number, unit: AccessUnit) {
    if (!this.fragmenter) return;
    for (const f of this.fragmenter.push(unit, track)) {
      if (this.ws.readyState !== OPEN) return;
      if (this.skipping && !f.keyframe) {
        this.stats.dropped++;
        continue;
      }
      if (this.ws.bufferedAmount > this.opts.maxBufferedBytes) {
        this.skipping = true;
        this.stats.dropped++;
        continue;
      }
      this.skipping = false;
      this.ws.send(f.data);
      this.stats.fragments++;
      this.stats.bytes += f.data.byteLength;
    }
  }

  state(state: HubState, reason: string) {
    if (this.ws.readyState === OPEN) this.ws.send(JSON.stringify({ type: 'state', state, reason }));
  }
}
