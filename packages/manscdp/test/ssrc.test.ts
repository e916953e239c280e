import { describe, expect, it } from 'vitest';
import { SsrcAllocator, ssrcKind, ssrcNumber, ssrcText } from '../src/index.js';

describe('SSRC convention', () => {
  it('0 live / 1 history, then digits 4-8 of the domain, then a 4-digit counter', () => {
    const a = new SsrcAllocator('3402000000');
    expect(a.allocate('live')).toBe('0200000001');
    expect(a.allocate('live')).toBe('0200000002');
    expect(a.allocate('history')).toBe('1200000001');
    // A 20-digit SIP ID gives the same domain digits.
    expect(new SsrcAllocator('44010200492000000001').allocate('live')).toBe('0102000001');
  });

  it('release gives an SSRC back; it is reused only after the counter wraps', () => {
    const a = new SsrcAllocator('3402000000');
    const first = a.allocate('live');
    expect(a.isInUse(first)).toBe(true);
    expect(a.release(first)).toBe(true);
    expect(a.release(first)).toBe(false);
    expect(a.allocate('live')).toBe('0200000002');
    expect(a.release('0999990001')).toBe(false); // another domain
  });

  it('9,999 per kind, then a clear error; a freed one is found after the wrap', () => {
    const a = new SsrcAllocator('3402000000');
    const all = Array.from({ length: 9999 }, () => a.allocate('history'));
    expect(new Set(all).size).toBe(9999);
    expect(() => a.allocate('history')).toThrow(/all 9999 history SSRCs are in use/);
    a.release('1200005000');
    expect(a.allocate('history')).toBe('1200005000');
    expect(a.allocate('live')).toBe('0200000001');
  });

  it('reserve marks an SSRC restored after a restart', () => {
    const a = new SsrcAllocator('3402000000');
    expect(a.reserve('0200000001')).toBe(true);
    expect(a.allocate('live')).toBe('0200000002');
    expect(a.reserve('abc')).toBe(false);
  });

  it('y= text and RTP numbers', () => {
    expect(ssrcNumber('0200000001')).toBe(200000001);
    expect(ssrcNumber('1002')).toBe(1002);
    expect(ssrcText(1002)).toBe('0000001002');
    expect(ssrcKind('1200000001')).toBe('history');
    expect(() => ssrcNumber('4294967296')).toThrow(/32-bit/);
    expect(() => new SsrcAllocator('3402')).toThrow(/at least 8 digits/);
  });
});
