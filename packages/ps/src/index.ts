/** @opencvr/ps: MPEG-2 Program Stream (GB28181 media) demuxer into access units, and a small muxer. No sockets. */
export {
  codecOfStreamType,
  isAudioStreamId,
  isVideoStreamId,
  StartCode,
  StreamType,
  streamTypeName,
} from './constants.js';
export {
  findStartCode,
  parseStreamMap,
  PsParser,
  type PsmEntry,
  type PsPacketHandler,
  type PsParserStats,
} from './parser.js';
export {
  PsDemuxer,
  type PsAudioFrame,
  type PsDemuxerOptions,
  type PsDemuxerStats,
  type PsFrame,
  type PsVideoFrame,
} from './demux.js';
export {
  packHeader,
  pesPacket,
  PsMuxer,
  streamMap,
  systemHeader,
  type PsMuxFrame,
  type PsMuxOptions,
  type PsMuxStream,
} from './mux.js';
export { PsTrackAssembler, type HubOutput, type PsTrackOptions } from './tracks.js';
