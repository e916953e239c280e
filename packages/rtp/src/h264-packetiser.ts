/**
 * RFC 6184 H.264 packetiser, non-interleaved mode (packetization-mode=1): the NAL units of one access
 * unit become single-NAL packets, STAP-A aggregates of small units (parameter sets with their
 * picture), or FU-A fragments of a unit larger than the payload size. The last packet of the access
 * unit carries the marker bit; every packet of it carries the same timestamp.
 *
 * The inverse of H264Depacketiser (round-trip tests in test/h264-packetiser.test.ts).
 */
import { RtpError } from './errors.js';
import { serializeRtp } from './packet.js';

export interface H264PacketiserOptions {
  /** Largest RTP payload in bytes (default 1200: fits the usual 1500-byte path with SRTP, ICE and UDP/IP headers). */
  maxPayload?: number;
  payloadType?: number;
  ssrc?: number;
  /** First sequence number (default random, as RFC 3550 asks). */
  sequenceNumber?: number;
  /** Aggregate small NAL units into STAP-A packets (default on). */
  aggregate?: boolean;
}

export interface PacketisedRtp {
  marker: boolean;
  sequenceNumber: number;
  timestamp: number;
  payload: Uint8Array;
}

const FU_A = 28;
const STAP_A = 24;

/** The RTP payloads of one access unit (no headers): marker on the last one. */
export function h264Payloads(nalus: readonly Uint8Array[], maxPayload = 1200, aggregate = true): Uint8Array[] {
  if (maxPayload < 3) throw new RtpError('bad-packet', `h264 packetiser: payload size ${maxPayload} is too small`);
  const out: Uint8Array[] = [];
  let agg: Uint8Array[] = [];
  let aggSize = 1;
  const flush = () => {
    if (agg.length === 1) out.push(agg[0]);
    else if (agg.length > 1) {
      const p = new Uint8Array(aggSize);
      // F is the OR of the units' F bits; NRI the highest of theirs (RFC 6184 5.7.1).
      let f = 0;
      let nri = 0;
      for (const n of agg) {
        f |= n[0] & 0x80;
        nri = Math.max(nri, n[0] & 0x60);
      }
      p[0] = f | nri | STAP_A;
      let at = 1;
      for (const n of agg) {
        p[at] = n.length >> 8;
        p[at + 1] = n.length & 0xff;
        p.set(n, at + 2);
        at += 2 + n.length;
      }
      out.push(p);
    }
    agg = [];
    aggSize = 1;
  };
  for (const nal of nalus) {
    if (nal.length === 0) continue;
    if (nal.length <= maxPayload) {
      if (aggregate && nal.length <= 0xffff && aggSize + 2 + nal.length <= maxPayload) {
        agg.push(nal);
        aggSize += 2 + nal.length;
        continue;
      }
      flush();
      if (aggregate && 1 + 2 + nal.length <= maxPayload) {
        agg.push(nal);
        aggSize += 2 + nal.length;
      } else out.push(nal);
      continue;
    }
    flush();
    // FU-A: indicator (F, NRI, type 28), header (S, E, R=0, original type), then the unit's body.
    const indicator = (nal[0] & 0xe0) | FU_A;
    const type = nal[0] & 0x1f;
    const room = maxPayload - 2;
    for (let at = 1; at < nal.length; at += room) {
      const end = Math.min(nal.length, at + room);
      const p = new Uint8Array(2 + end - at);
      p[0] = indicator;
      p[1] = (at === 1 ? 0x80 : 0) | (end === nal.length ? 0x40 : 0) | type;
      p.set(nal.subarray(at, end), 2);
      out.push(p);
    }
  }
  flush();
  return out;
}

/** Keeps the sequence numbers of one RTP stream and turns access units into packets. */
export class H264Packetiser {
  private seq: number;
  readonly maxPayload: number;
  readonly payloadType: number;
  readonly ssrc: number;
  private readonly aggregate: boolean;
  readonly stats = { packets: 0, units: 0, bytes: 0 };

  constructor(opts: H264PacketiserOptions = {}) {
    this.maxPayload = opts.maxPayload ?? 1200;
    this.payloadType = opts.payloadType ?? 96;
    this.ssrc = (opts.ssrc ?? Math.floor(Math.random() * 0xffffffff)) >>> 0;
    this.seq = (opts.sequenceNumber ?? Math.floor(Math.random() * 0x10000)) & 0xffff;
    this.aggregate = opts.aggregate ?? true;
  }

  /** The packets of one access unit; `timestamp` is its 90 kHz time (taken modulo 2^32). */
  packets(nalus: readonly Uint8Array[], timestamp: number): PacketisedRtp[] {
    const payloads = h264Payloads(nalus, this.maxPayload, this.aggregate);
    const ts = Number(BigInt.asUintN(32, BigInt(Math.round(timestamp))));
    this.stats.units++;
    return payloads.map((payload, i) => {
      this.stats.packets++;
      this.stats.bytes += payload.length;
      const p = { marker: i === payloads.length - 1, sequenceNumber: this.seq, timestamp: ts, payload };
      this.seq = (this.seq + 1) & 0xffff;
      return p;
    });
  }

  /** The same, serialised as RTP packets. */
  serialize(nalus: readonly Uint8Array[], timestamp: number): Uint8Array[] {
    return this.packets(nalus, timestamp).map((p) =>
      serializeRtp({ ...p, payloadType: this.payloadType, ssrc: this.ssrc, csrc: [], padding: 0 }),
    );
  }
}
