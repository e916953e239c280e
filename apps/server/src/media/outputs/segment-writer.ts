/**
 * How the recorder puts a segment file on disk.
 *
 * Direct I/O (O_DIRECT) where the file system takes it, buffered writes where it does not. Video is
 * written once and seldom read back soon, so going through the page cache only costs:
 *  - the kernel copies every byte into a cache page, and where memory was never used (a VM that
 *    returns freed guest pages to its host, a new server) that first touch of each page costs about
 *    ten times the copy itself: most of the recorder's CPU at 64 streams (docs/architecture.md);
 *  - 64 cameras fill the cache with gigabytes an hour, pushing out what the database and the
 *    console's files need;
 *  - a synchronous write into the cache can stall the event loop when the kernel throttles dirty pages.
 * A direct write goes from our buffer to the disk, on libuv's thread pool, so the event loop never
 * waits for the disk.
 *
 * Direct writes must start and end on block boundaries, from block-aligned memory. A file's bytes
 * are kept in page-aligned chunks (a chunk's byte i is the file's byte base + i) from the block its
 * last write ended in to what was appended since, and written in rounds (WRITE_ROUND_MS): each write
 * is [the unfinished last block][the bytes completed since the last write][a `free` box up to the
 * next block boundary]; the next write rewrites that last block with more bytes after it. So the file
 * always ends in whole boxes (a player or a crash scan sees ftyp, moov, moof + mdat pairs and a
 * trailing free box, which ISO BMFF readers skip), and `close` cuts the padding off. The write's last
 * block (bytes and padding) goes from a block of its own, so the chunks after the completed bytes
 * can be filled while the write runs. A file's writes run one at a time, in order.
 *
 * Two ways in: append() copies the caller's bytes in (the init segment), and the writer is a
 * FragmentSink (fmp4's Fragmenter, 'sink' output), where the recorder's fragments are built in the
 * chunks themselves: the video samples copied in once as they arrive, after room kept for the moof,
 * which goes in (a `free` box before it taking the slack) when the fragment is cut. Only completed
 * fragments are written; a fragment in progress is never on disk.
 */
import fs from 'node:fs';
import { promisify } from 'node:util';
import { BytePool } from '@opencvr/codec';
import type { FragmentSink } from '@opencvr/fmp4';

/** File offsets and lengths of direct writes are multiples of this: 4 KiB covers 4Kn disks too. */
export const DIRECT_BLOCK = 4096;
const WASM_PAGE = 65536;
const FREE_BOX_HEADER = 8;

// The server compiles without the DOM library, where WebAssembly's types live; this is all it uses.
declare const WebAssembly: { Memory: new (desc: { initial: number; maximum?: number }) => { readonly buffer: ArrayBuffer } };

/**
 * Page-aligned memory. Node's Buffers start 16 bytes into a malloc chunk; a WebAssembly.Memory's
 * buffer is mapped by V8 on its own pages. Made once per pool class and reused.
 */
function alignedBytes(bytes: number): Uint8Array {
  const pages = Math.ceil(bytes / WASM_PAGE);
  return new Uint8Array(new WebAssembly.Memory({ initial: pages, maximum: pages }).buffer, 0, bytes);
}

/**
 * Bytes waiting for a direct write live in chunks of this size (a multiple of DIRECT_BLOCK, so a
 * block never straddles two), written together with one pwritev. One size for every file: buffers
 * sized per batch came in many size classes, and at 64 streams the pool kept dropping and making
 * them (993 of 1,344 made new in a 20 s run), each new one paying the page faults of first touch.
 */
export const CHUNK_BYTES = 256 * 1024;

/** The write chunks of every recorder; a write gives its chunks back when it completes. */
export const directBuffers = new BytePool(CHUNK_BYTES, 64 * 1024 * 1024, alignedBytes);

const ftruncate = promisify(fs.ftruncate);
const fdatasync = promisify(fs.fdatasync);
const close = promisify(fs.close);

