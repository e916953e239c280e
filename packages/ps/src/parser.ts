/**
 * The packet layer of a Program Stream (ISO/IEC 13818-1 2.5.3): bytes in any chunking (RTP payloads,
 * TCP reads, a file) → pack headers, system headers, program stream maps and PES packets, told to a
 * handler as they complete. PES payload is handed on as views of the input as it arrives, so a PES
 * that spans many RTP packets is never copied here.
 *
 * Never throws on input and always consumes it: a header that does not parse is skipped past its
 * start code and the scan goes on to the next one (resynchronisation); `lost()` drops the packet in
 * progress after a gap in the transport. Only headers are buffered (at most MAX_HEADER bytes).
 */
import { isAudioStreamId, isVideoStreamId, StartCode } from './constants.js';

export interface PsmEntry {
  streamType: number;
  streamId: number;
}

export interface PsPacketHandler {
  /** A pack header: system clock reference (90 kHz base) and program_mux_rate (50 bytes/s units). */
  pack?(scr: number, muxRate: number): void;
  systemHeader?(): void;
  /** A program stream map: the stream type of each elementary stream. */
  streamMap?(entries: PsmEntry[]): void;
  /** An audio or video PES header; its payload follows in pesData calls, then pesEnd. */
  pesStart(streamId: number, pts: number | undefined, dts: number | undefined): void;
  pesData(streamId: number, data: Uint8Array): void;
  /** `complete` is false when the packet was cut short by `lost()`. */
  pesEnd(streamId: number, complete: boolean): void;
}

export interface PsParserStats {
  bytes: number;
  packs: number;
  systemHeaders: number;
  streamMaps: number;
  pes: number;
  /** PES of other streams (private, padding, ECM, ...) skipped. */
  skipped: number;
  /** Headers that did not parse and bytes skipped while looking for a start code. */
  badHeaders: number;
  resyncBytes: number;
}

/** The largest header buffered while waiting for its end (a PSM or system header is at most 6 + 65535 bytes). */
const MAX_HEADER = 6 + 0xffff;

type Mode = 'scan' | 'payload' | 'skip' | 'unbounded';

type HeaderResult = number | 'more' | 'bad';

export class PsParser {
  readonly stats: PsParserStats = {
    bytes: 0,
    packs: 0,
    systemHeaders: 0,
    streamMaps: 0,
    pes: 0,
    skipped: 0,
    badHeaders: 0,
    resyncBytes: 0,
  };
  private carry: Uint8Array | undefined;
  private mode: Mode = 'scan';
  private remaining = 0;
  private streamId = 0;

  constructor(private readonly handler: PsPacketHandler) {}

  /** True between packets (no PES payload or header pending). */
  get atBoundary(): boolean {
    return this.mode === 'scan' && !this.carry;
  }

  /**
   * Bytes of the stream, in order. The views handed to pesData point into `chunk`: the caller must
   * not change a chunk after pushing it.
   */
  push(chunk: Uint8Array): void {
    this.stats.bytes += chunk.length;
    let buf = chunk;
    if (this.carry) {
      buf = new Uint8Array(this.carry.length + chunk.length);
      buf.set(this.carry);
      buf.set(chunk, this.carry.length);
      this.carry = undefined;
    }
    let at = 0;
    const n = buf.length;
    while (at < n) {
      if (this.mode === 'payload' || this.mode === 'skip') {
        const take = Math.min(this.remaining, n - at);
        if (this.mode === 'payload' && take > 0) this.handler.pesData(this.streamId, buf.subarray(at, at + take));
        at += take;
        this.remaining -= take;
        if (this.remaining === 0) this.endPacket(true);
        continue;
      }
      if (this.mode === 'unbounded') {
        const next = findStartCode(buf, at);
        if (next < 0) {
          // Keep the last bytes back: they may be the start of the next start code.
          const keep = Math.max(at, n - 3);
          if (keep > at) this.handler.pesData(this.streamId, buf.subarray(at, keep));
          if (keep < n) this.carry = buf.slice(keep);
          return;
        }
        if (next > at) this.handler.pesData(this.streamId, buf.subarray(at, next));
        this.endPacket(true);
        at = next;
        continue;
      }
      const k = findStartCode(buf, at);
      if (k < 0) {
        // Up to three trailing bytes may be the beginning of a start code.
        let keep = n;
        for (let i = Math.max(at, n - 3); i < n; i++) {
          if (buf[i] === 0 && (i + 1 >= n || buf[i + 1] === 0) && (i + 2 >= n || buf[i + 2] === 1)) {
            keep = i;
            break;
          }
        }
        this.stats.resyncBytes += keep - at;
        if (keep < n) this.carry = buf.slice(keep);
        return;
      }
      this.stats.resyncBytes += k - at;
      const r = this.header(buf, k);
      if (r === 'more') {
        if (n - k > MAX_HEADER) {
          this.stats.badHeaders++;
          at = k + 3;
          continue;
        }
        this.carry = buf.slice(k);
        return;
      }
      if (r === 'bad') {
        this.stats.badHeaders++;
        at = k + 3;
        continue;
      }
      at = k + r;
    }
  }

