/** The one error type of the MANSCDP package: every malformed or refused input ends as one of these. */
export type ManscdpErrorCode =
  | 'too-large' // body over the size limit
  | 'forbidden-dtd' // <!DOCTYPE or <!ENTITY: refused (external entities, billion laughs)
  | 'bad-xml' // not parseable as XML
  | 'bad-root' // root is not Query/Response/Notify/Control
  | 'bad-field' // a required field missing or malformed (DeviceID, SN, SumNum ...)
  | 'bad-argument' // an encoder was given a value out of range
  | 'bad-ptz' // a PTZCmd that is not 8 bytes of A5 0F .. with the right checksum
  | 'bad-sdp' // an SDP answer that cannot be used
  | 'bad-rtsp'; // a MANSRTSP body that cannot be used

export class ManscdpError extends Error {
  override readonly name = 'ManscdpError';
  constructor(
    readonly code: ManscdpErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Turns anything thrown inside a parser into a ManscdpError (a library's own Error included). */
export function asManscdpError(e: unknown, code: ManscdpErrorCode, prefix: string): ManscdpError {
  if (e instanceof ManscdpError) return e;
  const why = e instanceof Error ? e.message : String(e);
  return new ManscdpError(code, `${prefix}: ${why}`);
}
