/**
 * H.265 (ISO/IEC 23008-2) helpers: the two-byte NAL header, parameter-set and IRAP recognition, the
 * SPS up to the bit depths (size with conformance window, profile_tier_level), the VPS timing info,
 * the RFC 6381 hvc1 codec string and the HEVCDecoderConfigurationRecord (hvcC, ISO/IEC 14496-15 8.3.3).
 */
import { removeEmulationPrevention } from './annexb.js';
import { BitReader } from './bits.js';
import { CodecError } from './errors.js';

export const H265Nal = {
  /** IRAP pictures are types 16..23: BLA 16-18, IDR 19-20, CRA 21. */
  bla_w_lp: 16,
  idr_w_radl: 19,
  idr_n_lp: 20,
  cra: 21,
  vps: 32,
  sps: 33,
  pps: 34,
  aud: 35,
  eos: 36,
  eob: 37,
  fd: 38,
  seiPrefix: 39,
  seiSuffix: 40,
  /** RTP payload structures of RFC 7798. */
  ap: 48,
  fu: 49,
  paci: 50,
} as const;

export interface H265NalHeader {
  type: number;
  layerId: number;
  /** TemporalId (nuh_temporal_id_plus1 - 1). */
  tid: number;
}

export function h265NalHeader(nal: Uint8Array): H265NalHeader {
  if (nal.length < 2) throw new CodecError('truncated', 'h265 NAL header: needs two bytes');
  return { type: (nal[0] >> 1) & 0x3f, layerId: ((nal[0] & 1) << 5) | (nal[1] >> 3), tid: (nal[1] & 7) - 1 };
}

export const h265NalType = (nal: Uint8Array): number => (nal.length > 0 ? (nal[0] >> 1) & 0x3f : -1);
/** An IRAP picture (BLA, IDR, CRA): decoding can start at its access unit. */
export const isH265Keyframe = (nal: Uint8Array): boolean => {
  const t = h265NalType(nal);
  return t >= 16 && t <= 23;
};
export const isH265Vcl = (nal: Uint8Array): boolean => {
  const t = h265NalType(nal);
  return t >= 0 && t < 32;
};
export const isH265ParameterSet = (nal: Uint8Array): boolean => {
  const t = h265NalType(nal);
  return t === H265Nal.vps || t === H265Nal.sps || t === H265Nal.pps;
};

export interface H265ProfileTierLevel {
  profileSpace: number;
  tierFlag: number;
  profileIdc: number;
  /** general_profile_compatibility_flag[0..31], flag 0 as the top bit. */
  compatibilityFlags: number;
  /** The 48 bits from general_progressive_source_flag on, as six bytes. */
  constraintFlags: Uint8Array;
  levelIdc: number;
}

export interface H265Sps {
  vpsId: number;
  maxSubLayers: number;
  temporalIdNesting: boolean;
  ptl: H265ProfileTierLevel;
  spsId: number;
  chromaFormatIdc: number;
  bitDepthLuma: number;
  bitDepthChroma: number;
  codedWidth: number;
  codedHeight: number;
  /** After the conformance window. */
  width: number;
  height: number;
}

function readPtl(r: BitReader, maxSubLayersMinus1: number): H265ProfileTierLevel {
  const profileSpace = r.u(2);
  const tierFlag = r.u(1);
  const profileIdc = r.u(5);
  const compatibilityFlags = r.u(32);
  const constraintFlags = new Uint8Array(6);
  for (let i = 0; i < 6; i++) constraintFlags[i] = r.u(8);
  const levelIdc = r.u(8);
  const profilePresent: boolean[] = [];
  const levelPresent: boolean[] = [];
  for (let i = 0; i < maxSubLayersMinus1; i++) {
    profilePresent.push(r.flag());
    levelPresent.push(r.flag());
  }
  if (maxSubLayersMinus1 > 0) for (let i = maxSubLayersMinus1; i < 8; i++) r.skip(2);
  for (let i = 0; i < maxSubLayersMinus1; i++) {
    if (profilePresent[i]) r.skip(88);
    if (levelPresent[i]) r.skip(8);
  }
  return { profileSpace, tierFlag, profileIdc, compatibilityFlags, constraintFlags, levelIdc };
}

