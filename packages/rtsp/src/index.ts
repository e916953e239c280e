/** @opencvr/rtsp: RTSP/1.0 messages, authentication and SDP, as pure functions over bytes and text. */
export { RtspError, type RtspErrorCode } from './errors.js';
export {
  bodyText,
  getHeader,
  getHeaders,
  request,
  serialize,
  serializeInterleaved,
  type Header,
  type RequestInit,
  type RtspMessage,
  type RtspRequest,
  type RtspResponse,
} from './message.js';
export { RtspParser, type InterleavedFrame, type ParserOptions, type RtspEvent, type RtspHandler } from './parser.js';
export {
  authorization,
  chooseChallenge,
  parseWwwAuthenticate,
  type AuthorizationInput,
  type Challenge,
  type Credentials,
} from './auth.js';
export { mediaCodecs, parseSdp, resolveControl, sdpCodecs, type RtpMap, type Sdp, type SdpMedia } from './sdp.js';
export { md5hex } from './md5.js';
export { base64, fromUtf8, utf8 } from './text.js';
