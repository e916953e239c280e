/** RFC 7798 H.265 payloads without DONL: single NAL unit, aggregation packets (AP) and fragmentation units (FU). */
import { isH265Keyframe } from '@opencvr/codec';
import type { DepacketiserLimits } from './depacketiser.js';
import { RtpError } from './errors.js';
import { splitAggregate } from './h264.js';
import { NalDepacketiser, type NalPayload } from './nal-depacketiser.js';

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

  protected parse(p: Uint8Array): NalPayload {
    if (p.length < 2) throw new RtpError('bad-payload', 'h265: payload shorter than the NAL header');
    const type = (p[0] >> 1) & 0x3f;
    if (type < 48) return { kind: 'nalus', nalus: [p] };
    if (type === 48) return { kind: 'nalus', nalus: splitAggregate(p, 2, 'h265 AP') };
    if (type === 49) {
      if (p.length < 3) throw new RtpError('bad-payload', 'h265 FU: no FU header');
      const fu = p[2];
      return {
        kind: 'fragment',
        start: (fu & 0x80) !== 0,
        end: (fu & 0x40) !== 0,
        header: Uint8Array.of((p[0] & 0x81) | ((fu & 0x3f) << 1), p[1]),
        data: p.subarray(3),
      };
    }
    throw new RtpError('unsupported', `h265: payload type ${type}${type === 50 ? ' (PACI)' : ''} not supported`);
  }
}
