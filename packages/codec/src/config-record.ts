/**
 * Reading the decoder configuration records that carry H.264/H.265 parameter sets out of band:
 * AVCDecoderConfigurationRecord (avcC, ISO/IEC 14496-15 5.3.3.1) and HEVCDecoderConfigurationRecord
 * (hvcC, 8.3.3.1). FLV/RTMP sequence headers and MP4 sample entries both hold them; buildAvcC and
 * buildHvcC write them. Bytes that run short throw CodecError('truncated'); the sets are views of the
 * record (copy them to keep them past the record's life).
 */
import { CodecError } from './errors.js';
import { H265Nal } from './h265.js';

export interface DecoderConfig {
  /** Bytes of each NAL unit's length prefix in the samples (1, 2 or 4). */
  lengthSize: number;
  /** Empty for H.264. */
  vps: Uint8Array[];
  sps: Uint8Array[];
  pps: Uint8Array[];
}

const u16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];

/** A length-prefixed (16-bit) parameter set at `at`, or CodecError when it runs past the record. */
function set(b: Uint8Array, at: number, what: string): Uint8Array {
  if (at + 2 > b.length) throw new CodecError('truncated', `${what}: parameter set length past the end`);
  const len = u16(b, at);
  if (at + 2 + len > b.length) throw new CodecError('truncated', `${what}: parameter set runs past the end`);
  return b.subarray(at + 2, at + 2 + len);
}

/** The parameter sets and NAL length size of an avcC record. */
export function parseAvcC(b: Uint8Array): DecoderConfig {
  if (b.length < 7) throw new CodecError('truncated', 'avcC: shorter than its header');
  if (b[0] !== 1) throw new CodecError('unsupported', `avcC: configurationVersion ${b[0]}`);
  const lengthSize = (b[4] & 3) + 1;
  if (lengthSize === 3) throw new CodecError('bad-value', 'avcC: NAL length size 3');
  const out: DecoderConfig = { lengthSize, vps: [], sps: [], pps: [] };
  let p = 5;
  const spsCount = b[p++] & 0x1f;
  for (let i = 0; i < spsCount; i++) {
    const s = set(b, p, 'avcC');
    out.sps.push(s);
    p += 2 + s.length;
  }
  if (p >= b.length) throw new CodecError('truncated', 'avcC: no PPS count');
  const ppsCount = b[p++];
  for (let i = 0; i < ppsCount; i++) {
    const s = set(b, p, 'avcC');
    out.pps.push(s);
    p += 2 + s.length;
  }
  // High profiles may add chroma/bit-depth fields after the PPS: nothing here needs them.
  return out;
}

/** The parameter sets and NAL length size of an hvcC record (other arrays, SEI for one, are skipped). */
export function parseHvcC(b: Uint8Array): DecoderConfig {
  if (b.length < 23) throw new CodecError('truncated', 'hvcC: shorter than its header');
  if (b[0] !== 1) throw new CodecError('unsupported', `hvcC: configurationVersion ${b[0]}`);
  const lengthSize = (b[21] & 3) + 1;
  if (lengthSize === 3) throw new CodecError('bad-value', 'hvcC: NAL length size 3');
  const out: DecoderConfig = { lengthSize, vps: [], sps: [], pps: [] };
  const arrays = b[22];
  let p = 23;
  for (let i = 0; i < arrays; i++) {
    if (p + 3 > b.length) throw new CodecError('truncated', 'hvcC: array header past the end');
    const type = b[p] & 0x3f;
    const n = u16(b, p + 1);
    p += 3;
    for (let j = 0; j < n; j++) {
      const s = set(b, p, 'hvcC');
      if (type === H265Nal.vps) out.vps.push(s);
      else if (type === H265Nal.sps) out.sps.push(s);
      else if (type === H265Nal.pps) out.pps.push(s);
      p += 2 + s.length;
    }
  }
  return out;
}
