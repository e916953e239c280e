/**
 * Requests from the platform to a registered device (MESSAGE queries and controls, INFO, INVITE,
 * SUBSCRIBE, BYE), each through a client transaction (retransmitted over UDP). The promise settles
 * with the final response; a 2xx to an INVITE is ACKed here (and again if the device repeats it).
 */
import {
  createRequest,
  header,
  newBranch,
  newCallId,
  newTag,
  parseNameAddr,
  type SipHeader,
  type SipRequest,
  type SipResponse,
} from '@opencvr/sip';
import type { Reason } from '@opencvr/shared';
import type { Peer } from './peer.js';

export type GbMethod = 'MESSAGE' | 'INFO' | 'INVITE' | 'SUBSCRIBE' | 'BYE' | 'NOTIFY' | 'OPTIONS';

export interface GbRequestOptions {
  method: GbMethod;
  /** The 20-digit ID the request is addressed to (a channel for INVITE); default the device. */
  target?: string;
  body?: Uint8Array | string;
  /** Default Application/MANSCDP+xml when there is a body. */
  contentType?: string;
  headers?: SipHeader[];
  /** In-dialog requests (BYE, INFO of a session): the dialog's identifiers. */
  callId?: string;
  fromTag?: string;
  toTag?: string;
  cseq?: number;
  /** Give up after this long (default the gb AckTimeout). The transaction's own timer B/F is 32 s. */
  timeoutMs?: number;
}

export type GbRequestErrorCode = 'not-registered' | 'timeout' | 'transport';

export class GbRequestError extends Error {
  override readonly name = 'GbRequestError';
  constructor(
    readonly code: GbRequestErrorCode,
    message: string,
    /** The same in the catalogue, for an answer in the request's language (the message is for the log). */
    readonly why?: Reason,
  ) {
    super(message);
  }
}

export interface GbRequestResult {
  request: SipRequest;
  response: SipResponse;
}

export interface OutboundIdentity {
  serial: string;
  realm: string;
  localIp: string;
  localPort: number;
}

/** Builds the request as GB platforms do: URI sip:target@device-address, From the platform ID@realm. */
export function buildRequest(o: GbRequestOptions, deviceId: string, peer: Peer, me: OutboundIdentity, cseq: number): SipRequest {
  const target = o.target ?? deviceId;
  const deviceDomain = deviceId.slice(0, 10);
  const transport = peer.transport;
  const host = peer.address.includes(':') ? `[${peer.address}]` : peer.address;
  const localHost = me.localIp.includes(':') ? `[${me.localIp}]` : me.localIp;
  return createRequest({
    method: o.method,
    uri: `sip:${target}@${host}:${peer.port}`,
    via: `SIP/2.0/${transport} ${localHost}:${me.localPort};rport;branch=${newBranch()}`,
    from: `<sip:${me.serial}@${me.realm}>;tag=${o.fromTag ?? newTag()}`,
    to: `<sip:${target}@${deviceDomain}>${o.toTag ? `;tag=${o.toTag}` : ''}`,
    callId: o.callId ?? newCallId(),
    cseq: o.cseq ?? cseq,
    contact: `<sip:${me.serial}@${localHost}:${me.localPort}>`,
    headers: [...(o.headers ?? [])],
    body: o.body,
    contentType: o.body !== undefined && String(o.body).length ? (o.contentType ?? 'Application/MANSCDP+xml') : undefined,
  });
}

/** The ACK of a 2xx to an INVITE (RFC 3261 §13.2.2.4): a new branch, the dialog's tags, CSeq number of the INVITE. */
export function ack2xx(invite: SipRequest, res: SipResponse): SipRequest {
  const via = (header(invite, 'Via') ?? '').replace(/branch=[^;]*/, `branch=${newBranch()}`);
  const seq = (header(invite, 'CSeq') ?? '1').split(/\s+/)[0];
  const contact = parseNameAddr(header(res, 'Contact') ?? '');
  return createRequest({
    method: 'ACK',
    uri: contact?.uri ?? invite.uri,
    via,
    from: header(invite, 'From') ?? '',
    to: header(res, 'To') ?? '',
    callId: header(invite, 'Call-ID') ?? '',
    cseq: Number(seq),
  });
}
