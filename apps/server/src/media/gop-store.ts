/**
 * The bytes of a hub's cached GOP, in fixed-size chunks: one store per track. Sources lend their units
 * (views of a buffer the source reuses after the call), and the hub keeps the GOP by copying each unit
 * here, unless the source assembled it here in the first place (lease(), below).
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
 * Why a source may assemble units in the store (lease(): the RTSP ingest's video depacketiser): a unit
 * assembled in place is kept without a copy (the copy was ~7 % of the hub's main-thread profile at 64
 * streams; A/B -3.7 % of the hub's CPU there, no gain seen at 16: docs/architecture.md), and the
 * depacketiser's two keyframe-sized buffers per stream go. The unit in progress is written after the
 * current GOP, so the cached units stay whole; when a keyframe starts a new GOP it has been written
 * already, somewhere in the store's last chunk or the one before: the store then turns its chunks
 * round so that the keyframe's chunk comes first (reset(keep)), and the bytes before the keyframe in
 * that chunk are left unused for that GOP. One store per track, so only one writer fills a store.
 *
 * The units handed out stay valid until the next keyframe. A subscriber that keeps bytes beyond its
 * unit() call copies them (see Subscriber.unit).
 */
import { BytePool, copyUnitInto, unitByteLength, type AccessUnit } from '@opencvr/codec';
import type { AssemblyMemory } from '@opencvr/rtp';

/** Chunk size: a 1080p P-frame is ~20 KB, a keyframe 100-200 KB. Larger units take a chunk of a power-of-two multiple. */
export const GOP_CHUNK_BYTES = 256 * 1024;

/** The chunks of every hub of the process that no store holds (see above). */
export const gopChunks = new BytePool(GOP_CHUNK_BYTES, 64 * 1024 * 1024);

/** Audio tracks' stores: a GOP of AAC or G.711 is 16-40 KB, so smaller chunks. */
export const GOP_AUDIO_CHUNK_BYTES = 16 * 1024;
export const gopAudioChunks = new BytePool(GOP_AUDIO_CHUNK_BYTES, 8 * 1024 * 1024);

const EMPTY = new Uint8Array(0);

export class GopStore implements AssemblyMemory {
  /** This store's chunks, kept from GOP to GOP; chunks[0..index] hold the current GOP. */
  private chunks: Uint8Array[] = [];
  /** Index of the chunk being filled (-1: none yet this GOP), that chunk, and its bytes taken. */
  private index = -1;
  private cur: Uint8Array = EMPTY;
  private used = 0;
  /** A source assembles units here (see lease()). */
  private leased = false;

  constructor(readonly pool: BytePool = gopChunks) {}

  /**
   * A new GOP starts (a keyframe, the cache was dropped, new tracks): it is written over this store's
   * chunks. Those the GOP that ends did not reach go back to the pool. `keep`: a unit assembled in
   * this store (holds()) that the new GOP starts with; while leased, the unit in progress is kept too.
   */
  reset(keep?: AccessUnit): void {
    while (this.chunks.length > this.index + 1) this.pool.give(this.chunks.pop()!);
    let first = keep ? this.chunkOf(keep) : -1;
    // The unit in progress starts at `used` in the current chunk.
    if (first < 0 && this.leased) first = this.index;
    if (first < 0) {
      this.index = -1;
      this.cur = EMPTY;
      this.used = 0;
      return;
    }
    // The chunks from `first` on hold what is kept; those before it hold the GOP that ended and come
    // next, in their order, for the new GOP's units.
    if (first > 0) {
      const ended = this.chunks.splice(0, first);
      this.chunks.push(...ended);
      this.index -= first;
    }
  }

  /** The hub stopped: every chunk goes back to the pool. */
  release(): void {
    this.leased = false;
    this.index = -1;
    this.reset();
  }

  /**
   * This store as the memory a source assembles its units in (the track's depacketiser). The hub
   * ends the lease (unlease) before another source starts; a stopped source writes nothing more.
   */
  lease(): AssemblyMemory {
    this.leased = true;
    return this;
  }

  unlease(): void {
    this.leased = false;
  }

  get isLeased(): boolean {
    return this.leased;
  }

  /** The unit's bytes were assembled in this store (a video unit's NAL units are in one chunk). */
  holds(unit: AccessUnit): boolean {
    return this.chunkOf(unit) >= 0;
  }

  private chunkOf(unit: AccessUnit): number {
    const bytes = unit.kind === 'video' ? unit.nalus[0] : unit.data;
    if (!bytes) return -1;
    // Every chunk is an ArrayBuffer of its own (BytePool makes each one).
    for (let i = this.index; i >= 0; i--) if (this.chunks[i].buffer === bytes.buffer) return i;
    return -1;
  }

  get bytes(): Uint8Array {
    return this.cur;
  }

  get base(): number {
    return this.used;
  }

  ensure(have: number, total: number): void {
    if (this.used + total <= this.cur.length) return;
    const from = this.cur;
    const at = this.used;
    this.nextChunk(total);
    if (have > 0) this.cur.set(from.subarray(at, at + have), 0);
  }

  commit(n: number): void {
    this.used += n;
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
    if (this.used + n > this.cur.length) this.nextChunk(n);
    const at = this.used;
    this.used += n;
    return at;
  }

  /** Moves on to the next chunk, one of `n` bytes at least. */
  private nextChunk(n: number): void {
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
}
