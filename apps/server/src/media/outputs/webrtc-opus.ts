/**
 * AAC → Opus for WebRTC viewers (browsers' WebRTC has no AAC): one ffmpeg per stream however many
 * WebRTC viewers it has, started with the first and stopped after the last. The hub's AAC frames go
 * to ffmpeg's stdin as ADTS; ffmpeg sends Opus (48 kHz, 20 ms frames, low-delay mode) as RTP to a UDP
 * socket of ours on loopback, whose payloads are handed to every listener (each viewer's WebRTC
 * output re-sends them in its own SRTP session) with ffmpeg's timestamps moved onto the hub's clock
 * (webrtc-opus-timeline.ts: a camera's outage is a jump, as in the video's). Datagrams from anything but
 * loopback, or that do not parse as RTP, are ignored. ffmpeg runs under the Supervisor (restart with
 * back-off, SIGTERM then SIGKILL on stop).
 */
import dgram from 'node:dgram';
import { parseAudioSpecificConfig, type AccessUnit, type AudioTrack, type Track } from '@opencvr/codec';
import { parseRtp } from '@opencvr/rtp';
import type { StreamHub, Subscriber } from '../hub.js';
import { Supervisor, type SupervisedRun } from '../ffmpeg/supervisor.js';
import { OpusTimeline } from './webrtc-opus-timeline.js';

/** ADTS sampling_frequency_index values (ISO 14496-3 table 1.18). */
const RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/** What an ADTS header says of the track: object type, sampling_frequency_index and channel configuration. */
function adtsFields(track: Pick<AudioTrack, 'config' | 'sampleRate' | 'channels'>): { objectType: number; rateIndex: number; channels: number } {
  let objectType = 2;
  let rateIndex = RATES.indexOf(track.sampleRate);
  let channels = track.channels;
  try {
    const asc = parseAudioSpecificConfig(track.config);
    // ADTS carries profile = object type - 1 (2 bits): only the first four object types fit.
    if (asc.objectType >= 1 && asc.objectType <= 4) objectType = asc.objectType;
    const i = RATES.indexOf(asc.sampleRate);
    if (i >= 0) rateIndex = i;
    if (asc.channels >= 1 && asc.channels <= 7) channels = asc.channels;
  } catch {
    /* the track's own fields */
  }
  if (rateIndex < 0) rateIndex = 4; // 44.1 kHz: better than nothing for an odd rate
  return { objectType, rateIndex, channels };
}

/** Seconds of audio in one AAC frame as ffmpeg reads it (1024 samples at the ADTS header's rate). */
export function adtsFrameSeconds(track: Pick<AudioTrack, 'config' | 'sampleRate' | 'channels'>): number {
  return 1024 / RATES[adtsFields(track).rateIndex];
}

/** The 7-byte ADTS header (no CRC) of one raw AAC frame of `payloadLength` bytes. */
export function adtsHeader(track: Pick<AudioTrack, 'config' | 'sampleRate' | 'channels'>, payloadLength: number): Uint8Array {
  const { objectType, rateIndex, channels } = adtsFields(track);
  const len = payloadLength + 7;
  return Uint8Array.from([
    0xff,
    0xf1, // MPEG-4, layer 0, no CRC
    ((objectType - 1) << 6) | (rateIndex << 2) | ((channels >> 2) & 1),
    ((channels & 3) << 6) | ((len >> 11) & 3),
    (len >> 3) & 0xff,
    ((len & 7) << 5) | 0x1f,
    0xfc,
  ]);
}

