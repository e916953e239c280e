/** Form rules of the device and channel forms, pure so they can be tested. */
import { PULLED_TYPES, type DeviceType } from '@opencvr/shared';

export const GB_ID = /^\d{20}$/;

/** A stream address the platform can pull (the server accepts the same schemes). */
export function isStreamUrl(s: string): boolean {
  try {
    const u = new URL(s.trim());
    return ['rtsp:', 'rtsps:', 'rtmp:', 'http:', 'https:'].includes(u.protocol) && !!u.hostname;
  } catch {
    return false;
  }
}

export const isPulledType = (t: DeviceType | undefined) => !!t && PULLED_TYPES.includes(t);
export const isGb = (t: DeviceType | undefined) => t === 'GB28181';

export const inRange = (v: unknown, min: number, max: number) =>
  v === null || v === undefined || v === '' || (typeof v === 'number' && v >= min && v <= max);
