/**
 * Stream status for the status feed (/api/v1/ws/streamstat) and the console: per hub its state and
 * reason, viewers per output, bitrate over the last seconds (from the hub's byte counter), frame rate,
 * resolution and codecs from its tracks, uptime and restarts.
 *
 * Outputs report their viewers to an OutputViewers (one per StreamService, found with
 * `outputViewers(streams)`): a per-connection output adds itself for as long as it is connected; the
 * HLS output, one subscriber serving many clients, provides its count of recent clients.
 */
import { parseH264Sps, parseH265Vps, type Track } from '@opencvr/codec';
import type { StreamHub } from './hub.js';

export type OutputKind = 'WS_FMP4' | 'HLS' | 'FLV' | 'WS_FLV' | 'WEBRTC' | 'SNAPSHOT';

export class OutputViewers {
  private counts = new Map<string, Map<OutputKind, number>>();

  /** One more viewer of `kind` on stream `key`; call the returned function once when it leaves. */
  add(key: string, kind: OutputKind): () => void {
    this.bump(key, kind, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.bump(key, kind, -1);
    };
  }

  /** The whole count of `kind` on `key` (outputs that count their clients themselves). */
  set(key: string, kind: OutputKind, n: number) {
    const m = this.counts.get(key) ?? new Map<OutputKind, number>();
    if (n > 0) m.set(kind, n);
    else m.delete(kind);
    if (m.size) this.counts.set(key, m);
    else this.counts.delete(key);
  }

  private bump(key: string, kind: OutputKind, d: number) {
    this.set(key, kind, (this.counts.get(key)?.get(kind) ?? 0) + d);
  }

  private providers = new Map<OutputKind, (key: string) => number>();

  /** Outputs that count their own clients (HLS: one subscriber, many clients) answer when asked. */
  provide(kind: OutputKind, count: (key: string) => number): () => void {
    this.providers.set(kind, count);
    return () => {
      if (this.providers.get(kind) === count) this.providers.delete(kind);
    };
  }

  of(key: string): Partial<Record<OutputKind, number>> {
    const out: Partial<Record<OutputKind, number>> = Object.fromEntries(this.counts.get(key) ?? []);
    for (const [kind, count] of this.providers) {
      const n = count(key);
      if (n > 0) out[kind] = (out[kind] ?? 0) + n;
    }
    return out;
  }
}

const viewersByOwner = new WeakMap<object, OutputViewers>();
/** The OutputViewers of a stream service (one per app). */
export function outputViewers(owner: object): OutputViewers {
  let v = viewersByOwner.get(owner);
  if (!v) viewersByOwner.set(owner, (v = new OutputViewers()));
  return v;
}

export interface TrackStatus {
  kind: 'video' | 'audio';
  codec: string;
  codecString: string;
  width?: number;
  height?: number;
  sampleRate?: number;
  channels?: number;
}

export interface StreamStatus {
  stream: string;
  state: string;
  reason: string;
  /** Hub subscribers (outputs, recorder, probes) and viewers per output. */
  subscribers: number;
  viewers: Partial<Record<OutputKind, number>>;
  totalViewers: number;
  /** Elementary-stream bitrate over the last seconds, kbit/s. */
  bitrateKbps: number;
  /** Video frames per second (measured; the SPS's when audio shares the unit counter and it says). */
  fps: number;
  width: number;
  height: number;
  videoCodec: string;
  audioCodec: string;
  tracks: TrackStatus[];
  /** Seconds since the current ingest delivered its tracks (0 when not live). */
  uptime: number;
  restarts: number;
  /** ms since the last unit (−1 before any). */
  lastUnitAgo: number;
}

interface Sample {
  at: number;
  bytes: number;
  units: number;
}

/** Keeps a short history of each hub's counters; status() appends at most one sample a second. */
export class StreamStatsSampler {
  private history = new WeakMap<StreamHub, Sample[]>();

  constructor(
    private readonly windowMs = 5000,
    private readonly now = () => Date.now(),
  ) {}

  status(hub: StreamHub, viewers: Partial<Record<OutputKind, number>> = {}): StreamStatus {
    const now = this.now();
    const samples = this.history.get(hub) ?? [];
    this.history.set(hub, samples);
    const last = samples[samples.length - 1];
    if (!last || now - last.at >= 900 || hub.stats.bytes < last.bytes) {
      if (last && hub.stats.bytes < last.bytes) samples.length = 0; // counters restarted
      samples.push({ at: now, bytes: hub.stats.bytes, units: hub.stats.units });
    }
    while (samples.length > 2 && now - samples[1].at >= this.windowMs) samples.shift();
    const first = samples[0];
    const span = (now - first.at) / 1000;
    const live = hub.state === 'live';
    const bitrateKbps = live && span > 0.5 ? Math.round(((hub.stats.bytes - first.bytes) * 8) / span / 1000) : 0;
    const unitRate = live && span > 0.5 ? (hub.stats.units - first.units) / span : 0;
    const video = hub.tracks.find((t) => t.kind === 'video');
    const audio = hub.tracks.find((t) => t.kind === 'audio');
    const totalViewers = Object.values(viewers).reduce((n, x) => n + (x ?? 0), 0);
    return {
      stream: hub.key,
      state: hub.state,
      reason: hub.reason,
      subscribers: hub.viewers,
      viewers,
      totalViewers,
      bitrateKbps,
      fps: Math.round(frameRate(hub.tracks, unitRate) * 100) / 100,
      width: video?.kind === 'video' ? video.width : 0,
      height: video?.kind === 'video' ? video.height : 0,
      videoCodec: video?.codec ?? '',
      audioCodec: audio?.codec ?? '',
      tracks: hub.tracks.map(trackStatus),
      uptime: live && hub.stats.startedAt ? Math.floor((now - hub.stats.startedAt) / 1000) : 0,
      restarts: hub.stats.restarts,
      lastUnitAgo: hub.stats.lastUnitAt ? now - hub.stats.lastUnitAt : -1,
    };
  }
}

function trackStatus(t: Track): TrackStatus {
  return t.kind === 'video'
    ? { kind: 'video', codec: t.codec, codecString: t.codecString, width: t.width, height: t.height }
    : { kind: 'audio', codec: t.codec, codecString: t.codecString, sampleRate: t.sampleRate, channels: t.channels };
}

/**
 * Video frames per second. The hub counts units of every track, so with video alone the measured
 * unit rate is the frame rate; with audio too, the SPS/VPS timing info when present, else the unit
 * rate less the audio's expected packet rate (AAC: rate/1024; G.711: 50 packets/s).
 */
export function frameRate(tracks: readonly Track[], unitRate: number): number {
  const video = tracks.find((t) => t.kind === 'video');
  if (!video || video.kind !== 'video') return 0;
  const audios = tracks.filter((t) => t.kind === 'audio');
  if (!audios.length) return unitRate;
  try {
    const declared =
      video.codec === 'h264'
        ? parseH264Sps(video.sps).frameRate
        : video.vps
          ? parseH265Vps(video.vps).frameRate
          : undefined;
    if (declared && declared > 0 && declared <= 240) return declared;
  } catch {
    /* no timing info */
  }
  let audioRate = 0;
  for (const a of audios) if (a.kind === 'audio') audioRate += a.codec === 'aac' ? a.sampleRate / 1024 : 50;
  return Math.max(0, unitRate - audioRate);
}