/** Parses an SPS NAL unit (with its two-byte header, emulation prevention still in). */
export function parseH265Sps(nal: Uint8Array): H265Sps {
  const { type } = h265NalHeader(nal);
  if (type !== H265Nal.sps) throw new CodecError('bad-value', `h265 sps: NAL type ${type}`);
  const r = new BitReader(removeEmulationPrevention(nal.subarray(2)));
  const vpsId = r.u(4);
  const maxSubLayersMinus1 = r.u(3);
  if (maxSubLayersMinus1 > 6) throw new CodecError('bad-value', 'h265 sps: sps_max_sub_layers_minus1 above 6');
  const temporalIdNesting = r.flag();
  const ptl = readPtl(r, maxSubLayersMinus1);
  const spsId = r.ue();
  if (spsId > 15) throw new CodecError('bad-value', `h265 sps: sps_seq_parameter_set_id ${spsId}`);
  const chromaFormatIdc = r.ue();
  if (chromaFormatIdc > 3) throw new CodecError('bad-value', `h265 sps: chroma_format_idc ${chromaFormatIdc}`);
  const separateColourPlane = chromaFormatIdc === 3 ? r.flag() : false;
  const codedWidth = r.ue();
  const codedHeight = r.ue();
  if (codedWidth === 0 || codedHeight === 0 || codedWidth > 16888 || codedHeight > 16888) {
    throw new CodecError('bad-value', `h265 sps: picture size ${codedWidth}x${codedHeight}`);
  }
  let width = codedWidth;
  let height = codedHeight;
  if (r.flag()) {
    const [left, right, top, bottom] = [r.ue(), r.ue(), r.ue(), r.ue()];
    const arrayType = separateColourPlane ? 0 : chromaFormatIdc;
    const subW = arrayType === 1 || arrayType === 2 ? 2 : 1;
    const subH = arrayType === 1 ? 2 : 1;
    width -= subW * (left + right);
    height -= subH * (top + bottom);
    if (width <= 0 || height <= 0) throw new CodecError('bad-value', 'h265 sps: conformance window leaves no picture');
  }
  const bitDepthLuma = 8 + r.ue();
  const bitDepthChroma = 8 + r.ue();
  if (bitDepthLuma > 16 || bitDepthChroma > 16) throw new CodecError('bad-value', 'h265 sps: bit depth above 16');
  return {
    vpsId,
    maxSubLayers: maxSubLayersMinus1 + 1,
    temporalIdNesting,
    ptl,
    spsId,
    chromaFormatIdc,
    bitDepthLuma,
    bitDepthChroma,
    codedWidth,
    codedHeight,
    width,
    height,
  };
}

export interface H265Vps {
  vpsId: number;
  maxSubLayers: number;
  ptl: H265ProfileTierLevel;
  /** From vps_timing_info: frames per second = timeScale / numUnitsInTick. */
  timing?: { numUnitsInTick: number; timeScale: number };
  frameRate?: number;
}

/** Parses a VPS NAL unit up to its timing info. */
export function parseH265Vps(nal: Uint8Array): H265Vps {
  const { type } = h265NalHeader(nal);
  if (type !== H265Nal.vps) throw new CodecError('bad-value', `h265 vps: NAL type ${type}`);
  const r = new BitReader(removeEmulationPrevention(nal.subarray(2)));
  const vpsId = r.u(4);
  r.skip(8); // base_layer_internal, base_layer_available, max_layers_minus1
  const maxSubLayersMinus1 = r.u(3);
  if (maxSubLayersMinus1 > 6) throw new CodecError('bad-value', 'h265 vps: vps_max_sub_layers_minus1 above 6');
  r.skip(17); // temporal_id_nesting, reserved 0xffff
  const ptl = readPtl(r, maxSubLayersMinus1);
  const vps: H265Vps = { vpsId, maxSubLayers: maxSubLayersMinus1 + 1, ptl };
  const orderingAll = r.flag();
  for (let i = orderingAll ? 0 : maxSubLayersMinus1; i <= maxSubLayersMinus1; i++) {
    r.ue();
    r.ue();
    r.ue();
  }
  const maxLayerId = r.u(6);
  const layerSets = r.ue();
  if (layerSets > 1023) throw new CodecError('bad-value', 'h265 vps: vps_num_layer_sets_minus1 above 1023');
  r.skip(layerSets * (maxLayerId + 1));
  if (r.flag()) {
    const numUnitsInTick = r.u(32);
    const timeScale = r.u(32);
    vps.timing = { numUnitsInTick, timeScale };
    if (numUnitsInTick > 0 && timeScale > 0) vps.frameRate = timeScale / numUnitsInTick;
  }
  return vps;
}

