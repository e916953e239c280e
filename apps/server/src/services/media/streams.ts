/**
 * Live streams of channels: which hub serves a channel's flow, the play URLs of every output, and
 * who may open them. A stream key names a channel's flow on this node: "stream_<channel row id>_<flow>"
 * (flow 0 main, 1 sub), as EasyCVR's URLs do (/ws_m4s/live/stream_29_0.mp4).
 */
import crypto from 'node:crypto';
import type { Channel, Device } from '../../db/schema.js';
import type { ConfigStore } from '../config/store.js';
import type { Reason } from '@opencvr/shared';
import { HubRegistry, type HubOptions, type MediaSource, type StreamHub } from '../../media/hub.js';
import { signPlayToken, verifyPlayToken } from './play-token.js';

export type Flow = 0 | 1;
export const PROTOCOLS = ['WS_FMP4', 'HLS', 'FLV', 'WS_FLV', 'WEBRTC'] as const;
export type PlayProtocol = (typeof PROTOCOLS)[number];

export function streamKey(channelPk: number, flow: Flow): string {
  return `stream_${channelPk}_${flow}`;
}
/** Also a derived stream's key: the original's followed by a variant suffix ("_h264": transcoded). */
export function parseStreamKey(key: string): { channelPk: number; flow: Flow; variant?: string } | undefined {
  const m = /^stream_(\d{1,12})_([01])(_h264)?$/.exec(key);
  if (!m) return undefined;
  return m[3] ? { channelPk: Number(m[1]), flow: Number(m[2]) as Flow, variant: m[3] } : { channelPk: Number(m[1]), flow: Number(m[2]) as Flow };
}

/** The path of each output for a stream; clients prefix the host (and swap http for ws on WS ones). */
export function playPaths(key: string): Record<PlayProtocol, string> {
  return {
    WS_FMP4: `/ws_m4s/live/${key}.mp4`,
    HLS: `/hls/${key}/playlist.m3u8`,
    FLV: `/flv/live/${key}.flv`,
    WS_FLV: `/ws_flv/live/${key}.flv`,
    WEBRTC: `/webrtc/whep/${key}`,
  };
}

/** Makes the ingest of a channel's flow; each access protocol (RTSP pull, GB28181, ...) registers one. */
export type SourceFactory = (device: Device, channel: Channel, flow: Flow) => MediaSource | undefined;

/** Makes the source of a derived stream (e.g. the transcoded one) from its original's key. */
export type VariantFactory = (originalKey: string) => MediaSource;

export class StreamService {
  readonly hubs = new HubRegistry();
  private factories: SourceFactory[] = [];
  private variants = new Map<string, VariantFactory>();
  private secretCache?: Buffer;
  /**
   * Whether an always-on channel's main stream is held on-demand by an administrator's stopstream
   * (AlwaysOnChannels.isHeld, wired in app.ts): a viewer's hub then stops after them like any other.
   */
  alwaysOnHeld: (channelPk: number) => boolean = () => false;

  constructor(
    private readonly config: ConfigStore,
    private readonly hubDefaults: Omit<HubOptions, 'onDemand'>,
  ) {}

  registerSource(factory: SourceFactory) {
    this.factories.push(factory);
  }

  /** The signing secret, made once and kept in the configuration. */
  async secret(): Promise<Buffer> {
    if (this.secretCache) return this.secretCache;
    let { PlayKey } = await this.config.get('secret');
    if (!PlayKey) {
      PlayKey = crypto.randomBytes(32).toString('base64url');
      await this.config.set('secret', { PlayKey });
    }
    this.secretCache = Buffer.from(PlayKey, 'base64url');
    return this.secretCache;
  }

  /** The running hub of a channel's flow, or a new one (which starts its ingest at once). */
  open(device: Device, channel: Channel, flow: Flow): StreamHub | undefined {
    const key = streamKey(channel.id, flow);
    const existing = this.hubs.get(key);
    if (existing && existing.state !== 'stopped') return existing;
    const make = () => {
      for (const f of this.factories) {
        const s = f(device, channel, flow);
        if (s) return s;
      }
      return undefined;
    };
    if (!make()) return undefined;
    // Always-on (OnDemand 0) is the main stream's: a sub stream a viewer opened stops after them, as
    // on an on-demand channel, instead of holding a second camera session for good. A parental node
    // is never always-on (no always-on candidate, always-on.ts): its hub is on-demand from the start,
    // not until the always-on pass looks (which sleeps while it has nothing to follow).
    const onDemand = flow === 1 || !!channel.on_demand || !!channel.parental || this.alwaysOnHeld(channel.id);
    const hub = this.hubs.open(key, () => make()!, { ...this.hubDefaults, onDemand });
    // An on-demand hub with nobody yet stays up for one grace period, so the player can arrive.
    hub.touch();
    return hub;
  }

  /** A derived stream: key = original key + suffix; its hub is made on first use and starts with its first viewer. */
  registerVariant(suffix: string, factory: VariantFactory) {
    this.variants.set(suffix, factory);
  }

