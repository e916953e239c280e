/**
 * An incremental RTSP reader: feed bytes as they arrive, get whole messages and interleaved frames
 * back. It tolerates stray CR/LF between messages and "\n"-only line ends, unfolds continuation
 * lines, and bounds the header block and the body so a hostile peer cannot make it grow without end.
 * Malformed input throws RtspError; after that the stream is out of step and should be closed.
 *
 * Two ways in. `feed(chunk, handler)` is the ingest path: interleaved frames are handed over in place,
 * as offsets into the bytes they arrived in (the chunk itself, or for a frame split over two reads, the
 * parser's own buffer), valid only during the call, so a socket may read into one reused buffer and a
 * packet is neither copied nor given an object of its own on its way to the depacketiser. Only an item cut by the end of a chunk is copied (its bytes so
 * far), never the whole chunk. `push(chunk)` returns events whose bytes are copies, for callers that
 * keep them.
 */
import { RtspError } from './errors.js';
import type { Header, RtspMessage } from './message.js';
import { fromUtf8 } from './text.js';

export interface InterleavedFrame {
  kind: 'interleaved';
  channel: number;
  data: Uint8Array;
}

export type RtspEvent = RtspMessage | InterleavedFrame;

/** Where `feed` delivers, in stream order. */
export interface RtspHandler {
  /**
   * An interleaved frame: bytes[start, end). `bytes` is valid only until this call returns (the read
   * buffer or the parser's own): copy what you keep. Offsets rather than a view: nothing is allocated
   * per frame.
   */
  interleaved(channel: number, bytes: Uint8Array, start: number, end: number): void;
  /** A whole message; it and its body belong to the caller. */
  message(msg: RtspMessage): void;
}

export interface ParserOptions {
  /** Largest header block (start line + headers), bytes. Default 64 KiB. */
  maxHeaderBytes?: number;
  /** Largest body, bytes. Default 4 MiB. */
  maxBodyBytes?: number;
}

type Pending = { msg: RtspMessage; length: number };

const CR = 0x0d;
const LF = 0x0a;
const DOLLAR = 0x24;

export class RtspParser {
  /** Bytes of the one item cut by the end of the last chunk (owned; `restLen` of them are used). */
  private rest: Uint8Array = new Uint8Array(0);
  private restLen = 0;
  /** Where the search for the end of a cut header block resumes, from the start of `rest`. */
  private scanFrom = 0;
  /** A message whose head is parsed, waiting for its body (whose bytes so far are in `rest`). */
  private pending: Pending | undefined;
  private failed: RtspError | undefined;
  private readonly maxHeader: number;
  private readonly maxBody: number;

  constructor(opts: ParserOptions = {}) {
    this.maxHeader = opts.maxHeaderBytes ?? 64 * 1024;
    this.maxBody = opts.maxBodyBytes ?? 4 * 1024 * 1024;
  }

  /** Bytes held back waiting for the rest of a message or frame. */
  get buffered(): number {
    return this.restLen;
  }

  /** Feeds bytes; returns every message and frame completed by them, in order (frames are copies). */
  push(chunk: Uint8Array): RtspEvent[] {
    const out: RtspEvent[] = [];
    this.feed(chunk, {
      interleaved: (channel, bytes, start, end) => out.push({ kind: 'interleaved', channel, data: bytes.slice(start, end) }),
      message: (msg) => out.push(msg),
    });
    return out;
  }

  /**
   * Feeds chunk[0, length) and hands every completed frame and message to `handler` before returning.
   * The chunk is not kept: the caller may overwrite it afterwards.
   */
  feed(chunk: Uint8Array, handler: RtspHandler, length = chunk.length): void {
    if (this.failed) throw this.failed;
    try {
      const size = Math.max(0, Math.min(length, chunk.length));
      let at = 0;
      if (this.restLen > 0 || this.pending) at = this.resume(chunk, size, handler);
      if (at >= size) return;
      const end = this.scan(chunk, at, size, 0, handler);
      if (end < size) {
        this.restLen = 0;
        this.append(chunk, end, size);
      }
    } catch (err) {
      this.failed = err instanceof RtspError ? err : new RtspError('parser-failed', String(err));
      this.restLen = 0;
      throw this.failed;
    }
  }

  /** Continues the item cut by the last chunk; returns how many of the `size` bytes of `chunk` it took. */
  private resume(chunk: Uint8Array, size: number, handler: RtspHandler): number {
    if (this.pending) {
      const { msg, length } = this.pending;
      const n = Math.min(length - this.restLen, size);
      this.append(chunk, 0, n);
      if (this.restLen === length) {
        this.pending = undefined;
        msg.body = this.rest.slice(0, length);
        this.restLen = 0;
        handler.message(msg);
      }
      return n;
    }
    if (this.rest[0] === DOLLAR) {
      let used = 0;
      if (this.restLen < 4) {
        used = Math.min(4 - this.restLen, size);
        this.append(chunk, 0, used);
        if (this.restLen < 4) return used;
      }
      const total = 4 + ((this.rest[2] << 8) | this.rest[3]);
      const n = Math.min(total - this.restLen, size - used);
      this.append(chunk, used, used + n);
      used += n;
      if (this.restLen === total) {
        this.restLen = 0;
        handler.interleaved(this.rest[1], this.rest, 4, total);
      }
      return used;
    }
    // A cut message head (rare: a response straddling two reads): take the chunk, read on from here.
    this.append(chunk, 0, size);
    const end = this.scan(this.rest, 0, this.restLen, this.scanFrom, handler);
    if (this.pending || end < this.restLen) {
      this.rest.copyWithin(0, end, this.restLen);
      this.restLen -= end;
    } else this.restLen = 0;
    return size;
  }

