/**
 * How many INVITE transactions the platform has open with one device at once. GB/T 28181 sets no
 * bound, but real NVRs (Hikvision, Dahua) answer a burst of INVITEs (an NVR's always-on channels
 * when it registers, a video wall of one NVR) with 486 Busy Here / 503 or not at all, and every hub
 * then retries at once. So, as WVP-GB28181-pro does, INVITEs go to a device at most `perDevice` at a
 * time; the others wait in the order they were asked for, and one whose hub stops while it waits is
 * dropped without ever being sent. A device that answers 486 or 503 gets no INVITE at all for a
 * cool-down (its Retry-After, else doubling from `busyMinMs` up to `busyMaxMs`, back to none after a
 * 2xx), so the hubs' retries queue behind it instead of storming the device again.
 *
 * A device that does not answer an INVITE at all (AckTimeout, or the transaction timed out) is
 * overloaded or gone: it becomes suspect. A suspect device gets one INVITE at a time (its other open
 * INVITEs are let run out first), each after a short cool-down (`silentMs`: the silent INVITE has
 * already waited AckTimeout), until it sends any final answer again (a 2xx, a refusal, a 486):
 * then it is trusted with `perDevice` again. Without this, each silent INVITE's turn went to the next
 * waiting one at once, so a device that stopped answering was sent the whole queue, 4 every
 * AckTimeout, and every hub's retry on top.
 */

export interface InviteQueueOptions {
  /** INVITE transactions open with one device at once. */
  perDevice: number;
  /** The first cool-down after a busy answer without Retry-After, doubled on each further one. */
  busyMinMs: number;
  busyMaxMs: number;
  /** The pause before the next INVITE to a device that left one unanswered (shorter than a busy one: it waited AckTimeout already). */
  silentMs: number;
}

export const DEFAULT_INVITE_QUEUE: InviteQueueOptions = { perDevice: 4, busyMinMs: 2000, busyMaxMs: 60_000, silentMs: 1000 };

/** Final answers that say "too many requests now" rather than "no". */
export const isBusyStatus = (status: number) => status === 486 || status === 503;

/**
 * How the INVITE sent in a slot ended: answered (2xx), busy (486/503), refused (any other final
 * answer), silent (no final answer: AckTimeout or the transaction's timeout), other (nothing was
 * learnt of the device: not sent, not registered, no transport).
 */
export type InviteOutcome =
  | { kind: 'answered' }
  | { kind: 'busy'; retryAfterS?: number }
  | { kind: 'refused' }
  | { kind: 'silent' }
  | { kind: 'other' };

/** The right to send one INVITE to a device; `done` gives it back (once) and says how it went. */
export interface InviteSlot {
  done(outcome: InviteOutcome): void;
}

/** A waiting INVITE whose owner gave up (its hub stopped) before it was sent. */
export class InviteCancelledError extends Error {
  override readonly name = 'InviteCancelledError';
}

interface Waiter {
  resolve(slot: InviteSlot): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Lane {
  inFlight: number;
  waiting: Waiter[];
  /** No INVITE before this (epoch ms) after a busy answer. */
  busyUntil: number;
  /** The last cool-down (0 once the device answered 2xx). */
  busyMs: number;
  /** Left an INVITE unanswered, and answered none since: one INVITE at a time. */
  suspect: boolean;
  timer?: NodeJS.Timeout;
}

export class InviteQueue {
  private readonly lanes = new Map<string, Lane>();

  constructor(readonly options: InviteQueueOptions = DEFAULT_INVITE_QUEUE) {}

