/**
 * Live output: FLV over a long-lived HTTP response (HTTP-FLV, chunked) or a WebSocket (WS-FLV, one
 * binary message per write), for flv.js/mpegts.js-style players. A new viewer gets the FLV header,
 * onMetaData and sequence headers, then the hub's cached GOP from its keyframe, then live tags.
 *
 * Slow viewers: like the WebSocket fMP4 output, when the connection holds more unsent bytes than the
 * limit, units are dropped until the next video keyframe (audio-only: until the buffer has drained to
 * half), so the viewer skips ahead to live instead of drifting. A unit the muxer cannot write is
 * dropped and counted; nothing here throws into the hub.
 *
 * FLV has no place for the camera's state: a sink that can carry it beside the bytes (a WS-FLV socket
 * whose viewer asked for it) gets the hub's state changes as the WS-fMP4 socket's state messages.
 */
import type { AccessUnit, Track } from '@opencvr/codec';
import { FlvMuxer, type HevcMode } from '@opencvr/flv';
import { liveStateMessage, type LiveStateMessage, type Reason } from '@opencvr/shared';
import type { HubState, Subscriber } from '../hub.js';
import { latencyProbe } from '../latency-probe.js';

/** Where the bytes go: an HTTP response or a WebSocket. */
export interface FlvSink {
  /** Bytes queued but not yet sent. */
  buffered(): number;
  open(): boolean;
  write(bytes: Uint8Array): void;
  /** The stream ended (hub stopped): close the connection; `why` the catalogue's reason, when the hub gave one. */
  end(why?: Reason): void;
  /**
   * The camera's state while the stream runs (connecting, retrying with the reason, live), for a sink
   * that can tell it beside the FLV bytes (a WS-FLV socket whose viewer asked: FLV_STATE_PARAM).
   */
  state?(msg: LiveStateMessage): void;
}

export interface FlvOutputOptions {
  maxBufferedBytes: number;
  hevc: HevcMode;
}

export const DEFAULT_FLV_OPTIONS: FlvOutputOptions = { maxBufferedBytes: 4 * 1024 * 1024, hevc: 'enhanced' };

export class FlvOutput implements Subscriber {
  private muxer?: FlvMuxer;
  private skipping = false;
  readonly stats = { tags: 0, dropped: 0, bytes: 0, errors: 0 };

  constructor(
    private readonly sink: FlvSink,
    private readonly opts: FlvOutputOptions = DEFAULT_FLV_OPTIONS,
    private readonly onError?: (err: unknown) => void,
  ) {}

  tracks(tracks: Track[]) {
    try {
      if (!this.muxer) {
        this.muxer = new FlvMuxer(tracks, { hevc: this.opts.hevc });
        this.send(this.muxer.header());
      } else {
        // The source came back with other parameters: new metadata and sequence headers, same stream.
        this.send(this.muxer.retrack(tracks));
      }
      this.skipping = false;
    } catch (err) {
      this.stats.errors++;
      this.onError?.(err);
    }
  }

  unit(track: number, unit: AccessUnit) {
    const m = this.muxer;
    if (!m || !this.sink.open()) return;
    const key = unit.kind === 'video' && unit.keyframe;
    const buffered = this.sink.buffered();
    if (this.skipping) {
      const resume = m.hasVideo ? key : buffered < this.opts.maxBufferedBytes / 2;
      if (!resume) {
        this.stats.dropped++;
        return;
      }
      this.skipping = false;
    }
    if (buffered > this.opts.maxBufferedBytes) {
      this.skipping = true;
      this.stats.dropped++;
      return;
    }
    let tags: Uint8Array[];
    try {
      tags = m.push(unit, track);
    } catch (err) {
      this.stats.errors++;
      this.onError?.(err);
      return;
    }
    for (const t of tags) this.send(t);
    if (latencyProbe && tags.length) latencyProbe.record('flv', latencyProbe.arrivalOf(unit));
  }

  state(state: HubState, reason = '', why?: Reason) {
    if (state === 'stopped') this.sink.end(why);
    else if (state !== 'idle') this.sink.state?.(liveStateMessage(state, reason, why));
  }

  private send(bytes: Uint8Array) {
    if (!bytes.length || !this.sink.open()) return;
    this.sink.write(bytes);
    this.stats.tags++;
    this.stats.bytes += bytes.length;
  }
}
