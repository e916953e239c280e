/**
 * From an SDP media section (packages/rtsp's parser) to what the hub needs: the codec package's track
 * (when the SDP carries enough to build it) and a depacketiser for its payload type.
 */
import {
  aacTrack,
  CodecError,
  g711Track,
  h264NalType,
  h265NalType,
  H265Nal,
  parseAudioSpecificConfig,
  videoTrackFromParameterSets,
  type AudioCodec,
  type Track,
  type VideoCodec,
} from '@opencvr/codec';
import type { Sdp, SdpMedia } from '@opencvr/rtsp';
import { AacDepacketiser } from './aac.js';
import type { Depacketiser, DepacketiserLimits } from './depacketiser.js';
import { RtpError } from './errors.js';
import { G711Depacketiser } from './g711.js';
import { H264Depacketiser } from './h264.js';
import { H265Depacketiser } from './h265.js';

export interface MediaTrack {
  payloadType: number;
  codec: VideoCodec | AudioCodec;
  clockRate: number;
  control?: string;
  /**
   * The track, when the SDP has what it takes (parameter sets for video, config= for AAC). Without
   * it, video waits for in-band SPS/PPS (videoTrackFromParameterSets).
   */
  track?: Track;
  /** Parameter sets of the SDP, when any (video). */
  parameterSets?: { vps?: Uint8Array; sps?: Uint8Array; pps?: Uint8Array };
  /** Options are the depacketiser's limits; `lendUnits` applies to video (audio units are always given). */
  createDepacketiser(options?: DepacketiserLimits): Depacketiser;
}

