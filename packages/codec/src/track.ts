/** Tracks from what a source tells: parameter sets for video, an AudioSpecificConfig or G.711 for audio. */
import { aacCodecString, parseAudioSpecificConfig } from './aac.js';
import { CodecError } from './errors.js';
import { avcCodecString, H264Nal, h264NalType, parseH264Sps } from './h264.js';
import { H265Nal, h265NalType, hevcCodecString, parseH265Sps } from './h265.js';
import type { AudioTrack, VideoTrack } from './types.js';

/**
 * A VideoTrack from the first SPS and PPS (and VPS for h265); size and codec string come from the SPS.
 * The track keeps copies: the sets are often views of a unit's bytes, which an ingest lends and reuses.
 */
export function videoTrackFromParameterSets(
  codec: 'h264' | 'h265',
  ps: { sps: Uint8Array; pps: Uint8Array; vps?: Uint8Array },
): VideoTrack {
  if (codec === 'h264') {
    const sps = parseH264Sps(ps.sps);
    return { kind: 'video', codec, sps: ps.sps.slice(), pps: ps.pps.slice(), width: sps.width, height: sps.height, codecString: avcCodecString(ps.sps), clockRate: 90000 };
  }
  if (!ps.vps) throw new CodecError('bad-value', 'h265 track: needs a VPS');
  const sps = parseH265Sps(ps.sps);
  return {
    kind: 'video',
    codec,
    vps: ps.vps.slice(),
    sps: ps.sps.slice(),
    pps: ps.pps.slice(),
    width: sps.width,
    height: sps.height,
    codecString: hevcCodecString(sps),
    clockRate: 90000,
  };
}

export function aacTrack(config: Uint8Array): AudioTrack {
  const asc = parseAudioSpecificConfig(config);
  return {
    kind: 'audio',
    codec: 'aac',
    sampleRate: asc.sampleRate,
    channels: asc.channels,
    config,
    codecString: aacCodecString(asc.objectType),
    clockRate: asc.sampleRate,
  };
}

export function g711Track(codec: 'pcma' | 'pcmu', sampleRate = 8000, channels = 1): AudioTrack {
  return { kind: 'audio', codec, sampleRate, channels, config: new Uint8Array(0), codecString: codec === 'pcma' ? 'alaw' : 'ulaw', clockRate: sampleRate };
}

/**
 * The parameter sets among some NAL units (the last of each kind wins), for sources that send them
 * in band instead of in the SDP: feed each access unit's units until `complete`.
 */
export function findParameterSets(
  codec: 'h264' | 'h265',
  nalus: readonly Uint8Array[],
  found: { vps?: Uint8Array; sps?: Uint8Array; pps?: Uint8Array } = {},
): { vps?: Uint8Array; sps?: Uint8Array; pps?: Uint8Array; complete: boolean } {
  const out = { ...found };
  for (const n of nalus) {
    if (codec === 'h264') {
      const t = h264NalType(n);
      if (t === H264Nal.sps) out.sps = n;
      else if (t === H264Nal.pps) out.pps = n;
    } else {
      const t = h265NalType(n);
      if (t === H265Nal.vps) out.vps = n;
      else if (t === H265Nal.sps) out.sps = n;
      else if (t === H265Nal.pps) out.pps = n;
    }
  }
  return { ...out, complete: Boolean(out.sps && out.pps && (codec === 'h264' || out.vps)) };
}
