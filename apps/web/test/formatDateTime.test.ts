import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../src/lib/time';

describe('formatDateTime', () => {
  it('writes a moment in local time as YYYY-MM-DD HH:mm:ss, from a Date, an ISO text or epoch ms', () => {
    const local = new Date(2026, 10, 27, 13, 24, 20, 820);
    expect(formatDateTime(local)).toBe('2026-11-27 13:24:20');
    expect(formatDateTime(local.toISOString())).toBe('2026-11-27 13:24:20');
    expect(formatDateTime(local.getTime())).toBe('2026-11-27 13:24:20');
  });

  it('no time: the empty text given; not a time: shown as it is', () => {
    expect(formatDateTime('')).toBe('');
    expect(formatDateTime(undefined, '-')).toBe('-');
    expect(formatDateTime(null, '-')).toBe('-');
    expect(formatDateTime('soon')).toBe('soon');
  });
});
