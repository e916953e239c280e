/**
 * Parses one SIP message from bytes (a UDP datagram, or one message cut by the TCP framer).
 * Throws only SipError; every length is checked. Tolerant where real devices are sloppy: bare LF
 * line ends, leading CRLF keep-alives, spaces around the colon, compact header names, a missing
 * Content-Length on datagrams (the body is the rest of the datagram).
 */
import { SipError, type SipPartial } from './errors.js';
import { canonicalName, header, type SipHeader, type SipMessage } from './message.js';
import { parseCSeq } from './header-values.js';

export interface ParseOptions {
  /** Largest header section accepted, bytes (default 16 KiB). */
  maxHeaderBytes?: number;
  /** Largest body accepted, bytes (default 1 MiB: a page of catalog items is far smaller). */
  maxBodyBytes?: number;
  /** Most header lines accepted (default 256). */
  maxHeaders?: number;
  /** Check the headers a transaction needs (Via, From, To, Call-ID, CSeq); default true. */
  requireHeaders?: boolean;
}

const TOKEN = /^[A-Za-z0-9\-.!%*_+`'~]+$/;
const REQUIRED = ['Via', 'From', 'To', 'Call-ID', 'CSeq'];
const utf8Strict = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

/** Header text: UTF-8 as the RFC says, or byte-for-byte Latin-1 when a device put something else there. */
export function decodeHeaderText(bytes: Uint8Array): string {
  try {
    return utf8Strict.decode(bytes);
  } catch {
    return latin1.decode(bytes);
  }
}

/** Index of the blank line ending the headers and the length of its terminator, or undefined. */
export function findHeaderEnd(buf: Uint8Array, from = 0, limit = buf.length): { at: number; len: number } | undefined {
  for (let i = from; i < limit; i++) {
    if (buf[i] !== 0x0a) continue;
    // "\n\n" or "\n\r\n" after a line: the blank line.
    if (buf[i + 1] === 0x0a) return { at: i + 1, len: 1 };
    if (buf[i + 1] === 0x0d && buf[i + 2] === 0x0a) return { at: i + 1, len: 2 };
  }
  return undefined;
}

export function parseSip(bytes: Uint8Array, opts: ParseOptions = {}): SipMessage {
  const maxHeaderBytes = opts.maxHeaderBytes ?? 16 * 1024;
  const maxBodyBytes = opts.maxBodyBytes ?? 1024 * 1024;
  const maxHeaders = opts.maxHeaders ?? 256;
  let start = 0;
  while (start < bytes.length && (bytes[start] === 0x0d || bytes[start] === 0x0a)) start++;
  if (start >= bytes.length) throw new SipError('truncated', 'empty message');
  const end = findHeaderEnd(bytes, start, Math.min(bytes.length, start + maxHeaderBytes + 2));
  let headEnd: number;
  let bodyStart: number;
  if (end) {
    headEnd = end.at;
    bodyStart = end.at + end.len;
  } else {
    if (bytes.length - start > maxHeaderBytes) throw new SipError('too-large', `header section over ${maxHeaderBytes} bytes`);
    // A datagram whose last header line has no blank line after it: accept it as header-only.
    headEnd = bytes.length;
    bodyStart = bytes.length;
  }
  const text = decodeHeaderText(bytes.subarray(start, headEnd));
  const rawLines = text.split(/\r?\n/);
  while (rawLines.length && rawLines[rawLines.length - 1] === '') rawLines.pop();
  // Unfold continuation lines (RFC 3261 §7.3.1).
  const lines: string[] = [];
  for (const l of rawLines) {
    if ((l.startsWith(' ') || l.startsWith('\t')) && lines.length > 1) lines[lines.length - 1] += ' ' + l.trim();
    else lines.push(l);
  }
  const startLine = lines[0] ?? '';
  let partial: SipPartial;
  let method: string | undefined;
  let uri: string | undefined;
  let status: number | undefined;
  let reason = '';
  if (startLine.startsWith('SIP/')) {
    const m = /^SIP\/2\.0 +(\d{3})(?: +(.*))?$/.exec(startLine.trimEnd());
    if (!m) throw new SipError('bad-start-line', `bad status line: ${clip(startLine)}`);
    status = Number(m[1]);
    if (status < 100 || status > 699) throw new SipError('bad-start-line', `status ${status} out of range`);
    reason = m[2] ?? '';
    partial = { kind: 'response', headers: [] };
  } else {
    const parts = startLine.trim().split(/ +/);
    if (parts.length !== 3 || !TOKEN.test(parts[0]) || parts[2].toUpperCase() !== 'SIP/2.0' || !/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(parts[1])) {
      throw new SipError('bad-start-line', `bad request line: ${clip(startLine)}`);
    }
    method = parts[0].toUpperCase();
    uri = parts[1];
    partial = { kind: 'request', method, uri, headers: [] };
  }
  const headers: SipHeader[] = partial.headers;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!name || !TOKEN.test(name)) throw new SipError('bad-header', `bad header line: ${clip(line)}`, partial);
    if (headers.length >= maxHeaders) throw new SipError('too-large', `over ${maxHeaders} headers`, partial);
    headers.push({ name: canonicalName(name), value: line.slice(colon + 1).trim() });
  }
  const msgHead = { headers };
  const cl = header(msgHead, 'Content-Length');
  let body: Uint8Array;
  if (cl !== undefined) {
    if (!/^\d{1,9}$/.test(cl)) throw new SipError('bad-header', `bad Content-Length: ${clip(cl)}`, partial);
    const n = Number(cl);
    if (n > maxBodyBytes) throw new SipError('too-large', `body of ${n} bytes over ${maxBodyBytes}`, partial);
    if (bodyStart + n > bytes.length) throw new SipError('truncated', `body shorter than Content-Length ${n}`, partial);
    body = bytes.slice(bodyStart, bodyStart + n);
  } else {
    if (bytes.length - bodyStart > maxBodyBytes) throw new SipError('too-large', 'body too large', partial);
    body = bytes.slice(bodyStart);
  }
  if (opts.requireHeaders !== false) {
    for (const name of REQUIRED) {
      if (header(msgHead, name) === undefined) throw new SipError('missing-header', `no ${name} header`, partial);
    }
    const cseq = parseCSeq(header(msgHead, 'CSeq')!);
    if (!cseq) throw new SipError('bad-header', 'bad CSeq', partial);
    if (method !== undefined && cseq.method !== method) {
      throw new SipError('bad-header', `CSeq method ${cseq.method} differs from ${method}`, partial);
    }
  }
  if (method !== undefined) return { kind: 'request', method, uri: uri!, headers, body };
  return { kind: 'response', status: status!, reason, headers, body };
}

/** parseSip without the throw, for callers that branch on the outcome. */
export function tryParseSip(bytes: Uint8Array, opts?: ParseOptions): { ok: true; message: SipMessage } | { ok: false; error: SipError } {
  try {
    return { ok: true, message: parseSip(bytes, opts) };
  } catch (err) {
    if (err instanceof SipError) return { ok: false, error: err };
    throw err;
  }
}

function clip(s: string) {
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}