export interface SegmentWriterOptions {
  /** Write with O_DIRECT where the file system allows it (default true). */
  direct?: boolean;
  /** Called once, when a write fails; later appends are dropped. */
  onError(err: Error): void;
  /** The positional write of direct mode (tests make it fail); default fs.writev. */
  write?: PositionalWrite;
  /**
   * Called when a direct write was refused with EINVAL although the open took O_DIRECT (a device
   * whose blocks are larger than DIRECT_BLOCK): this file goes on buffered, and the caller had better
   * open its next files without direct I/O.
   */
  onDirectRefused?(): void;
}

export type PositionalWrite = (
  fd: number,
  buffers: Uint8Array[],
  position: number,
  done: (err: NodeJS.ErrnoException | null, written: number) => void,
) => void;

/**
 * Where a write's last block goes (its unfinished block and the `free` box after it, up to two
 * blocks): a block of its own, not the chunk, which the bytes after it are being written into.
 * Carved from page-aligned memory, kept for the next write (at most one per file writing at once).
 */
const padBlocks: Uint8Array[] = [];
function takePad(): Uint8Array {
  const b = padBlocks.pop();
  if (b) return b;
  const page = alignedBytes(WASM_PAGE);
  for (let at = 2 * DIRECT_BLOCK; at < WASM_PAGE; at += 2 * DIRECT_BLOCK) padBlocks.push(page.subarray(at, at + 2 * DIRECT_BLOCK));
  return page.subarray(0, 2 * DIRECT_BLOCK);
}

/**
 * How long appends wait to be written together. Each write is a trip through libuv's thread pool,
 * which wakes one of its threads and then the event loop; a segment's appends come every second or
 * so, and 64 cameras' writes at their own moments would wake the process 200 times a second. Written
 * in rounds, every writer with bytes waiting goes to the pool at once. The wait adds at most this much
 * to what a crash can lose (with fragments of at most 1 s: 1.5 s in all, within the 2 s bound).
 * 500 ms, not 250: half the pool writes, each twice as large (the kernel's cost per MB of a direct
 * write falls with its size), and half the rewrites of a file's unfinished last block; the server
 * recording 64 streams spent 0.96 of the CPU it spent with 250 (session 22, bench/recording/ab-dual.ts).
 * An append may ask for less (`maxWaitMs`: bytes that are old already, a longer fragment): the round
 * then starts that much sooner, for every writer with bytes waiting.
 */
export const WRITE_ROUND_MS = 500;
const waiting = new Set<SegmentWriter>();
let round: NodeJS.Timeout | undefined;
/** Date.now() at which the round's timer fires. */
let roundAt = 0;

/** Starts the writes of every writer with bytes waiting (the round's timer; tests call it). */
export function writeRoundNow(): void {
  clearTimeout(round);
  round = undefined;
  const writers = [...waiting];
  waiting.clear();
  for (const w of writers) w.submit();
}

/**
 * The round starts within `maxWaitMs` (WRITE_ROUND_MS at most): sooner than planned if need be, now
 * when ≤ 0 (a timer of 0 fires a millisecond later at the earliest).
 */
function scheduleRound(maxWaitMs: number) {
  if (maxWaitMs <= 0) return writeRoundNow();
  const now = Date.now();
  const at = now + Math.max(0, Math.min(WRITE_ROUND_MS, maxWaitMs));
  if (round !== undefined) {
    if (at >= roundAt) return;
    clearTimeout(round);
  }
  roundAt = at;
  round = setTimeout(writeRoundNow, at - now).unref();
}

