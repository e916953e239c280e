/** The one error type the codec throws: malformed or oversized input, or a message it cannot encode. */
export type RtspErrorCode =
  | 'bad-start-line'
  | 'bad-header'
  | 'bad-content-length'
  | 'header-too-large'
  | 'body-too-large'
  | 'bad-message'
  | 'parser-failed';

export class RtspError extends Error {
  override readonly name = 'RtspError';
  constructor(
    readonly code: RtspErrorCode,
    message: string,
  ) {
    super(message);
  }
}
