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
import { encodeAmf0, FLV_HEADER_SIZE, FlvFormatError, readFlvTags } from '@opencvr/flv';
import { RtmpError, RtmpType } from './chunks.js';

/** One tag, as the message it becomes (chunk stream and message stream are the sender's). */
export interface FlvMessage {
  type: number;
  timestamp: number;
  payload: Uint8Array;
}

const SET_DATA_FRAME = encodeAmf0('@setDataFrame');
const FLV_SIGNATURE = [0x46, 0x4c, 0x56];
/** FLV header and PreviousTagSize0. */
const FILE_HEADER = FLV_HEADER_SIZE + 4;

/** The tags of `bytes` (an FLV header may lead), in order. */
export function flvMessages(bytes: Uint8Array): FlvMessage[] {
  let p = 0;
  if (bytes.length >= 3 && FLV_SIGNATURE.every((b, i) => bytes[i] === b)) {
    if (bytes.length < FILE_HEADER) throw new RtmpError('rtmp: FLV header cut short');
    p = FILE_HEADER;
  }
  let tags;
  try {
    tags = readFlvTags(bytes, p);
  } catch (err) {
    if (err instanceof FlvFormatError) throw new RtmpError(`rtmp: ${err.message}`);
    throw err;
  }
  return tags.map(({ type, timestamp, data }) => {
    if (type === RtmpType.audio || type === RtmpType.video) return { type, timestamp, payload: data };
    if (type === RtmpType.dataAmf0) return { type, timestamp, payload: withSetDataFrame(data) };
    throw new RtmpError(`rtmp: FLV tag of type ${type}`);
  });
}

function withSetDataFrame(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(SET_DATA_FRAME.length + body.length);
  out.set(SET_DATA_FRAME);
  out.set(body, SET_DATA_FRAME.length);
  return out;
}
