/** Start codes and stream types of an MPEG-2 Program Stream (ISO/IEC 13818-1 2.5 and table 2-34). */
import type { AudioCodec, VideoCodec } from '@opencvr/codec';

export const StartCode = {
  programEnd: 0xb9,
  pack: 0xba,
  systemHeader: 0xbb,
  streamMap: 0xbc,
  privateStream1: 0xbd,
  padding: 0xbe,
  privateStream2: 0xbf,
} as const;

/** PES stream ids that carry audio (0xC0-0xDF) and video (0xE0-0xEF). */
export const isAudioStreamId = (id: number): boolean => id >= 0xc0 && id <= 0xdf;
export const isVideoStreamId = (id: number): boolean => id >= 0xe0 && id <= 0xef;

/** PSM stream_type values seen from GB28181 devices (GB/T 28181 annex C and ISO/IEC 13818-1 table 2-34). */
export const StreamType = {
  mpeg2Video: 0x02,
  aac: 0x0f,
  mpeg4Video: 0x10,
  h264: 0x1b,
  h265: 0x24,
  svac: 0x80,
  pcma: 0x90,
  pcmu: 0x91,
  g7221: 0x92,
  g7231: 0x93,
  g729: 0x99,
  svacAudio: 0x9b,
} as const;

/** The codec of a stream type this platform plays, or undefined (reported as unsupported). */
export function codecOfStreamType(streamType: number): VideoCodec | AudioCodec | undefined {
  switch (streamType) {
    case StreamType.h264:
      return 'h264';
    case StreamType.h265:
      return 'h265';
    case StreamType.aac:
      return 'aac';
    case StreamType.pcma:
      return 'pcma';
    case StreamType.pcmu:
      return 'pcmu';
    default:
      return undefined;
  }
}

/** A readable name for a stream type, for messages about unsupported streams. */
export function streamTypeName(streamType: number): string {
  const names: Record<number, string> = {
    0x01: 'MPEG-1 video',
    0x02: 'MPEG-2 video',
    0x03: 'MPEG-1 audio',
    0x04: 'MPEG-2 audio',
    0x0f: 'AAC',
    0x10: 'MPEG-4 video',
    0x1b: 'H.264',
    0x24: 'H.265',
    0x80: 'SVAC video',
    0x90: 'G.711 A-law',
    0x91: 'G.711 µ-law',
    0x92: 'G.722.1',
    0x93: 'G.723.1',
    0x99: 'G.729',
    0x9b: 'SVAC audio',
  };
  return `${names[streamType] ?? 'unknown'} (stream_type 0x${streamType.toString(16).padStart(2, '0')})`;
}

/** 33-bit PTS/DTS/SCR clock (90 kHz). */
export const PTS_MODULO = 2 ** 33;
