/**
 * Test-only access-unit grouping of Annex-B NAL units (ITU-T H.264 7.4.1.2.3, H.265 7.4.2.4.4); the
 * start-code split is @opencvr/codec's splitAnnexB.
 */
import type { VideoCodec } from '@opencvr/codec';

export const nalType = (codec: VideoCodec, nal: Uint8Array): number =>
  codec === 'h264' ? nal[0] & 0x1f : (nal[0] >> 1) & 0x3f;

const isVcl = (codec: VideoCodec, t: number) => (codec === 'h264' ? t >= 1 && t <= 5 : t <= 31);
/** NAL units that may only come before the first VCL NAL unit of an access unit. */
const isPrefix = (codec: VideoCodec, t: number) =>
  codec === 'h264'
    ? [6, 7, 8, 9, 10, 11, 13, 14, 15].includes(t)
    : [32, 33, 34, 35, 36, 37, 39, 41, 42, 43, 44].includes(t) || (t >= 48 && t <= 55);
/** first_mb_in_slice == 0 (ue '1') / first_slice_segment_in_pic_flag. */
const firstSlice = (codec: VideoCodec, nal: Uint8Array) =>
  codec === 'h264' ? (nal[1] & 0x80) !== 0 : (nal[2] & 0x80) !== 0;

export function accessUnits(codec: VideoCodec, nalus: Uint8Array[]): Uint8Array[][] {
  const aus: Uint8Array[][] = [];
  let cur: Uint8Array[] = [];
  let sawVcl = false;
  for (const nal of nalus) {
    const t = nalType(codec, nal);
    const vcl = isVcl(codec, t);
    if (sawVcl && ((vcl && firstSlice(codec, nal)) || isPrefix(codec, t))) {
      aus.push(cur);
      cur = [];
      sawVcl = false;
    }
    cur.push(nal);
    if (vcl) sawVcl = true;
  }
  if (cur.length) aus.push(cur);
  return aus;
}