  /** Resolves when one more INVITE may go to the device; rejects with InviteCancelledError when `signal` aborts first. */
  take(deviceId: string, signal?: AbortSignal): Promise<InviteSlot> {
    if (signal?.aborted) return Promise.reject(new InviteCancelledError(`the INVITE to ${deviceId} was cancelled before it was sent`));
    const lane = this.lane(deviceId);
    return new Promise<InviteSlot>((resolve, reject) => {
      const w: Waiter = { resolve, signal };
      if (signal) {
        w.onAbort = () => {
          const i = lane.waiting.indexOf(w);
          if (i < 0) return;
          lane.waiting.splice(i, 1);
          this.tidy(deviceId, lane);
          reject(new InviteCancelledError(`the INVITE to ${deviceId} was cancelled before it was sent`));
        };
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
      lane.waiting.push(w);
      this.pump(deviceId, lane);
    });
  }

  /** A device's INVITEs now (stats, tests): open, waiting, the end of a cool-down (epoch ms, 0 if none yet), and whether it is suspect (one at a time). */
  state(deviceId: string): { inFlight: number; waiting: number; busyUntil: number; suspect: boolean } {
    const l = this.lanes.get(deviceId);
    return { inFlight: l?.inFlight ?? 0, waiting: l?.waiting.length ?? 0, busyUntil: l?.busyUntil ?? 0, suspect: l?.suspect ?? false };
  }

  private lane(deviceId: string): Lane {
    let l = this.lanes.get(deviceId);
    if (!l) {
      l = { inFlight: 0, waiting: [], busyUntil: 0, busyMs: 0, suspect: false };
      this.lanes.set(deviceId, l);
    }
    return l;
  }

  /** Hands out free slots in order, unless the device is cooling down (then again when it ends). */
  private pump(deviceId: string, lane: Lane) {
    const wait = lane.busyUntil - Date.now();
    if (wait > 0) {
      if (!lane.timer && lane.waiting.length) {
        lane.timer = setTimeout(() => {
          lane.timer = undefined;
          this.pump(deviceId, lane);
        }, wait);
        lane.timer.unref();
      }
      return;
    }
    const open = lane.suspect ? 1 : this.options.perDevice;
    while (lane.inFlight < open && lane.waiting.length) {
      const w = lane.waiting.shift()!;
      if (w.onAbort) w.signal?.removeEventListener('abort', w.onAbort);
      lane.inFlight++;
      let given = false;
      w.resolve({
        done: (outcome) => {
          if (given) return;
          given = true;
          lane.inFlight--;
          this.settle(lane, outcome);
          this.pump(deviceId, lane);
          this.tidy(deviceId, lane);
        },
      });
    }
  }

  private settle(lane: Lane, outcome: InviteOutcome) {
    // Any final answer: the device is listening again.
    if (outcome.kind === 'answered' || outcome.kind === 'busy' || outcome.kind === 'refused') lane.suspect = false;
    if (outcome.kind === 'answered') lane.busyMs = 0;
    if (outcome.kind === 'silent') {
      lane.suspect = true;
      lane.busyUntil = Math.max(lane.busyUntil, Date.now() + this.options.silentMs);
      return;
    }
    if (outcome.kind !== 'busy') return;
    const { busyMinMs, busyMaxMs } = this.options;
    const asked = outcome.retryAfterS !== undefined ? outcome.retryAfterS * 1000 : Math.max(busyMinMs, lane.busyMs * 2);
    lane.busyMs = Math.min(Math.max(asked, busyMinMs), busyMaxMs);
    lane.busyUntil = Math.max(lane.busyUntil, Date.now() + lane.busyMs);
  }

  /** A device with nothing open, waiting or remembered is forgotten. */
  private tidy(deviceId: string, lane: Lane) {
    if (lane.inFlight || lane.waiting.length || lane.busyMs || lane.suspect || lane.timer || lane.busyUntil > Date.now()) return;
    if (this.lanes.get(deviceId) === lane) this.lanes.delete(deviceId);
  }

  /** The device's current cool-down (ms; 0 when it is not busy): what the busy reason tells. */
  cooldownMs(deviceId: string): number {
    return this.lanes.get(deviceId)?.busyMs ?? 0;
  }
}
