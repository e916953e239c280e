/**
 * RFC 3640 mpeg4-generic AAC (AAC-hbr: sizelength 13, indexlength 3, indexdeltalength 3; AAC-lbr
 * and other lengths work the same): AU-headers then the access units, several per packet or one
 * fragmented over packets (marker on its last). ADTS headers some cameras leave on the frames are
 * stripped (a view, no copy). The payload may be a view of a reused read buffer (see Depacketiser):
 * the frames of a packet are copied out once, fragments as they arrive.
 */
import { concatBytes, stripAdts, type AudioAccessUnit } from '@opencvr/codec';
import { follows, type Depacketiser, type DepacketiserLimits } from './depacketiser.js';
import { RtpError } from './errors.js';
import { viewOf, type RtpPacket, type RtpView } from './packet.js';
import { TimestampUnwrapper } from './reorder.js';

export interface AacOptions extends DepacketiserLimits {
  sizeLength?: number;
  indexLength?: number;
  indexDeltaLength?: number;
  /** Samples per AAC frame, for the timestamps of the 2nd, 3rd... frame of a packet (default 1024). */
  frameLength?: number;
  /** ctsdeltalength, dtsdeltalength, randomaccessindication, streamstateindication: must be 0. */
  unsupported?: Record<string, number>;
}

export class AacDepacketiser implements Depacketiser<AudioAccessUnit> {
  private readonly unwrapper = new TimestampUnwrapper();
  private readonly sizeLength: number;
  private readonly indexLength: number;
  private readonly indexDeltaLength: number;
  private readonly frameLength: number;
  private readonly maxUnitBytes: number;
  private lastSeq = -1;
  private fragments: Uint8Array[] = [];
  private fragmentBytes = 0;
  private fragmentSize = 0;
  private fragmentTs = 0;

  constructor(options: AacOptions = {}) {
    this.sizeLength = options.sizeLength ?? 13;
    this.indexLength = options.indexLength ?? 3;
    this.indexDeltaLength = options.indexDeltaLength ?? 3;
    this.frameLength = options.frameLength ?? 1024;
    this.maxUnitBytes = options.maxUnitBytes ?? 1 << 20;
    for (const [k, v] of Object.entries(options.unsupported ?? {})) {
      if (v) throw new RtpError('unsupported', `aac: ${k}=${v} is not supported`);
    }
    for (const n of [this.sizeLength, this.indexLength, this.indexDeltaLength]) {
      if (!Number.isInteger(n) || n < 0 || n > 32) throw new RtpError('unsupported', `aac: AU-header field of ${n} bits`);
    }
    if (this.sizeLength === 0) throw new RtpError('unsupported', 'aac: sizelength 0 (constant-size AUs) is not supported');
  }

  push(packet: RtpPacket): readonly AudioAccessUnit[] {
    return this.pushView(viewOf(packet));
  }

  pushView(packet: RtpView): readonly AudioAccessUnit[] {
    const { sizes, data } = this.parse(packet.bytes.subarray(packet.payloadStart, packet.payloadEnd));
    const gap = !follows(packet.sequenceNumber, this.lastSeq);
    this.lastSeq = packet.sequenceNumber;
    const ts = this.unwrapper.unwrap(packet.timestamp);
    if (gap || (this.fragmentSize > 0 && (ts !== this.fragmentTs || sizes.length !== 1))) this.dropFragment();

    if (sizes.length === 1 && (sizes[0] > data.length || this.fragmentSize > 0)) {
      // A fragment of one large access unit.
      if (this.fragmentSize === 0) {
        if (sizes[0] > this.maxUnitBytes) return [];
        this.fragmentSize = sizes[0];
        this.fragmentTs = ts;
      }
      this.fragments.push(data.slice());
      this.fragmentBytes += data.length;
      if (this.fragmentBytes > this.fragmentSize) {
        this.dropFragment();
        return [];
      }
      if (this.fragmentBytes === this.fragmentSize) {
        const whole = concatBytes(this.fragments, this.fragmentBytes);
        this.dropFragment();
        return [{ kind: 'audio', pts: ts, data: stripAdts(whole) }];
      }
      return [];
    }
    const out: AudioAccessUnit[] = [];
    const own = data.slice(0, sizes.reduce((s, n) => s + n, 0));
    let at = 0;
    for (let i = 0; i < sizes.length; i++) {
      out.push({ kind: 'audio', pts: ts + i * this.frameLength, data: stripAdts(own.subarray(at, at + sizes[i])) });
      at += sizes[i];
    }
    return out;
  }

  flush(): readonly AudioAccessUnit[] {
    this.dropFragment();
    return [];
  }

  private dropFragment(): void {
    this.fragments = [];
    this.fragmentBytes = 0;
    this.fragmentSize = 0;
  }

  /** AU sizes and the data section; throws RtpError when the headers do not match the bytes. */
  private parse(p: Uint8Array): { sizes: number[]; data: Uint8Array } {
    if (p.length < 2) throw new RtpError('bad-payload', 'aac: no AU-headers-length');
    const headerBits = (p[0] << 8) | p[1];
    const headerBytes = Math.ceil(headerBits / 8);
    if (2 + headerBytes > p.length) throw new RtpError('bad-payload', `aac: ${headerBits} bits of AU-headers do not fit`);
    const sizes: number[] = [];
    let bit = 16;
    const end = 16 + headerBits;
    const read = (n: number): number => {
      let v = 0;
      for (let i = 0; i < n; i++, bit++) v = v * 2 + ((p[bit >> 3] >> (7 - (bit & 7))) & 1);
      return v;
    };
    while (bit < end) {
      const need = this.sizeLength + (sizes.length === 0 ? this.indexLength : this.indexDeltaLength);
      if (bit + need > end) throw new RtpError('bad-payload', 'aac: AU-headers-length is not a whole number of headers');
      sizes.push(read(this.sizeLength));
      read(sizes.length === 1 ? this.indexLength : this.indexDeltaLength);
    }
    if (sizes.length === 0) throw new RtpError('bad-payload', 'aac: no AU-headers');
    const data = p.subarray(2 + headerBytes);
    const total = sizes.reduce((s, n) => s + n, 0);
    if (sizes.length > 1 && total > data.length) throw new RtpError('bad-payload', `aac: ${sizes.length} AUs of ${total} bytes in ${data.length}`);
    if (sizes.length > 1 && sizes.some((s) => s === 0)) throw new RtpError('bad-payload', 'aac: empty AU');
    if (sizes.length === 1 && sizes[0] === 0) throw new RtpError('bad-payload', 'aac: empty AU');
    return { sizes, data };
  }
}
