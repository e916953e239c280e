/**
 * The RTSP client reads its socket into one reused buffer and hands depacketisers packets in place in it
 * (readRtp + pushView): each depacketiser must copy what it keeps. Fed through one scratch buffer that is
 * overwritten after every packet, it must give the same units as push() of fresh copies, for real
 * captures and for packets dropped, cut and changed at random.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AccessUnit } from '@opencvr/codec';
import {
  AacDepacketiser,
  G711Depacketiser,
  H264Depacketiser,
  H265Depacketiser,
  newRtpView,
  parseRtp,
  readRtp,
  RtpError,
  type Depacketiser,
} from '../src/index.js';
import { capture, hex } from './fixtures.js';

const makers: [string, () => Depacketiser, string][] = [
  ['h264', () => new H264Depacketiser({ maxUnitBytes: 4000, maxAccessUnitBytes: 8000, maxNalus: 16 }), 'h264-high-320x180'],
  ['h265', () => new H265Depacketiser({ maxUnitBytes: 4000, maxAccessUnitBytes: 8000, maxNalus: 16 }), 'h265-main-320x180'],
  ['aac', () => new AacDepacketiser(), 'aac-lc-44100-stereo'],
  ['g711', () => new G711Depacketiser(), 'pcma-8000'],
];

const describeUnit = (u: AccessUnit) =>
  u.kind === 'video' ? `v ${u.pts} ${u.dts} ${u.keyframe} ${u.damaged ?? false} ${u.nalus.map(hex).join('.')}` : `a ${u.pts} ${hex(u.data)}`;

/**
 * Units as they are after the whole run: fresh copies through push(parseRtp()), or (reuse) packets
 * read in place with readRtp() into one view from one scratch buffer, at an offset, through pushView().
 */
function run(make: () => Depacketiser, packets: Uint8Array[], reuse: boolean): string[] {
  const d = make();
  const scratch = new Uint8Array(4096);
  const view = newRtpView();
  const out: AccessUnit[] = [];
  for (const p of packets) {
    try {
      if (reuse) {
        scratch.set(p, 7);
        out.push(...d.pushView(readRtp(scratch, 7, 7 + p.length, view)));
      } else out.push(...d.push(parseRtp(Uint8Array.from(p))));
    } catch (err) {
      if (!(err instanceof RtpError)) throw err;
    }
    if (reuse) scratch.fill(0xa5);
  }
  out.push(...d.flush());
  return out.map(describeUnit);
}

describe('depacketisers fed views of a reused buffer', () => {
  for (const [name, make, file] of makers) {
    const real = capture(`${file}.rtp`);
    it(`${name}: the same units as from fresh copies (${file})`, () => {
      const fresh = run(make, real, false);
      expect(fresh.length).toBeGreaterThan(3);
      expect(run(make, real, true)).toEqual(fresh);
    });

    it(`${name}: the same units as from fresh copies, packets dropped, cut and changed at random`, () => {
      const edited = fc.array(
        fc.tuple(fc.nat({ max: real.length - 1 }), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean()),
        { maxLength: 40 },
      );
      fc.assert(
        fc.property(edited, (edits) => {
          const packets = real.map((p) => Uint8Array.from(p));
          for (const [i, at, v, cut] of edits) {
            if (cut) packets[i] = packets[i].subarray(0, at % (packets[i].length + 1));
            else if (packets[i].length) packets[i][at % packets[i].length] = v;
          }
          expect(run(make, packets, true)).toEqual(run(make, packets, false));
        }),
        { numRuns: 150 },
      );
    });
  }
});
