/**
 * Reusable output buffers. Every live viewer gets a fragment of about half a second twice a second;
 * a new buffer for each one makes the garbage collector run full collections over the whole heap every
 * second or so (V8 counts these buffers against the old generation once they survive), which was most
 * of the hub's CPU. A fragment is written into a buffer from here and the buffer comes back once the
 * socket has taken the bytes (the send callback), so a steady stream allocates nothing.
 *
 * One pool serves every output of the process: a socket flushes a fragment within a millisecond, so a
 * few buffers go round all viewers. A viewer whose socket is slow keeps its buffers until they are
 * written; the pool just makes new ones meanwhile. What the pool holds idle is bounded.
 */
export class BufferPool {
  private free: Uint8Array[] = [];
  private freeBytes = 0;
  /** Buffers handed out and returned, made new, and dropped because the pool was full. */
  readonly stats = { taken: 0, made: 0, returned: 0, dropped: 0 };

  constructor(private readonly maxIdleBytes = 8 * 1024 * 1024) {}

  /** A buffer of at least `size` bytes (use its first `size`); give it back with `give` once unused. */
  take(size: number): Uint8Array {
    this.stats.taken++;
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const b = this.free[i];
      if (b.length >= size && (best < 0 || b.length < this.free[best].length)) best = i;
    }
    if (best >= 0) {
      const b = this.free[best];
      this.free[best] = this.free[this.free.length - 1];
      this.free.pop();
      this.freeBytes -= b.length;
      return b;
    }
    this.stats.made++;
    // A quarter more, in 64 KiB steps, so the next fragment of a similar size fits too.
    return new Uint8Array(Math.ceil((size * 1.25) / 65536) * 65536);
  }

  /** Returns a buffer from `take` (or a view of one: the whole buffer comes back). */
  give(b: Uint8Array): void {
    const whole = b.byteOffset === 0 && b.length === b.buffer.byteLength ? b : new Uint8Array(b.buffer);
    if (this.freeBytes + whole.length > this.maxIdleBytes) {
      this.stats.dropped++;
      return;
    }
    this.stats.returned++;
    this.free.push(whole);
    this.freeBytes += whole.length;
  }

  get idleBytes(): number {
    return this.freeBytes;
  }
}

/** The pool of the WebSocket fMP4 outputs. */
export const fragmentPool = new BufferPool();
