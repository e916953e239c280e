/**
 * RTSP/1.0 messages (RFC 2326): requests and responses as plain objects, and their serialisation.
 * Headers keep their order and spelling (a list of name/value pairs) so a parsed message serialises
 * back to the same bytes; look-ups are case-insensitive.
 */
import { RtspError } from './errors.js';
import { concat, fromUtf8, utf8 } from './text.js';

export type Header = [name: string, value: string];

export interface RtspRequest {
  kind: 'request';
  method: string;
  uri: string;
  /** "RTSP/1.0" */
  version: string;
  headers: Header[];
  body: Uint8Array;
}

export interface RtspResponse {
  kind: 'response';
  version: string;
  status: number;
  reason: string;
  headers: Header[];
  body: Uint8Array;
}

export type RtspMessage = RtspRequest | RtspResponse;

/** The first value of a header, by case-insensitive name. */
export function getHeader(msg: { headers: Header[] }, name: string): string | undefined {
  const n = name.toLowerCase();
  for (const [k, v] of msg.headers) if (k.toLowerCase() === n) return v;
  return undefined;
}

/** Every value of a header (WWW-Authenticate may come several times). */
export function getHeaders(msg: { headers: Header[] }, name: string): string[] {
  const n = name.toLowerCase();
  return msg.headers.filter(([k]) => k.toLowerCase() === n).map(([, v]) => v);
}

/** The body as text (SDP, parameters). */
export const bodyText = (msg: { body: Uint8Array }): string => fromUtf8(msg.body);

export interface RequestInit {
  method: string;
  uri: string;
  cseq?: number;
  headers?: Header[] | Record<string, string | number>;
  body?: Uint8Array | string;
  version?: string;
}

/** Builds a request object; a CSeq is added first when given, Content-Length when there is a body. */
export function request(init: RequestInit): RtspRequest {
  const list: Header[] = Array.isArray(init.headers)
    ? [...init.headers]
    : Object.entries(init.headers ?? {}).map(([k, v]): Header => [k, String(v)]);
  if (init.cseq !== undefined && getHeader({ headers: list }, 'CSeq') === undefined) list.unshift(['CSeq', String(init.cseq)]);
  const body = typeof init.body === 'string' ? utf8(init.body) : (init.body ?? new Uint8Array(0));
  return { kind: 'request', method: init.method, uri: init.uri, version: init.version ?? 'RTSP/1.0', headers: list, body };
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function checkHeaders(headers: Header[]) {
  for (const [k, v] of headers) {
    if (!TOKEN.test(k)) throw new RtspError('bad-header', `header name ${JSON.stringify(k)} is not a token`);
    if (/[\r\n]/.test(v)) throw new RtspError('bad-header', `header ${k} holds a line break`);
  }
}

function withBody(head: string, headers: Header[], body: Uint8Array): Uint8Array {
  checkHeaders(headers);
  const hasLength = getHeader({ headers }, 'Content-Length') !== undefined;
  let text = head;
  for (const [k, v] of headers) text += `${k}: ${v}\r\n`;
  if (body.length && !hasLength) text += `Content-Length: ${body.length}\r\n`;
  text += '\r\n';
  return concat(utf8(text), body);
}

/** Serialises a message; refuses what would not parse back (line breaks in headers, spaces in the method or URI). */
export function serialize(msg: RtspMessage): Uint8Array {
  if (msg.kind === 'request') {
    if (!TOKEN.test(msg.method)) throw new RtspError('bad-message', `method ${JSON.stringify(msg.method)} is not a token`);
    if (!msg.uri || /[\s]/.test(msg.uri)) throw new RtspError('bad-message', 'the request URI is empty or holds white space');
    if (!/^RTSP\/\d\.\d$/.test(msg.version)) throw new RtspError('bad-message', `version ${JSON.stringify(msg.version)}`);
    return withBody(`${msg.method} ${msg.uri} ${msg.version}\r\n`, msg.headers, msg.body);
  }
  if (!Number.isInteger(msg.status) || msg.status < 100 || msg.status > 999) throw new RtspError('bad-message', `status ${msg.status}`);
  if (/[\r\n]/.test(msg.reason)) throw new RtspError('bad-message', 'the reason phrase holds a line break');
  if (!/^RTSP\/\d\.\d$/.test(msg.version)) throw new RtspError('bad-message', `version ${JSON.stringify(msg.version)}`);
  return withBody(`${msg.version} ${msg.status} ${msg.reason}\r\n`, msg.headers, msg.body);
}

/** An interleaved frame ($, channel, 16-bit length, data: RFC 2326 10.12). */
export function serializeInterleaved(channel: number, data: Uint8Array): Uint8Array {
  if (!Number.isInteger(channel) || channel < 0 || channel > 255) throw new RtspError('bad-message', `channel ${channel}`);
  if (data.length > 0xffff) throw new RtspError('bad-message', `interleaved frame of ${data.length} bytes`);
  const out = new Uint8Array(4 + data.length);
  out[0] = 0x24;
  out[1] = channel;
  out[2] = data.length >> 8;
  out[3] = data.length & 0xff;
  out.set(data, 4);
  return out;
}
