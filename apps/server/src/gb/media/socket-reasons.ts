/**
 * Why a GB media socket failed, as the user reads it (RtpReceiver): the OS code when the error has
 * one (ECONNRESET, EADDRINUSE…), which reads the same in every language; without one, only where it
 * failed, since the error's message is English (the receiver logs it).
 */
import type { Reason } from '@opencvr/shared';

/** A socket of the session (the UDP port, the TCP listener, the device's TCP connection) failed at `where`. */
export function mediaSocketReason(err: NodeJS.ErrnoException, where: string): Reason {
  return err.code ? { key: 'gbMediaSocketError', vars: { where, code: err.code } } : { key: 'gbMediaSocketFailedSeeLog', vars: { where } };
}

/** TCP active: connecting to the device's media address failed. */
export function activeConnectReason(err: NodeJS.ErrnoException, address: string): Reason {
  return err.code ? { key: 'gbTcpActiveFailed', vars: { address, code: err.code } } : { key: 'gbTcpActiveFailedSeeLog', vars: { address } };
}
