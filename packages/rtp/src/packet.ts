/**
 * RTP packets (RFC 3550 5.1) and the RTCP sender report (6.4.1), parsed with every length checked
 * against the bytes present: a malformed packet is an RtpError, never a read out of range.
 */
import { RtpError } from './errors.js';

export interface RtpPacket {
  marker: boolean;
  payloadType: number;
  sequenceNumber: number;
  timestamp: number;
  ssrc: number;
  csrc: readonly number[];
  /** Header extension (X bit): its profile-defined 16 bits and data (a view). */
  extension?: { profile: number; data: Uint8Array };
  /** Padding bytes that followed the payload (0 without the P bit). */
  padding: number;
  /** A view into the packet's bytes, without padding. */
  payload: Uint8Array;
}

/** The CSRC list of packets without one (frozen: shared by every such packet). */
const NO_CSRC: readonly number[] = Object.freeze([]);

const u16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const u32 = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;

export function parseRtp(b: Uint8Array): RtpPacket {
  if (b.length < 12) throw new RtpError('truncated', `rtp: ${b.length} bytes, the header needs 12`);
  if (b[0] >> 6 !== 2) throw new RtpError('bad-version', `rtp: version ${b[0] >> 6}`);
  const hasPadding = (b[0] & 0x20) !== 0;
  const hasExtension = (b[0] & 0x10) !== 0;
  const cc = b[0] & 0x0f;
  let at = 12 + cc * 4;
  if (at > b.length) throw new RtpError('truncated', `rtp: ${cc} CSRCs do not fit`);
  // Cameras send no CSRC: one shared empty list instead of an array per packet.
  let csrc = NO_CSRC;
  if (cc) {
    const list: number[] = [];
    for (let i = 0; i < cc; i++) list.push(u32(b, 12 + i * 4));
    csrc = list;
  }
  let extension: RtpPacket['extension'];
  if (hasExtension) {
    if (at + 4 > b.length) throw new RtpError('truncated', 'rtp: extension header does not fit');
    const profile = u16(b, at);
    const words = u16(b, at + 2);
    const end = at + 4 + words * 4;
    if (end > b.length) throw new RtpError('truncated', `rtp: extension of ${words} words does not fit`);
    extension = { profile, data: b.subarray(at + 4, end) };
    at = end;
  }
  let end = b.length;
  let padding = 0;
  if (hasPadding) {
    padding = b[b.length - 1];
    if (padding === 0 || at + padding > b.length) throw new RtpError('bad-packet', `rtp: padding of ${padding} bytes`);
    end -= padding;
  }
  const packet: RtpPacket = {
    marker: (b[1] & 0x80) !== 0,
    payloadType: b[1] & 0x7f,
    sequenceNumber: u16(b, 2),
    timestamp: u32(b, 4),
    ssrc: u32(b, 8),
    csrc,
    padding,
    payload: b.subarray(at, end),
  };
  if (extension) packet.extension = extension;
  return packet;
}

/**
 * An RTP packet read in place: the header fields and where the payload lies in `bytes`, with no copy
 * and no allocation. One view is reused for every packet of a stream (readRtp overwrites it), so the
 * ingest allocates nothing per packet; `bytes` may be a reused read buffer, valid only until the
 * caller returns.
 */
export interface RtpView {
  marker: boolean;
  payloadType: number;
  sequenceNumber: number;
  timestamp: number;
  ssrc: number;
  bytes: Uint8Array;
  /** The payload is bytes[payloadStart, payloadEnd), without padding. */
  payloadStart: number;
  payloadEnd: number;
}

export const newRtpView = (): RtpView => ({
  marker: false,
  payloadType: 0,
  sequenceNumber: 0,
  timestamp: 0,
  ssrc: 0,
  bytes: new Uint8Array(0),
  payloadStart: 0,
  payloadEnd: 0,
});

/**
 * Reads the packet in b[start, end) into `into` (the same checks as parseRtp: a malformed packet is an
 * RtpError and `into` is left as it was). CSRCs and the header extension are skipped, not kept.
 */
export function readRtp(b: Uint8Array, start: number, end: number, into: RtpView): RtpView {
  const length = end - start;
  if (length < 12) throw new RtpError('truncated', `rtp: ${length} bytes, the header needs 12`);
  const b0 = b[start];
  if (b0 >> 6 !== 2) throw new RtpError('bad-version', `rtp: version ${b0 >> 6}`);
  const cc = b0 & 0x0f;
  let at = start + 12 + cc * 4;
  if (at > end) throw new RtpError('truncated', `rtp: ${cc} CSRCs do not fit`);
  if (b0 & 0x10) {
    if (at + 4 > end) throw new RtpError('truncated', 'rtp: extension header does not fit');
    const words = u16(b, at + 2);
    const extEnd = at + 4 + words * 4;
    if (extEnd > end) throw new RtpError('truncated', `rtp: extension of ${words} words does not fit`);
    at = extEnd;
  }
  let payloadEnd = end;
  if (b0 & 0x20) {
    const padding = b[end - 1];
    if (padding === 0 || at + padding > end) throw new RtpError('bad-packet', `rtp: padding of ${padding} bytes`);
    payloadEnd -= padding;
  }
  into.marker = (b[start + 1] & 0x80) !== 0;
  into.payloadType = b[start + 1] & 0x7f;
  into.sequenceNumber = u16(b, start + 2);
  into.timestamp = u32(b, start + 4);
  into.ssrc = u32(b, start + 8);
  into.bytes = b;
  into.payloadStart = at;
  into.payloadEnd = payloadEnd;
  return into;
}

