/** Validators of spec section 5, used by the console forms and re-checked by the server. */
import { HOSTNAME_LABEL_MAX, HOSTNAME_MAX, HOSTNAME_MIN, PASSWORD_MIN_LENGTH, MAP_ZOOM_MAX } from './constants.js';

export const SPECIAL_CHARS = '!@#$%^&*(),.?":{}|<>';
const SPECIAL_RE = /[!@#$%^&*(),.?":{}|<>]/;

/** Which of the four classes (upper, lower, digit, special) a password contains. */
export function passwordClasses(pw: string): number {
  let n = 0;
  if (/[A-Z]/.test(pw)) n++;
  if (/[a-z]/.test(pw)) n++;
  if (/[0-9]/.test(pw)) n++;
  if (SPECIAL_RE.test(pw)) n++;
  return n;
}

/** True when a new password meets the rule: at least 8 characters and three of the four classes. */
export function isStrongPassword(pw: string): boolean {
  return pw.length >= PASSWORD_MIN_LENGTH && passwordClasses(pw) >= 3;
}

export type StrengthLevel = 'weak' | 'normal' | 'strong';

/**
 * Strength meter: a percentage from length and character classes, and its level.
 * Bars light at 25, 50 and 75 percent; below 50 is weak, below 75 normal, else strong.
 */
export function passwordStrength(pw: string): { percent: number; level: StrengthLevel } {
  if (!pw) return { percent: 0, level: 'weak' };
  const classes = passwordClasses(pw);
  // Length gives up to 40 points (full at 16 characters), each class 15.
  const lengthScore = Math.min(pw.length, 16) * 2.5;
  let percent = Math.round(lengthScore + classes * 15);
  if (pw.length < PASSWORD_MIN_LENGTH) percent = Math.min(percent, 49);
  percent = Math.max(0, Math.min(100, percent));
  const level: StrengthLevel = percent >= 75 ? 'strong' : percent >= 50 ? 'normal' : 'weak';
  return { percent, level };
}

/**
 * Host name rule of the cluster form: 3 to 255 characters, labels of 1 to 63 letters, digits or
 * hyphens (not at either end of a label), and at least one dot.
 */
export function isValidHostName(host: string): boolean {
  if (host.length < HOSTNAME_MIN || host.length > HOSTNAME_MAX) return false;
  if (!host.includes('.')) return false;
  const labels = host.split('.');
  const label = new RegExp(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,${HOSTNAME_LABEL_MAX - 2}}[A-Za-z0-9])?$`);
  return labels.every((l) => label.test(l));
}

/** Map zoom values above the maximum are set to the maximum. */
export function clampMapZoom(z: number): number {
  return z > MAP_ZOOM_MAX ? MAP_ZOOM_MAX : z;
}

/** A lowercase 32-character hex digest, the form passwords travel in. */
export function isMd5Hex(s: string): boolean {
  return /^[0-9a-fA-F]{32}$/.test(s);
}

/** IPv4 dotted quad. */
export function isIPv4(s: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  return !!m && m.slice(1).every((p) => Number(p) <= 255 && String(Number(p)) === p);
}