/** Bits of a 32-bit number in reverse order. */
function reverse32(v: number): number {
  let out = 0;
  for (let i = 0; i < 32; i++) out = out * 2 + (Math.floor(v / 2 ** i) & 1);
  return out;
}

/**
 * RFC 6381 / ISO 14496-15 E.3 codec string, e.g. hvc1.1.6.L93.B0: profile space letter and profile,
 * the compatibility flags bit-reversed in hex, tier and level, then the constraint bytes without the
 * trailing zero ones.
 */
export function hevcCodecString(sps: H265Sps | Uint8Array, fourcc: 'hvc1' | 'hev1' = 'hvc1'): string {
  const { ptl } = sps instanceof Uint8Array ? parseH265Sps(sps) : sps;
  const space = ['', 'A', 'B', 'C'][ptl.profileSpace];
  const parts = [fourcc, `${space}${ptl.profileIdc}`, reverse32(ptl.compatibilityFlags).toString(16).toUpperCase(), `${ptl.tierFlag ? 'H' : 'L'}${ptl.levelIdc}`];
  let last = 6;
  while (last > 0 && ptl.constraintFlags[last - 1] === 0) last--;
  for (let i = 0; i < last; i++) parts.push(ptl.constraintFlags[i].toString(16).toUpperCase());
  return parts.join('.');
}

/**
 * HEVCDecoderConfigurationRecord with 4-byte NAL lengths and complete VPS, SPS, PPS arrays (in that
 * order), laid out as ffmpeg's mp4 muxer writes it (no spatial segmentation or parallelism hints,
 * average frame rate 0).
 */
export function buildHvcC(ps: { vps: readonly Uint8Array[]; sps: readonly Uint8Array[]; pps: readonly Uint8Array[] }): Uint8Array {
  if (ps.vps.length === 0 || ps.sps.length === 0 || ps.pps.length === 0) {
    throw new CodecError('bad-value', 'hvcC: needs at least one VPS, SPS and PPS');
  }
  const sps = parseH265Sps(ps.sps[0]);
  const { ptl } = sps;
  const out: number[] = [
    1,
    (ptl.profileSpace << 6) | (ptl.tierFlag << 5) | ptl.profileIdc,
    (ptl.compatibilityFlags >>> 24) & 0xff,
    (ptl.compatibilityFlags >>> 16) & 0xff,
    (ptl.compatibilityFlags >>> 8) & 0xff,
    ptl.compatibilityFlags & 0xff,
    ...ptl.constraintFlags,
    ptl.levelIdc,
    0xf0,
    0x00,
    0xfc,
    0xfc | sps.chromaFormatIdc,
    0xf8 | (sps.bitDepthLuma - 8),
    0xf8 | (sps.bitDepthChroma - 8),
    0,
    0,
    (sps.maxSubLayers << 3) | ((sps.temporalIdNesting ? 1 : 0) << 2) | 3,
    3,
  ];
  for (const [type, list] of [[H265Nal.vps, ps.vps], [H265Nal.sps, ps.sps], [H265Nal.pps, ps.pps]] as const) {
    if (list.length > 0xffff) throw new CodecError('bad-value', 'hvcC: too many parameter sets');
    out.push(0x80 | type, list.length >> 8, list.length & 0xff);
    for (const p of list) {
      if (p.length > 0xffff) throw new CodecError('bad-value', 'hvcC: parameter set above 65535 bytes');
      out.push(p.length >> 8, p.length & 0xff, ...p);
    }
  }
  return Uint8Array.from(out);
}
