/**
 * avcC and hvcC read back: what buildAvcC/buildHvcC write from real parameter sets comes back byte
 * for byte with its NAL length size; cut or random records throw only CodecError.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildAvcC, buildHvcC, CodecError, h264NalType, h265NalType, parseAvcC, parseHvcC, splitAnnexB } from '../src/index.js';
import { fixture } from './fixtures.js';

const h264 = splitAnnexB(fixture('h264-high-320x180.h264'));
const h265 = splitAnnexB(fixture('h265-main-320x180.h265'));
const avc = { sps: h264.find((n) => h264NalType(n) === 7)!, pps: h264.find((n) => h264NalType(n) === 8)! };
const hevc = { vps: h265.find((n) => h265NalType(n) === 32)!, sps: h265.find((n) => h265NalType(n) === 33)!, pps: h265.find((n) => h265NalType(n) === 34)! };

const typedOnly = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    if (!(err instanceof CodecError)) throw err;
  }
};

describe('decoder configuration records', () => {
  it('avcC: the SPS and PPS written come back, with a 4-byte NAL length', () => {
    const r = parseAvcC(buildAvcC([avc.sps], [avc.pps]));
    expect(r).toEqual({ lengthSize: 4, vps: [], sps: [avc.sps], pps: [avc.pps] });
  });

  it('avcC: a 2-byte NAL length is read from the low bits; a version other than 1 and a cut record are refused', () => {
    const rec = buildAvcC([avc.sps], [avc.pps]);
    rec[4] = 0xfd;
    expect(parseAvcC(rec).lengthSize).toBe(2);
    expect(() => parseAvcC(Uint8Array.of(0, ...rec.subarray(1)))).toThrow(/configurationVersion 0/);
    expect(() => parseAvcC(rec.subarray(0, 8 + avc.sps.length - 1))).toThrow(CodecError);
    expect(() => parseAvcC(rec.subarray(0, 5))).toThrow(CodecError);
  });

  it('hvcC: VPS, SPS and PPS come back by their array type', () => {
    const r = parseHvcC(buildHvcC({ vps: [hevc.vps], sps: [hevc.sps], pps: [hevc.pps] }));
    expect(r).toEqual({ lengthSize: 4, vps: [hevc.vps], sps: [hevc.sps], pps: [hevc.pps] });
  });

  it('hvcC: a cut record is refused', () => {
    const rec = buildHvcC({ vps: [hevc.vps], sps: [hevc.sps], pps: [hevc.pps] });
    for (const end of [0, 22, 25, rec.length - 1]) expect(() => parseHvcC(rec.subarray(0, end))).toThrow(CodecError);
  });

  it('random and mutated records throw nothing but CodecError', () => {
    const seeds = [buildAvcC([avc.sps], [avc.pps]), buildHvcC({ vps: [hevc.vps], sps: [hevc.sps], pps: [hevc.pps] })];
    const mutated = fc.tuple(fc.constantFrom(...seeds), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }), fc.nat()).map(([seed, edits, cut]) => {
      const b = Uint8Array.from(seed);
      for (const [at, v] of edits) b[at % b.length] = v;
      return b.subarray(0, cut % (b.length + 1));
    });
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }), mutated), (b) => {
        typedOnly(() => parseAvcC(b));
        typedOnly(() => parseHvcC(b));
      }),
      { numRuns: 3000 },
    );
  });
});
