/**
 * Cuts a SIP byte stream (TCP) into messages by Content-Length (RFC 3261 §18.3). CRLF keep-alives
 * between messages (RFC 5626 "\r\n\r\n" pings, "\r\n" pongs) are skipped; `keepalives` counts them so
 * a server can answer a ping. Throws SipError when a header section or body is over the limit or the
 * Content-Length is unreadable: the stream cannot be resynchronised then, the caller closes it.
 */
import { SipError } from './errors.js';
import { decodeHeaderText, findHeaderEnd } from './parser.js';

export interface FramerOptions {
  maxHeaderBytes?: number;
  maxBodyBytes?: number;
}

export class StreamFramer {
  private buf: Uint8Array = new Uint8Array(0);
  private readonly maxHeaderBytes: number;
  private readonly maxBodyBytes: number;
  /** Double-CRLF pings seen since the last call to takePings(). */
  private pings = 0;

  constructor(opts: FramerOptions = {}) {
    this.maxHeaderBytes = opts.maxHeaderBytes ?? 16 * 1024;
    this.maxBodyBytes = opts.maxBodyBytes ?? 1024 * 1024;
  }

  /** Bytes held waiting for the rest of a message. */
  get pending(): number {
    return this.buf.length;
  }

  /** How many "\r\n\r\n" keep-alive pings arrived since the last call (to be answered with "\r\n"). */
  takePings(): number {
    const n = this.pings;
    this.pings = 0;
    return n;
  }

  /** Adds bytes; returns every complete message (headers + body) now available. */
  push(chunk: Uint8Array): Uint8Array[] {
    if (chunk.length) {
      const next = new Uint8Array(this.buf.length + chunk.length);
      next.set(this.buf);
      next.set(chunk, this.buf.length);
      this.buf = next;
    }
    const out: Uint8Array[] = [];
    for (;;) {
      // Skip keep-alive line ends before a message.
      let i = 0;
      while (i < this.buf.length && (this.buf[i] === 0x0d || this.buf[i] === 0x0a)) i++;
      if (i > 0) {
        const run = this.buf.subarray(0, i);
        for (let k = 0; k + 3 < run.length; k++) {
          if (run[k] === 0x0d && run[k + 1] === 0x0a && run[k + 2] === 0x0d && run[k + 3] === 0x0a) {
            this.pings++;
            k += 3;
          }
        }
        this.buf = this.buf.subarray(i);
      }
      if (!this.buf.length) break;
      const end = findHeaderEnd(this.buf, 0, Math.min(this.buf.length, this.maxHeaderBytes + 2));
      if (!end) {
        if (this.buf.length > this.maxHeaderBytes) throw new SipError('too-large', `header section over ${this.maxHeaderBytes} bytes`);
        break;
      }
      const bodyStart = end.at + end.len;
      const length = contentLength(decodeHeaderText(this.buf.subarray(0, end.at)));
      if (length === undefined) throw new SipError('bad-header', 'unreadable Content-Length on a stream');
      if (length > this.maxBodyBytes) throw new SipError('too-large', `body of ${length} bytes over ${this.maxBodyBytes}`);
      if (this.buf.length < bodyStart + length) break;
      out.push(this.buf.slice(0, bodyStart + length));
      this.buf = this.buf.subarray(bodyStart + length);
    }
    // Keep the remainder in its own small buffer, not a view pinning a large old one.
    if (this.buf.byteOffset > 0) this.buf = this.buf.slice();
    return out;
  }
}

/** Content-Length (or l) of a header section; 0 when absent; undefined when unreadable or repeated differently. */
function contentLength(head: string): number | undefined {
  let found: number | undefined;
  for (const line of head.split(/\r?\n/).slice(1)) {
    const m = /^\s*(content-length|l)\s*:\s*(.*)$/i.exec(line);
    if (!m) continue;
    const v = m[2].trim();
    if (!/^\d{1,9}$/.test(v)) return undefined;
    const n = Number(v);
    if (found !== undefined && found !== n) return undefined;
    found = n;
  }
  return found ?? 0;
}
