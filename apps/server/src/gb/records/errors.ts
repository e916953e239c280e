import { reason, type Reason } from '@opencvr/shared';

/**
 * A device-recording call that cannot go on: the platform's own limit, or the device turned a control
 * down. It carries the catalogue reason so the answer is in the request's language; the message is
 * the English of the same reason, for the log.
 */
export class GbRecordsError extends Error {
  override readonly name = 'GbRecordsError';
  constructor(
    readonly why: Reason,
    /** The device said no (a refused INFO), rather than the platform. */
    readonly refused = false,
  ) {
    super(reason(why.key, 'en-US', why.vars));
  }
}

/**
 * Why a device session's media failed, for its user: the source's catalogue reason (the GB source
 * gives one for every failure), or gbMediaFailed for a source that gave only words, which are logged.
 */
export function mediaFailure(detail: string, why: Reason | undefined, log: { warn(obj: object, msg: string): void } | undefined, session: object): Reason {
  if (why) return why;
  log?.warn({ ...session, detail }, 'gb records: receiving the device media failed');
  return { key: 'gbMediaFailed' };
}
