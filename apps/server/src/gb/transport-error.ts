/**
 * A SIP request that could not be put on the wire: the log's words (the message) and why from the
 * catalogue, which a device request's failure carries to the user (GbRequestError.why) in their language.
 */
import type { Reason } from '@opencvr/shared';

export class SipTransportError extends Error {
  override readonly name = 'SipTransportError';
  constructor(
    message: string,
    readonly why: Reason,
  ) {
    super(message);
  }
}
