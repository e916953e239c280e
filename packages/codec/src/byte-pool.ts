/**
 * Reusable byte buffers in power-of-two size classes (class k holds buffers of minBytes × 2^k), with
 * the bytes kept idle bounded. Media buffers that live seconds (a GOP, a fragment's samples) would
 * otherwise be promoted and freed only by V8's full collections, which V8 starts by the ArrayBuffer
 * bytes allocated: reusing them keeps a steady stream from allocating at all.
 *
 * Over the idle bound, the buffers idle longest are let go, not the one coming back: buffers outgrown
 * once (a queue doubling from 64 KiB to a fragment's size when recording starts) would otherwise fill
 * the bound for good, and a buffer of the size in use given back later was dropped and made again
 * (recording 64 streams: up to 1-2 MB of ArrayBuffers per stream at a segment change, and a burst of
 * V8 full collections).
 */
export class BytePool {
  private readonly free: Uint8Array[][] = [];
  /** The idle buffers, longest idle first (a Set keeps insertion order). */
  private readonly idleOrder = new Set<Uint8Array>();
  private idle = 0;
  readonly stats = { taken: 0, made: 0, dropped: 0 };

  /**
   * `make` allocates a buffer of exactly the bytes asked (a class size); by default a plain
   * Uint8Array. The recorder's direct-I/O writer passes one that returns page-aligned memory.
   */
  constructor(
    readonly minBytes: number,
    private readonly maxIdleBytes: number,
    private readonly make: (bytes: number) => Uint8Array = (bytes) => new Uint8Array(bytes),
  ) {}

  /** A buffer of at least `n` bytes (holding whatever was written to it before). */
  take(n: number): Uint8Array {
    this.stats.taken++;
    const k = this.classFor(n);
    const b = this.free[k]?.pop();
    if (b) {
      this.idle -= b.length;
      this.idleOrder.delete(b);
      return b;
    }
    this.stats.made++;
    return this.make(this.minBytes * 2 ** k);
  }

  /** Gives back a buffer from take(), once nothing views it any more. */
  give(b: Uint8Array): void {
    if (b.length < this.minBytes || b.length > this.maxIdleBytes) {
      this.stats.dropped++;
      return;
    }
    while (this.idle + b.length > this.maxIdleBytes) this.dropLongestIdle();
    (this.free[this.classOf(b)] ??= []).push(b);
    this.idleOrder.add(b);
    this.idle += b.length;
  }

  get idleBytes(): number {
    return this.idle;
  }

  private dropLongestIdle() {
    const b = this.idleOrder.values().next().value!;
    this.idleOrder.delete(b);
    const list = this.free[this.classOf(b)];
    list.splice(list.indexOf(b), 1);
    this.idle -= b.length;
    this.stats.dropped++;
  }

  /** The largest class whose size `b` holds. */
  private classOf(b: Uint8Array): number {
    let k = 0;
    while (this.minBytes * 2 ** (k + 1) <= b.length) k++;
    return k;
  }

  /** The smallest class whose buffers hold `n` bytes. */
  private classFor(n: number): number {
    let k = 0;
    while (this.minBytes * 2 ** k < n) k++;
    return k;
  }
}
