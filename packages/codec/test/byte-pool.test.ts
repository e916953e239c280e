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
    pool.give(b); // over it: the buffer idle longest goes
    pool.give(new Uint8Array(10)); // smaller than the smallest class: dropped
    pool.give(new Uint8Array(16 * 1024)); // larger than the bound: dropped
    expect(pool.idleBytes).toBe(4096);
    expect(pool.stats.dropped).toBe(3);
    expect(pool.take(4096)).toBe(b);
  });

  it('over its idle bound lets the longest idle buffers go, so buffers of the size in use keep coming back', () => {
    const pool = new BytePool(1024, 100 * 1024);
    // A queue grows by doubling, giving back each outgrown buffer: 1, 2, 4, 8, 16 KiB sit idle.
    const outgrown = [1024, 2048, 4096, 8192, 16384].map((n) => pool.take(n));
    for (const x of outgrown) pool.give(x);
    // Then three buffers of 32 KiB cycle (segments ending and starting): each comes back each time.
    const inUse = [pool.take(32768), pool.take(32768), pool.take(32768)];
    const made = pool.stats.made;
    for (let round = 0; round < 5; round++) {
      for (const x of inUse) pool.give(x);
      for (let i = 0; i < inUse.length; i++) inUse[i] = pool.take(32768);
    }
    expect(pool.stats.made).toBe(made);
    expect(pool.idleBytes).toBeLessThanOrEqual(100 * 1024);
    // What was let go is the outgrown ones, oldest first.
    expect(pool.take(1024)).not.toBe(outgrown[0]);
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
