/** Fresh identifiers: tags, branches (RFC 3261 magic cookie z9hG4bK) and Call-IDs, from a CSPRNG. */
import { randomBytes } from 'node:crypto';

export const BRANCH_COOKIE = 'z9hG4bK';

export function newTag(): string {
  return randomBytes(6).toString('hex');
}
export function newBranch(): string {
  return `${BRANCH_COOKIE}${randomBytes(8).toString('hex')}`;
}
/** A Call-ID: random, optionally @host (some devices log it that way; any unique word is fine). */
export function newCallId(host?: string): string {
  const id = randomBytes(12).toString('hex');
  return host ? `${id}@${host}` : id;
}