/** Opens `file` (which must not exist) for a new segment. Throws what open throws (EEXIST...). */
export function openSegmentWriter(file: string, opts: SegmentWriterOptions): SegmentWriter {
  const fd = fs.openSync(file, 'wx');
  const O_DIRECT = fs.constants.O_DIRECT;
  if ((opts.direct ?? true) && O_DIRECT) {
    let direct: number | undefined;
    try {
      direct = fs.openSync(file, fs.constants.O_WRONLY | O_DIRECT);
    } catch {
      // EINVAL: this file system has no direct I/O (tmpfs before Linux 6.6, some network file systems).
    }
    if (direct !== undefined) {
      fs.closeSync(fd);
      return new SegmentWriter(direct, true, opts.onError, opts.write, { file, onRefused: opts.onDirectRefused });
    }
  }
  return new SegmentWriter(fd, false, opts.onError);
}

export class SegmentWriter implements FragmentSink {
  /** Bytes appended and fragments completed so far: the file's length once every write is done. */
  bytes = 0;
  /** Bytes on disk: the end of the last write that completed. */
  written = 0;
  failed = false;
  /** Memory of the file's bytes from `base` on, CHUNK_BYTES a chunk (file byte o at chunks[(o - base) / CHUNK_BYTES]). */
  private chunks: Uint8Array[] = [];
  private base = 0;
  /** End of the bytes in the chunks: `bytes`, and the fragment in progress after them. */
  private filled = 0;
  /** Completed bytes handed to writes (direct mode): the next write starts at this one's block. */
  private flushed = 0;
  /** The fragment in progress (FragmentSink): where it starts and the room kept for its header. */
  private open?: { at: number; room: number };
  private writing = false;
  private syncing?: Promise<void>;
  private closed?: Promise<void>;
  private drainWaiters: (() => void)[] = [];

  constructor(
    private fd: number,
    public direct: boolean,
    private readonly onError: (err: Error) => void,
    private readonly write: PositionalWrite = fs.writev,
    /** Direct mode: the file, to reopen it buffered if a direct write is refused, and who to tell. */
    private readonly refused?: { file: string; onRefused?: () => void },
  ) {}

  /**
   * Appends the bytes of `parts` (`byteLength` in all); they are copied before this returns. In direct
   * mode their write starts within `maxWaitMs` (at most WRITE_ROUND_MS, at once when ≤ 0): the
   * recorder's crash bound (recorder.ts, HANDOFF_MS). Buffered, they are written before this returns.
   * Not while a fragment is in progress.
   */
  append(parts: readonly Uint8Array[], byteLength: number, maxWaitMs = WRITE_ROUND_MS): void {
    if (this.failed || this.closed) return;
    if (this.open) throw new Error('append: a fragment is in progress');
    if (!this.direct) {
      try {
        writeAll(this.fd, parts, byteLength, this.bytes);
      } catch (err) {
        this.fail(err as Error);
        return;
      }
      this.bytes = this.written = this.filled = this.bytes + byteLength;
      return;
    }
    const from = this.filled;
    for (const p of parts) this.put(p);
    if (this.filled !== from + byteLength) throw new RangeError(`append: parts hold ${this.filled - from} bytes, not ${byteLength}`);
    this.completed(maxWaitMs);
  }

  /**
   * The bytes completed last (a fragment that end() completed) are written within `maxWaitMs`: the
   * round starts that much sooner, as append's maxWaitMs.
   */
  due(maxWaitMs: number): void {
    if (this.direct && !this.failed && !this.closed && this.bytes > this.flushed && maxWaitMs < WRITE_ROUND_MS) scheduleRound(maxWaitMs);
  }

  /** FragmentSink: a fragment starts here, `room` bytes kept for its header. */
  begin(room: number): void {
    if (this.open) throw new Error('begin: a fragment is in progress');
    this.open = { at: this.filled, room };
    if (this.failed || this.closed) return;
    this.reserve(room);
  }

