/**
 * H.264 (ISO/IEC 14496-10) helpers: NAL unit types, the sequence parameter set, the RFC 6381 codec
 * string and the AVCDecoderConfigurationRecord (avcC, ISO/IEC 14496-15 5.3.3.1).
 */
import { removeEmulationPrevention, toHex } from './annexb.js';
import { BitReader } from './bits.js';
import { CodecError } from './errors.js';

export const H264Nal = {
  slice: 1,
  sliceA: 2,
  idr: 5,
  sei: 6,
  sps: 7,
  pps: 8,
  aud: 9,
  endOfSequence: 10,
  endOfStream: 11,
  filler: 12,
} as const;

export const h264NalType = (nal: Uint8Array): number => (nal.length > 0 ? nal[0] & 0x1f : 0);
/** An IDR slice: the access unit that holds it can be decoded on its own. */
export const isH264Keyframe = (nal: Uint8Array): boolean => h264NalType(nal) === H264Nal.idr;
/** A VCL NAL unit (coded slice data). */
export const isH264Vcl = (nal: Uint8Array): boolean => {
  const t = h264NalType(nal);
  return t >= 1 && t <= 5;
};

export interface H264Sps {
  profileIdc: number;
  /** constraint_set0..5 flags and the two reserved bits, as the byte after profile_idc. */
  constraintFlags: number;
  levelIdc: number;
  spsId: number;
  chromaFormatIdc: number;
  bitDepthLuma: number;
  bitDepthChroma: number;
  frameMbsOnly: boolean;
  /** Coded size (whole macroblocks) and the displayed size after the frame cropping rectangle. */
  codedWidth: number;
  codedHeight: number;
  width: number;
  height: number;
  /** From VUI timing_info: frames per second = timeScale / (2 * numUnitsInTick). */
  timing?: { numUnitsInTick: number; timeScale: number; fixedFrameRate: boolean };
  frameRate?: number;
  sarWidth?: number;
  sarHeight?: number;
}

/** Profiles whose SPS carries chroma_format_idc, bit depths and scaling matrices. */
const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

/** Table E-1 sample aspect ratios by aspect_ratio_idc. */
const SAR: [number, number][] = [
  [0, 0], [1, 1], [12, 11], [10, 11], [16, 11], [40, 33], [24, 11], [20, 11], [32, 11],
  [80, 33], [18, 11], [15, 11], [64, 33], [160, 99], [4, 3], [3, 2], [2, 1],
];

/** Parses an SPS NAL unit (with its one-byte header, emulation prevention still in). */
export function parseH264Sps(nal: Uint8Array): H264Sps {
  if (nal.length < 4) throw new CodecError('truncated', 'h264 sps: too short');
  if (h264NalType(nal) !== H264Nal.sps) throw new CodecError('bad-value', `h264 sps: NAL type ${h264NalType(nal)}`);
  const r = new BitReader(removeEmulationPrevention(nal.subarray(1)));
  const profileIdc = r.u(8);
  const constraintFlags = r.u(8);
  const levelIdc = r.u(8);
  const spsId = r.ue();
  if (spsId > 31) throw new CodecError('bad-value', `h264 sps: seq_parameter_set_id ${spsId}`);
  let chromaFormatIdc = 1;
  let bitDepthLuma = 8;
  let bitDepthChroma = 8;
  let separateColourPlane = false;
  if (HIGH_PROFILES.has(profileIdc)) {
    chromaFormatIdc = r.ue();
    if (chromaFormatIdc > 3) throw new CodecError('bad-value', `h264 sps: chroma_format_idc ${chromaFormatIdc}`);
    if (chromaFormatIdc === 3) separateColourPlane = r.flag();
    bitDepthLuma = 8 + r.ue();
    bitDepthChroma = 8 + r.ue();
    if (bitDepthLuma > 14 || bitDepthChroma > 14) throw new CodecError('bad-value', 'h264 sps: bit depth above 14');
    r.skip(1); // qpprime_y_zero_transform_bypass_flag
    if (r.flag()) {
      const lists = chromaFormatIdc !== 3 ? 8 : 12;
      for (let i = 0; i < lists; i++) if (r.flag()) skipScalingList(r, i < 6 ? 16 : 64);
    }
  }
  const log2MaxFrameNum = r.ue() + 4;
  if (log2MaxFrameNum > 16) throw new CodecError('bad-value', 'h264 sps: log2_max_frame_num above 16');
  const pocType = r.ue();
  if (pocType === 0) {
    r.ue(); // log2_max_pic_order_cnt_lsb_minus4
  } else if (pocType === 1) {
    r.skip(1); // delta_pic_order_always_zero_flag
    r.se();
    r.se();
    const cycle = r.ue();
    if (cycle > 255) throw new CodecError('bad-value', 'h264 sps: num_ref_frames_in_pic_order_cnt_cycle above 255');
    for (let i = 0; i < cycle; i++) r.se();
  } else if (pocType !== 2) {
    throw new CodecError('bad-value', `h264 sps: pic_order_cnt_type ${pocType}`);
  }
  r.ue(); // max_num_ref_frames
  r.skip(1); // gaps_in_frame_num_value_allowed_flag
  const widthMbs = r.ue() + 1;
  const heightMapUnits = r.ue() + 1;
  const frameMbsOnly = r.flag();
  if (!frameMbsOnly) r.skip(1); // mb_adaptive_frame_field_flag
  r.skip(1); // direct_8x8_inference_flag
  const codedWidth = widthMbs * 16;
  const codedHeight = heightMapUnits * 16 * (frameMbsOnly ? 1 : 2);
  let width = codedWidth;
  let height = codedHeight;
  if (r.flag()) {
    const [left, right, top, bottom] = [r.ue(), r.ue(), r.ue(), r.ue()];
    const arrayType = separateColourPlane ? 0 : chromaFormatIdc;
    const cropX = arrayType === 0 ? 1 : arrayType === 3 ? 1 : 2;
    const cropY = (arrayType === 1 ? 2 : 1) * (frameMbsOnly ? 1 : 2);
    width -= cropX * (left + right);
    height -= cropY * (top + bottom);
    if (width <= 0 || height <= 0) throw new CodecError('bad-value', 'h264 sps: cropping leaves no picture');
  }
  const sps: H264Sps = {
    profileIdc,
    constraintFlags,
    levelIdc,
    spsId,
    chromaFormatIdc,
    bitDepthLuma,
    bitDepthChroma,
    frameMbsOnly,
    codedWidth,
    codedHeight,
    width,
    height,
  };
  if (r.bitsLeft > 0 && r.flag()) readVui(r, sps);
  return sps;
}

