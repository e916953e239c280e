/**
 * The bytes of a hub's cached GOP, in fixed-size chunks shared by every hub of the process. Sources
 * lend their units (the RTSP ingest hands out views of its depacketiser's buffer, valid for the call
 * only), and the hub keeps the GOP by copying each unit here.
 *
 * Why not one buffer per unit: every unit of a GOP lives a GOP long (seconds), long enough to be
 * promoted, so each one's ArrayBuffer is freed only by a full (mark-compact) collection, and V8 starts
 * one for every few tens of MB of ArrayBuffers allocated. At 16 streams of 4 Mbit/s that was a full
 * collection of the whole heap every 1.3 s and about half of the hub's CPU (bench live, perf).
 *
 * Why chunks from a pool rather than one growing buffer per hub: a buffer that grows leaves its
 * smaller predecessors to the next full collection (which no longer comes often), and holds a quarter
 * more than the GOP on average. A hub holds the chunks its GOP fills; at a keyframe they go back to
 * the pool, and the same or another hub writes over them.
 *
 * The units handed out stay valid until the next keyframe. A subscriber that keeps bytes beyond its
 * unit() call copies them (see Subscriber.unit).
 */
import { BytePool, copyUnitInto, unitByteLength, type AccessUnit } from '@opencvr/codec';

/** Chunk size: a 1080p P-frame is ~20 KB, a keyframe 100-200 KB. Larger units take a chunk of a power-of-two multiple. */
export const GOP_CHUNK_BYTES = 256 * 1024;

/** The chunks of every hub of the process. */
export const gopChunks = new BytePool(GOP_CHUNK_BYTES, 64 * 1024 * 1024);

export class GopStore {
  /** Chunks holding this GOP's units, the last one being filled. */
  private chunks: Uint8Array[] = [];
  /** The chunk being filled (the last of `chunks`) and its bytes taken. */
  private cur: Uint8Array = new Uint8Array(0);
  private used = 0;

  constructor(private readonly pool: BytePool = gopChunks) {}

  /** A new GOP starts (a keyframe, the cache was dropped, the hub stopped): the chunks go back to the pool. */
  reset(): void {
    for (const c of this.chunks) this.pool.give(c);
    this.chunks = [];
    this.cur = new Uint8Array(0);
    this.used = 0;
  }

  /** Bytes of chunks this store holds. */
  get heldBytes(): number {
    let n = 0;
    for (const c of this.chunks) n += c.length;
    return n;
  }

  /** A copy of `unit` whose bytes live in the store (one unit never straddles two chunks). */
  copy(unit: AccessUnit): AccessUnit {
    const at = this.reserve(unitByteLength(unit));
    return copyUnitInto(unit, this.cur, at);
  }

  /** Room for `n` bytes in `cur` (a new chunk when it has too little left); returns where. */
  private reserve(n: number): number {
    if (this.used + n > this.cur.length) {
      this.cur = this.pool.take(n);
      this.chunks.push(this.cur);
      this.used = 0;
    }
    const at = this.used;
    this.used += n;
    return at;
  }
}