  /** FragmentSink: one NAL unit after its 4-byte length (the recorder's every video byte comes this way). */
  nal(src: Uint8Array): void {
    if (this.failed || this.closed) return;
    const n = src.length;
    const rel = this.filled - this.base;
    const k = Math.floor(rel / CHUNK_BYTES);
    const at = rel - k * CHUNK_BYTES;
    const chunk = this.chunks[k];
    if (chunk && at + 4 + n <= CHUNK_BYTES) {
      chunk[at] = n >>> 24;
      chunk[at + 1] = (n >>> 16) & 0xff;
      chunk[at + 2] = (n >>> 8) & 0xff;
      chunk[at + 3] = n & 0xff;
      chunk.set(src, at + 4);
      this.filled += 4 + n;
      return;
    }
    LENGTH.setUint32(0, n);
    this.put(LENGTH_BYTES);
    this.put(src);
  }

  /** FragmentSink: sample bytes as they are. */
  raw(src: Uint8Array): void {
    if (this.failed || this.closed) return;
    this.put(src);
  }

  /** FragmentSink: the last `n` sample bytes, taken back out (a copy). */
  takeBack(n: number): Uint8Array {
    const out = new Uint8Array(n);
    if (this.failed || this.closed) return out;
    if (!this.open || this.filled - n < this.open.at + this.open.room) throw new RangeError(`takeBack(${n}): not that many sample bytes`);
    this.filled -= n;
    this.read(this.filled, out);
    return out;
  }

  /**
   * FragmentSink: the fragment is complete. The header goes at the end of the room, after a zeroed
   * `free` box of the slack (the chunk held other bytes before); a header that does not leave 0 or at
   * least 8 bytes of slack (more samples than the room was kept for) has the samples moved after it:
   * a copy, the one this way of writing saves otherwise. The tail follows, and the fragment is
   * written in the next round (due() for sooner); buffered, it is written before this returns.
   */
  end(header: Uint8Array, tail: readonly Uint8Array[]): void {
    const open = this.open;
    if (!open) throw new Error('end: no fragment in progress');
    this.open = undefined;
    if (this.failed || this.closed) return;
    const slack = open.room - header.length;
    if (slack === 0 || slack >= FREE_BOX_HEADER) {
      if (slack) {
        this.fill(open.at, slack);
        FREE_VIEW.setUint32(0, slack);
        this.writeAt(open.at, FREE_HEADER);
      }
      this.writeAt(open.at + slack, header);
    } else {
      const samples = new Uint8Array(this.filled - open.at - open.room);
      this.read(open.at + open.room, samples);
      this.filled = open.at;
      this.put(header);
      this.put(samples);
    }
    for (const t of tail) this.put(t);
    if (this.direct) return this.completed(WRITE_ROUND_MS);
    // Buffered: the fragment is written now, from the chunks, which then go back to the pool.
    try {
      writeAll(this.fd, this.views(this.bytes, this.filled), this.filled - this.bytes, this.bytes);
    } catch (err) {
      this.fail(err as Error);
      return;
    }
    this.bytes = this.written = this.flushed = this.filled;
    this.release(this.filled);
  }

  /**
   * fdatasync, unless one is running. Buffered mode only: a direct write is on the disk when it
   * completes, and the file's size and extents it changed are committed by the file system's journal
   * within its commit interval (ext4: 5 s), as often as this would be called.
   */
  sync(): void {
    if (this.direct || this.syncing || this.closed) return;
    this.syncing = fdatasync(this.fd)
      .catch(() => {
        /* a failing disk shows in the next write */
      })
      .finally(() => (this.syncing = undefined));
  }

  /**
   * Writes what is complete now (a fragment in progress is dropped), waits for the writes, cuts the
   * padding (or, after a failure, what follows the last complete write; a no-op for a buffered file
   * that did not fail), syncs and closes. Never rejects: a failure here leaves a file the start-up
   * scan repairs.
   */
  close(): Promise<void> {
    this.closed ??= (async () => {
      waiting.delete(this);
      this.open = undefined;
      this.filled = this.bytes;
      this.submit();
      await this.drain();
      this.release(Infinity);
      await this.syncing;
      const end = this.failed ? this.written : this.bytes;
      try {
        await ftruncate(this.fd, end);
        await fdatasync(this.fd);
      } catch {
        /* reconciliation at start cuts a torn tail */
      }
      await close(this.fd).catch(() => undefined);
    })();
    return this.closed;
  }

