import { BYTE_UNIT_BASE } from '@opencvr/shared';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Bytes with base-1024 units (spec 9). */
export function formatBytes(n: number, digits = 2): string {
  if (!Number.isFinite(n) || n <= 0) return '0 B';
  const i = Math.min(UNITS.length - 1, Math.floor(Math.log(n) / Math.log(BYTE_UNIT_BASE)));
  const v = n / BYTE_UNIT_BASE ** i;
  return `${i === 0 ? v : v.toFixed(digits)} ${UNITS[i]}`;
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
