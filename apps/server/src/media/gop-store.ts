/**
 * The bytes of a hub's cached GOP, in fixed-size chunks. Sources lend their units (the RTSP ingest
 * hands out views of its depacketiser's buffer, valid for the call only), and the hub keeps the GOP
 * by copying each unit here.
 *
 * Why not one buffer per unit: every unit of a GOP lives a GOP long (seconds), long enough to be
 * promoted, so each one's ArrayBuffer is freed only by a full (mark-compact) collection, and V8 starts
 * one for every few tens of MB of ArrayBuffers allocated. At 16 streams of 4 Mbit/s that was a full
 * collection of the whole heap every 1.3 s and about half of the hub's CPU (bench live, perf).
 *
 * Why chunks rather than one growing buffer per hub: a buffer that grows leaves its smaller
 * predecessors to the next full collection (which no longer comes often), and holds a quarter more
 * than the GOP on average.
 *
 * Why a store keeps its chunks from GOP to GOP: a GOP is about as large as the one before, so at a
 * keyframe the store writes the new GOP over its own chunks. Chunks the last GOP did not fill go back
 * to the pool shared by every hub, and a GOP that needs more takes them from there. Giving every
 * chunk back at each keyframe (as before) made the pool hold, idle, what the hubs were about to take
 * again: cameras whose keyframes come at the same moment (the bench's 64 streams of one camera) gave
 * back all their GOPs at once, more than the pool keeps idle, so the pool dropped chunks and made
 * new ones every GOP, and whatever it kept idle counted in the hub's memory (0.3-0.5 MB per stream at
 * 64 streams).
 *
 * The units handed out stay valid until the next keyframe. A subscriber that keeps bytes beyond its
 * unit() call copies them (see Subscriber.unit).
 */
import { BytePool, copyUnitInto, unitByteLength, type AccessUnit } from '@opencvr/codec';

/** Chunk size: a 1080p P-frame is ~20 KB, a keyframe 100-200 KB. Larger units take a chunk of a power-of-two multiple. */
export const GOP_CHUNK_BYTES = 256 * 1024;

/** The chunks of every hub of the process that no store holds (see above). */
export const gopChunks = new BytePool(GOP_CHUNK_BYTES, 64 * 1024 * 1024);

const EMPTY = new Uint8Array(0);

export class GopStore {
  /** This store's chunks, kept from GOP to GOP; chunks[0..index] hold the current GOP. */
  private chunks: Uint8Array[] = [];
  /** Index of the chunk being filled (-1: none yet this GOP), that chunk, and its bytes taken. */
  private index = -1;
  private cur: Uint8Array = EMPTY;
  private used = 0;

  constructor(private readonly pool: BytePool = gopChunks) {}

  /**
   * A new GOP starts (a keyframe, the cache was dropped, new tracks): it is written over this store's
   * chunks. Those the GOP that ends did not reach go back to the pool.
   */
  reset(): void {
    while (this.chunks.length > this.index + 1) this.pool.give(this.chunks.pop()!);
    this.index = -1;
    this.cur = EMPTY;
    this.used = 0;
  }

  /** The hub stopped: every chunk goes back to the pool. */
  release(): void {
    this.index = -1;
    this.reset();
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

  /** Room for `n` bytes in `cur` (the next chunk when it has too little left); returns where. */
  private reserve(n: number): number {
    if (this.used + n > this.cur.length) {
      const i = ++this.index;
      let next = this.chunks[i];
      if (!next || next.length < n) {
        // A unit larger than the chunk kept here (or none kept): a chunk of its size class, and the
        // smaller one, which no unit of this GOP uses yet, goes back.
        if (next) this.pool.give(next);
        next = this.chunks[i] = this.pool.take(n);
      }
      this.cur = next;
      this.used = 0;
    }
    const at = this.used;
    this.used += n;
    return at;
  }
}
