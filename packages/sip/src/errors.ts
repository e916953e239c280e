/** The one error type of the SIP package: a malformed or oversized message, or an unusable header value. */
export type SipErrorCode =
  | 'truncated'
  | 'too-large'
  | 'bad-start-line'
  | 'bad-header'
  | 'missing-header'
  | 'bad-body'
  | 'bad-value';

/** What could be read of a request before the error, so a server can still answer 400 when it has a Via. */
export interface SipPartial {
  kind: 'request' | 'response';
  method?: string;
  uri?: string;
  headers: { name: string; value: string }[];
}

export class SipError extends Error {
  override readonly name = 'SipError';
  constructor(
    readonly code: SipErrorCode,
    message: string,
    readonly partial?: SipPartial,
  ) {
    super(message);
  }
}