  /** Hands the completed bytes not written yet to a write (after the one running, if any). */
  submit(): void {
    if (this.writing) return;
    const end = this.bytes;
    if (!this.direct || this.failed || end === this.flushed) {
      this.drained();
      return;
    }
    const from = this.flushed - (this.flushed % DIRECT_BLOCK);
    const whole = end - (end % DIRECT_BLOCK);
    const iov = this.views(from, whole);
    let length = whole - from;
    // The unfinished last block and a zeroed free box (at least its 8-byte header) to the boundary.
    let pad: Uint8Array | undefined;
    const kept = end - whole;
    if (kept) {
      pad = takePad();
      this.read(whole, pad.subarray(0, kept));
      let free = DIRECT_BLOCK - kept;
      if (free < FREE_BOX_HEADER) free += DIRECT_BLOCK;
      FREE_VIEW.setUint32(0, free);
      pad.set(FREE_HEADER, kept);
      pad.fill(0, kept + FREE_BOX_HEADER, kept + free);
      iov.push(pad.subarray(0, kept + free));
      length += kept + free;
    }
    this.flushed = end;
    this.writing = true;
    this.write(this.fd, iov, from, (err, n) => {
      this.writing = false;
      if (pad) padBlocks.push(pad);
      if (err?.code === 'EINVAL' && this.refused && !this.failed) {
        // The open took O_DIRECT but the device wants larger blocks: this file goes on buffered.
        const failed = this.reopenBuffered(from);
        if (failed) this.fail(failed);
        this.drained();
        return;
      }
      if (!err && n !== length) err = new Error(`short write: ${n} of ${length} bytes`);
      if (err) this.fail(err);
      else {
        this.written = end;
        this.release(this.flushed - (this.flushed % DIRECT_BLOCK));
      }
      // Bytes completed while this write ran go now, not a round later: they have waited already.
      this.submit();
    });
  }

  /** Bytes completed (appended, or a fragment ended): written within `maxWaitMs` (direct mode). */
  private completed(maxWaitMs: number) {
    this.bytes = this.filled;
    waiting.add(this);
    if (round === undefined || maxWaitMs < WRITE_ROUND_MS) scheduleRound(maxWaitMs);
  }

  /**
   * Switches to buffered writes: the file reopened without O_DIRECT, the completed bytes from the
   * refused write's start written there (without padding) and what follows written as it comes.
   * Returns the error if that fails.
   */
  private reopenBuffered(from: number): NodeJS.ErrnoException | null {
    this.refused!.onRefused?.();
    try {
      const fd = fs.openSync(this.refused!.file, 'r+');
      fs.closeSync(this.fd);
      this.fd = fd;
      this.direct = false;
      waiting.delete(this);
      writeAll(fd, this.views(from, this.bytes), this.bytes - from, from);
      fs.ftruncateSync(fd, this.bytes);
      this.written = this.flushed = this.bytes;
      this.release(this.bytes);
      return null;
    } catch (err) {
      return err as NodeJS.ErrnoException;
    }
  }

  /** The chunk holding file byte `o` and where in it; a new one from the pool after the last. */
  private chunkAt(o: number): [Uint8Array, number] {
    if (!this.chunks.length) this.base = o - (o % DIRECT_BLOCK);
    const rel = o - this.base;
    const k = Math.floor(rel / CHUNK_BYTES);
    const chunk = (this.chunks[k] ??= directBuffers.take(CHUNK_BYTES));
    return [chunk, rel - k * CHUNK_BYTES];
  }

  /** Copies `src` in at the end. */
  private put(src: Uint8Array) {
    this.writeAt(this.filled, src);
    this.filled += src.length;
  }

