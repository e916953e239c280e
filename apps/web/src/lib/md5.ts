import { md5 } from 'js-md5';

/** Passwords travel as lowercase md5 hex (API conventions), except a new password being set. */
export function md5hex(text: string): string {
  return md5(text);
}
