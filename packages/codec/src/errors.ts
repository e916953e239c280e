/** The one error type the codec helpers throw: input that is too short, out of range or not supported. */
export type CodecErrorCode = 'truncated' | 'bad-value' | 'unsupported';

export class CodecError extends Error {
  override readonly name = 'CodecError';
  constructor(
    readonly code: CodecErrorCode,
    message: string,
  ) {
    super(message);
  }
}
