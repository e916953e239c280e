/** The platform's SSRC pool: per realm, per kind, given back once. */
import { describe, expect, it } from 'vitest';
import { SsrcPool } from '../../src/gb/invite/ssrc-pool.js';

describe('SsrcPool', () => {
  it('hands out live and history SSRCs of the realm, takes each back once, keeps realms apart', () => {
    const pool = new SsrcPool();
    const a = pool.allocate('live', '3402000000');
    const b = pool.allocate('live', '3402000000');
    const h = pool.allocate('history', '3402000000');
    const other = pool.allocate('live', '4401020049');
    expect([a.text, b.text, h.text, other.text]).toEqual(['0200000001', '0200000002', '1200000001', '0102000001']);
    expect(pool.inUse('live')).toBe(3);
    a.release();
    a.release();
    expect(pool.inUse('live')).toBe(2);
    // Round-robin: a freed SSRC is not handed out again at once (late RTP of the old session).
    expect(pool.allocate('live', '3402000000').text).toBe('0200000003');
    h.release();
    expect(pool.inUse('history')).toBe(0);
  });

  it('a realm that cannot carry the convention is refused', () => {
    expect(() => new SsrcPool().allocate('live', '12')).toThrow(/at least 8 digits/);
  });
});
