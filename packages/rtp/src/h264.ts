/** RFC 6184 H.264 payloads in non-interleaved mode: single NAL unit, STAP-A and FU-A. */
import { isH264Keyframe } from '@opencvr/codec';
import { RtpError } from './errors.js';
import { NalDepacketiser, type NalPayload } from './nal-depacketiser.js';

export class H264Depacketiser extends NalDepacketiser {
  protected isKeyframe(nal: Uint8Array): boolean {
    return isH264Keyframe(nal);
  }

  protected parse(p: Uint8Array): NalPayload {
    if (p.length === 0) throw new RtpError('bad-payload', 'h264: empty payload');
    const type = p[0] & 0x1f;
    if (type >= 1 && type <= 23) return { kind: 'nalus', nalus: [p] };
    if (type === 24) return { kind: 'nalus', nalus: splitAggregate(p, 1, 'h264 STAP-A') };
    if (type === 28) {
      if (p.length < 2) throw new RtpError('bad-payload', 'h264 FU-A: no FU header');
      const fu = p[1];
      return { kind: 'fragment', start: (fu & 0x80) !== 0, end: (fu & 0x40) !== 0, header: Uint8Array.of((p[0] & 0xe0) | (fu & 0x1f)), data: p.subarray(2) };
    }
    if (type === 25 || type === 26 || type === 27 || type === 29) {
      throw new RtpError('unsupported', `h264: ${['STAP-B', 'MTAP16', 'MTAP24', '', 'FU-B'][type - 25]} needs interleaved mode (packetization-mode=2), not supported`);
    }
    throw new RtpError('bad-payload', `h264: NAL unit type ${type}`);
  }
}

/** The units of an aggregation packet: 16-bit size then unit, from `at` to the end. */
export function splitAggregate(p: Uint8Array, at: number, what: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  let i = at;
  while (i < p.length) {
    if (i + 2 > p.length) throw new RtpError('bad-payload', `${what}: truncated size`);
    const size = (p[i] << 8) | p[i + 1];
    if (size === 0) throw new RtpError('bad-payload', `${what}: empty unit`);
    if (i + 2 + size > p.length) throw new RtpError('bad-payload', `${what}: unit of ${size} bytes does not fit`);
    out.push(p.subarray(i + 2, i + 2 + size));
    i += 2 + size;
  }
  if (out.length === 0) throw new RtpError('bad-payload', `${what}: no units`);
  return out;
}
