/** Spec 9 "byte size units base 1024": sizes step up a unit at each 1024, not 1000. */
import { describe, expect, it } from 'vitest';
import { BYTE_UNIT_BASE } from '@opencvr/shared';
import { formatBytes } from '../src/lib/format';

describe('formatBytes', () => {
  it('steps up at 1024', () => {
    expect(BYTE_UNIT_BASE).toBe(1024);
    expect(formatBytes(1000)).toBe('1000 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.00 KB');
    expect(formatBytes(1536)).toBe('1.50 KB');
    // Rounds to the next unit, not to "1024.00 KB".
    expect(formatBytes(1024 ** 2 - 1)).toBe('1.00 MB');
    expect(formatBytes(1024 ** 2 - 1024 * 6)).toBe('1018.00 KB');
    expect(formatBytes(1024 ** 2)).toBe('1.00 MB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.00 GB');
    expect(formatBytes(1024 ** 4)).toBe('1.00 TB');
    expect(formatBytes(3 * 1024 ** 6)).toBe('3072.00 PB');
  });

  it('shows nothing measurable as 0 B', () => {
    for (const n of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) expect(formatBytes(n)).toBe('0 B');
  });
});