  /**
   * A gap in the transport (lost RTP packets): the packet in progress is cut short and the parser
   * looks for the next start code.
   */
  lost(): void {
    this.carry = undefined;
    if (this.mode === 'payload' || this.mode === 'unbounded') this.endPacket(false);
    this.mode = 'scan';
    this.remaining = 0;
  }

  private endPacket(complete: boolean) {
    if (this.mode === 'payload' || this.mode === 'unbounded') this.handler.pesEnd(this.streamId, complete);
    this.mode = 'scan';
  }

  /** Parses the header at `k` (a start code with an id ≥ 0xB9): bytes consumed, or more needed, or not a header. */
  private header(b: Uint8Array, k: number): HeaderResult {
    const id = b[k + 3];
    const avail = b.length - k;
    if (id === StartCode.programEnd) return 4;
    if (id === StartCode.pack) return this.pack(b, k, avail);
    if (avail < 6) return 'more';
    const length = (b[k + 4] << 8) | b[k + 5];
    if (id === StartCode.systemHeader || id === StartCode.streamMap) {
      if (avail < 6 + length) return 'more';
      if (id === StartCode.systemHeader) {
        if (length < 6) return 'bad';
        this.stats.systemHeaders++;
        this.handler.systemHeader?.();
      } else {
        const entries = parseStreamMap(b.subarray(k, k + 6 + length));
        if (!entries) return 'bad';
        this.stats.streamMaps++;
        this.handler.streamMap?.(entries);
      }
      return 6 + length;
    }
    if (isAudioStreamId(id) || isVideoStreamId(id)) return this.pes(b, k, avail, id, length);
    // Private streams, padding, ECM/EMM, directory...: skipped by their length.
    this.stats.skipped++;
    this.mode = 'skip';
    this.remaining = length;
    return 6;
  }

  private pack(b: Uint8Array, k: number, avail: number): HeaderResult {
    if (avail < 5) return 'more';
    const b4 = b[k + 4];
    if ((b4 & 0xc0) === 0x40) {
      // MPEG-2 pack header: 14 bytes, then up to 7 stuffing bytes.
      if (avail < 14) return 'more';
      if (!(b4 & 0x04) || !(b[k + 6] & 0x04) || !(b[k + 8] & 0x04) || !(b[k + 9] & 0x01) || (b[k + 12] & 0x03) !== 0x03)
        return 'bad';
      const total = 14 + (b[k + 13] & 0x07);
      if (avail < total) return 'more';
      const scr =
        ((b4 >> 3) & 0x07) * 2 ** 30 +
        (((b4 & 0x03) << 13) | (b[k + 5] << 5) | (b[k + 6] >> 3)) * 2 ** 15 +
        (((b[k + 6] & 0x03) << 13) | (b[k + 7] << 5) | (b[k + 8] >> 3));
      const muxRate = (b[k + 10] << 14) | (b[k + 11] << 6) | (b[k + 12] >> 2);
      this.stats.packs++;
      this.handler.pack?.(scr, muxRate);
      return total;
    }
    if ((b4 & 0xf0) === 0x20) {
      // MPEG-1 pack header: 12 bytes.
      if (avail < 12) return 'more';
      const scr = readTimestamp(b, k + 4);
      this.stats.packs++;
      this.handler.pack?.(scr ?? 0, ((b[k + 9] & 0x7f) << 15) | (b[k + 10] << 7) | (b[k + 11] >> 1));
      return 12;
    }
    return 'bad';
  }