  /** The hub of a key; a variant's hub is made here while its original is open. */
  get(key: string) {
    const hub = this.hubs.get(key);
    if (hub && hub.state !== 'stopped') return hub;
    const suffix = parseStreamKey(key)?.variant;
    const factory = suffix ? this.variants.get(suffix) : undefined;
    if (!suffix || !factory) return hub;
    const original = key.slice(0, -suffix.length);
    const parent = this.hubs.get(original);
    if (!parent || parent.state === 'stopped') return undefined;
    return this.hubs.open(key, () => factory(original), { ...this.hubDefaults, onDemand: true });
  }

  /**
   * Play URLs of the variants that suit a stream, named PROTOCOL + suffix (WS_FMP4_H264, ...): the
   * transcoded H.264 one only when the original's video is H.265. Waits a little for the tracks of a
   * stream that is still connecting. `notAfter` as for urls().
   */
  async variantUrls(key: string, { waitMs = 4000, notAfter }: { waitMs?: number; notAfter?: number } = {}): Promise<Record<string, string>> {
    const hub = this.hubs.get(key);
    if (!hub || !this.variants.has('_h264')) return {};
    const end = Date.now() + waitMs;
    while (!hub.tracks.length && hub.state === 'connecting' && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    const video = hub.tracks.find((t) => t.kind === 'video');
    if (video?.codec !== 'h265') return {};
    const { urls } = await this.urls(`${key}_h264`, notAfter);
    return Object.fromEntries(Object.entries(urls).map(([p, u]) => [`${p}_H264`, u]));
  }

  /**
   * URLs of every output, with a play token when play authentication is on. The token lives
   * TokenTimeout, and no longer than `notAfter` (unix seconds): a shared link's URLs end with the
   * link, as their connections do (a media connection ends when its token expires).
   */
  async urls(key: string, notAfter?: number): Promise<{ urls: Record<PlayProtocol, string>; token?: string; expiresAt?: number }> {
    const { PlayAuth, TokenTimeout } = await this.config.get('play');
    const paths = playPaths(key);
    if (!PlayAuth) return { urls: paths };
    const exp = Math.min(Math.floor(Date.now() / 1000) + TokenTimeout, notAfter ?? Infinity);
    const token = signPlayToken(await this.secret(), { s: key, e: exp });
    const urls = Object.fromEntries(Object.entries(paths).map(([k, v]) => [k, `${v}?play_token=${token}`])) as Record<PlayProtocol, string>;
    return { urls, token, expiresAt: exp };
  }

  async checkToken(token: string, subject: string) {
    return verifyPlayToken(await this.secret(), token, subject);
  }

  async signShare(subject: string, seconds: number) {
    const exp = Math.floor(Date.now() / 1000) + seconds;
    return { token: signPlayToken(await this.secret(), { s: subject, e: exp }), expiresAt: exp };
  }

  stopAll() {
    this.hubs.stopAll('shutdown', { key: 'streamServerShutdown' });
  }

  /**
   * Stops the running streams of a channel (both flows and their variants): after its address,
   * credentials or transport changed, the next player (the console's reconnect) or the recorder's
   * next pass opens it again from the new settings, instead of a hub retrying the old ones for as
   * long as somebody watches. Returns how many stopped.
   */
  restartChannel(channelPk: number, reason = 'channel settings changed', why: Reason = { key: 'streamChannelChanged' }): number {
    return this.stopWhere((pk) => pk === channelPk, reason, why);
  }

  /** The channel row ids with a running stream (any flow or variant). */
  runningChannels(): number[] {
    const pks = new Set<number>();
    for (const hub of this.hubs.list()) {
      const pk = hub.state === 'stopped' ? undefined : parseStreamKey(hub.key)?.channelPk;
      if (pk !== undefined) pks.add(pk);
    }
    return [...pks];
  }

  /**
   * Stops the running streams of channels that are gone (a device or channel deleted, a GB catalog
   * that dropped a camera): a hub otherwise kept pulling the camera, or kept the GB device's INVITE
   * up, for as long as anybody watched, although no call could name the channel any more. Viewers
   * are told the state and their reopen is refused (not found). Returns how many stopped.
   */
  stopRemovedChannels(exists: ReadonlySet<number>, reason = 'channel deleted'): number {
    return this.stopWhere((pk) => !exists.has(pk), reason, { key: 'streamChannelDeleted' });
  }

  /** `why`: the same as `reason` for the viewers, in their language. */
  private stopWhere(match: (channelPk: number) => boolean, reason: string, why: Reason): number {
    let n = 0;
    for (const hub of this.hubs.list()) {
      const pk = hub.state === 'stopped' ? undefined : parseStreamKey(hub.key)?.channelPk;
      if (pk === undefined || !match(pk)) continue;
      hub.stop(reason, why);
      n++;
    }
    return n;
  }
}
