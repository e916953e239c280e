/** avcC / hvcC inputs: the few SPS fields read, emulation prevention, and garbage that must not throw. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { avcC, hvcC, readAvcSps, readHevcSps } from '../src/index.js';
import { unescapeRbsp } from '../src/bits.js';
import { videoStream } from './helpers/streams.js';

/** Packs a bit string ('1001...') into bytes, padding with a stop bit and zeros. */
const bits = (s: string) => {
  const padded = `${s}1`.padEnd(Math.ceil((s.length + 1) / 8) * 8, '0');
  return Uint8Array.from(padded.match(/.{8}/g)!, (b) => parseInt(b, 2));
};

describe('SPS fields for the configuration records', () => {
  it('H.264 High 4:4:4 10-bit: chroma format and bit depths go into the avcC tail only for profiles 100/110/122/144', () => {
    // profile 244, constraints 0, level 31; sps_id ue(0)='1', chroma ue(3)='00100', separate plane '0',
    // luma ue(2)='011', chroma ue(2)='011'
    const sps = new Uint8Array([0x67, 244, 0, 31, ...bits('1' + '00100' + '0' + '011' + '011')]);
    expect(readAvcSps(sps)).toEqual({ profile: 244, compatibility: 0, level: 31, chromaFormat: 3, bitDepthLuma: 10, bitDepthChroma: 10 });
    expect(avcC(sps, new Uint8Array([0x68, 1])).length).toBe(6 + 2 + sps.length + 3 + 2);
    const high10 = new Uint8Array([0x67, 110, 0, 31, ...bits('1' + '010' + '011' + '011')]); // 4:2:0 10-bit
    expect([...avcC(high10, new Uint8Array([0x68, 1])).subarray(-4)]).toEqual([0xfd, 0xfa, 0xfa, 0]);
  });

  it('Baseline/Main SPS are not parsed past the profile bytes', () => {
    expect(readAvcSps(new Uint8Array([0x67, 66, 0xc0, 30]))).toMatchObject({ profile: 66, chromaFormat: 1, bitDepthLuma: 8 });
  });

  it('x265 fixture SPS: Main, 4:2:0, 8-bit, one temporal layer', () => {
    const { track } = videoStream('h265', 'h265-320x240-25fps-bf2.hevc');
    const info = readHevcSps(track.sps);
    expect(info).toMatchObject({ maxSubLayers: 1, temporalIdNesting: 1, chromaFormat: 1, bitDepthLuma: 8, bitDepthChroma: 8 });
    expect(info.profileTierLevel[0] & 0x1f).toBe(1); // general_profile_idc Main
  });

  it('removes emulation-prevention bytes', () => {
    expect([...unescapeRbsp(new Uint8Array([0, 0, 3, 1, 0, 0, 3, 0, 0, 3]))]).toEqual([0, 0, 1, 0, 0, 0, 0]);
    expect([...unescapeRbsp(new Uint8Array([0, 3, 0, 0, 0, 3]))]).toEqual([0, 3, 0, 0, 0]);
  });

  it('random parameter sets never throw past the minimum length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 4, maxLength: 40 }), fc.uint8Array({ minLength: 1, maxLength: 8 }), (sps, pps) => {
        expect(avcC(sps, pps)[0]).toBe(1);
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 15, maxLength: 60 }), (sps) => {
        const rec = hvcC(new Uint8Array([0x40, 1]), sps, new Uint8Array([0x44, 1]));
        expect(rec[22]).toBe(3);
      }),
    );
    expect(() => hvcC(new Uint8Array(2), new Uint8Array(10), new Uint8Array(2))).toThrow(/too short/);
  });
});