  /** Copies `src` in at file byte `o` (within the chunks, or just after them). */
  private writeAt(o: number, src: Uint8Array) {
    let from = 0;
    while (from < src.length) {
      const [chunk, at] = this.chunkAt(o + from);
      const n = Math.min(src.length - from, CHUNK_BYTES - at);
      chunk.set(from === 0 && n === src.length ? src : src.subarray(from, from + n), at);
      from += n;
    }
  }

  /** Copies file bytes from `o` out into `into`. */
  private read(o: number, into: Uint8Array) {
    for (let got = 0; got < into.length; ) {
      const [chunk, at] = this.chunkAt(o + got);
      const n = Math.min(into.length - got, CHUNK_BYTES - at);
      into.set(chunk.subarray(at, at + n), got);
      got += n;
    }
  }

  /** Zeroes `n` file bytes from `o`. */
  private fill(o: number, n: number) {
    for (let done = 0; done < n; ) {
      const [chunk, at] = this.chunkAt(o + done);
      const m = Math.min(n - done, CHUNK_BYTES - at);
      chunk.fill(0, at, at + m);
      done += m;
    }
  }

  /** `n` bytes at the end kept for what comes later (a fragment's header). */
  private reserve(n: number) {
    const end = this.filled + n;
    // Chunk by chunk in order (the array stays packed), the one holding the last byte included.
    for (let o = this.filled; o < end; o += CHUNK_BYTES - ((o - this.base) % CHUNK_BYTES)) this.chunkAt(o);
    this.filled = end;
  }

  /** Views of file bytes [from, to), a chunk at most each. */
  private views(from: number, to: number): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (let o = from; o < to; ) {
      const [chunk, at] = this.chunkAt(o);
      const n = Math.min(to - o, CHUNK_BYTES - at);
      out.push(chunk.subarray(at, at + n));
      o += n;
    }
    return out;
  }

  /** Gives back the chunks wholly before file byte `upTo` (Infinity: all of them). */
  private release(upTo: number) {
    let k = 0;
    while (k < this.chunks.length && (upTo === Infinity || this.base + (k + 1) * CHUNK_BYTES <= upTo)) directBuffers.give(this.chunks[k++]);
    if (!k) return;
    this.chunks.splice(0, k);
    this.base += k * CHUNK_BYTES;
  }

  private drain(): Promise<void> {
    if (!this.writing && (this.bytes === this.flushed || !this.direct || this.failed)) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  private drained() {
    if (this.direct && this.bytes > this.flushed && !this.failed) return;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private fail(err: Error) {
    if (this.failed) return;
    this.failed = true;
    waiting.delete(this);
    if (!this.writing) this.release(Infinity);
    // Never inside append: the recorder ends its segment from here.
    queueMicrotask(() => this.onError(err));
  }
}

/** A `free` box header (its size is set before each use; copied at once) and a sample length's 4 bytes. */
const FREE_HEADER = new Uint8Array([0, 0, 0, 0, 0x66, 0x72, 0x65, 0x65]); // size, 'free'
const FREE_VIEW = new DataView(FREE_HEADER.buffer);
const LENGTH_BYTES = new Uint8Array(4);
const LENGTH = new DataView(LENGTH_BYTES.buffer);

/**
 * Writes every part at `position` in one writev where the kernel takes it all (it may write less:
 * the rest follows). Positional: a file reopened after a refused direct write has its offset at 0.
 */
function writeAll(fd: number, parts: readonly Uint8Array[], byteLength: number, position: number) {
  let written = fs.writevSync(fd, parts as Uint8Array[], position);
  if (written === byteLength) return;
  let at = position;
  for (const p of parts) {
    if (written >= p.byteLength) {
      written -= p.byteLength;
      at += p.byteLength;
      continue;
    }
    let off = written;
    written = 0;
    while (off < p.byteLength) off += fs.writeSync(fd, p, off, p.byteLength - off, at + off);
    at += p.byteLength;
  }
}
