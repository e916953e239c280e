/**
 * H.264 pictures from an FLV byte stream (ffmpeg's stdout with `-f flv`): each video tag of AVC NAL
 * units is one whole picture, known complete as soon as its last byte arrives (the tag says its
 * size). Annex-B output can only be cut where the next picture starts, a frame interval later. The
 * sequence header, end of sequence, audio and script tags are skipped: x264's repeat-headers puts
 * the parameter sets in the keyframes themselves. Bytes that are not FLV, or a tag larger than the
 * limit, drop what is buffered rather than grow without end.
 */
const FLV_HEADER = 9 + 4; // signature, version, flags, header size; PreviousTagSize0
const TAG_HEADER = 11;
const VIDEO = 9;
const AVC = 7;
const AVC_NALU = 1;

export class FlvVideoPictures {
  private buf: Buffer = Buffer.alloc(0);
  private headerDone = false;

  constructor(private readonly maxTagBytes = 16 << 20) {}

  /** The pictures completed by this chunk, each as its NAL units (views, no length prefixes). */
  push(chunk: Uint8Array): Uint8Array[][] {
    const out: Uint8Array[][] = [];
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (!this.headerDone) {
      if (this.buf.length < FLV_HEADER) return out;
      if (this.buf.toString('latin1', 0, 3) !== 'FLV') {
        this.reset();
        return out;
      }
      this.buf = this.buf.subarray(this.buf.readUInt32BE(5) + 4);
      this.headerDone = true;
    }
    while (this.buf.length >= TAG_HEADER) {
      const type = this.buf[0] & 0x1f;
      const size = this.buf.readUIntBE(1, 3);
      if (size > this.maxTagBytes) {
        this.reset();
        return out;
      }
      const whole = TAG_HEADER + size + 4; // and the PreviousTagSize after it
      if (this.buf.length < whole) break;
      if (type === VIDEO) {
        const picture = nalUnits(this.buf.subarray(TAG_HEADER, TAG_HEADER + size));
        if (picture?.length) out.push(picture);
      }
      this.buf = this.buf.subarray(whole);
    }
    return out;
  }

  /** Nothing is held back: a whole tag is a picture as soon as it arrives (end of output: a cut tag is lost). */
  flush(): Uint8Array[][] {
    this.reset();
    return [];
  }

  /** Drops everything buffered (a restarted encoder: its output begins with a new FLV header). */
  reset() {
    this.buf = Buffer.alloc(0);
    this.headerDone = false;
  }
}

/** The NAL units of an AVC video tag's body; undefined for other codecs and packet types or a broken body. */
function nalUnits(body: Uint8Array): Uint8Array[] | undefined {
  // frame type and codec id, AVCPacketType, composition time (3 bytes)
  if (body.length < 5 || (body[0] & 0x0f) !== AVC || body[1] !== AVC_NALU) return undefined;
  const nalus: Uint8Array[] = [];
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  for (let at = 5; at < body.length; ) {
    if (at + 4 > body.length) return undefined;
    const length = view.getUint32(at);
    at += 4;
    if (length === 0 || at + length > body.length) return undefined;
    nalus.push(body.subarray(at, at + length));
    at += length;
  }
  return nalus;
}
