/**
 * The per-device INVITE queue on its own (gb/invite/queue.ts): slots handed out in the order asked,
 * devices independent, a busy answer holding the device's queue until its cool-down ends (Retry-After
 * when given, else doubling from busyMinMs up to busyMaxMs, none again after a 2xx).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InviteCancelledError, InviteQueue, type InviteSlot } from '../../src/gb/invite/queue.js';

afterEach(() => {
  vi.useRealTimers();
});

/** Slots taken so far, by label, in the order they were given. */
function taker(q: InviteQueue) {
  const given: string[] = [];
  const slots = new Map<string, InviteSlot>();
  const take = (device: string, label: string, signal?: AbortSignal) =>
    q.take(device, signal).then((s) => {
      given.push(label);
      slots.set(label, s);
      return s;
    });
  return { given, slots, take };
}

const settle = () => new Promise<void>((r) => setImmediate(r));

describe('InviteQueue', () => {
  it('gives a device perDevice slots at once, the next in order as each is given back; other devices do not wait', async () => {
    const q = new InviteQueue({ perDevice: 2, busyMinMs: 1000, busyMaxMs: 8000 });
    const { given, slots, take } = taker(q);
    for (const l of ['a1', 'a2', 'a3', 'a4']) void take('A', l);
    void take('B', 'b1');
    await settle();
    expect(given).toEqual(['a1', 'a2', 'b1']);
    expect(q.state('A')).toMatchObject({ inFlight: 2, waiting: 2 });
    slots.get('a2')!.done({ kind: 'answered' });
    slots.get('a2')!.done({ kind: 'answered' }); // once only
    await settle();
    expect(given).toEqual(['a1', 'a2', 'b1', 'a3']);
    expect(q.state('A')).toMatchObject({ inFlight: 2, waiting: 1 });
  });

  it('a waiting take whose signal aborts is rejected and never given a slot', async () => {
    const q = new InviteQueue({ perDevice: 1, busyMinMs: 1000, busyMaxMs: 8000 });
    const { given, slots, take } = taker(q);
    void take('A', 'first');
    const stop = new AbortController();
    const cancelled = take('A', 'cancelled', stop.signal).catch((e: unknown) => e);
    void take('A', 'third');
    await settle();
    stop.abort();
    expect(await cancelled).toBeInstanceOf(InviteCancelledError);
    slots.get('first')!.done({ kind: 'other' });
    await settle();
    expect(given).toEqual(['first', 'third']);
    await expect(q.take('A', AbortSignal.abort())).rejects.toBeInstanceOf(InviteCancelledError);
  });

  it('busy: nothing is given until the cool-down ends; it doubles, follows Retry-After, and is forgotten after a 2xx', async () => {
    vi.useFakeTimers({ now: 0 });
    const q = new InviteQueue({ perDevice: 4, busyMinMs: 1000, busyMaxMs: 3000 });
    const { given, slots, take } = taker(q);
    const busy = async (label: string, retryAfterS?: number) => {
      await take('A', label);
      slots.get(label)!.done({ kind: 'busy', retryAfterS });
      return q.cooldownMs('A');
    };
    expect(await busy('1')).toBe(1000);
    void take('A', 'waits');
    await vi.advanceTimersByTimeAsync(999);
    expect(given).toEqual(['1']);
    await vi.advanceTimersByTimeAsync(1);
    expect(given).toEqual(['1', 'waits']);
    slots.get('waits')!.done({ kind: 'other' });
    expect(await busy('2')).toBe(2000);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await busy('3')).toBe(3000); // 4000, held to busyMaxMs
    await vi.advanceTimersByTimeAsync(3000);
    expect(await busy('4', 2)).toBe(2000); // Retry-After: 2
    await vi.advanceTimersByTimeAsync(2000);
    await take('A', 'ok');
    slots.get('ok')!.done({ kind: 'answered' });
    expect(q.cooldownMs('A')).toBe(0);
    expect(await busy('5')).toBe(1000);
  });
});
