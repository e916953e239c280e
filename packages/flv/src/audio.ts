/**
 * Audio tag bodies: AAC (sound format 10: a sequence header with the AudioSpecificConfig, then raw
 * frames) and G.711 (format 7 A-law, 8 µ-law). The first byte is
 * format(4) | rate(2) | size(1) | type(1); for AAC the spec fixes it to 44 kHz/16-bit/stereo (0xAF) and
 * decoders read the real values from the AudioSpecificConfig; G.711 is 8 kHz by definition, written
 * with rate index 0 and 16-bit size, as ffmpeg's muxer does.
 */
import type { AudioTrack } from '@opencvr/codec';

export const SoundFormat = { pcma: 7, pcmu: 8, aac: 10 } as const;
export const AacPacketType = { sequenceHeader: 0, raw: 1 } as const;

export function soundFormat(track: AudioTrack): number {
  return SoundFormat[track.codec];
}

/** The first byte of every audio tag of this track. */
export function audioFlags(track: AudioTrack): number {
  if (track.codec === 'aac') return 0xaf;
  return (soundFormat(track) << 4) | (0 << 2) | (1 << 1) | (track.channels > 1 ? 1 : 0);
}

/** Body of the AAC sequence header tag; G.711 has none. */
export function audioSequenceHeader(track: AudioTrack): Uint8Array[] | undefined {
  if (track.codec !== 'aac') return undefined;
  return [Uint8Array.of(audioFlags(track), AacPacketType.sequenceHeader), track.config];
}

export function audioFrame(track: AudioTrack, data: Uint8Array): Uint8Array[] {
  return track.codec === 'aac'
    ? [Uint8Array.of(audioFlags(track), AacPacketType.raw), data]
    : [Uint8Array.of(audioFlags(track)), data];
}
