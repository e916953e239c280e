/**
 * An incremental RTSP reader: push bytes as they arrive, get whole messages and interleaved frames
 * back. It tolerates stray CR/LF between messages and "\n"-only line ends, unfolds continuation
 * lines, and bounds the header block and the body so a hostile peer cannot make it grow without end.
 * Malformed input throws RtspError; after that the stream is out of step and should be closed.
 */
import { RtspError } from './errors.js';
import type { Header, RtspMessage } from './message.js';
import { concat, fromUtf8 } from './text.js';

export interface InterleavedFrame {
  kind: 'interleaved';
  channel: number;
  data: Uint8Array;
}

export type RtspEvent = RtspMessage | InterleavedFrame;

export interface ParserOptions {
  /** Largest header block (start line + headers), bytes. Default 64 KiB. */
  maxHeaderBytes?: number;
  /** Largest body, bytes. Default 4 MiB. */
  maxBodyBytes?: number;
}

type Pending = { msg: RtspMessage; length: number };

export class RtspParser {
  private buf: Uint8Array = new Uint8Array(0);
  /** Where the search for the end of the header block resumes. */
  private scanFrom = 0;
  private pending: Pending | undefined;
  private failed: RtspError | undefined;
  private readonly maxHeader: number;
  private readonly maxBody: number;

  constructor(opts: ParserOptions = {}) {
    this.maxHeader = opts.maxHeaderBytes ?? 64 * 1024;
    this.maxBody = opts.maxBodyBytes ?? 4 * 1024 * 1024;
  }

  /** Bytes held back waiting for the rest of a message. */
  get buffered(): number {
    return this.buf.length;
  }

  /** Feeds bytes; returns every message and frame completed by them, in order. */
  push(chunk: Uint8Array): RtspEvent[] {
    if (this.failed) throw this.failed;
    this.buf = concat(this.buf, chunk);
    const out: RtspEvent[] = [];
    try {
      for (;;) {
        const ev = this.next();
        if (!ev) break;
        out.push(ev);
      }
    } catch (err) {
      this.failed = err instanceof RtspError ? err : new RtspError('parser-failed', String(err));
      throw this.failed;
    }
    return out;
  }

  private take(n: number): Uint8Array {
    const part = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return part;
  }

  /** One event, or undefined when more bytes are needed. Each call either consumes bytes or stops. */
  private next(): RtspEvent | undefined {
    if (this.pending) {
      if (this.buf.length < this.pending.length) return undefined;
      const { msg, length } = this.pending;
      this.pending = undefined;
      msg.body = this.take(length).slice();
      return msg;
    }
    // Blank lines between messages are allowed (RFC 2326 does not forbid them, cameras send them).
    let skip = 0;
    while (skip < this.buf.length && (this.buf[skip] === 0x0d || this.buf[skip] === 0x0a)) skip++;
    if (skip) {
      this.take(skip);
      this.scanFrom = 0;
    }
    if (this.buf.length === 0) return undefined;

    if (this.buf[0] === 0x24) {
      if (this.buf.length < 4) return undefined;
      const len = (this.buf[2] << 8) | this.buf[3];
      if (this.buf.length < 4 + len) return undefined;
      const channel = this.buf[1];
      const frame = this.take(4 + len);
      this.scanFrom = 0;
      return { kind: 'interleaved', channel, data: frame.slice(4) };
    }

    const end = this.headerEnd();
    if (end === undefined) {
      if (this.buf.length > this.maxHeader) throw new RtspError('header-too-large', `header block over ${this.maxHeader} bytes`);
      return undefined;
    }
    if (end.head > this.maxHeader) throw new RtspError('header-too-large', `header block over ${this.maxHeader} bytes`);
    const head = fromUtf8(this.buf.subarray(0, end.head));
    this.take(end.next);
    this.scanFrom = 0;
    const msg = parseHead(head);
    const cl = msg.headers.find(([k]) => k.toLowerCase() === 'content-length');
    let length = 0;
    if (cl) {
      const v = cl[1].trim();
      if (!/^\d{1,10}$/.test(v)) throw new RtspError('bad-content-length', `Content-Length ${JSON.stringify(cl[1])}`);
      length = Number(v);
      if (length > this.maxBody) throw new RtspError('body-too-large', `body of ${length} bytes is over ${this.maxBody}`);
    }
    if (length === 0) return msg;
    this.pending = { msg, length };
    return this.next();
  }

  /** The end of the header block: "\r\n\r\n" or "\n\n" (and the mixed forms). */
  private headerEnd(): { head: number; next: number } | undefined {
    const b = this.buf;
    for (let i = Math.max(0, this.scanFrom); i < b.length; i++) {
      if (b[i] !== 0x0a) continue;
      // i is a LF; the block ends when the next line is empty.
      if (i + 1 < b.length && b[i + 1] === 0x0a) return { head: i, next: i + 2 };
      if (i + 2 < b.length && b[i + 1] === 0x0d && b[i + 2] === 0x0a) return { head: i, next: i + 3 };
    }
    // Resume a little before the end: the terminator may straddle two chunks.
    this.scanFrom = Math.max(0, b.length - 3);
    return undefined;
  }
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