/** Static payload types a camera may send without an rtpmap. */
const STATIC: Record<number, { encoding: string; clockRate: number; channels?: number }> = {
  0: { encoding: 'PCMU', clockRate: 8000, channels: 1 },
  8: { encoding: 'PCMA', clockRate: 8000, channels: 1 },
};

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 (standard or URL-safe, padding optional) to bytes; RtpError on other characters. */
export function decodeBase64(text: string): Uint8Array {
  const s = text.trim().replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  const out = new Uint8Array(Math.floor((s.length * 6) / 8));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (const ch of s) {
    const v = B64.indexOf(ch);
    if (v < 0) throw new RtpError('bad-sdp', `base64: unexpected character ${JSON.stringify(ch)}`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, o);
}

function hexBytes(hex: string): Uint8Array {
  const h = hex.trim();
  if (!/^([0-9a-f]{2})+$/i.test(h)) throw new RtpError('bad-sdp', `config=${hex}: not hex`);
  return Uint8Array.from(h.match(/../g)!, (x) => parseInt(x, 16));
}

const lower = (params: Record<string, string> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(params ?? {}).map(([k, v]) => [k.toLowerCase(), v]));

const int = (v: string | undefined, dflt: number): number => {
  if (v === undefined || v.trim() === '') return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new RtpError('bad-sdp', `fmtp: ${v} is not a count`);
  return n;
};

/** Builds a track without letting a bad parameter set fail the whole media. */
function tryTrack(build: () => Track): Track | undefined {
  try {
    return build();
  } catch (err) {
    if (err instanceof CodecError || err instanceof RtpError) return undefined;
    throw err;
  }
}

/**
 * The first payload format of `media` that can be depacketised. Throws RtpError('unsupported') when
 * none can (with the encodings in the message) and 'bad-sdp' on malformed parameters.
 */
export function mediaTrack(media: SdpMedia): MediaTrack {
  const seen: string[] = [];
  for (const f of media.formats) {
    const payloadType = Number(f);
    if (!Number.isInteger(payloadType) || payloadType < 0 || payloadType > 127) continue;
    const map = media.rtpmap.find((r) => r.payloadType === payloadType) ?? STATIC[payloadType];
    if (!map) continue;
    const encoding = map.encoding.toUpperCase();
    seen.push(encoding);
    const fmtp = lower(media.fmtp[f]);
    const base = { payloadType, clockRate: map.clockRate, ...(media.control ? { control: media.control } : {}) };
    switch (encoding) {
      case 'H264': {
        if (int(fmtp['packetization-mode'], 0) > 1) throw new RtpError('unsupported', 'h264: packetization-mode=2 (interleaved) is not supported');
        const sets = (fmtp['sprop-parameter-sets'] ?? '').split(',').filter((s) => s.trim()).map(decodeBase64);
        const sps = sets.find((n) => h264NalType(n) === 7);
        const pps = sets.find((n) => h264NalType(n) === 8);
        const track = sps && pps ? tryTrack(() => videoTrackFromParameterSets('h264', { sps, pps })) : undefined;
        return { ...base, codec: 'h264', ...(track ? { track } : {}), parameterSets: { sps, pps }, createDepacketiser: (o) => new H264Depacketiser(o) };
      }
      case 'H265':
      case 'HEVC': {
        const maxDonDiff = int(fmtp['sprop-max-don-diff'], 0);
        if (maxDonDiff > 0 || int(fmtp['sprop-depack-buf-nalus'], 0) > 0) {
          throw new RtpError('unsupported', 'h265: DONL (sprop-max-don-diff / sprop-depack-buf-nalus > 0) is not supported');
        }
        const one = (key: string, type: number) => (fmtp[key] ?? '').split(',').filter((s) => s.trim()).map(decodeBase64).find((n) => h265NalType(n) === type);
        const vps = one('sprop-vps', H265Nal.vps);
        const sps = one('sprop-sps', H265Nal.sps);
        const pps = one('sprop-pps', H265Nal.pps);
        const track = vps && sps && pps ? tryTrack(() => videoTrackFromParameterSets('h265', { vps, sps, pps })) : undefined;
        return { ...base, codec: 'h265', ...(track ? { track } : {}), parameterSets: { vps, sps, pps }, createDepacketiser: (o) => new H265Depacketiser({ ...o, maxDonDiff }) };
      }
      case 'MPEG4-GENERIC': {
        const mode = (fmtp.mode ?? '').toLowerCase();
        if (mode !== 'aac-hbr' && mode !== 'aac-lbr') throw new RtpError('unsupported', `mpeg4-generic: mode=${fmtp.mode ?? '(none)'} is not supported (AAC-hbr, AAC-lbr)`);
        if (!fmtp.config) throw new RtpError('bad-sdp', 'mpeg4-generic: no config=');
        const config = hexBytes(fmtp.config);
        const asc = tryAsc(config);
        const track = tryTrack(() => aacTrack(config));
        // The lengths are required; when a camera leaves them out, the mode's usual values are assumed.
        const [size, index] = mode === 'aac-hbr' ? [13, 3] : [6, 2];
        const options = {
          sizeLength: int(fmtp.sizelength, size),
          indexLength: int(fmtp.indexlength, index),
          indexDeltaLength: int(fmtp.indexdeltalength, index),
          frameLength: asc?.frameLength ?? 1024,
          unsupported: {
            ctsdeltalength: int(fmtp.ctsdeltalength, 0),
            dtsdeltalength: int(fmtp.dtsdeltalength, 0),
            randomaccessindication: int(fmtp.randomaccessindication, 0),
            streamstateindication: int(fmtp.streamstateindication, 0),
          },
        };
        new AacDepacketiser(options); // options checked now, not at the first packet
        return { ...base, codec: 'aac', ...(track ? { track } : {}), createDepacketiser: () => new AacDepacketiser(options) };
      }
      case 'PCMA':
      case 'PCMU': {
        const codec = encoding === 'PCMA' ? 'pcma' : 'pcmu';
        return { ...base, codec, track: g711Track(codec, map.clockRate, map.channels ?? 1), createDepacketiser: () => new G711Depacketiser() };
      }
      case 'MP4A-LATM':
        throw new RtpError('unsupported', 'MP4A-LATM (RFC 6416) AAC is not supported; mpeg4-generic is');
    }
  }
  throw new RtpError('unsupported', `no supported payload format in m=${media.type} (${seen.join(', ') || media.formats.join(' ')})`);
}

function tryAsc(config: Uint8Array) {
  try {
    return parseAudioSpecificConfig(config);
  } catch (err) {
    if (err instanceof CodecError) return undefined;
    throw err;
  }
}

/** Every video and audio media of a description, or why it was left out. */
export function sdpTracks(sdp: Sdp): { tracks: MediaTrack[]; skipped: { media: SdpMedia; reason: string }[] } {
  const tracks: MediaTrack[] = [];
  const skipped: { media: SdpMedia; reason: string }[] = [];
  for (const m of sdp.media) {
    if (m.type !== 'video' && m.type !== 'audio') {
      skipped.push({ media: m, reason: `media type ${m.type}` });
      continue;
    }
    try {
      tracks.push(mediaTrack(m));
    } catch (err) {
      if (!(err instanceof RtpError)) throw err;
      skipped.push({ media: m, reason: err.message });
    }
  }
  return { tracks, skipped };
}