  /**
   * Delivers the items of b[at, end); returns where the first incomplete one starts (end when none).
   * An incomplete message head sets `scanFrom`; a head whose body is incomplete sets `pending` and
   * returns where the body starts. `resumeFrom` is where the first item's header search resumes.
   */
  private scan(b: Uint8Array, at: number, end: number, resumeFrom: number, handler: RtspHandler): number {
    let from = resumeFrom;
    for (;;) {
      // Blank lines between messages are allowed (RFC 2326 does not forbid them, cameras send them).
      while (at < end && (b[at] === CR || b[at] === LF)) {
        at++;
        from = 0;
      }
      if (at >= end) return end;
      if (b[at] === DOLLAR) {
        if (end - at < 4) return at;
        const total = 4 + ((b[at + 2] << 8) | b[at + 3]);
        if (end - at < total) return at;
        handler.interleaved(b[at + 1], b, at + 4, at + total);
        at += total;
        from = 0;
        continue;
      }
      const head = headerEnd(b, at, end, from);
      if (head < 0) {
        if (end - at > this.maxHeader) throw new RtspError('header-too-large', `header block over ${this.maxHeader} bytes`);
        // Resume a little before the end: the terminator may straddle two chunks.
        this.scanFrom = Math.max(0, end - at - 3);
        return at;
      }
      from = 0;
      const next = head + (b[head + 1] === LF ? 2 : 3);
      if (head - at > this.maxHeader) throw new RtspError('header-too-large', `header block over ${this.maxHeader} bytes`);
      const msg = parseHead(fromUtf8(b.subarray(at, head)));
      const length = contentLength(msg, this.maxBody);
      this.scanFrom = 0;
      if (length === 0) {
        at = next;
        handler.message(msg);
        continue;
      }
      if (end - next >= length) {
        msg.body = b.slice(next, next + length);
        at = next + length;
        handler.message(msg);
        continue;
      }
      this.pending = { msg, length };
      return next;
    }
  }

  /** Appends b[from, to) to `rest`, growing it (doubling) when needed. */
  private append(b: Uint8Array, from: number, to: number): void {
    const n = to - from;
    if (n <= 0) return;
    if (this.restLen + n > this.rest.length) {
      const grown = new Uint8Array(Math.max(this.restLen + n, this.rest.length * 2, 2048));
      grown.set(this.rest.subarray(0, this.restLen));
      this.rest = grown;
    }
    const rest = this.rest;
    if (n <= 64) for (let i = from, j = this.restLen; i < to; i++, j++) rest[j] = b[i];
    else rest.set(b.subarray(from, to), this.restLen);
    this.restLen += n;
  }
}

/**
 * The end of the header block in b[at, end), "\r\n\r\n" or "\n\n" (and the mixed forms), searched from
 * at + from: the index of the LF that ends the last header line (an empty line follows it), or -1
 * when it is not there yet.
 */
function headerEnd(b: Uint8Array, at: number, end: number, from: number): number {
  for (let i = at + from; i < end; i++) {
    if (b[i] !== LF) continue;
    // i is a LF; the block ends when the next line is empty.
    if (i + 1 < end && b[i + 1] === LF) return i;
    if (i + 2 < end && b[i + 1] === CR && b[i + 2] === LF) return i;
  }
  return -1;
}

function contentLength(msg: RtspMessage, maxBody: number): number {
  const cl = msg.headers.find(([k]) => k.toLowerCase() === 'content-length');
  if (!cl) return 0;
  const v = cl[1].trim();
  if (!/^\d{1,10}$/.test(v)) throw new RtspError('bad-content-length', `Content-Length ${JSON.stringify(cl[1])}`);
  const length = Number(v);
  if (length > maxBody) throw new RtspError('body-too-large', `body of ${length} bytes is over ${maxBody}`);
  return length;
}

const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) (RTSP\/\d\.\d)$/;
const STATUS_LINE = /^(RTSP\/\d\.\d) (\d{3})(?: (.*))?$/;

function parseHead(head: string): RtspMessage {
  const lines = head.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const start = lines[0];
  const headers: Header[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (/^[ \t]/.test(line)) {
      // obs-fold: a continuation of the previous header's value.
      if (!headers.length) throw new RtspError('bad-header', 'a continuation line before any header');
      const last = headers[headers.length - 1];
      last[1] = `${last[1]} ${line.trim()}`.trim();
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) throw new RtspError('bad-header', `header line ${JSON.stringify(line.slice(0, 80))}`);
    const name = line.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new RtspError('bad-header', `header name ${JSON.stringify(name.slice(0, 80))}`);
    headers.push([name, line.slice(colon + 1).trim()]);
  }
  const empty = new Uint8Array(0);
  const st = STATUS_LINE.exec(start);
  if (st) return { kind: 'response', version: st[1], status: Number(st[2]), reason: st[3] ?? '', headers, body: empty };
  const rq = REQUEST_LINE.exec(start);
  if (rq) return { kind: 'request', method: rq[1], uri: rq[2], version: rq[3], headers, body: empty };
  throw new RtspError('bad-start-line', `start line ${JSON.stringify(start.slice(0, 80))}`);
}
