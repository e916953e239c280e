/** @opencvr/rtp: RTP/RTCP packets, reordering, depacketisers into access units, SDP media to tracks. No sockets. */
export { RtpError, type RtpErrorCode } from './errors.js';
export {
  newRtpView,
  parseRtcp,
  parseRtp,
  readRtp,
  rtpToWallClock,
  serializeRtp,
  viewOf,
  type OtherRtcp,
  type RtcpPacket,
  type RtpPacket,
  type RtpView,
  type SenderReport,
} from './packet.js';
export { ReorderBuffer, seqDiff, TimestampUnwrapper, type Released, type ReorderOptions } from './reorder.js';
export type { AssemblyMemory, Depacketiser, DepacketiserLimits } from './depacketiser.js';
export { H264Depacketiser } from './h264.js';
export { H265Depacketiser, type H265Options } from './h265.js';
export { AacDepacketiser, type AacOptions } from './aac.js';
export { G711Depacketiser } from './g711.js';
export { decodeBase64, mediaTrack, sdpTracks, type MediaTrack } from './sdp-tracks.js';
export { H264Packetiser, h264Payloads, type H264PacketiserOptions, type PacketisedRtp } from './h264-packetiser.js';
export { frameRfc4571, Rfc4571Reader, type Rfc4571Options } from './rfc4571.js';
