/**
 * AVCDecoderConfigurationRecord (ISO/IEC 14496-15 5.3.3.1) from one SPS and one PPS.
 * TODO(codec): switch to @opencvr/codec's avcC builder once it lands there.
 */
import { BitReader, unescapeRbsp } from './bits.js';

/** Profiles whose SPS carries chroma_format_idc and bit depths. */
const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);
/** Profiles for which avcC carries the chroma/bit-depth extension. */
const AVCC_EXT_PROFILES = new Set([100, 110, 122, 144]);

export interface AvcSpsInfo {
  profile: number;
  compatibility: number;
  level: number;
  chromaFormat: number;
  bitDepthLuma: number;
  bitDepthChroma: number;
}

export function readAvcSps(sps: Uint8Array): AvcSpsInfo {
  if (sps.length < 4) throw new Error('h264 SPS too short');
  const info = { profile: sps[1], compatibility: sps[2], level: sps[3], chromaFormat: 1, bitDepthLuma: 8, bitDepthChroma: 8 };
  if (!HIGH_PROFILES.has(info.profile)) return info;
  try {
    const r = new BitReader(unescapeRbsp(sps.subarray(4)));
    r.ue(); // seq_parameter_set_id
    info.chromaFormat = r.ue();
    if (info.chromaFormat === 3) r.skip(1);
    info.bitDepthLuma = r.ue() + 8;
    info.bitDepthChroma = r.ue() + 8;
  } catch {
    // A truncated SPS keeps the 4:2:0 8-bit defaults.
  }
  return info;
}

export function avcC(sps: Uint8Array, pps: Uint8Array): Uint8Array {
  const info = readAvcSps(sps);
  const ext = AVCC_EXT_PROFILES.has(info.profile);
  const out = new Uint8Array(6 + 2 + sps.length + 1 + 2 + pps.length + (ext ? 4 : 0));
  let p = 0;
  out[p++] = 1;
  out[p++] = info.profile;
  out[p++] = info.compatibility;
  out[p++] = info.level;
  out[p++] = 0xff; // reserved 6 bits + lengthSizeMinusOne = 3
  out[p++] = 0xe1; // reserved 3 bits + one SPS
  out[p++] = sps.length >> 8;
  out[p++] = sps.length & 0xff;
  out.set(sps, p);
  p += sps.length;
  out[p++] = 1;
  out[p++] = pps.length >> 8;
  out[p++] = pps.length & 0xff;
  out.set(pps, p);
  p += pps.length;
  if (ext) {
    out[p++] = 0xfc | (info.chromaFormat & 3);
    out[p++] = 0xf8 | ((info.bitDepthLuma - 8) & 7);
    out[p++] = 0xf8 | ((info.bitDepthChroma - 8) & 7);
    out[p++] = 0; // numOfSequenceParameterSetExt
  }
  return out;
}
