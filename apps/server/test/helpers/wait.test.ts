/** The shared waiting helper: it goes on as soon as the condition holds and names it when it never does. */
import { describe, expect, it } from 'vitest';
import { until } from './wait.js';

describe('until', () => {
  it("returns the check's first truthy answer, sync or async", async () => {
    let n = 0;
    expect(await until(() => ++n >= 3 && `after ${n}`)).toBe('after 3');
    const row = { id: 7 };
    expect(await until(async () => (n++ > 4 ? row : undefined))).toBe(row);
  });

  it('throws after the timeout, naming the condition and its last answer', async () => {
    await expect(until(() => 0, 60)).rejects.toThrow(/^timed out after 60 ms waiting for \(\) => 0 \(last: 0\)$/);
    let seen = 0;
    await expect(until(() => (seen++, false), 60, { what: () => `the hub (${seen} checks)` })).rejects.toThrow(/waiting for the hub \(\d+ checks\)/);
    await expect(until(async () => null, 60, { what: 'a row' })).rejects.toThrow('waiting for a row (last: null)');
  });

  it('a check that throws fails the wait at once', async () => {
    await expect(until(() => { throw new Error('boom'); })).rejects.toThrow('boom');
  });
});
