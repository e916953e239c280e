/**
 * FLV file structure (Adobe FLV spec v10.1, annex E): the 9-byte header, then tags, each followed by
 * its PreviousTagSize (11 + data size). Timestamps are milliseconds: 24 bits plus an extension byte
 * for the upper 8, so they wrap after 2^32 ms (~49.7 days).
 */

export const TagType = { audio: 8, video: 9, script: 18 } as const;
export type TagTypeValue = (typeof TagType)[keyof typeof TagType];

export const FLV_HEADER_SIZE = 9;
export const TAG_HEADER_SIZE = 11;
/** A tag's data size has 24 bits. */
export const MAX_TAG_DATA = 0xffffff;

/** FLV header (version 1) and PreviousTagSize0 (always 0): what a stream or file starts with. */
export function flvHeader(has: { audio: boolean; video: boolean }): Uint8Array {
  return Uint8Array.of(0x46, 0x4c, 0x56, 1, (has.audio ? 4 : 0) | (has.video ? 1 : 0), 0, 0, 0, 9, 0, 0, 0, 0);
}

/**
 * One tag and its PreviousTagSize, with the body written from `parts` (copied once). `timestamp` is
 * in ms, wrapped to 32 bits.
 */
export function flvTag(type: TagTypeValue, timestamp: number, parts: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const p of parts) size += p.length;
  if (size > MAX_TAG_DATA) throw new RangeError(`flv: tag data of ${size} bytes is above 16 MiB`);
  const out = new Uint8Array(TAG_HEADER_SIZE + size + 4);
  const ts = ((Math.round(timestamp) % 2 ** 32) + 2 ** 32) % 2 ** 32;
  out[0] = type;
  out[1] = size >> 16;
  out[2] = (size >> 8) & 0xff;
  out[3] = size & 0xff;
  out[4] = (ts >> 16) & 0xff;
  out[5] = (ts >> 8) & 0xff;
  out[6] = ts & 0xff;
  out[7] = (ts >>> 24) & 0xff;
  // stream id 0 (bytes 8-10)
  let p = TAG_HEADER_SIZE;
  for (const part of parts) {
    out.set(part, p);
    p += part.length;
  }
  new DataView(out.buffer).setUint32(p, TAG_HEADER_SIZE + size);
  return out;
}

export interface FlvTagView {
  type: number;
  timestamp: number;
  /** Offset of the tag header in the buffer read. */
  offset: number;
  data: Uint8Array;
  /** PreviousTagSize written after the tag. */
  previousTagSize: number;
}

export interface FlvFileView {
  hasAudio: boolean;
  hasVideo: boolean;
  tags: FlvTagView[];
}

export class FlvFormatError extends Error {}

/**
 * Walks an FLV byte stream (header and whole tags), checking the framing: signature, header size,
 * PreviousTagSize0 and each PreviousTagSize, reserved bits and stream ids. For tests and tools.
 */
export function readFlv(bytes: Uint8Array): FlvFileView {
  if (bytes.length < FLV_HEADER_SIZE + 4) throw new FlvFormatError('flv: shorter than a header');
  if (bytes[0] !== 0x46 || bytes[1] !== 0x4c || bytes[2] !== 0x56) throw new FlvFormatError('flv: no FLV signature');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerSize = view.getUint32(5);
  if (headerSize !== FLV_HEADER_SIZE) throw new FlvFormatError(`flv: header size ${headerSize}`);
  if (view.getUint32(FLV_HEADER_SIZE) !== 0) throw new FlvFormatError('flv: PreviousTagSize0 is not 0');
  return { hasAudio: (bytes[4] & 4) !== 0, hasVideo: (bytes[4] & 1) !== 0, tags: readFlvTags(bytes, FLV_HEADER_SIZE + 4) };
}

/**
 * The whole tags of an FLV stream from `start` (after the header and PreviousTagSize0), each body a
 * view into `bytes`, with the framing checked as readFlv checks it (also for the CDN push, which cuts
 * the live FLV output back into RTMP messages).
 */
export function readFlvTags(bytes: Uint8Array, start: number): FlvTagView[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tags: FlvTagView[] = [];
  let p = start;
  while (p < bytes.length) {
    if (p + TAG_HEADER_SIZE > bytes.length) throw new FlvFormatError(`flv: truncated tag header at ${p}`);
    const type = bytes[p] & 0x1f;
    if (bytes[p] & 0xe0) throw new FlvFormatError(`flv: reserved/filter bits set at ${p}`);
    const size = (bytes[p + 1] << 16) | (bytes[p + 2] << 8) | bytes[p + 3];
    const timestamp = ((bytes[p + 7] << 24) >>> 0) + ((bytes[p + 4] << 16) | (bytes[p + 5] << 8) | bytes[p + 6]);
    if (bytes[p + 8] || bytes[p + 9] || bytes[p + 10]) throw new FlvFormatError(`flv: stream id not 0 at ${p}`);
    const end = p + TAG_HEADER_SIZE + size;
    if (end + 4 > bytes.length) throw new FlvFormatError(`flv: truncated tag at ${p}`);
    const previousTagSize = view.getUint32(end);
    if (previousTagSize !== TAG_HEADER_SIZE + size)
      throw new FlvFormatError(
        `flv: PreviousTagSize ${previousTagSize} after a tag of ${TAG_HEADER_SIZE + size} bytes at ${p}`,
      );
    tags.push({ type, timestamp, offset: p, data: bytes.subarray(p + TAG_HEADER_SIZE, end), previousTagSize });
    p = end + 4;
  }
  return tags;
}
