/** What every transport's player reports back to LivePlayer. */
import type { Reason } from '@opencvr/shared';
import type { IngestState } from './api';

export interface MediaInfo {
  codec?: string;
  width?: number;
  height?: number;
  mime?: string;
}

export interface EngineEvents {
  /** A stream description arrived (codec, size). */
  onInfo(info: MediaInfo): void;
  /**
   * The server's ingest changed state (camera connecting, live, retrying, stopped): `reason` the
   * source's words, `why` the catalogue's reason for them (shown in the console's language) when sent.
   */
  onState(state: IngestState, reason: string, why?: Reason): void;
  /** Bytes of media received. */
  onBytes(n: number): void;
  /** Media is playing: reconnect back-off starts over. */
  onPlaying(): void;
  /** The browser cannot decode this stream (e.g. H.265 without HEVC support). */
  onUnsupported(mime: string): void;
  /**
   * The transport stopped. 'closed': the connection ended (reconnect the same way);
   * 'fatal': this transport cannot play here (try the next one); 'expired': the server ended the
   * connection at its play token's expiry, or ended a transcoded H.264 leg its camera no longer
   * needs (nothing failed: open again at once, with fresh URLs).
   */
  onFailure(kind: 'closed' | 'fatal' | 'expired', reason: string): void;
}

export interface Engine {
  stop(): void;
}

export type StartEngine = (video: HTMLVideoElement, url: string, events: EngineEvents) => Engine | Promise<Engine>;

/** Starts playback, falling back to muted when the browser refuses sound without a gesture. */
export function playSafely(video: HTMLVideoElement): void {
  if (!video.paused) return;
  video.play().catch((err: unknown) => {
    if ((err as Error)?.name === 'NotAllowedError' && !video.muted) {
      video.muted = true;
      video.play().catch(() => undefined);
    }
  });
}
