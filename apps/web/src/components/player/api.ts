/** The calls a live player makes, through the one request layer. */
import { getV1 } from '../../lib/request';
import type { PlayProtocol } from './transport';

export type IngestState = 'idle' | 'connecting' | 'live' | 'retrying' | 'stopped';

/** Body of channelstream (and of the public share/channelstream). */
export interface StreamAnswer {
  URL: string;
  URLs: Partial<Record<PlayProtocol, string>>;
  Stream: string;
  State?: IngestState;
  Reason?: string;
  /** Reason's catalogue code and vars (when the server has one): rendered in the console's language, again after a switch. */
  ReasonCode?: string;
  ReasonVars?: Record<string, string | number>;
  /** Shared streams: the channel's name. */
  Name?: string;
  /** Unix seconds the play token stops working (0: no token); on a shared link, the link's end. */
  ExpiresAt?: number;
  /** Seconds the play URLs have left by the server's clock (absent: they do not expire): the player renews before. */
  UrlsExpireIn?: number;
}

export interface StreamTarget {
  device: string;
  channel: string;
  flow: number;
}

export const openChannelStream = (t: StreamTarget, quiet = false) =>
  getV1<StreamAnswer>(
    '/api/v1/devices/channelstream',
    { device: t.device, channel: t.channel, stream: t.flow, protocol: 'ws_m4s' },
    { quiet },
  );

export const keepChannelStream = (t: StreamTarget) =>
  getV1<Record<string, never>>(
    '/api/v1/devices/channelstream',
    { device: t.device, channel: t.channel, stream: t.flow, protocol: 'ws_m4s', type: 'keepalive' },
    { quiet: true },
  );

/** Manual recording of the channel (issue 5): on until stopped, whatever the recording plans say. */
export const realtimeRecord = (t: Pick<StreamTarget, 'device' | 'channel'>, on: boolean) =>
  getV1<{ Recording: number; Manual: number }>(`/api/v1/realtimerecord/${on ? 'start' : 'stop'}`, { device: t.device, channel: t.channel });

export type PtzCommand = 'up' | 'down' | 'left' | 'right' | 'upleft' | 'upright' | 'downleft' | 'downright' | 'zoomin' | 'zoomout' | 'stop';

export const ptzControl = (t: Pick<StreamTarget, 'device' | 'channel'>, command: PtzCommand, speed: number, keepalive = false) =>
  getV1<unknown>('/api/v1/ptzcontrol', { device: t.device, channel: t.channel, command, speed }, { quiet: true, keepalive });

/** A preset of the channel's PTZ: the device's token (a GB28181 preset is its number, 1-255) and name. */
export interface PtzPreset {
  Token: string;
  Name: string;
}
type PtzTarget = Pick<StreamTarget, 'device' | 'channel'>;

export const fetchPresets = (t: PtzTarget) =>
  getV1<{ PresetCount: number; Presets: PtzPreset[] }>('/api/v1/onvifgetpresetlist', { device: t.device, channel: t.channel }, { quiet: true });
export const gotoPreset = (t: PtzTarget, token: string) => getV1<unknown>('/api/v1/onvifgotopreset', { device: t.device, channel: t.channel, token }, { quiet: true });
export const setPreset = (t: PtzTarget, token: string, name: string) =>
  getV1<{ Token: string; Name: string }>('/api/v1/onvifsetpreset', { device: t.device, channel: t.channel, token, name }, { quiet: true });
export const removePreset = (t: PtzTarget, token: string) => getV1<unknown>('/api/v1/onvifremovepreset', { device: t.device, channel: t.channel, token }, { quiet: true });

/** An absolute URL on this origin for a path the server answered (ws/wss for WebSockets). */
export function absoluteUrl(path: string, ws: boolean, loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  if (/^(wss?|https?):\/\//i.test(path)) {
    return ws ? path.replace(/^http/i, 'ws') : path.replace(/^ws/i, 'http');
  }
  const scheme = ws ? (loc.protocol === 'https:' ? 'wss:' : 'ws:') : loc.protocol;
  return `${scheme}//${loc.host}${path.startsWith('/') ? '' : '/'}${path}`;
}

/**
 * Does the server really serve an output (HLS, FLV, WebRTC) at this URL? A 404 or the console's
 * own index page (the single-page fallback) means no. WHEP endpoints only take POST, so they are
 * asked with OPTIONS.
 */
export async function probeOutput(url: string, method: 'HEAD' | 'OPTIONS' = 'HEAD'): Promise<boolean> {
  try {
    const res = await fetch(absoluteUrl(url, false), { method, cache: 'no-store' });
    if (res.status === 404 || res.status >= 500) return false;
    return !(res.headers.get('content-type') ?? '').includes('text/html');
  } catch {
    return false;
  }
}
