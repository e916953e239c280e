/**
 * A channel's CDN push as the administrator sees it (the channel lists' CdnPush, and the events
 * socket's 'cdn' topic when it changes). The address is masked (no stream key, no password): the
 * whole CdnUrl is the channel form's, for administrators only.
 */
import type { ReasonKey } from './messages.js';

/**
 * connecting: a run is opening the channel or talking to the CDN; pushing: the CDN said
 * NetStream.Publish.Start; retrying: the last run ended, the next starts in NextTryIn s;
 * loginRefused: as retrying, but the CDN refused the login (it fails the same way until the address
 * is edited); stopped: EnableCdn is on but nothing is pushed (the channel or its device is switched
 * off, or the address is not rtmp(s)://).
 */
export type CdnPushStateName = 'connecting' | 'pushing' | 'retrying' | 'loginRefused' | 'stopped';

export interface CdnPushStatus {
  State: CdnPushStateName;
  /** The CDN address without stream key or password (rtmp://host/app/***). */
  Url: string;
  /** Pushing: since when (ISO 8601). */
  Since?: string;
  /** Pushing: bytes the CDN took in this run. */
  BytesSent?: number;
  /** Pushing: bits per second over the last few seconds. */
  Bitrate?: number;
  /** Retrying, loginRefused: seconds until the next try. */
  NextTryIn?: number;
  /** Why the last run ended (or why nothing is pushed), in the asker's language, without the key. */
  Reason?: string;
  /** The same as a catalogue reason, for a console that renders it in its own language. */
  ReasonCode?: ReasonKey;
  ReasonVars?: Record<string, string | number>;
  /** Runs started since the push began (1 while the first one is on). */
  Runs: number;
  /** An H.265 channel pushed as its H.264 variant (CDN_HEVC=h264). */
  Transcoded?: boolean;
}

/** The events socket's 'cdn' message: one channel's push changed state. */
export interface CdnPushEvent {
  DeviceID: string;
  ChannelID: string;
  CdnPush: CdnPushStatus | null;
}