/** A parsed packet as a view (for depacketisers' push(), which take both forms). */
export const viewOf = (p: RtpPacket): RtpView => ({
  marker: p.marker,
  payloadType: p.payloadType,
  sequenceNumber: p.sequenceNumber,
  timestamp: p.timestamp,
  ssrc: p.ssrc,
  bytes: p.payload,
  payloadStart: 0,
  payloadEnd: p.payload.length,
});

export function serializeRtp(p: RtpPacket): Uint8Array {
  if (p.csrc.length > 15) throw new RtpError('bad-packet', 'rtp: more than 15 CSRCs');
  if (p.payloadType < 0 || p.payloadType > 127) throw new RtpError('bad-packet', `rtp: payload type ${p.payloadType}`);
  if (p.padding < 0 || p.padding > 255) throw new RtpError('bad-packet', `rtp: padding ${p.padding}`);
  const ext = p.extension;
  if (ext && ext.data.length % 4 !== 0) throw new RtpError('bad-packet', 'rtp: extension data must be whole 32-bit words');
  if (ext && ext.data.length / 4 > 0xffff) throw new RtpError('bad-packet', 'rtp: extension too long');
  const size = 12 + p.csrc.length * 4 + (ext ? 4 + ext.data.length : 0) + p.payload.length + p.padding;
  const b = new Uint8Array(size);
  const dv = new DataView(b.buffer);
  b[0] = 0x80 | (p.padding ? 0x20 : 0) | (ext ? 0x10 : 0) | p.csrc.length;
  b[1] = (p.marker ? 0x80 : 0) | p.payloadType;
  dv.setUint16(2, p.sequenceNumber & 0xffff);
  dv.setUint32(4, p.timestamp >>> 0);
  dv.setUint32(8, p.ssrc >>> 0);
  let at = 12;
  for (const c of p.csrc) {
    dv.setUint32(at, c >>> 0);
    at += 4;
  }
  if (ext) {
    dv.setUint16(at, ext.profile);
    dv.setUint16(at + 2, ext.data.length / 4);
    b.set(ext.data, at + 4);
    at += 4 + ext.data.length;
  }
  b.set(p.payload, at);
  if (p.padding) b[size - 1] = p.padding;
  return b;
}

/** Seconds between the NTP epoch (1900) and the Unix epoch (1970). */
const NTP_UNIX_OFFSET = 2208988800;

export interface SenderReport {
  type: 'sr';
  ssrc: number;
  ntpSeconds: number;
  ntpFraction: number;
  /** The NTP time as Unix milliseconds. */
  ntpMs: number;
  rtpTimestamp: number;
  packetCount: number;
  octetCount: number;
}

export interface OtherRtcp {
  type: 'other';
  packetType: number;
  /** The whole RTCP packet (a view). */
  data: Uint8Array;
}

export type RtcpPacket = SenderReport | OtherRtcp;

/** The packets of a compound RTCP datagram; sender reports are parsed, the rest kept as bytes. */
export function parseRtcp(b: Uint8Array): RtcpPacket[] {
  const out: RtcpPacket[] = [];
  let at = 0;
  while (at < b.length) {
    if (b.length - at < 4) throw new RtpError('truncated', 'rtcp: header needs 4 bytes');
    if (b[at] >> 6 !== 2) throw new RtpError('bad-version', `rtcp: version ${b[at] >> 6}`);
    const packetType = b[at + 1];
    const size = (u16(b, at + 2) + 1) * 4;
    if (at + size > b.length) throw new RtpError('truncated', `rtcp: packet of ${size} bytes does not fit`);
    if (packetType === 200) {
      if (size < 28) throw new RtpError('truncated', 'rtcp: sender report needs 28 bytes');
      const ntpSeconds = u32(b, at + 8);
      const ntpFraction = u32(b, at + 12);
      out.push({
        type: 'sr',
        ssrc: u32(b, at + 4),
        ntpSeconds,
        ntpFraction,
        ntpMs: (ntpSeconds - NTP_UNIX_OFFSET) * 1000 + (ntpFraction / 2 ** 32) * 1000,
        rtpTimestamp: u32(b, at + 16),
        packetCount: u32(b, at + 20),
        octetCount: u32(b, at + 24),
      });
    } else {
      out.push({ type: 'other', packetType, data: b.subarray(at, at + size) });
    }
    at += size;
  }
  return out;
}

/** Wall-clock (Unix ms) of an RTP timestamp, from the last sender report of the same source. */
export function rtpToWallClock(sr: SenderReport, rtpTimestamp: number, clockRate: number): number {
  const diff = (rtpTimestamp - sr.rtpTimestamp) | 0;
  return sr.ntpMs + (diff / clockRate) * 1000;
}
