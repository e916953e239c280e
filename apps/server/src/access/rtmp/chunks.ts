/**
 * The RTMP client's wire format, as much as the stream checker needs to ask a server for a stream
 * (Adobe RTMP specification 1.0, sections 5.2-5.4 and 7.1): the simple handshake (C0/C1, C2 echoing
 * S1), and messages cut into chunks and put back together. Pure: bytes in, bytes or messages out.
 *
 * The reader keeps each chunk stream's last header (formats 1-3 leave out what did not change),
 * honours the peer's Set Chunk Size, and reads extended timestamps; it throws RtmpError on what it
 * cannot read rather than guessing, so a server that is not RTMP is told apart from one that is.
 */

export class RtmpError extends Error {
  override readonly name = 'RtmpError';
}

/** Message type ids used here (section 5.4 and 7.1). */
export const RtmpType = {
  setChunkSize: 1,
  abort: 2,
  acknowledgement: 3,
  userControl: 4,
  windowAckSize: 5,
  setPeerBandwidth: 6,
  audio: 8,
  video: 9,
  dataAmf0: 18,
  commandAmf0: 20,
} as const;

export interface RtmpMessage {
  /** Chunk stream id (2 for protocol control, 3+ for the rest). */
  csid: number;
  type: number;
  /** The message stream id (0 for the connection, the createStream answer for a stream). */
  streamId: number;
  timestamp: number;
  payload: Uint8Array;
}

export const RTMP_VERSION = 3;
/** C1, S1 and S2 are this long; C0/S0 one byte. */
export const HANDSHAKE_SIZE = 1536;
/** Until a Set Chunk Size says otherwise, in both directions. */
export const DEFAULT_CHUNK_SIZE = 128;
/** A message length is 24 bits: no message is longer than this. */
const MAX_MESSAGE = 0xffffff;

/** C0 + C1: version 3, time 0, zero, then random bytes (`random` for byte-exact tests). */
export function handshakeC0C1(random: Uint8Array = crypto.getRandomValues(new Uint8Array(HANDSHAKE_SIZE - 8))): Uint8Array {
  if (random.length !== HANDSHAKE_SIZE - 8) throw new RtmpError(`rtmp: C1 random part must be ${HANDSHAKE_SIZE - 8} bytes`);
  const out = new Uint8Array(1 + HANDSHAKE_SIZE);
  out[0] = RTMP_VERSION;
  out.set(random, 9);
  return out;
}

/** C2: the server's S1 sent back (the simple handshake, which every server still takes from players). */
export function handshakeC2(s1: Uint8Array): Uint8Array {
  if (s1.length !== HANDSHAKE_SIZE) throw new RtmpError(`rtmp: S1 must be ${HANDSHAKE_SIZE} bytes`);
  return s1.slice();
}

/** One message as chunks of `chunkSize`: a type 0 header, then type 3 headers for the rest. */
export function encodeChunks(m: RtmpMessage, chunkSize = DEFAULT_CHUNK_SIZE): Uint8Array {
  if (m.csid < 2 || m.csid > 63) throw new RtmpError('rtmp: this writer uses chunk stream ids 2-63');
  if (m.payload.length > MAX_MESSAGE) throw new RtmpError('rtmp: message too long');
  const extended = m.timestamp >= 0xffffff;
  const ext = extended ? 4 : 0;
  const pieces = Math.max(1, Math.ceil(m.payload.length / chunkSize));
  const out = new Uint8Array(12 + ext + (pieces - 1) * (1 + ext) + m.payload.length);
  const view = new DataView(out.buffer);
  out[0] = m.csid; // format 0
  const ts = extended ? 0xffffff : m.timestamp;
  out[1] = ts >>> 16;
  out[2] = (ts >>> 8) & 0xff;
  out[3] = ts & 0xff;
  out[4] = m.payload.length >>> 16;
  out[5] = (m.payload.length >>> 8) & 0xff;
  out[6] = m.payload.length & 0xff;
  out[7] = m.type;
  view.setUint32(8, m.streamId, true); // the one little-endian field of RTMP
  let p = 12;
  if (extended) {
    view.setUint32(p, m.timestamp);
    p += 4;
  }
  for (let i = 0; i < pieces; i++) {
    if (i > 0) {
      out[p++] = 0xc0 | m.csid; // format 3
      if (extended) {
        view.setUint32(p, m.timestamp);
        p += 4;
      }
    }
    const part = m.payload.subarray(i * chunkSize, (i + 1) * chunkSize);
    out.set(part, p);
    p += part.length;
  }
  return out;
}

interface StreamState {
  timestamp: number;
  delta: number;
  length: number;
  type: number;
  streamId: number;
  extended: boolean;
  /**
   * The message being put together (its chunks so far; undefined between messages). Kept as the
   * chunks that came, not a buffer of the announced length: a server announcing 16 MB messages on
   * many chunk streams costs what it sends, not what it claims.
   */
  body?: Uint8Array[];
  got: number;
}

