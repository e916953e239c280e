/**
 * Which transport a live player uses, as a pure rule (ARCHITECTURE habit 12): WebSocket fMP4 over
 * MSE first, then HLS, then WebRTC when the server really serves them. FLV (WS-FLV through mpegts.js)
 * plays only where chosen. A chosen transport (`only`) is the one candidate: no fallback to others.
 * A transport that failed hard is skipped until every candidate has failed, then the list starts over.
 */

export type Transport = 'ws-fmp4' | 'hls' | 'webrtc' | 'flv';

/** The server's names for the play URLs (Body.URLs of channelstream). */
export type PlayProtocol = 'WS_FMP4' | 'HLS' | 'FLV' | 'WS_FLV' | 'WEBRTC';

export const TRANSPORT_ORDER: Transport[] = ['ws-fmp4', 'hls', 'webrtc', 'flv'];
/** What the automatic choice tries; FLV is left to an explicit choice. */
export const AUTO_ORDER: Transport[] = ['ws-fmp4', 'hls', 'webrtc'];

/** A user's choice in the player: automatic, or one transport only. */
export type TransportChoice = 'auto' | Transport;
export const TRANSPORT_CHOICES: TransportChoice[] = ['auto', ...TRANSPORT_ORDER];
export const isTransportChoice = (v: unknown): v is TransportChoice => TRANSPORT_CHOICES.includes(v as TransportChoice);

/** The URL each transport plays. */
export const TRANSPORT_URL_KEY: Record<Transport, PlayProtocol> = {
  'ws-fmp4': 'WS_FMP4',
  hls: 'HLS',
  webrtc: 'WEBRTC',
  flv: 'WS_FLV',
};

export interface Capabilities {
  /** window.MediaSource exists. */
  mse: boolean;
  /** The video element plays HLS by itself (Safari). */
  nativeHls: boolean;
  /** RTCPeerConnection exists. */
  webrtc: boolean;
  /** FLV can be demuxed here (mpegts.js over MSE, loaded when FLV is chosen). */
  flv: boolean;
  /** MSE decodes H.265 here (false: play the server's H.264 variant of an H.265 stream); undefined: unknown, try. */
  hevc?: boolean;
}

export interface TransportInput {
  caps: Capabilities;
  /** Body.URLs of the stream answer. */
  urls: Partial<Record<PlayProtocol, string>>;
  /**
   * Outputs the server answered a probe for. WS fMP4 needs none (channelstream hands it out);
   * HLS and WebRTC count only once probed present. Undefined: not probed yet.
   */
  served?: Partial<Record<Transport, boolean>>;
  /** Transports that failed hard for this player. */
  failed?: ReadonlySet<Transport>;
  /** The user chose this transport: it is the only candidate. */
  only?: Transport;
}

/** Can this browser play the transport at all (ignoring the server)? */
export function browserCan(t: Transport, caps: Capabilities): boolean {
  switch (t) {
    case 'ws-fmp4':
      return caps.mse;
    case 'hls':
      return caps.mse || caps.nativeHls;
    case 'webrtc':
      return caps.webrtc;
    case 'flv':
      return caps.flv && caps.mse;
  }
}

/** Transports worth trying, best first: the browser can play them and the server has a URL. */
export function candidates(input: Pick<TransportInput, 'caps' | 'urls' | 'only'>): Transport[] {
  const order = input.only ? [input.only] : AUTO_ORDER;
  return order.filter((t) => browserCan(t, input.caps) && !!input.urls[TRANSPORT_URL_KEY[t]]);
}

/**
 * Candidates whose server side needs a probe before use: HLS and WebRTC (HTTP URLs a server without
 * them answers with the console's page). The WebSockets (fMP4, FLV) need none.
 */
export function needsProbe(t: Transport): boolean {
  return t === 'hls' || t === 'webrtc';
}

/**
 * The transport to use now, or null when nothing can play. A candidate needing a probe is returned
 * while its probe result is unknown (the caller probes it, then asks again); one probed absent is skipped.
 * `failed` transports are skipped unless all usable ones failed, then the first usable one is retried.
 */
export function chooseTransport(input: TransportInput): Transport | null {
  const usable = candidates(input).filter((t) => !needsProbe(t) || input.served?.[t] !== false);
  if (!usable.length) return null;
  const failed = input.failed ?? new Set<Transport>();
  return usable.find((t) => !failed.has(t)) ?? usable[0]!;
}

/** An H.265 codec string (hvc1/hev1) of an unsupported-codec report. */
export const isHevc = (mime: string) => /hvc1|hev1/i.test(mime);

/** The suffix of the server's H.264 variant URLs of an H.265 stream (Body.URLs.WS_FMP4_H264, ...). */
const VARIANT = '_H264';

/**
 * The play URLs of the stream's H.264 variant (transcoded by the server from H.265) under the plain
 * protocol names, or null when the server offers none (the stream is not H.265, or no transcoding).
 */
export function h264Variant(urls: Readonly<Record<string, string | undefined>>): Partial<Record<PlayProtocol, string>> | null {
  const out: Partial<Record<PlayProtocol, string>> = {};
  for (const [k, v] of Object.entries(urls)) if (k.endsWith(VARIANT) && v) out[k.slice(0, -VARIANT.length) as PlayProtocol] = v;
  return Object.keys(out).length ? out : null;
}

/** The browser's capabilities, read once per call (pure callers pass their own). */
export function browserCapabilities(): Capabilities {
  const w = typeof window !== 'undefined' ? window : undefined;
  const video = typeof document !== 'undefined' ? document.createElement('video') : undefined;
  return {
    mse: !!w && typeof w.MediaSource === 'function',
    nativeHls: !!video && video.canPlayType('application/vnd.apple.mpegurl') !== '',
    webrtc: !!w && typeof w.RTCPeerConnection === 'function',
    // mpegts.js needs MSE (and a WebSocket, which every MSE browser has).
    flv: !!w && typeof w.MediaSource === 'function' && typeof w.WebSocket === 'function',
    hevc:
      !!w && typeof w.MediaSource === 'function' && typeof w.MediaSource.isTypeSupported === 'function'
        ? ['hvc1.1.6.L93.B0', 'hev1.1.6.L93.B0'].some((c) => w.MediaSource.isTypeSupported(`video/mp4; codecs="${c}"`))
        : undefined,
  };
}