  private pes(b: Uint8Array, k: number, avail: number, id: number, length: number): HeaderResult {
    if (avail < 9) return 'more';
    let pts: number | undefined;
    let dts: number | undefined;
    let headerLength: number;
    if ((b[k + 6] & 0xc0) === 0x80) {
      // MPEG-2 PES header.
      const hdl = b[k + 8];
      headerLength = 9 + hdl;
      if (length !== 0 && 3 + hdl > length) return 'bad';
      if (avail < headerLength) return 'more';
      const flags = b[k + 7] >> 6;
      if (flags === 1) return 'bad';
      if (flags >= 2) {
        if (hdl < (flags === 3 ? 10 : 5)) return 'bad';
        pts = readTimestamp(b, k + 9);
        if (flags === 3) dts = readTimestamp(b, k + 14);
      }
    } else {
      // MPEG-1 PES header: stuffing, optional STD buffer size, then the timestamps.
      let at = k + 6;
      const end = k + Math.min(avail, 6 + (length || 0xffff));
      let stuffing = 0;
      while (at < end && b[at] === 0xff) {
        at++;
        if (++stuffing > 16) return 'bad';
      }
      if (at >= end) return length && at - k >= 6 + length ? 'bad' : 'more';
      if ((b[at] & 0xc0) === 0x40) at += 2;
      if (at >= k + avail) return 'more';
      const t = b[at] & 0xf0;
      if (t === 0x20) {
        if (k + avail < at + 5) return 'more';
        pts = readTimestamp(b, at);
        at += 5;
      } else if (t === 0x30) {
        if (k + avail < at + 10) return 'more';
        pts = readTimestamp(b, at);
        dts = readTimestamp(b, at + 5);
        at += 10;
      } else if (b[at] === 0x0f) at += 1;
      else return 'bad';
      headerLength = at - k;
      if (length !== 0 && headerLength > 6 + length) return 'bad';
    }
    if (length === 0 && !isVideoStreamId(id)) return 'bad';
    this.stats.pes++;
    this.streamId = id;
    this.handler.pesStart(id, pts, dts);
    if (length === 0) {
      // Unbounded video PES (allowed in transport streams, sent by a few devices in PS): it ends at the
      // next start code ≥ 0xB9, which Annex-B video never contains (its NAL headers are < 0x80).
      this.mode = 'unbounded';
      return headerLength;
    }
    this.remaining = 6 + length - headerLength;
    this.mode = 'payload';
    if (this.remaining === 0) this.endPacket(true);
    return headerLength;
  }
}

/** The next 00 00 01 xx with xx ≥ 0xB9 (a system start code) at or after `from`, or -1. */
export function findStartCode(b: Uint8Array, from: number): number {
  const n = b.length - 3;
  let i = from;
  while (i < n) {
    const c = b[i + 2];
    if (c > 1) {
      i += 3;
      continue;
    }
    if (c === 1 && b[i] === 0 && b[i + 1] === 0 && b[i + 3] >= 0xb9) return i;
    i++;
  }
  return -1;
}

/** A 33-bit timestamp in the 5-byte PTS/DTS/SCR (MPEG-1) layout. Marker bits are not enforced: some devices get them wrong. */
function readTimestamp(b: Uint8Array, at: number): number {
  return (
    ((b[at] >> 1) & 0x07) * 2 ** 30 +
    ((b[at + 1] << 7) | (b[at + 2] >> 1)) * 2 ** 15 +
    ((b[at + 3] << 7) | (b[at + 4] >> 1))
  );
}

/** The entries of a PSM packet (start code included), or undefined when its lengths do not fit. */
export function parseStreamMap(p: Uint8Array): PsmEntry[] | undefined {
  if (p.length < 16) return undefined;
  const infoLength = (p[8] << 8) | p[9];
  let at = 10 + infoLength;
  if (at + 2 > p.length) return undefined;
  const mapLength = (p[at] << 8) | p[at + 1];
  at += 2;
  // The map ends before the CRC; some devices miscount it, so stop at the packet's end instead of failing.
  const end = Math.min(at + mapLength, p.length - 4);
  const entries: PsmEntry[] = [];
  while (at + 4 <= end) {
    const esInfo = (p[at + 2] << 8) | p[at + 3];
    entries.push({ streamType: p[at], streamId: p[at + 1] });
    at += 4 + esInfo;
  }
  return entries;
}