/** Chunks in (any cut), whole messages out. */
export class RtmpChunkReader {
  private buf: Uint8Array = new Uint8Array(0);
  private chunkSize = DEFAULT_CHUNK_SIZE;
  private readonly streams = new Map<number, StreamState>();

  constructor(private readonly maxMessage = MAX_MESSAGE) {}

  push(data: Uint8Array): RtmpMessage[] {
    this.buf = this.buf.length ? concat(this.buf, data) : data;
    const out: RtmpMessage[] = [];
    for (;;) {
      const used = this.chunk(out);
      if (used === 0) break;
      this.buf = this.buf.subarray(used);
    }
    // Own the rest: the caller may reuse its buffer.
    this.buf = this.buf.slice();
    return out;
  }

  /** Reads one chunk from the buffer: the bytes it took, 0 when it is not all there yet. */
  private chunk(out: RtmpMessage[]): number {
    const b = this.buf;
    if (b.length < 1) return 0;
    const fmt = b[0] >> 6;
    let csid = b[0] & 0x3f;
    let p = 1;
    if (csid === 0) {
      if (b.length < 2) return 0;
      csid = 64 + b[1];
      p = 2;
    } else if (csid === 1) {
      if (b.length < 3) return 0;
      csid = 64 + b[1] + b[2] * 256;
      p = 3;
    }
    const headerLen = [11, 7, 3, 0][fmt];
    if (b.length < p + headerLen) return 0;
    const prev = this.streams.get(csid);
    if (fmt !== 0 && !prev) throw new RtmpError(`rtmp: chunk stream ${csid} starts without a full header`);
    const st: StreamState = prev ?? { timestamp: 0, delta: 0, length: 0, type: 0, streamId: 0, extended: false, got: 0 };
    const u24 = (at: number) => (b[at] << 16) | (b[at + 1] << 8) | b[at + 2];
    let field = 0;
    if (fmt <= 2) field = u24(p);
    if (fmt <= 1) {
      const length = u24(p + 3);
      if (st.body && length !== st.length) throw new RtmpError(`rtmp: chunk stream ${csid} changes its length inside a message`);
      st.length = length;
      st.type = b[p + 6];
    }
    if (fmt === 0) st.streamId = new DataView(b.buffer, b.byteOffset + p + 7, 4).getUint32(0, true);
    p += headerLen;
    const extended = fmt <= 2 ? field === 0xffffff : st.extended;
    if (extended) {
      if (b.length < p + 4) return 0;
      field = new DataView(b.buffer, b.byteOffset + p, 4).getUint32(0);
      p += 4;
    }
    if (st.length > this.maxMessage) throw new RtmpError(`rtmp: message of ${st.length} bytes (at most ${this.maxMessage})`);
    const starting = !st.body;
    const take = Math.min(this.chunkSize, st.length - (starting ? 0 : st.got));
    if (b.length < p + take) return 0;
    // The header counts only once the chunk is whole: a cut chunk is read again from its start.
    st.extended = extended;
    if (starting) {
      if (fmt === 0) {
        st.timestamp = field;
        st.delta = 0;
      } else if (fmt <= 2) {
        st.delta = field;
        st.timestamp += field;
      } else {
        // Format 3 starting a message: the same delta again (section 5.3.1.2.4).
        st.timestamp += st.delta;
      }
      st.body = [];
      st.got = 0;
    }
    // A copy: `b` may be the caller's buffer.
    st.body!.push(new Uint8Array(b.subarray(p, p + take)));
    st.got += take;
    this.streams.set(csid, st);
    if (st.got === st.length) {
      const parts = st.body!;
      const payload = parts.length === 1 ? parts[0] : new Uint8Array(st.length);
      if (parts.length > 1) parts.reduce((at, part) => (payload.set(part, at), at + part.length), 0);
      const m: RtmpMessage = { csid, type: st.type, streamId: st.streamId, timestamp: st.timestamp, payload };
      st.body = undefined;
      st.got = 0;
      if (m.type === RtmpType.setChunkSize) this.setChunkSize(m.payload);
      out.push(m);
    }
    return p + take;
  }

  private setChunkSize(payload: Uint8Array) {
    if (payload.length < 4) throw new RtmpError('rtmp: Set Chunk Size without its size');
    const size = new DataView(payload.buffer, payload.byteOffset, 4).getUint32(0) & 0x7fffffff;
    if (size < 1) throw new RtmpError('rtmp: Set Chunk Size 0');
    this.chunkSize = size;
  }
}

/** A protocol control message's 4-byte payload (Set Chunk Size, Window Acknowledgement Size). */
export function u32Payload(v: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, v);
  return out;
}

/** User Control Set Buffer Length (event 3) for a stream: what players send before media flows. */
export function setBufferLength(streamId: number, ms: number): Uint8Array {
  const out = new Uint8Array(10);
  const v = new DataView(out.buffer);
  v.setUint16(0, 3);
  v.setUint32(2, streamId);
  v.setUint32(6, ms);
  return out;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
