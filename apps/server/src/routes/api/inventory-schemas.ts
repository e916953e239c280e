/** Request pieces shared by the inventory routes. */
import { z } from 'zod';
import { schemaReason } from '../../http/zod-reason.js';
import { flag, text } from '../../http/schemas.js';
import { pullUrl } from '../../media/ingest/pull-url.js';
import { FINGERPRINT_RE, normalFingerprint } from '../../access/tls/fingerprint.js';

/** Device and channel IDs: GB 20-digit codes or the platform's numbers; no path or query characters. */
export const deviceId = z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_.-]+$/, schemaReason('allowedChars', { chars: '_ . -' }));
export const channelId = deviceId;

/** A window of a list: 0-based start and a limit up to the spec's largest (99999 for channel search). */
export const listWindow = z.object({
  start: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(99999).default(20),
});

/** A stream address the platform can pull. */
export const streamUrl = z
  .string()
  .trim()
  .max(1024)
  .refine((s) => {
    try {
      // rtsp(s):// for the native RTSP client; the rest as the pull sources take them (no file:, no pseudo-protocols).
      if (/^rtsps?:\/\//i.test(s)) return !!new URL(s).hostname;
      pullUrl(s);
      return true;
    } catch {
      return false;
    }
  }, schemaReason('streamUrl'));

/** A camera certificate's SHA-256 to pin (64 hex digits, pairs may be joined by ':'), '' for none; Node's 'AB:CD:…' form after. */
export const tlsPin = z
  .string()
  .trim()
  .refine((s) => s === '' || FINGERPRINT_RE.test(s), schemaReason('tlsFingerprint'))
  .transform((s) => (s ? normalFingerprint(s) : ''));

const longitude = z.coerce.number().min(-180).max(180);
const latitude = z.coerce.number().min(-90).max(90);

export const channelInput = z.object({
  Name: z.string().trim().min(1).max(128).optional(),
  Enable: flag.optional(),
  OnDemand: flag.optional(),
  IP: z.string().trim().max(255).optional(),
  Port: z.coerce.number().int().min(0).max(65535).optional(),
  Username: text(64).optional(),
  Password: z.string().max(128).optional(),
  Protocol: z.enum(['RTSP', 'RTMP', 'HTTP', 'ONVIF', 'GB28181', 'EHOME', 'JT808']).optional(),
  RtspUrl: streamUrl.or(z.literal('')).optional(),
  RecordUrl: streamUrl.or(z.literal('')).optional(),
  SnapUrl: z.string().trim().max(1024).optional(),
  CdnUrl: z.string().trim().max(1024).optional(),
  EnableCdn: flag.optional(),
  EnableRecord: flag.optional(),
  EnableAudio: flag.optional(),
  EnableH265ToH264: flag.optional(),
  Onvif: z.string().trim().max(1024).optional(),
  Transport: z.enum(['TCP', 'UDP']).optional(),
  Longitude: longitude.nullable().optional(),
  Latitude: latitude.nullable().optional(),
});

/**
 * A list as clients send it: a JSON array (body or form field holding JSON) or a comma list, each
 * text item turned into an item by `fromText`.
 */
export function listOf<T extends z.ZodTypeAny>(item: T, max: number, fromText: (s: string) => unknown = (s) => s) {
  return z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    const s = v.trim();
    if (s.startsWith('[')) {
      try {
        return JSON.parse(s);
      } catch {
        return v;
      }
    }
    return s ? s.split(',').map((x) => fromText(x.trim())) : [];
  }, z.array(item).max(max));
}

/** Channel references: "device:channel" text, {device, channel} or EasyCVR's {DeviceID, ChannelID}. */
export const channelRefs = listOf(
  z.preprocess((o) => {
    if (o && typeof o === 'object' && 'DeviceID' in o) {
      const x = o as { DeviceID: unknown; ChannelID: unknown };
      return { device: x.DeviceID, channel: x.ChannelID };
    }
    return o;
  }, z.object({ device: deviceId, channel: channelId })),
  20000,
  (p) => ({ device: p.split(':')[0], channel: p.split(':')[1] }),
);
export const deviceRefs = listOf(deviceId, 10000);
