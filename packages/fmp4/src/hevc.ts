/**
 * HEVCDecoderConfigurationRecord (ISO/IEC 14496-15 8.3.3.1) from VPS, SPS and PPS.
 * TODO(codec): switch to @opencvr/codec's hvcC builder once it lands there.
 */
import { BitReader, unescapeRbsp } from './bits.js';

export interface HevcSpsInfo {
  /** general_profile_space, tier, profile_idc, compatibility flags, constraint flags, level: 12 bytes. */
  profileTierLevel: Uint8Array;
  maxSubLayers: number;
  temporalIdNesting: number;
  chromaFormat: number;
  bitDepthLuma: number;
  bitDepthChroma: number;
}

export function readHevcSps(sps: Uint8Array): HevcSpsInfo {
  const rbsp = unescapeRbsp(sps.subarray(2)); // after the 2-byte NAL header
  if (rbsp.length < 13) throw new Error('h265 SPS too short');
  const info: HevcSpsInfo = {
    profileTierLevel: rbsp.slice(1, 13),
    maxSubLayers: ((rbsp[0] >> 1) & 7) + 1,
    temporalIdNesting: rbsp[0] & 1,
    chromaFormat: 1,
    bitDepthLuma: 8,
    bitDepthChroma: 8,
  };
  try {
    const r = new BitReader(rbsp.subarray(13));
    const sub = info.maxSubLayers - 1;
    const profilePresent: number[] = [];
    const levelPresent: number[] = [];
    for (let i = 0; i < sub; i++) {
      profilePresent.push(r.u(1));
      levelPresent.push(r.u(1));
    }
    if (sub > 0) for (let i = sub; i < 8; i++) r.skip(2);
    for (let i = 0; i < sub; i++) {
      if (profilePresent[i]) r.skip(88);
      if (levelPresent[i]) r.skip(8);
    }
    r.ue(); // sps_seq_parameter_set_id
    info.chromaFormat = r.ue();
    if (info.chromaFormat === 3) r.skip(1);
    r.ue(); // pic_width_in_luma_samples
    r.ue(); // pic_height_in_luma_samples
    if (r.u(1)) for (let i = 0; i < 4; i++) r.ue(); // conformance window
    info.bitDepthLuma = r.ue() + 8;
    info.bitDepthChroma = r.ue() + 8;
  } catch {
    // A truncated SPS keeps the 4:2:0 8-bit defaults.
  }
  return info;
}

export function hvcC(vps: Uint8Array, sps: Uint8Array, pps: Uint8Array): Uint8Array {
  const info = readHevcSps(sps);
  const arrays: [number, Uint8Array][] = [
    [32, vps],
    [33, sps],
    [34, pps],
  ];
  const size = 23 + arrays.reduce((n, [, nal]) => n + 5 + nal.length, 0);
  const out = new Uint8Array(size);
  let p = 0;
  out[p++] = 1; // configurationVersion
  out.set(info.profileTierLevel, p); // profile space/tier/idc, 32 compat flags, 48 constraint flags, level
  p += 12;
  out[p++] = 0xf0; // reserved 4 bits + min_spatial_segmentation_idc (12 bits) = 0
  out[p++] = 0x00;
  out[p++] = 0xfc; // reserved 6 bits + parallelismType = 0 (unknown)
  out[p++] = 0xfc | (info.chromaFormat & 3);
  out[p++] = 0xf8 | ((info.bitDepthLuma - 8) & 7);
  out[p++] = 0xf8 | ((info.bitDepthChroma - 8) & 7);
  out[p++] = 0; // avgFrameRate (16 bits) = unspecified
  out[p++] = 0;
  // constantFrameRate 0, numTemporalLayers, temporalIdNested, lengthSizeMinusOne = 3
  out[p++] = ((info.maxSubLayers & 7) << 3) | ((info.temporalIdNesting & 1) << 2) | 3;
  out[p++] = arrays.length;
  for (const [type, nal] of arrays) {
    out[p++] = 0x80 | type; // array_completeness = 1: parameter sets only here, not in samples
    out[p++] = 0;
    out[p++] = 1;
    out[p++] = nal.length >> 8;
    out[p++] = nal.length & 0xff;
    out.set(nal, p);
    p += nal.length;
  }
  return out;
}
