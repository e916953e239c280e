import { describe, expect, it } from 'vitest';
import { BytePool } from '../src/index.js';

describe('BytePool', () => {
  it('hands out power-of-two size classes, reuses what comes back, bounds what it keeps idle', () => {
    const pool = new BytePool(1024, 8 * 1024);
    const a = pool.take(1000);
    expect(a.length).toBe(1024);
    const b = pool.take(3000);
    expect(b.length).toBe(4096);
    pool.give(a);
    pool.give(b);
    expect(pool.take(500)).toBe(a);
    expect(pool.take(2049)).toBe(b);
    expect(pool.stats.made).toBe(2);
    pool.give(pool.take(8192)); // fills the idle bound
    pool.give(b); // over it: dropped
    pool.give(new Uint8Array(10)); // smaller than the smallest class: dropped
    expect(pool.idleBytes).toBe(8192);
    expect(pool.stats.dropped).toBe(2);
  });

  it('makes new buffers with the allocator it was given', () => {
    const sizes: number[] = [];
    const pool = new BytePool(1024, 0, (n) => {
      sizes.push(n);
      return new Uint8Array(new ArrayBuffer(n + 16), 16, n);
    });
    const a = pool.take(1500);
    expect(a.length).toBe(2048);
    expect(a.byteOffset).toBe(16);
    expect(sizes).toEqual([2048]);
  });
});
