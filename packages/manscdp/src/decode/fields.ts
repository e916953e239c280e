/** Field readers shared by the decoders: each validates and says which field was wrong. */
import { ManscdpError } from '../errors.js';
import { childText, type XmlElement } from '../xml.js';

/** GB/T 28181 annex D: a 20-digit code (centre, industry, type, serial). */
export const DEVICE_ID = /^\d{20}$/;
/** Catalog items may also be administrative regions: 2, 4, 6 or 8 digits of a civil code. */
const CIVIL_CODE_ID = /^(\d{2}|\d{4}|\d{6}|\d{8})$/;

export function isDeviceId(s: string): boolean {
  return DEVICE_ID.test(s);
}

/** A catalog item's ID: a 20-digit code or a civil-code region. */
export function isCatalogItemId(s: string): boolean {
  return DEVICE_ID.test(s) || CIVIL_CODE_ID.test(s);
}

export function requireText(e: XmlElement, name: string, where: string): string {
  const v = childText(e, name);
  if (v === undefined) throw new ManscdpError('bad-field', `${where}: <${name}> is missing`);
  return v;
}

export function requireDeviceId(e: XmlElement, name: string, where: string): string {
  const v = requireText(e, name, where);
  if (!isDeviceId(v)) throw new ManscdpError('bad-field', `${where}: <${name}> "${clip(v)}" is not a 20-digit ID`);
  return v;
}

const UINT = /^\d{1,15}$/;

/** A non-negative integer field; `undefined` when absent, an error when present and malformed. */
export function optUint(e: XmlElement, name: string, where: string): number | undefined {
  const v = childText(e, name);
  if (v === undefined) return undefined;
  if (!UINT.test(v))
    throw new ManscdpError('bad-field', `${where}: <${name}> "${clip(v)}" is not a non-negative integer`);
  return Number(v);
}

export function requireUint(e: XmlElement, name: string, where: string): number {
  const v = optUint(e, name, where);
  if (v === undefined) throw new ManscdpError('bad-field', `${where}: <${name}> is missing`);
  return v;
}

/** A lenient integer for optional descriptive fields: malformed reads as undefined, not an error. */
export function looseInt(e: XmlElement, name: string): number | undefined {
  const v = childText(e, name);
  if (v === undefined || !/^-?\d{1,15}$/.test(v)) return undefined;
  return Number(v);
}

/** A lenient decimal (longitude, speed ...): malformed or non-finite reads as undefined. */
export function looseFloat(e: XmlElement, name: string): number | undefined {
  const v = childText(e, name);
  if (v === undefined || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v)) return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

const GB_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?$/;

/**
 * A GB time (`2024-05-01T08:30:00`, local time of the device, no zone). Normalised to the `T` form;
 * devices that write a space or milliseconds are accepted. Malformed reads as undefined.
 */
export function looseTime(e: XmlElement, name: string): string | undefined {
  const v = childText(e, name);
  return v === undefined ? undefined : normaliseGbTime(v);
}

export function normaliseGbTime(v: string): string | undefined {
  const m = GB_TIME.exec(v.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m;
  if (+mo < 1 || +mo > 12 || +d < 1 || +d > 31 || +h > 23 || +mi > 59 || +s > 60) return undefined;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}`;
}

/** ON/OFF-style flags written in several spellings by devices. */
export function onOff(v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  const u = v.trim().toUpperCase();
  if (u === 'ON' || u === 'ONLINE' || u === 'OK' || u === '1' || u === 'TRUE') return true;
  if (u === 'OFF' || u === 'OFFLINE' || u === '0' || u === 'FALSE' || u === 'ERROR') return false;
  return undefined;
}

/** A value shortened for an error message (a device may send megabytes in one field). */
export function clip(v: string): string {
  return v.length > 40 ? `${v.slice(0, 40)}…` : v;
}
