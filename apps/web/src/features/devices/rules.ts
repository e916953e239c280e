/** Form rules of the device and channel forms, pure so they can be tested. */
import { PULLED_TYPES, type DeviceType } from '@opencvr/shared';

export const GB_ID = /^\d{20}$/;

/**
 * A stream address the platform can pull: rtsp(s):// and rtmp(s):// natively, http(s) through ffmpeg (the
 * server accepts the same: routes/api/inventory-schemas.ts streamUrl, media/ingest/pull-url.ts).
 */
export function isStreamUrl(s: string): boolean {
  try {
    const t = s.trim();
    if (/[\s\x00-\x1f\x7f]/.test(t)) return false;
    const u = new URL(t);
    return ['rtsp:', 'rtsps:', 'rtmp:', 'rtmps:', 'http:', 'https:'].includes(u.protocol) && !!u.hostname && !u.hostname.startsWith('-');
  } catch {
    return false;
  }
}

export const isPulledType = (t: DeviceType | undefined) => !!t && PULLED_TYPES.includes(t);
export const isGb = (t: DeviceType | undefined) => t === 'GB28181';

export const inRange = (v: unknown, min: number, max: number) =>
  v === null || v === undefined || v === '' || (typeof v === 'number' && v >= min && v <= max);
