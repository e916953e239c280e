/**
 * FLV tags as RTMP messages: an FLV tag's body is, byte for byte, the payload of the RTMP message of
 * the same type (audio 8, video 9, data 18) at the tag's timestamp. So the push takes what the live
 * FLV output already makes (FlvOutput: the FLV header with onMetaData and the sequence headers, then
 * one or two tags per access unit) and cuts it back into tags here, without copying their bodies.
 *
 * onMetaData is sent as a publisher must send it, "@setDataFrame" first (servers store the frame and
 * hand it to each player; without it most ignore the metadata). Anything that is not whole FLV tags
 * throws RtmpError: nothing is sent from a cut tag.
 */
import { encodeAmf0 } from '@opencvr/flv';
import { RtmpError, RtmpType } from './chunks.js';

/** One tag, as the message it becomes (chunk stream and message stream are the sender's). */
export interface FlvMessage {
  type: number;
  timestamp: number;
  payload: Uint8Array;
}

const SET_DATA_FRAME = encodeAmf0('@setDataFrame');
const FLV_SIGNATURE = [0x46, 0x4c, 0x56];
/** FLV header (9 bytes) and PreviousTagSize0. */
const FILE_HEADER = 13;
const TAG_HEADER = 11;

/** The tags of `bytes` (an FLV header may lead), in order. */
export function flvMessages(bytes: Uint8Array): FlvMessage[] {
  let p = 0;
  if (bytes.length >= 3 && FLV_SIGNATURE.every((b, i) => bytes[i] === b)) {
    if (bytes.length < FILE_HEADER) throw new RtmpError('rtmp: FLV header cut short');
    p = FILE_HEADER;
  }
  const out: FlvMessage[] = [];
  while (p < bytes.length) {
    if (bytes.length - p < TAG_HEADER + 4) throw new RtmpError('rtmp: FLV tag header cut short');
    const type = bytes[p] & 0x1f;
    const size = (bytes[p + 1] << 16) | (bytes[p + 2] << 8) | bytes[p + 3];
    // 24 bits, then the upper 8 (FLV's "TimestampExtended").
    const timestamp = ((bytes[p + 7] << 24) | (bytes[p + 4] << 16) | (bytes[p + 5] << 8) | bytes[p + 6]) >>> 0;
    const end = p + TAG_HEADER + size;
    if (end + 4 > bytes.length) throw new RtmpError('rtmp: FLV tag cut short');
    const body = bytes.subarray(p + TAG_HEADER, end);
    if (type === RtmpType.audio || type === RtmpType.video) out.push({ type, timestamp, payload: body });
    else if (type === RtmpType.dataAmf0) out.push({ type, timestamp, payload: withSetDataFrame(body) });
    else throw new RtmpError(`rtmp: FLV tag of type ${type}`);
    p = end + 4;
  }
  return out;
}

function withSetDataFrame(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(SET_DATA_FRAME.length + body.length);
  out.set(SET_DATA_FRAME);
  out.set(body, SET_DATA_FRAME.length);
  return out;
}
