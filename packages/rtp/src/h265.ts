/** RFC 7798 H.265 payloads without DONL: single NAL unit, aggregation packets (AP) and fragmentation units (FU). */
import { isH265Keyframe } from '@opencvr/codec';
import type { DepacketiserLimits } from './depacketiser.js';
import { RtpError } from './errors.js';
import { checkAggregate } from './h264.js';
import { NalDepacketiser, Payload } from './nal-depacketiser.js';

export interface H265Options extends DepacketiserLimits {
  /** sprop-max-don-diff of the SDP: above 0 the payloads carry DONL fields, which are not supported. */
  maxDonDiff?: number;
}

export class H265Depacketiser extends NalDepacketiser {
  constructor(options: H265Options = {}) {
    if ((options.maxDonDiff ?? 0) > 0) {
      throw new RtpError('unsupported', 'h265: sprop-max-don-diff > 0 (DONL fields, decoding-order interleaving) is not supported');
    }
    super(options);
  }

  protected isKeyframe(nal: Uint8Array): boolean {
    return isH265Keyframe(nal);
  }

  protected classify(b: Uint8Array, start: number, end: number): Payload {
    if (end - start < 2) throw new RtpError('bad-payload', 'h265: payload shorter than the NAL header');
    const type = (b[start] >> 1) & 0x3f;
    if (type < 48) return Payload.Single;
    if (type === 48) {
      checkAggregate(b, start + 2, end, 'h265 AP');
      this.aggregateStart = start + 2;
      return Payload.Aggregate;
    }
    if (type === 49) {
      if (end - start < 3) throw new RtpError('bad-payload', 'h265 FU: no FU header');
      const fu = b[start + 2];
      this.fragmentStart = (fu & 0x80) !== 0;
      this.fragmentEnd = (fu & 0x40) !== 0;
      this.fragmentHeader = (((b[start] & 0x81) | ((fu & 0x3f) << 1)) << 8) | b[start + 1];
      this.fragmentHeaderLength = 2;
      this.fragmentDataStart = start + 3;
      return Payload.Fragment;
    }
    throw new RtpError('unsupported', `h265: payload type ${type}${type === 50 ? ' (PACI)' : ''} not supported`);
  }
}
