/** The one error type of the RTP package: a malformed packet or payload, or something not supported. */
export type RtpErrorCode = 'truncated' | 'bad-version' | 'bad-packet' | 'bad-payload' | 'unsupported' | 'bad-sdp';

export class RtpError extends Error {
  override readonly name = 'RtpError';
  constructor(
    readonly code: RtpErrorCode,
    message: string,
  ) {
    super(message);
  }
}
