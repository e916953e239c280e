/** RFC 6184 H.264 payloads in non-interleaved mode: single NAL unit, STAP-A and FU-A. */
import { isH264Keyframe } from '@opencvr/codec';
import { RtpError } from './errors.js';
import { NalDepacketiser, Payload } from './nal-depacketiser.js';

export class H264Depacketiser extends NalDepacketiser {
  protected isKeyframe(nal: Uint8Array): boolean {
    return isH264Keyframe(nal);
  }

  protected classify(b: Uint8Array, start: number, end: number): Payload {
    if (end <= start) throw new RtpError('bad-payload', 'h264: empty payload');
    const type = b[start] & 0x1f;
    if (type >= 1 && type <= 23) return Payload.Single;
    if (type === 24) {
      checkAggregate(b, start + 1, end, 'h264 STAP-A');
      this.aggregateStart = start + 1;
      return Payload.Aggregate;
    }
    if (type === 28) {
      if (end - start < 2) throw new RtpError('bad-payload', 'h264 FU-A: no FU header');
      const fu = b[start + 1];
      this.fragmentStart = (fu & 0x80) !== 0;
      this.fragmentEnd = (fu & 0x40) !== 0;
      this.fragmentHeader = (b[start] & 0xe0) | (fu & 0x1f);
      this.fragmentHeaderLength = 1;
      this.fragmentDataStart = start + 2;
      return Payload.Fragment;
    }
    if (type === 25 || type === 26 || type === 27 || type === 29) {
      throw new RtpError('unsupported', `h264: ${['STAP-B', 'MTAP16', 'MTAP24', '', 'FU-B'][type - 25]} needs interleaved mode (packetization-mode=2), not supported`);
    }
    throw new RtpError('bad-payload', `h264: NAL unit type ${type}`);
  }
}

/** Checks an aggregation packet's units (16-bit size then unit) from `at` to `end`: all present, none empty. */
export function checkAggregate(p: Uint8Array, at: number, end: number, what: string): void {
  let i = at;
  let units = 0;
  while (i < end) {
    if (i + 2 > end) throw new RtpError('bad-payload', `${what}: truncated size`);
    const size = (p[i] << 8) | p[i + 1];
    if (size === 0) throw new RtpError('bad-payload', `${what}: empty unit`);
    if (i + 2 + size > end) throw new RtpError('bad-payload', `${what}: unit of ${size} bytes does not fit`);
    units++;
    i += 2 + size;
  }
  if (units === 0) throw new RtpError('bad-payload', `${what}: no units`);
}
