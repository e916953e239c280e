/**
 * The per-device INVITE queue on its own (gb/invite/queue.ts): slots handed out in the order asked,
 * devices independent, a busy answer holding the device's queue until its cool-down ends (Retry-After
 * when given, else doubling from busyMinMs up to busyMaxMs, none again after a 2xx); a device that left
 * an INVITE unanswered gets one at a time, each after silentMs, until any final answer.
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
    const q = new InviteQueue({ perDevice: 2, busyMinMs: 1000, busyMaxMs: 8000, silentMs: 500 });
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
    const q = new InviteQueue({ perDevice: 1, busyMinMs: 1000, busyMaxMs: 8000, silentMs: 500 });
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
    const q = new InviteQueue({ perDevice: 4, busyMinMs: 1000, busyMaxMs: 3000, silentMs: 500 });
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

  it('silent: the device gets one INVITE at a time, each after silentMs, until it answers anything; other outcomes change nothing', async () => {
    vi.useFakeTimers({ now: 0 });
    const q = new InviteQueue({ perDevice: 3, busyMinMs: 1000, busyMaxMs: 3000, silentMs: 500 });
    const { given, slots, take } = taker(q);
    for (const l of ['1', '2', '3', '4', '5', '6', '7']) void take('A', l);
    await vi.advanceTimersByTimeAsync(0);
    expect(given).toEqual(['1', '2', '3']);

    // '1' got no answer: its turn is not handed on, nor are those of the two still open.
    slots.get('1')!.done({ kind: 'silent' });
    expect(q.state('A')).toMatchObject({ inFlight: 2, waiting: 4, suspect: true, busyUntil: 500 });
    await vi.advanceTimersByTimeAsync(500);
    expect(given).toEqual(['1', '2', '3']);
    slots.get('2')!.done({ kind: 'silent' });
    slots.get('3')!.done({ kind: 'silent' });
    await vi.advanceTimersByTimeAsync(499);
    expect(given).toEqual(['1', '2', '3']);
    await vi.advanceTimersByTimeAsync(1);
    expect(given).toEqual(['1', '2', '3', '4']);
    expect(q.state('A')).toMatchObject({ inFlight: 1, waiting: 3, suspect: true });

    // Not sent (not registered, no transport): nothing learnt, still one at a time.
    slots.get('4')!.done({ kind: 'other' });
    await vi.advanceTimersByTimeAsync(0);
    expect(given).toEqual(['1', '2', '3', '4', '5']);
    expect(q.state('A')).toMatchObject({ inFlight: 1, suspect: true });

    // Any final answer (here a refusal) trusts the device with perDevice again, at once.
    slots.get('5')!.done({ kind: 'refused' });
    await vi.advanceTimersByTimeAsync(0);
    expect(given).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(q.state('A')).toMatchObject({ inFlight: 2, waiting: 0, suspect: false });
    slots.get('6')!.done({ kind: 'answered' });
    slots.get('7')!.done({ kind: 'answered' });
    await vi.advanceTimersByTimeAsync(0);
    expect(q.state('A')).toMatchObject({ inFlight: 0, waiting: 0, busyUntil: 0, suspect: false });
  });
});