/** ffmpeg's arguments: ADTS AAC on stdin → Opus RTP to 127.0.0.1:port. */
export function opusArgs(port: number, bitrateKbps = 48): string[] {
  return [
    '-hide_banner', '-nostats', '-loglevel', 'error',
    '-fflags', '+nobuffer', '-flags', 'low_delay', '-probesize', '32', '-analyzeduration', '0',
    '-f', 'aac', '-i', 'pipe:0',
    '-vn', '-c:a', 'libopus', '-b:a', `${bitrateKbps}k`, '-ar', '48000', '-ac', '2', '-application', 'lowdelay', '-frame_duration', '20',
    '-f', 'rtp', '-payload_type', '111', `rtp://127.0.0.1:${port}?pkt_size=1200`,
  ];
}

export type OpusListener = (payload: Buffer, timestamp: number) => void;

/** The Opus transcoder of one hub. */
export class OpusTranscoder implements Subscriber {
  private listeners = new Set<OpusListener>();
  private socket?: dgram.Socket;
  private supervisor?: Supervisor;
  private run?: SupervisedRun;
  private unsubscribe?: () => void;
  private aac = -1;
  private track?: AudioTrack;
  /** Seconds in one of the track's AAC frames. */
  private frameSeconds = 0;
  /** ffmpeg's Opus timestamps moved onto the hub's clock (holes included). */
  private readonly timeline = new OpusTimeline();
  readonly stats = { framesIn: 0, packetsOut: 0, dropped: 0 };

  constructor(
    private readonly hub: StreamHub,
    private readonly opts: { ffmpeg?: string; onIdle?: () => void; onExit?: (reason: string) => void } = {},
  ) {}

  /** Adds a viewer; the first one starts ffmpeg. Returns its removal (the last one stops ffmpeg). */
  add(listener: OpusListener): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.start();
    return () => {
      if (!this.listeners.delete(listener) || this.listeners.size) return;
      this.stop();
      this.opts.onIdle?.();
    };
  }

  tracks(tracks: Track[]) {
    this.aac = tracks.findIndex((t) => t.kind === 'audio' && t.codec === 'aac');
    this.track = this.aac >= 0 ? (tracks[this.aac] as AudioTrack) : undefined;
    if (this.track) this.frameSeconds = adtsFrameSeconds(this.track);
  }

  unit(track: number, unit: AccessUnit) {
    if (track !== this.aac || unit.kind !== 'audio' || !this.track || !this.run) return;
    this.stats.framesIn++;
    const frame = new Uint8Array(7 + unit.data.length);
    frame.set(adtsHeader(this.track, unit.data.length));
    frame.set(unit.data, 7);
    if (this.run.write(frame)) this.timeline.input(unit.pts / this.track.clockRate, this.frameSeconds);
    else this.stats.dropped++;
  }

  private start() {
    const socket = dgram.createSocket('udp4');
    this.socket = socket;
    socket.on('message', (msg, from) => {
      if (from.address !== '127.0.0.1') return;
      let rtp;
      try {
        rtp = parseRtp(msg);
      } catch {
        return;
      }
      const timestamp = this.timeline.output(rtp.ssrc, rtp.timestamp);
      if (timestamp === undefined) return;
      this.stats.packetsOut++;
      const payload = Buffer.from(rtp.payload.buffer, rtp.payload.byteOffset, rtp.payload.byteLength);
      for (const l of this.listeners) l(payload, timestamp);
    });
    socket.on('error', () => undefined);
    socket.bind(0, '127.0.0.1', () => {
      if (this.socket !== socket) return;
      const { port } = socket.address();
      this.supervisor = new Supervisor({
        bin: this.opts.ffmpeg,
        args: opusArgs(port),
        onStart: (run) => {
          this.timeline.run();
          this.run = run;
        },
        onExit: (reason) => {
          this.run = undefined;
          this.opts.onExit?.(reason);
        },
      });
      this.supervisor.start();
      this.unsubscribe = this.hub.subscribe(this);
    });
  }

  private stop() {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    void this.supervisor?.stop();
    this.supervisor = undefined;
    this.run = undefined;
    try {
      this.socket?.close();
    } catch {
      /* closed */
    }
    this.socket = undefined;
  }
}
