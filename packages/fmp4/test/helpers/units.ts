/** Synthetic tracks and access units for unit and property tests (sample bytes are counters). */
import type { AudioAccessUnit, AudioTrack, VideoAccessUnit, VideoTrack } from '@opencvr/codec';
import { videoStream } from './streams.js';

/** The H.264 fixture's track (a real SPS: the init segment parses it for avcC). */
export const H264_TRACK: VideoTrack = videoStream('h264', 'h264-320x240-25fps-bf2.h264').track;

export const AAC_TRACK: AudioTrack = {
  kind: 'audio',
  codec: 'aac',
  sampleRate: 16000,
  channels: 1,
  config: new Uint8Array([0x14, 0x08]),
  codecString: 'mp4a.40.2',
  clockRate: 16000,
};

let counter = 0;
/** A NAL unit of the given H.264 type and length, filled with a running counter. */
export function nal(type: number, length: number): Uint8Array {
  const b = new Uint8Array(length);
  b[0] = 0x60 | type;
  for (let i = 1; i < length; i++) b[i] = counter++ & 0xff;
  return b;
}

/** An H.264 access unit: AUD, then (on keyframes) SPS + PPS, SEI, and one slice. */
export function video(dts: number, keyframe: boolean, opts: { cts?: number; slice?: number } = {}): VideoAccessUnit {
  const nalus = [nal(9, 2)];
  if (keyframe) nalus.push(H264_TRACK.sps, H264_TRACK.pps);
  nalus.push(nal(6, 5), nal(keyframe ? 5 : 1, opts.slice ?? 50));
  return { kind: 'video', dts, pts: dts + (opts.cts ?? 0), keyframe, nalus };
}

export function audio(pts: number, length = 20): AudioAccessUnit {
  const data = new Uint8Array(length);
  for (let i = 0; i < length; i++) data[i] = counter++ & 0xff;
  return { kind: 'audio', pts, data };
}
