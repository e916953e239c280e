/**
 * The WebRTC output's video path, cut to what each viewer must do alone.
 *
 * Once per access unit, for every viewer of the stream: the H.264 RTP payloads (RFC 6184 FU-A /
 * STAP-A, parameter sets before a keyframe's first slice), cached on the unit object, so the second
 * and later viewers of a unit reuse the first one's buffers.
 *
 * Per viewer: an RTP header (its SSRC, sequence numbers, timestamp offset), SRTP encryption and the
 * UDP send: straight to the nominated pair's socket with werift's keys where the pair is plain UDP
 * and the profile AES-GCM or AES-CM (webrtc-srtp-direct.ts), else werift's
 * RTCDtlsTransport.sendRtp. werift's RTCRtpSender.sendRtp is not used for video: per packet it
 * re-parsed extensions, took an NTP time, fed a bandwidth estimator and chained four awaits, about
 * half the cost of a packet next to the encryption. What it did that a browser needs is done here: a
 * sender report every second (RFC 3550 6.4.1; the NTP/RTP pair of the last unit sent, for lip sync
 * with the audio) and retransmission of packets a NACK asks for (RFC 4585 generic NACK), from a
 * history of the last HISTORY packets.
 */
import crypto from 'node:crypto';
import { RtcpSenderInfo, RtcpSrPacket, RtpHeader, type RTCDtlsTransport, type RTCRtpSender } from 'werift';
import { h264NalType, type VideoAccessUnit } from '@opencvr/codec';
import { h264Payloads } from '@opencvr/rtp';
import { directSrtp, type DirectSrtp } from './webrtc-srtp-direct.js';

/** Largest RTP payload: fits a 1500-byte path with SRTP, ICE and UDP/IP headers. */
export const MAX_PAYLOAD = 1200;
/** Packets kept for NACKs: more than a 1080p keyframe (about 300 packets at 4 Mbit/s). */
const HISTORY = 1024;
const SR_INTERVAL_MS = 1000;

export interface ParameterSets {
  sps: Uint8Array;
  pps: Uint8Array;
}

interface Packed {
  sps?: Uint8Array;
  pps?: Uint8Array;
  payloads: Buffer[];
}
const packed = new WeakMap<VideoAccessUnit, Packed>();

/**
 * The RTP payloads of a video unit, the parameter sets put before a keyframe's first slice when it
 * has none in band. Made once per unit and parameter sets (the hub hands the same unit object to
 * every viewer; their parameter sets are the track's or the last in-band ones, the same objects).
 */
export function videoPayloads(unit: VideoAccessUnit, params: ParameterSets | undefined): Buffer[] {
  const hit = packed.get(unit);
  if (hit && hit.sps === params?.sps && hit.pps === params?.pps) return hit.payloads;
  let nalus = unit.nalus;
  if (unit.keyframe && params) {
    const types = nalus.map(h264NalType);
    if (!(types.includes(7) && types.includes(8))) {
      // After an AUD or SEI if there is one.
      const at = Math.max(0, types.findIndex((t) => t >= 1 && t <= 5));
      nalus = [...nalus.slice(0, at), params.sps, params.pps, ...nalus.slice(at)];
    }
  }
  // A payload that is a whole NAL unit is a view of the unit's bytes, which the hub lends only until
  // the next keyframe: copied, as it lives on in the send queue and the retransmission history.
  const payloads = h264Payloads(nalus, MAX_PAYLOAD).map((p) =>
    p.byteOffset === 0 && p.byteLength === p.buffer.byteLength ? Buffer.from(p.buffer, 0, p.byteLength) : Buffer.from(p),
  );
  packed.set(unit, { sps: params?.sps, pps: params?.pps, payloads });
  return payloads;
}

/** The in-band parameter sets of a unit, when it has both (views of the unit's bytes: copy to keep them). */
export function inBandParameterSets(unit: VideoAccessUnit): ParameterSets | undefined {
  let sps: Uint8Array | undefined;
  let pps: Uint8Array | undefined;
  for (const n of unit.nalus) {
    const t = h264NalType(n);
    if (t === 7) sps ??= n;
    else if (t === 8) pps ??= n;
  }
  return sps && pps ? { sps, pps } : undefined;
}

/** 90 kHz time as a 32-bit RTP timestamp. */
export const rtpTime = (t: number) => ((Math.round(t) % 0x1_0000_0000) + 0x1_0000_0000) % 0x1_0000_0000;

const NTP_EPOCH_OFFSET_S = 2_208_988_800;
/** Wall-clock time as a 64-bit NTP timestamp (RFC 5905: seconds since 1900, 32-bit fraction). */
export function ntpNow(ms = Date.now()): bigint {
  const s = Math.floor(ms / 1000);
  const frac = Math.floor(((ms - s * 1000) / 1000) * 0x1_0000_0000);
  return (BigInt(s + NTP_EPOCH_OFFSET_S) << 32n) | BigInt(frac);
}

