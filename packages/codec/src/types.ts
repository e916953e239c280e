/**
 * What flows through the media hub: access units parsed once from any ingest (RTSP/RTP, PS, FLV)
 * and packaged for every output (fMP4, HLS, WebRTC, FLV, recorder). Timestamps are in each
 * track's clock: 90 kHz for video, the sample rate for audio.
 */

export type VideoCodec = 'h264' | 'h265';
export type AudioCodec = 'aac' | 'pcma' | 'pcmu';

export interface VideoTrack {
  kind: 'video';
  codec: VideoCodec;
  /** Parameter sets as NAL units without start codes. h265 also has vps. */
  sps: Uint8Array;
  pps: Uint8Array;
  vps?: Uint8Array;
  width: number;
  height: number;
  /** RFC 6381 codec string, e.g. avc1.64001f or hvc1.1.6.L93.B0 */
  codecString: string;
  clockRate: 90000;
}

export interface AudioTrack {
  kind: 'audio';
  codec: AudioCodec;
  sampleRate: number;
  channels: number;
  /** AAC AudioSpecificConfig; empty for G.711. */
  config: Uint8Array;
  /** e.g. mp4a.40.2 for AAC-LC; 'alaw' / 'ulaw' for G.711. */
  codecString: string;
  clockRate: number;
}

export type Track = VideoTrack | AudioTrack;

export interface VideoAccessUnit {
  kind: 'video';
  /** Presentation and decoding time in 90 kHz ticks (may exceed 2^32: unwrapped). */
  pts: number;
  dts: number;
  keyframe: boolean;
  /** NAL units of one picture, without start codes or length prefixes. */
  nalus: Uint8Array[];
  /**
   * Set when packets were lost inside or next to this unit, so some of its NAL units may be missing.
   * An output may drop damaged units until the next keyframe.
   */
  damaged?: boolean;
}

export interface AudioAccessUnit {
  kind: 'audio';
  /** In the track's clock (sample rate), unwrapped. */
  pts: number;
  /** One AAC raw frame (no ADTS header) or a run of G.711 samples. */
  data: Uint8Array;
}

export type AccessUnit = VideoAccessUnit | AudioAccessUnit;
