/** Requests, responses and the ACK of a failed INVITE, built the way RFC 3261 §8.1.1, §8.2.6 and §17.1.1.3 say. */
import { header, headerAll, reasonPhrase, setHeader, type SipHeader, type SipRequest, type SipResponse } from './message.js';
import { formatNameAddr, parseNameAddr, tagOf } from './header-values.js';

const enc = new TextEncoder();

export interface ResponseOptions {
  reason?: string;
  /** Tag added to To when the request's To has none (not for 100 Trying). */
  toTag?: string;
  headers?: SipHeader[];
  body?: Uint8Array | string;
  contentType?: string;
}

/** A response to a request: Via (all), From, To (+ tag), Call-ID and CSeq copied. */
export function responseTo(req: SipRequest, status: number, opts: ResponseOptions = {}): SipResponse {
  const headers: SipHeader[] = [];
  for (const v of headerAll(req, 'Via')) headers.push({ name: 'Via', value: v });
  const from = header(req, 'From');
  if (from !== undefined) headers.push({ name: 'From', value: from });
  let to = header(req, 'To');
  if (to !== undefined && status > 100 && opts.toTag && !tagOf(to)) {
    const na = parseNameAddr(to);
    to = na ? formatNameAddr({ ...na, params: { ...na.params, tag: opts.toTag } }) : `${to};tag=${opts.toTag}`;
  }
  if (to !== undefined) headers.push({ name: 'To', value: to });
  for (const name of ['Call-ID', 'CSeq']) {
    const v = header(req, name);
    if (v !== undefined) headers.push({ name, value: v });
  }
  headers.push(...(opts.headers ?? []));
  const body = typeof opts.body === 'string' ? enc.encode(opts.body) : (opts.body ?? new Uint8Array(0));
  const res: SipResponse = { kind: 'response', status, reason: opts.reason ?? reasonPhrase(status), headers, body };
  if (body.length && opts.contentType) setHeader(res, 'Content-Type', opts.contentType);
  setHeader(res, 'Content-Length', String(body.length));
  return res;
}

export interface RequestOptions {
  method: string;
  uri: string;
  /** Top Via value (with its branch). */
  via: string;
  from: string;
  to: string;
  callId: string;
  cseq: number;
  contact?: string;
  maxForwards?: number;
  headers?: SipHeader[];
  body?: Uint8Array | string;
  contentType?: string;
}

export function createRequest(o: RequestOptions): SipRequest {
  const headers: SipHeader[] = [
    { name: 'Via', value: o.via },
    { name: 'From', value: o.from },
    { name: 'To', value: o.to },
    { name: 'Call-ID', value: o.callId },
    { name: 'CSeq', value: `${o.cseq} ${o.method}` },
  ];
  if (o.contact) headers.push({ name: 'Contact', value: o.contact });
  headers.push({ name: 'Max-Forwards', value: String(o.maxForwards ?? 70) });
  headers.push(...(o.headers ?? []));
  const body = typeof o.body === 'string' ? enc.encode(o.body) : (o.body ?? new Uint8Array(0));
  const req: SipRequest = { kind: 'request', method: o.method, uri: o.uri, headers, body };
  if (body.length && o.contentType) setHeader(req, 'Content-Type', o.contentType);
  setHeader(req, 'Content-Length', String(body.length));
  return req;
}

/** The ACK a client INVITE transaction sends for a 3xx–6xx (same branch, the response's To). */
export function ackFor(invite: SipRequest, res: SipResponse): SipRequest {
  const headers: SipHeader[] = [{ name: 'Via', value: headerAll(invite, 'Via')[0] ?? '' }];
  for (const r of headerAll(invite, 'Route')) headers.push({ name: 'Route', value: r });
  headers.push({ name: 'From', value: header(invite, 'From') ?? '' });
  headers.push({ name: 'To', value: header(res, 'To') ?? header(invite, 'To') ?? '' });
  headers.push({ name: 'Call-ID', value: header(invite, 'Call-ID') ?? '' });
  const seq = (header(invite, 'CSeq') ?? '1').trim().split(/\s+/)[0];
  headers.push({ name: 'CSeq', value: `${seq} ACK` });
  headers.push({ name: 'Max-Forwards', value: '70' });
  headers.push({ name: 'Content-Length', value: '0' });
  return { kind: 'request', method: 'ACK', uri: invite.uri, headers, body: new Uint8Array(0) };
}
