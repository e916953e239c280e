/**
 * A small jitter/reorder buffer: packets come out in sequence-number order (with 16-bit wrap-around),
 * a gap is given up after `maxDelayMs` or when the window is full and reported as `lost` on the next
 * packet out. Late and duplicate packets are dropped and counted. Time is passed in, never read.
 */
import type { RtpPacket } from './packet.js';

/** b - a in sequence-number space, in [-32768, 32767]. */
export const seqDiff = (b: number, a: number): number => (((b - a) & 0xffff) ^ 0x8000) - 0x8000;

export interface Released {
  packet: RtpPacket;
  /** Packets missing just before this one. */
  lost: number;
}

export interface ReorderOptions {
  /** Window in packets (default 64). */
  size?: number;
  /** How long a gap may hold later packets back (default 100 ms). */
  maxDelayMs?: number;
}

export class ReorderBuffer {
  readonly stats = { late: 0, duplicate: 0, lost: 0, released: 0 };
  private readonly size: number;
  private readonly maxDelayMs: number;
  private readonly slots: (RtpPacket | undefined)[];
  private readonly arrival: number[];
  private next = -1;
  private count = 0;
  private lostRun = 0;

  constructor(options: ReorderOptions = {}) {
    this.size = Math.max(1, Math.min(4096, Math.floor(options.size ?? 64)));
    this.maxDelayMs = options.maxDelayMs ?? 100;
    this.slots = new Array(this.size).fill(undefined);
    this.arrival = new Array(this.size).fill(0);
  }

  /** Packets now ready, in order. `now` is any monotonic millisecond clock. */
  push(packet: RtpPacket, now: number): Released[] {
    const out: Released[] = [];
    const seq = packet.sequenceNumber & 0xffff;
    if (this.next < 0) this.next = seq;
    let d = seqDiff(seq, this.next);
    if (d < -this.size) {
      // Far outside the window (a restarted source or a jump of more than half the space): start over.
      out.push(...this.flush());
      this.next = seq;
      d = 0;
    } else if (d < 0) {
      this.stats.late++;
      return this.drain(now);
    }
    if (d >= this.size) {
      // Too far ahead for the window: give up the oldest gaps until it fits.
      this.advanceTo((seq - this.size + 1) & 0xffff, out);
      d = seqDiff(seq, this.next);
    }
    const slot = seq % this.size;
    if (this.slots[slot]) {
      this.stats.duplicate++;
    } else {
      this.slots[slot] = packet;
      this.arrival[slot] = now;
      this.count++;
    }
    this.releaseInOrder(out);
    out.push(...this.drain(now));
    return out;
  }

  /** Gives up gaps older than maxDelayMs; call it from a timer when no packets come. */
  drain(now: number): Released[] {
    const out: Released[] = [];
    while (this.count > 0) {
      let first = -1;
      let oldest = Infinity;
      for (let i = 0; i < this.size; i++) {
        const s = (this.next + i) & 0xffff;
        const p = this.slots[s % this.size];
        if (p && p.sequenceNumber === s) {
          if (first < 0) first = s;
          oldest = Math.min(oldest, this.arrival[s % this.size]);
        }
      }
      if (first < 0 || oldest + this.maxDelayMs > now) break;
      this.advanceTo(first, out);
      this.releaseInOrder(out);
    }
    return out;
  }

  /** Everything buffered, in order, with its gaps. */
  flush(): Released[] {
    const out: Released[] = [];
    while (this.count > 0) this.drain(Infinity).forEach((r) => out.push(r));
    return out;
  }

  private take(slot: number, out: Released[]): void {
    const packet = this.slots[slot]!;
    this.slots[slot] = undefined;
    this.count--;
    out.push({ packet, lost: this.lostRun });
    this.stats.lost += this.lostRun;
    this.stats.released++;
    this.lostRun = 0;
  }

  private releaseInOrder(out: Released[]): void {
    for (;;) {
      const slot = this.next % this.size;
      const p = this.slots[slot];
      if (!p || p.sequenceNumber !== this.next) return;
      this.take(slot, out);
      this.next = (this.next + 1) & 0xffff;
    }
  }

  /** Moves `next` forward to `target`, releasing what is buffered on the way and counting the rest lost. */
  private advanceTo(target: number, out: Released[]): void {
    while (this.count > 0 && seqDiff(target, this.next) > 0) {
      const slot = this.next % this.size;
      const p = this.slots[slot];
      if (p && p.sequenceNumber === this.next) this.take(slot, out);
      else this.lostRun++;
      this.next = (this.next + 1) & 0xffff;
    }
    const rest = seqDiff(target, this.next);
    if (rest > 0) {
      this.lostRun += rest;
      this.next = target;
    }
  }
}

/** 32-bit RTP timestamps to a monotonic number: each step is the signed 32-bit difference. */
export class TimestampUnwrapper {
  private last: number | undefined;
  private value = 0;

  unwrap(timestamp: number): number {
    const ts = timestamp >>> 0;
    if (this.last === undefined) this.value = ts;
    else this.value += (ts - this.last) | 0;
    this.last = ts;
    return this.value;
  }
}
