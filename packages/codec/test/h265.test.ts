import { describe, expect, it } from 'vitest';
import {
  buildHvcC,
  CodecError,
  h265NalHeader,
  H265Nal,
  h265NalType,
  hevcCodecString,
  isH265Keyframe,
  isH265Vcl,
  parseH265Sps,
  parseH265Vps,
  splitAnnexB,
  toHex,
  videoTrackFromParameterSets,
} from '../src/index.js';
import { fixture, fixturesOf, PROBES } from './fixtures.js';

const PROFILES: Record<string, number> = { Main: 1, 'Main 10': 2 };

/** The codec string ffmpeg's hvcC implies (ISO 14496-15 E.3), to check the one built from the SPS. */
function codecStringOfHvcC(hex: string): string {
  const b = Buffer.from(hex, 'hex');
  const space = ['', 'A', 'B', 'C'][b[1] >> 6];
  let compat = 0;
  const flags = b.readUInt32BE(2);
  for (let i = 0; i < 32; i++) if ((flags >>> i) & 1) compat |= 1 << (31 - i);
  const cons = [...b.subarray(6, 12)];
  while (cons.length && cons[cons.length - 1] === 0) cons.pop();
  return ['hvc1', `${space}${b[1] & 0x1f}`, (compat >>> 0).toString(16).toUpperCase(), `${b[1] & 0x20 ? 'H' : 'L'}${b[12]}`, ...cons.map((c) => c.toString(16).toUpperCase())].join('.');
}

describe('H.265 fixtures against ffprobe', () => {
  for (const name of fixturesOf('.h265')) {
    const probe = PROBES[name];
    const nalus = splitAnnexB(fixture(name));
    const of = (t: number) => nalus.find((n) => h265NalType(n) === t)!;
    const [vps, sps, pps] = [of(H265Nal.vps), of(H265Nal.sps), of(H265Nal.pps)];

    it(`${name}: SPS size with conformance window, profile, level, bit depth; VPS`, () => {
      const s = parseH265Sps(sps);
      expect([s.width, s.height]).toEqual([probe.width, probe.height]);
      expect(s.ptl.profileIdc).toBe(PROFILES[probe.profile]);
      expect(s.ptl.levelIdc).toBe(probe.level);
      expect(s.bitDepthLuma).toBe(probe.pix_fmt!.includes('10') ? 10 : 8);
      // x265 puts timing in the SPS VUI only, not in the VPS: the VPS parses to its end without it.
      const v = parseH265Vps(vps);
      expect([v.maxSubLayers, v.ptl.levelIdc, v.frameRate]).toEqual([s.maxSubLayers, probe.level, undefined]);
    });

    it(`${name}: hvcC matches ffmpeg's mp4 muxer, codec string matches it`, () => {
      expect(toHex(buildHvcC({ vps: [vps], sps: [sps], pps: [pps] }))).toBe(probe.hvcC);
      expect(hevcCodecString(sps)).toBe(codecStringOfHvcC(probe.hvcC!));
    });

    it(`${name}: one VCL unit per frame, IRAP where ffprobe sees key frames`, () => {
      const vcl = nalus.filter(isH265Vcl);
      expect(vcl.length).toBe(Number(probe.nb_read_frames));
      expect(vcl.map((n) => (isH265Keyframe(n) ? '1' : '0')).join('')).toBe(probe.keyframes);
    });

    it(`${name}: a track from its parameter sets`, () => {
      const t = videoTrackFromParameterSets('h265', { vps, sps, pps });
      expect(t).toMatchObject({ codec: 'h265', width: probe.width, height: probe.height, codecString: hevcCodecString(sps) });
    });
  }

  it('codec strings of the fixtures, written out', () => {
    const cs = (name: string) => hevcCodecString(splitAnnexB(fixture(name)).find((n) => h265NalType(n) === H265Nal.sps)!);
    expect(cs('h265-main-320x180.h265')).toBe('hvc1.1.6.L60.90');
    expect(cs('h265-main10-208x120.h265')).toBe('hvc1.2.4.L60.90');
    expect(cs('h265-main-1080p-1frame.h265')).toBe('hvc1.1.6.L120.90');
  });
});

describe('H.265 NAL header', () => {
  const cases = [
    { bytes: [0x40, 0x01], header: { type: 32, layerId: 0, tid: 0 } },
    { bytes: [0x42, 0x01], header: { type: 33, layerId: 0, tid: 0 } },
    { bytes: [0x26, 0x01], header: { type: 19, layerId: 0, tid: 0 } },
    { bytes: [0x02, 0x03], header: { type: 1, layerId: 0, tid: 2 } },
    { bytes: [0x61, 0x09], header: { type: 48, layerId: 33, tid: 0 } },
  ];
  for (const c of cases) {
    it(c.bytes.map((b) => b.toString(16)).join(' '), () => expect(h265NalHeader(Uint8Array.from(c.bytes))).toEqual(c.header));
  }
  it('one byte is a typed error', () => expect(() => h265NalHeader(Uint8Array.of(0x40))).toThrow(CodecError));
});
