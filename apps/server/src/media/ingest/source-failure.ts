/**
 * How a hub's source says why it failed (SourceSink.failed): its own words, which the log keeps, and
 * the same as a catalogue reason, which the user reads in their language. Failures thrown inside a
 * source's start-up carry both (SourceFailure); a socket error is mapped once here.
 */
import type { Reason } from '@opencvr/shared';

/** An error with the catalogue reason of its message, thrown where a source fails. */
export class SourceFailure extends Error {
  override readonly name = 'SourceFailure';
  constructor(
    message: string,
    readonly why: Reason,
  ) {
    super(message);
  }
}

/** The catalogue reason an error carries (SourceFailure, or a GB error with its `why`), if any. */
export function whyOf(err: unknown): Reason | undefined {
  const why = (err as { why?: unknown } | null | undefined)?.why;
  return why && typeof why === 'object' && typeof (why as Reason).key === 'string' ? (why as Reason) : undefined;
}

/** A camera connection's socket error: the words the hub has always kept, and the reason for the user. */
export function socketFailure(err: NodeJS.ErrnoException): { words: string; why: Reason } {
  switch (err.code) {
    case 'ECONNREFUSED':
      return { words: 'connection refused', why: { key: 'streamRefused' } };
    case 'ECONNRESET':
    case 'EPIPE':
      return { words: 'connection reset', why: { key: 'streamReset' } };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { words: err.message, why: { key: 'hostNotFound' } };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { words: err.message, why: { key: 'hostUnreachable' } };
    case 'ETIMEDOUT':
      return { words: err.message, why: { key: 'statusTimedOut' } };
    default:
      return { words: err.message, why: { key: 'streamSocketError', vars: { code: err.code ?? 'ERROR' } } };
  }
}
