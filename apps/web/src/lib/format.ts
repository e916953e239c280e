import { BYTE_UNIT_BASE } from '@opencvr/shared';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Bytes with base-1024 units (spec 9). */
export function formatBytes(n: number, digits = 2): string {
  if (!Number.isFinite(n) || n <= 0) return '0 B';
  let i = Math.min(UNITS.length - 1, Math.floor(Math.log(n) / Math.log(BYTE_UNIT_BASE)));
  let v = n / BYTE_UNIT_BASE ** i;
  // Just under a unit rounds up to 1024 of the one below ("1024.00 KB"): say it in the next unit.
  if (i > 0 && i < UNITS.length - 1 && Number(v.toFixed(digits)) >= BYTE_UNIT_BASE) {
    i += 1;
    v /= BYTE_UNIT_BASE;
  }
  return `${i === 0 ? v : v.toFixed(digits)} ${UNITS[i]}`;
}

/**
 * A measured data rate (bytes a second) as a bit rate, the unit cameras and the server's figures use:
 * "143 kbps", "2.4 Mbps" (decimal: 1 kbps = 1000 bit/s).
 */
export function formatBitrate(bytesPerSecond: number): string {
  const kbps = Number.isFinite(bytesPerSecond) && bytesPerSecond > 0 ? (bytesPerSecond * 8) / 1000 : 0;
  return kbps >= 1000 ? `${(kbps / 1000).toFixed(1)} Mbps` : `${Math.round(kbps)} kbps`;
}

/** Seconds as d h m s, coarse enough to read at a glance. */
export function formatDuration(totalSeconds: number, labels: { d: string; h: string; m: string; s: string }): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const parts: string[] = [];
  if (d) parts.push(`${d}${labels.d}`);
  if (d || h) parts.push(`${h}${labels.h}`);
  if (d || h || m) parts.push(`${m}${labels.m}`);
  parts.push(`${s % 60}${labels.s}`);
  return parts.join(' ');
}
