import { describe, expect, it } from 'vitest';
import {
  avcCodecString,
  buildAvcC,
  CodecError,
  h264NalType,
  isH264Keyframe,
  isH264Vcl,
  parseH264Sps,
  splitAnnexB,
  toHex,
  videoTrackFromParameterSets,
} from '../src/index.js';
import { b64, fixture, fixturesOf, PROBES, SDP_SPS } from './fixtures.js';

const PROFILES: Record<string, number> = { 'Constrained Baseline': 66, Baseline: 66, Main: 77, High: 100, 'High 4:2:2': 122 };

describe('H.264 fixtures against ffprobe', () => {
  for (const name of fixturesOf('.h264')) {
    const probe = PROBES[name];
    const nalus = splitAnnexB(fixture(name));
    const sps = nalus.find((n) => h264NalType(n) === 7)!;
    const pps = nalus.find((n) => h264NalType(n) === 8)!;

    it(`${name}: SPS size, profile, level, bit depth, frame rate`, () => {
      const s = parseH264Sps(sps);
      expect([s.width, s.height]).toEqual([probe.width, probe.height]);
      expect(s.profileIdc).toBe(PROFILES[probe.profile]);
      expect(s.levelIdc).toBe(probe.level);
      if (probe.profile === 'Constrained Baseline') expect(s.constraintFlags & 0x40).toBe(0x40);
      expect(s.bitDepthLuma).toBe(probe.pix_fmt!.includes('10') ? 10 : 8);
      expect(s.chromaFormatIdc).toBe(probe.pix_fmt!.startsWith('yuv422') ? 2 : 1);
      const [num, den] = probe.r_frame_rate.split('/').map(Number);
      expect(s.frameRate).toBeCloseTo(num / den, 6);
    });

    it(`${name}: avcC and codec string match ffmpeg's mp4 muxer`, () => {
      const avcC = buildAvcC([sps], [pps]);
      expect(toHex(avcC)).toBe(probe.avcC);
      expect(avcCodecString(sps)).toBe(`avc1.${probe.avcC!.slice(2, 8)}`);
    });

    it(`${name}: one VCL unit per frame, IDR where ffprobe sees key frames`, () => {
      const vcl = nalus.filter(isH264Vcl);
      expect(vcl.length).toBe(Number(probe.nb_read_frames));
      expect(vcl.map((n) => (isH264Keyframe(n) ? '1' : '0')).join('')).toBe(probe.keyframes);
    });

    it(`${name}: a track from its parameter sets`, () => {
      const t = videoTrackFromParameterSets('h264', { sps, pps });
      expect(t).toMatchObject({ kind: 'video', codec: 'h264', width: probe.width, height: probe.height, clockRate: 90000 });
    });
  }
});

describe('H.264 SPS from SDP answers', () => {
  for (const c of SDP_SPS) {
    it(c.name, () => {
      const sps = b64(c.sps);
      const s = parseH264Sps(sps);
      expect([s.width, s.height, s.profileIdc, s.levelIdc]).toEqual([c.width, c.height, c.profileIdc, c.levelIdc]);
      expect(avcCodecString(sps)).toBe(c.codecString);
    });
  }
});

describe('H.264 errors', () => {
  it('a PPS is not an SPS', () => {
    expect(() => parseH264Sps(Uint8Array.of(0x68, 0xce, 0x3c, 0x80))).toThrow(CodecError);
  });
  it('a truncated SPS is a typed error', () => {
    const sps = b64(SDP_SPS[0].sps);
    for (let n = 0; n < 8; n++) expect(() => parseH264Sps(sps.subarray(0, n))).toThrow(CodecError);
  });
  it('avcC needs parameter sets', () => {
    expect(() => buildAvcC([], [])).toThrow(CodecError);
  });
});