/** What the stream needs of a werift sender: its SSRC and codec, and its NACKs. */
export type VideoSenderLike = Pick<RTCRtpSender, 'ssrc' | 'codec' | 'onGenericNack'>;
/** What the stream needs of werift's DTLS transport. */
export type SrtpTransportLike = Pick<RTCDtlsTransport, 'sendRtp' | 'sendRtcp'> & { srtpStarted?: boolean };

/** One viewer's video RTP stream over its DTLS-SRTP transport. */
export class SrtpVideoStream {
  private seq = crypto.randomInt(0, 0x10000);
  private readonly tsOffset = crypto.randomInt(0, 0x1_0000_0000);
  // The history holds numbers and the shared payload buffers, not per-viewer header objects: those
  // would outlive the young generation and make every viewer's garbage old-generation garbage.
  private readonly historyPayload: (Buffer | undefined)[] = new Array(HISTORY);
  private readonly historySeq = new Int32Array(HISTORY).fill(-1);
  private readonly historyTimestamp = new Uint32Array(HISTORY);
  private readonly historyMarker = new Uint8Array(HISTORY);
  private packetCount = 0;
  private octetCount = 0;
  private last?: { ntp: bigint; rtp: number };
  private readonly srTimer: NodeJS.Timeout;
  /** The direct path; unset: werift's (not started, another profile, TURN or TCP, or the pair changed). */
  private direct?: DirectSrtp;
  private readonly unsubscribeNack: () => void;
  readonly stats = { packets: 0, direct: 0, retransmitted: 0, reports: 0 };

  constructor(
    private readonly transport: SrtpTransportLike,
    private readonly sender: VideoSenderLike,
  ) {
    this.unsubscribeNack = sender.onGenericNack.subscribe((nack) => this.resend(nack.lost)).unSubscribe;
    this.srTimer = setInterval(() => this.report(), SR_INTERVAL_MS);
    this.srTimer.unref();
  }

  /**
   * Sends one unit's payloads (marker on the last); `time90k` is its presentation time. Resolves
   * once the last packet is handed to the socket.
   */
  sendUnit(payloads: readonly Buffer[], time90k: number): Promise<unknown> {
    const timestamp = (rtpTime(time90k) + this.tsOffset) % 0x1_0000_0000;
    const payloadType = this.sender.codec?.payloadType ?? 96;
    const { ssrc } = this.sender;
    let sent: Promise<unknown> = Promise.resolve();
    // The direct path (webrtc-srtp-direct.ts) once SRTP runs on a plain UDP pair; werift's otherwise
    // (looked for again each unit: a cheap check, and the pair may change).
    if (!this.direct && this.transport.srtpStarted) this.direct = directSrtp(this.transport, ssrc, payloadType);
    for (let i = 0; i < payloads.length; i++) {
      const payload = payloads[i];
      const marker = i === payloads.length - 1;
      const h = this.seq % HISTORY;
      this.historyPayload[h] = payload;
      this.historySeq[h] = this.seq;
      this.historyTimestamp[h] = timestamp;
      this.historyMarker[h] = marker ? 1 : 0;
      if (this.direct?.send(this.seq, timestamp, marker, payload)) this.stats.direct++;
      else {
        this.direct = undefined;
        sent = this.transport.sendRtp(payload, new RtpHeader({ payloadType, sequenceNumber: this.seq, timestamp, ssrc, marker }));
      }
      this.seq = (this.seq + 1) & 0xffff;
      this.packetCount = (this.packetCount + 1) >>> 0;
      this.octetCount = (this.octetCount + payload.length) >>> 0;
    }
    this.stats.packets += payloads.length;
    this.last = { ntp: ntpNow(), rtp: timestamp };
    return sent;
  }

  private resend(lost: readonly number[]) {
    const payloadType = this.sender.codec?.payloadType ?? 96;
    for (const seq of lost) {
      const h = seq % HISTORY;
      const payload = this.historyPayload[h];
      if (!payload || this.historySeq[h] !== seq) continue;
      const header = new RtpHeader({ payloadType, sequenceNumber: seq, timestamp: this.historyTimestamp[h], ssrc: this.sender.ssrc, marker: this.historyMarker[h] === 1 });
      this.stats.retransmitted++;
      void this.transport.sendRtp(payload, header).catch(() => undefined);
    }
  }

  private report() {
    if (!this.last) return;
    const senderInfo = new RtcpSenderInfo({ ntpTimestamp: this.last.ntp, rtpTimestamp: this.last.rtp, packetCount: this.packetCount, octetCount: this.octetCount });
    this.stats.reports++;
    void this.transport.sendRtcp([new RtcpSrPacket({ ssrc: this.sender.ssrc, senderInfo })]).catch(() => undefined);
  }

  close() {
    clearInterval(this.srTimer);
    this.unsubscribeNack();
  }
}
