/**
 * SIP messages as plain objects: start line, ordered headers (names in their canonical long form,
 * compact forms expanded), body as raw bytes. Bodies are never decoded here: GB28181 devices send
 * GB2312/GB18030 as often as UTF-8, and only the MANSCDP layer knows which.
 */
export interface SipHeader {
  name: string;
  value: string;
}

interface SipMessageBase {
  headers: SipHeader[];
  body: Uint8Array;
}
export interface SipRequest extends SipMessageBase {
  kind: 'request';
  method: string;
  uri: string;
}
export interface SipResponse extends SipMessageBase {
  kind: 'response';
  status: number;
  reason: string;
}
export type SipMessage = SipRequest | SipResponse;

/** Compact forms (RFC 3261 §7.3.3 and the registry) to their long names. */
export const COMPACT_FORMS: Readonly<Record<string, string>> = {
  a: 'Accept-Contact',
  b: 'Referred-By',
  c: 'Content-Type',
  d: 'Request-Disposition',
  e: 'Content-Encoding',
  f: 'From',
  i: 'Call-ID',
  j: 'Reject-Contact',
  k: 'Supported',
  l: 'Content-Length',
  m: 'Contact',
  o: 'Event',
  r: 'Refer-To',
  s: 'Subject',
  t: 'To',
  u: 'Allow-Events',
  v: 'Via',
  x: 'Session-Expires',
  y: 'Identity',
};

const KNOWN = [
  'Via', 'From', 'To', 'Call-ID', 'CSeq', 'Contact', 'Max-Forwards', 'Expires', 'Content-Type', 'Content-Length',
  'WWW-Authenticate', 'Authorization', 'Proxy-Authenticate', 'Proxy-Authorization', 'Date', 'Subject', 'User-Agent',
  'Server', 'Allow', 'Route', 'Record-Route', 'Supported', 'Require', 'Event', 'Subscription-State', 'Allow-Events',
  'Content-Encoding', 'Accept', 'Warning', 'Reason', 'Retry-After', 'Min-Expires', 'Unsupported', 'Proxy-Require',
  'Accept-Encoding', 'Accept-Language', 'Content-Disposition', 'In-Reply-To', 'Organization', 'Priority', 'Timestamp',
];
const CANONICAL = new Map<string, string>(KNOWN.map((n) => [n.toLowerCase(), n]));

/** The canonical spelling of a header name: compact forms expanded, known names re-cased, others as sent. */
export function canonicalName(name: string): string {
  const lower = name.toLowerCase();
  if (lower.length === 1 && COMPACT_FORMS[lower]) return COMPACT_FORMS[lower];
  return CANONICAL.get(lower) ?? name;
}

/** Headers whose grammar is a comma-separated list (RFC 3261 §7.3.1): several values may share one line. */
const LIST_HEADERS = new Set([
  'via', 'contact', 'route', 'record-route', 'allow', 'supported', 'require', 'proxy-require', 'unsupported',
  'accept', 'accept-encoding', 'accept-language', 'allow-events', 'content-encoding', 'in-reply-to', 'warning',
]);

/** The first value of a header (the first element for list headers), or undefined. */
export function header(msg: { headers: SipHeader[] }, name: string): string | undefined {
  return headerAll(msg, name)[0];
}

/** Every value of a header, in order; list headers are split at top-level commas. */
export function headerAll(msg: { headers: SipHeader[] }, name: string): string[] {
  const want = canonicalName(name).toLowerCase();
  const list = LIST_HEADERS.has(want);
  const out: string[] = [];
  for (const h of msg.headers) {
    if (h.name.toLowerCase() !== want) continue;
    if (list) out.push(...splitList(h.value));
    else out.push(h.value);
  }
  return out;
}

/** Replaces every header of that name by one (at the first one's place, or at the end). */
export function setHeader(msg: { headers: SipHeader[] }, name: string, value: string) {
  const canon = canonicalName(name);
  const want = canon.toLowerCase();
  const at = msg.headers.findIndex((h) => h.name.toLowerCase() === want);
  msg.headers = msg.headers.filter((h) => h.name.toLowerCase() !== want);
  msg.headers.splice(at < 0 ? msg.headers.length : at, 0, { name: canon, value });
}

export function removeHeader(msg: { headers: SipHeader[] }, name: string) {
  const want = canonicalName(name).toLowerCase();
  msg.headers = msg.headers.filter((h) => h.name.toLowerCase() !== want);
}

/** Splits at commas outside quotes and angle brackets ("a, <sip:b;x=1,2>" stays two values only at the top level). */
export function splitList(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '<') depth++;
    else if (c === '>') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      const part = value.slice(start, i).trim();
      if (part) out.push(part);
      start = i + 1;
    }
  }
  const last = value.slice(start).trim();
  if (last) out.push(last);
  return out;
}

export const REASON_PHRASES: Readonly<Record<number, string>> = {
  100: 'Trying',
  180: 'Ringing',
  183: 'Session Progress',
  200: 'OK',
  202: 'Accepted',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  415: 'Unsupported Media Type',
  423: 'Interval Too Brief',
  481: 'Call/Transaction Does Not Exist',
  482: 'Loop Detected',
  483: 'Too Many Hops',
  486: 'Busy Here',
  487: 'Request Terminated',
  488: 'Not Acceptable Here',
  500: 'Server Internal Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
  504: 'Server Time-out',
  505: 'Version Not Supported',
  603: 'Decline',
};

export function reasonPhrase(status: number): string {
  return REASON_PHRASES[status] ?? (status < 200 ? 'Provisional' : status < 300 ? 'OK' : 'Error');
}
