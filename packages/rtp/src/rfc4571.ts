/**
 * RTP over a TCP byte stream (RFC 4571, used by GB28181 for TCP media): each packet is preceded by
 * its length as 16 bits big-endian. The reader reassembles packets across reads of any size; a
 * zero-length frame carries nothing and is skipped. Pure: bytes in, packets out.
 */
import { RtpError } from './errors.js';

export interface Rfc4571Options {
  /** Frames shorter than this are not RTP (12-byte header) and are counted, not returned. Default 12. */
  minPacket?: number;
}

export class Rfc4571Reader {
  readonly stats = { packets: 0, bytes: 0, empty: 0, short: 0 };
  private carry: Uint8Array | undefined;
  private readonly minPacket: number;

  constructor(options: Rfc4571Options = {}) {
    this.minPacket = options.minPacket ?? 12;
  }

  /** Bytes held waiting for the rest of a frame. */
  get pending(): number {
    return this.carry?.length ?? 0;
  }

  /** The packets completed by this read (views of the input or of a joined copy). */
  push(chunk: Uint8Array): Uint8Array[] {
    this.stats.bytes += chunk.length;
    let buf = chunk;
    if (this.carry) {
      buf = new Uint8Array(this.carry.length + chunk.length);
      buf.set(this.carry);
      buf.set(chunk, this.carry.length);
      this.carry = undefined;
    }
    const out: Uint8Array[] = [];
    let at = 0;
    while (buf.length - at >= 2) {
      const length = (buf[at] << 8) | buf[at + 1];
      if (buf.length - at - 2 < length) break;
      const packet = buf.subarray(at + 2, at + 2 + length);
      at += 2 + length;
      if (length === 0) this.stats.empty++;
      else if (length < this.minPacket) this.stats.short++;
      else {
        this.stats.packets++;
        out.push(packet);
      }
    }
    if (at < buf.length) this.carry = buf.slice(at);
    return out;
  }
}

/** One packet with its 2-byte length prefix. */
export function frameRfc4571(packet: Uint8Array): Uint8Array {
  if (packet.length > 0xffff)
    throw new RtpError('bad-packet', `rfc4571: a packet of ${packet.length} bytes does not fit a 16-bit length`);
  const out = new Uint8Array(2 + packet.length);
  out[0] = packet.length >> 8;
  out[1] = packet.length & 0xff;
  out.set(packet, 2);
  return out;
}
