/**
 * Which NAL units of an access unit go into an MP4 sample. Parameter sets and access-unit delimiters
 * live in the init segment (or are meaningless in MP4); SEI is kept unless asked otherwise.
 */
import { sameBytes, type VideoAccessUnit, type VideoCodec, type VideoTrack } from '@opencvr/codec';

const H264_DROP = new Set([7, 8, 9, 13, 15]); // SPS, PPS, AUD, SPS extension, subset SPS
const H265_DROP = new Set([32, 33, 34, 35]); // VPS, SPS, PPS, AUD

export function keepNal(codec: VideoCodec, nal: Uint8Array, dropSei: boolean): boolean {
  if (nal.length === 0) return false;
  if (codec === 'h264') {
    const type = nal[0] & 0x1f;
    return !H264_DROP.has(type) && !(dropSei && type === 6);
  }
  const type = (nal[0] >> 1) & 0x3f;
  return !H265_DROP.has(type) && !(dropSei && (type === 39 || type === 40));
}

/** Bytes of the sample: 4-byte length + NAL unit for each kept NAL. */
export function videoSampleSize(codec: VideoCodec, nalus: readonly Uint8Array[], dropSei: boolean): number {
  let n = 0;
  for (const nal of nalus) if (keepNal(codec, nal, dropSei)) n += 4 + nal.length;
  return n;
}

/**
 * True when a video unit carries an SPS, PPS or VPS that differs from the track's (a camera changed
 * resolution or profile). Samples are written without parameter sets, so the caller must then start a
 * new init segment (and Fragmenter) from the unit's parameter sets, or the picture breaks.
 */
export function parameterSetsChanged(track: VideoTrack, unit: VideoAccessUnit): boolean {
  for (const nal of unit.nalus) {
    if (nal.length === 0) continue;
    const type = track.codec === 'h264' ? nal[0] & 0x1f : (nal[0] >> 1) & 0x3f;
    const known =
      track.codec === 'h264'
        ? type === 7
          ? track.sps
          : type === 8
            ? track.pps
            : undefined
        : type === 32
          ? track.vps
          : type === 33
            ? track.sps
            : type === 34
              ? track.pps
              : undefined;
    if (known && !sameBytes(known, nal)) return true;
  }
  return false;
}