function skipScalingList(r: BitReader, size: number): void {
  let last = 8;
  let next = 8;
  for (let j = 0; j < size; j++) {
    if (next !== 0) {
      const delta = r.se();
      next = (last + delta + 256) % 256;
    }
    last = next === 0 ? last : next;
  }
}

/** The VUI up to timing_info: sample aspect ratio and frame rate. A truncated VUI keeps what was read. */
function readVui(r: BitReader, sps: H264Sps): void {
  try {
    if (r.flag()) {
      const idc = r.u(8);
      if (idc === 255) {
        sps.sarWidth = r.u(16);
        sps.sarHeight = r.u(16);
      } else if (idc < SAR.length && idc > 0) {
        [sps.sarWidth, sps.sarHeight] = SAR[idc];
      }
    }
    if (r.flag()) r.skip(1); // overscan_appropriate_flag
    if (r.flag()) {
      r.skip(4); // video_format, video_full_range_flag
      if (r.flag()) r.skip(24); // colour description
    }
    if (r.flag()) {
      r.ue();
      r.ue();
    }
    if (r.flag()) {
      const numUnitsInTick = r.u(32);
      const timeScale = r.u(32);
      const fixedFrameRate = r.flag();
      sps.timing = { numUnitsInTick, timeScale, fixedFrameRate };
      if (numUnitsInTick > 0 && timeScale > 0) sps.frameRate = timeScale / (2 * numUnitsInTick);
    }
  } catch (err) {
    if (!(err instanceof CodecError)) throw err;
  }
}

/** RFC 6381 codec string from an SPS NAL unit: avc1.PPCCLL (profile, constraint flags, level in hex). */
export function avcCodecString(sps: Uint8Array): string {
  if (sps.length < 4) throw new CodecError('truncated', 'h264 sps: too short for a codec string');
  return `avc1.${toHex(sps.subarray(1, 4))}`;
}

/**
 * AVCDecoderConfigurationRecord with 4-byte NAL lengths. High profiles get the chroma format and bit
 * depth extension, as ffmpeg's mp4 muxer writes it (all but profiles 66, 77 and 88).
 */
export function buildAvcC(spsList: readonly Uint8Array[], ppsList: readonly Uint8Array[]): Uint8Array {
  if (spsList.length === 0 || ppsList.length === 0) throw new CodecError('bad-value', 'avcC: needs at least one SPS and one PPS');
  if (spsList.length > 31 || ppsList.length > 255) throw new CodecError('bad-value', 'avcC: too many parameter sets');
  for (const p of [...spsList, ...ppsList]) {
    if (p.length > 0xffff) throw new CodecError('bad-value', 'avcC: parameter set above 65535 bytes');
  }
  const sps = parseH264Sps(spsList[0]);
  const ext = ![66, 77, 88].includes(sps.profileIdc);
  const out: number[] = [1, spsList[0][1], spsList[0][2], spsList[0][3], 0xff, 0xe0 | spsList.length];
  for (const p of spsList) out.push(p.length >> 8, p.length & 0xff, ...p);
  out.push(ppsList.length);
  for (const p of ppsList) out.push(p.length >> 8, p.length & 0xff, ...p);
  if (ext) out.push(0xfc | sps.chromaFormatIdc, 0xf8 | (sps.bitDepthLuma - 8), 0xf8 | (sps.bitDepthChroma - 8), 0);
  return Uint8Array.from(out);
}
