/**
 * FLV tags from a byte stream that comes in pieces (a child process's stdout, a socket): each tag is
 * given once its last byte (and the PreviousTagSize after it) has come, with the same framing checks
 * as readFlvTags. readFlv needs the whole stream at once; this keeps only the tag in progress.
 */
import { FLV_HEADER_SIZE, FlvFormatError, TAG_HEADER_SIZE, type FlvTagView } from './tag.js';

export class FlvTagStream {
  private buf: Uint8Array = new Uint8Array(0);
  private headerDone = false;

  /** `maxTagBytes`: a tag announced larger is taken for bad data rather than waited for. */
  constructor(private readonly maxTagBytes = 1 << 20) {}

  /**
   * The tags completed by this chunk; their data are views of memory that is not reused. Throws
   * FlvFormatError on bytes that are not FLV (the stream is then lost: reset() before the next one).
   */
  push(chunk: Uint8Array): FlvTagView[] {
    this.buf = this.buf.length ? concat(this.buf, chunk) : chunk;
    const tags: FlvTagView[] = [];
    let p = 0;
    if (!this.headerDone) {
      if (this.buf.length < FLV_HEADER_SIZE + 4) return tags;
      if (this.buf[0] !== 0x46 || this.buf[1] !== 0x4c || this.buf[2] !== 0x56) throw new FlvFormatError('flv: no FLV signature');
      const headerSize = u32(this.buf, 5);
      if (headerSize < FLV_HEADER_SIZE || headerSize > 64) throw new FlvFormatError(`flv: header size ${headerSize}`);
      if (this.buf.length < headerSize + 4) return tags;
      p = headerSize + 4;
      this.headerDone = true;
    }
    const b = this.buf;
    while (p + TAG_HEADER_SIZE <= b.length) {
      if (b[p] & 0xe0) throw new FlvFormatError('flv: reserved/filter bits set');
      const size = (b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3];
      if (size > this.maxTagBytes) throw new FlvFormatError(`flv: a tag of ${size} bytes`);
      const end = p + TAG_HEADER_SIZE + size;
      if (end + 4 > b.length) break;
      if (u32(b, end) !== TAG_HEADER_SIZE + size) throw new FlvFormatError(`flv: PreviousTagSize ${u32(b, end)} after a tag of ${TAG_HEADER_SIZE + size} bytes`);
      const timestamp = ((b[p + 7] << 24) >>> 0) + ((b[p + 4] << 16) | (b[p + 5] << 8) | b[p + 6]);
      tags.push({ type: b[p] & 0x1f, timestamp, offset: p, data: b.subarray(p + TAG_HEADER_SIZE, end), previousTagSize: TAG_HEADER_SIZE + size });
      p = end + 4;
    }
    // What is left is copied: the views given stay valid whatever comes next.
    this.buf = p < b.length ? b.slice(p) : new Uint8Array(0);
    return tags;
  }

  /** Forgets the stream so far: the next bytes start with a header (a new writer). */
  reset() {
    this.buf = new Uint8Array(0);
    this.headerDone = false;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function u32(b: Uint8Array, at: number): number {
  return ((b[at] << 24) >>> 0) + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]);
}
