import { describe, expect, it } from 'vitest';
import { CoalescedPass } from '../../src/services/coalesced-pass.js';

describe('CoalescedPass', () => {
  it('runs one pass at a time; any number of calls during one ask for a single pass more', async () => {
    let passes = 0;
    let release!: () => void;
    const pass = new CoalescedPass(
      () => new Promise<void>((r) => ((passes += 1), (release = r))),
      () => undefined,
    );
    const first = pass.run();
    expect(passes).toBe(1);
    for (let i = 0; i < 5; i++) void pass.run();
    expect(passes).toBe(1);
    release();
    await first;
    // The one pass asked for during the first one.
    await new Promise((r) => setImmediate(r));
    expect(passes).toBe(2);
    release();
    await pass.idle();
    await new Promise((r) => setImmediate(r));
    expect(passes).toBe(2);
  });

  it('a failing pass goes to onError and the next call runs again', async () => {
    const errors: unknown[] = [];
    let n = 0;
    const pass = new CoalescedPass(async () => {
      n++;
      if (n === 1) throw new Error('db gone');
    }, (err) => errors.push(err));
    await pass.run();
    expect(errors).toHaveLength(1);
    await pass.run();
    expect([n, errors.length]).toEqual([2, 1]);
  });
});
