export {
  Amf0EcmaArray,
  Amf0Error,
  Amf0Marker,
  decodeAmf0,
  encodeAmf0,
  type Amf0Object,
  type Amf0Value,
} from './amf0.js';
export {
  flvHeader,
  flvTag,
  readFlv,
  readFlvTags,
  FlvFormatError,
  TagType,
  FLV_HEADER_SIZE,
  TAG_HEADER_SIZE,
  MAX_TAG_DATA,
  type FlvFileView,
  type FlvTagView,
  type TagTypeValue,
} from './tag.js';
export { FlvTagStream } from './tag-stream.js';
export {
  AvcPacketType,
  ExPacketType,
  FrameType,
  HVC1_FOURCC,
  HVC1_FOURCC_NUMBER,
  VideoCodecId,
  keepFlvNal,
  videoCodecId,
  videoConfig,
  videoEndOfSequence,
  videoFrame,
  videoSequenceHeader,
  type HevcMode,
} from './video.js';
export { AacPacketType, SoundFormat, audioFlags, audioFrame, audioSequenceHeader, soundFormat } from './audio.js';
export { FlvMuxer, type FlvMuxerOptions } from './muxer.js';
