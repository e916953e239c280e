/**
 * Video tag bodies. H.264 is FLV codec id 7 (AVCPacketType, SI24 composition time, AVCC NAL units;
 * the sequence header carries the AVCDecoderConfigurationRecord). H.265 is written either as
 * enhanced RTMP/FLV ('hvc1' FourCC with an ex-header, the default) or as the legacy codec id 12 of
 * Chinese players and servers (the AVC layout with an HEVCDecoderConfigurationRecord).
 */
import { buildAvcC, buildHvcC, type VideoTrack } from '@opencvr/codec';

export const VideoCodecId = { avc: 7, hevcLegacy: 12 } as const;
export const FrameType = { key: 1, inter: 2 } as const;
/** AVCPacketType (legacy layout). */
export const AvcPacketType = { sequenceHeader: 0, nalu: 1, endOfSequence: 2 } as const;
/** Enhanced RTMP VideoPacketType. */
export const ExPacketType = { sequenceStart: 0, codedFrames: 1, sequenceEnd: 2, codedFramesX: 3, metadata: 4 } as const;
export const HVC1_FOURCC = Uint8Array.of(0x68, 0x76, 0x63, 0x31); // 'hvc1'
/** 'hvc1' read as a big-endian number: onMetaData's videocodecid in enhanced FLV. */
export const HVC1_FOURCC_NUMBER = 0x68766331;

/**
 * enhanced: enhanced RTMP v1 (Veovera), read by ffmpeg ≥ 6.1, OBS, SRS 6, mediamtx, mpegts.js, flv.js
 * forks; codec-id-12: the older convention of Chinese vendors (EasyPlayer, Jessibuca, ZLMediaKit).
 */
export type HevcMode = 'enhanced' | 'codec-id-12';

/** The decoder configuration record of a video track (avcC or hvcC). */
export function videoConfig(track: VideoTrack): Uint8Array {
  if (track.codec === 'h264') return buildAvcC([track.sps], [track.pps]);
  if (!track.vps) throw new RangeError('flv: an h265 track needs a VPS');
  return buildHvcC({ vps: [track.vps], sps: [track.sps], pps: [track.pps] });
}

/** onMetaData's videocodecid for a track. */
export function videoCodecId(track: VideoTrack, hevc: HevcMode): number {
  if (track.codec === 'h264') return VideoCodecId.avc;
  return hevc === 'enhanced' ? HVC1_FOURCC_NUMBER : VideoCodecId.hevcLegacy;
}

const si24 = (v: number) => {
  const c = Math.max(-0x800000, Math.min(0x7fffff, Math.round(v)));
  return [(c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff];
};

function legacyHeader(codecId: number, frameType: number, packetType: number, cts: number): Uint8Array {
  return Uint8Array.of((frameType << 4) | codecId, packetType, ...si24(cts));
}

function exHeader(frameType: number, packetType: number, cts?: number): Uint8Array {
  return Uint8Array.of(0x80 | (frameType << 4) | packetType, ...HVC1_FOURCC, ...(cts === undefined ? [] : si24(cts)));
}

/** Body of the sequence header tag (decoder configuration) of a track. */
export function videoSequenceHeader(track: VideoTrack, hevc: HevcMode, config = videoConfig(track)): Uint8Array[] {
  if (track.codec === 'h264')
    return [legacyHeader(VideoCodecId.avc, FrameType.key, AvcPacketType.sequenceHeader, 0), config];
  if (hevc === 'codec-id-12')
    return [legacyHeader(VideoCodecId.hevcLegacy, FrameType.key, AvcPacketType.sequenceHeader, 0), config];
  return [exHeader(FrameType.key, ExPacketType.sequenceStart), config];
}

/** Body of the end-of-sequence tag. */
export function videoEndOfSequence(track: VideoTrack, hevc: HevcMode): Uint8Array[] {
  if (track.codec === 'h264') return [legacyHeader(VideoCodecId.avc, FrameType.key, AvcPacketType.endOfSequence, 0)];
  if (hevc === 'codec-id-12')
    return [legacyHeader(VideoCodecId.hevcLegacy, FrameType.key, AvcPacketType.endOfSequence, 0)];
  return [exHeader(FrameType.key, ExPacketType.sequenceEnd)];
}

/** Access-unit delimiters are dropped (meaningless in FLV); parameter sets stay in band. */
export function keepFlvNal(codec: VideoTrack['codec'], nal: Uint8Array): boolean {
  if (nal.length === 0) return false;
  return codec === 'h264' ? (nal[0] & 0x1f) !== 9 : ((nal[0] >> 1) & 0x3f) !== 35;
}

/**
 * Body of a coded-frame tag: the header, then each kept NAL unit as a 4-byte length + the unit
 * (returned as parts, so the tag writer copies each NAL once). `ctsMs` = pts − dts in ms.
 */
export function videoFrame(
  track: VideoTrack,
  hevc: HevcMode,
  keyframe: boolean,
  ctsMs: number,
  nalus: readonly Uint8Array[],
): Uint8Array[] {
  const ft = keyframe ? FrameType.key : FrameType.inter;
  const head =
    track.codec === 'h264'
      ? legacyHeader(VideoCodecId.avc, ft, AvcPacketType.nalu, ctsMs)
      : hevc === 'codec-id-12'
        ? legacyHeader(VideoCodecId.hevcLegacy, ft, AvcPacketType.nalu, ctsMs)
        : exHeader(ft, ExPacketType.codedFrames, ctsMs);
  const parts: Uint8Array[] = [head];
  for (const nal of nalus) {
    if (!keepFlvNal(track.codec, nal)) continue;
    const n = nal.length;
    parts.push(Uint8Array.of(n >>> 24, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff), nal);
  }
  return parts;
}
