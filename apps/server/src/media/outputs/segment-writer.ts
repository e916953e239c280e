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
 * Direct writes must start and end on block boundaries, from block-aligned memory. Appends are
 * copied at once into page-aligned chunks (the caller's bytes may be reused as soon as it returns),
 * after the file's unfinished last block, and written in rounds (WRITE_ROUND_MS): each write is
 * [the unfinished last block][the bytes appended since the last write][a `free` box up to the next
 * block boundary]; the next write rewrites that last block with more bytes after it. So the file
 * always ends in whole boxes (a player or a crash scan sees ftyp, moov, moof + mdat pairs and a
 * trailing free box, which ISO BMFF readers skip), and `close` cuts the padding off. A file's writes
 * run one at a time, in order.
 */
import fs from 'node:fs';
import { promisify } from 'node:util';
import { BytePool } from '@opencvr/codec';

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
 * Bytes waiting for their write: [the file's unfinished last block][appended bytes], from
 * `position`, in CHUNK_BYTES chunks (byte i in chunks[i / CHUNK_BYTES]).
 */
interface Batch {
  chunks: Uint8Array[];
  position: number;
  /** Bytes filled. */
  filled: number;
}

/** Copies `src` into the batch at its end, taking chunks as needed. */
function put(b: Batch, src: Uint8Array) {
  let from = 0;
  while (from < src.length) {
    const k = Math.floor(b.filled / CHUNK_BYTES);
    const chunk = (b.chunks[k] ??= directBuffers.take(CHUNK_BYTES));
    const at = b.filled % CHUNK_BYTES;
    const n = Math.min(src.length - from, CHUNK_BYTES - at);
    chunk.set(from === 0 && n === src.length ? src : src.subarray(from, from + n), at);
    from += n;
    b.filled += n;
  }
}

/** Views of the batch's first `length` bytes, a chunk each. */
function views(b: Batch, length: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < length; at += CHUNK_BYTES) out.push(b.chunks[at / CHUNK_BYTES].subarray(0, Math.min(CHUNK_BYTES, length - at)));
  return out;
}

function giveBack(b: Batch) {
  for (const c of b.chunks) directBuffers.give(c);
  b.chunks.length = 0;
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

export class SegmentWriter {
  /** Bytes appended so far: the file's length once every write is done. */
  bytes = 0;
  /** Bytes on disk: the end of the last write that completed. */
  written = 0;
  failed = false;
  /** The unfinished last block of the file (direct mode): bytes [bytes - bytes % BLOCK, bytes). */
  private readonly tail: Uint8Array;
  /** Appended, not yet handed to a write. */
  private batch?: Batch;
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
  ) {
    this.tail = new Uint8Array(direct ? DIRECT_BLOCK : 0);
  }

  /**
   * Appends the bytes of `parts` (`byteLength` in all); they are copied before this returns. In direct
   * mode their write starts within `maxWaitMs` (at most WRITE_ROUND_MS, at once when ≤ 0): the
   * recorder's crash bound (recorder.ts, HANDOFF_MS). Buffered, they are written before this returns.
   */
  append(parts: readonly Uint8Array[], byteLength: number, maxWaitMs = WRITE_ROUND_MS): void {
    if (this.failed || this.closed) return;
    if (!this.direct) {
      try {
        writeAll(this.fd, parts, byteLength, this.bytes);
      } catch (err) {
        this.fail(err as Error);
        return;
      }
      this.bytes = this.written = this.bytes + byteLength;
      return;
    }
    const b = this.batch ?? this.newBatch();
    const from = b.filled;
    for (const p of parts) put(b, p);
    if (b.filled !== from + byteLength) throw new RangeError(`append: parts hold ${b.filled - from} bytes, not ${byteLength}`);
    this.bytes += byteLength;
    waiting.add(this);
    if (round === undefined || maxWaitMs < WRITE_ROUND_MS) scheduleRound(maxWaitMs);
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
   * Writes what is waiting now, waits for the writes, cuts the padding (or, after a failure, what
   * follows the last complete write; a no-op for a buffered file that did not fail), syncs and closes. Never rejects: a failure here leaves a file
   * the start-up scan repairs.
   */
  close(): Promise<void> {
    this.closed ??= (async () => {
      waiting.delete(this);
      this.submit();
      await this.drain();
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

  /** Hands the waiting bytes to a write (after the one running, if any). */
  submit(): void {
    const b = this.batch;
    if (this.writing || !b || this.failed) {
      if (!this.writing) this.drained();
      return;
    }
    this.batch = undefined;
    // Pad to the block boundary with a free box (at least its 8-byte header), zeroed: not what the
    // pooled buffer held before (another camera's video).
    const data = b.filled;
    let pad = (DIRECT_BLOCK - (data % DIRECT_BLOCK)) % DIRECT_BLOCK;
    if (pad > 0 && pad < FREE_BOX_HEADER) pad += DIRECT_BLOCK;
    const length = data + pad;
    // The last partial block, kept for the next write (a block never straddles two chunks).
    const end = b.position + data;
    const kept = end % DIRECT_BLOCK;
    const last = b.chunks[Math.floor((data - 1) / CHUNK_BYTES)];
    if (kept) this.tail.set(last.subarray(((data - 1) % CHUNK_BYTES) + 1 - kept, ((data - 1) % CHUNK_BYTES) + 1), 0);
    if (pad) {
      freeHeader.setUint32(0, pad);
      put(b, FREE_HEADER);
      put(b, ZEROS.subarray(0, pad - FREE_BOX_HEADER));
    }
    this.writing = true;
    this.write(this.fd, views(b, length), b.position, (err, n) => {
      this.writing = false;
      if (err?.code === 'EINVAL' && this.refused && !this.failed) {
        // The open took O_DIRECT but the device wants larger blocks: this file goes on buffered.
        const failed = this.reopenBuffered(b, data);
        giveBack(b);
        if (failed) this.fail(failed);
        this.drained();
        return;
      }
      giveBack(b);
      if (!err && n !== length) err = new Error(`short write: ${n} of ${length} bytes`);
      if (err) this.fail(err);
      else this.written = end;
      // Bytes appended while this write ran go now, not a round later: they have waited already.
      this.submit();
    });
  }

  /**
   * Switches to buffered writes: the file reopened without O_DIRECT, the refused batch written
   * there (without its padding) and what follows written as it comes. Returns the error if that fails.
   */
  private reopenBuffered(b: Batch, data: number): NodeJS.ErrnoException | null {
    this.refused!.onRefused?.();
    try {
      const fd = fs.openSync(this.refused!.file, 'r+');
      fs.closeSync(this.fd);
      this.fd = fd;
      this.direct = false;
      writeAll(fd, views(b, data), data, b.position);
      fs.ftruncateSync(fd, b.position + data);
      // Appended while the refused write ran: written now, buffered.
      const later = this.batch;
      if (later) {
        this.batch = undefined;
        writeAll(fd, views(later, later.filled), later.filled, later.position);
        giveBack(later);
      }
      this.written = this.bytes;
      return null;
    } catch (err) {
      return err as NodeJS.ErrnoException;
    }
  }

  /** A batch that starts with the file's unfinished last block. */
  private newBatch(): Batch {
    const kept = this.bytes % DIRECT_BLOCK;
    const b: Batch = { chunks: [], position: this.bytes - kept, filled: 0 };
    put(b, this.tail.subarray(0, kept));
    return (this.batch = b);
  }

  private drain(): Promise<void> {
    if (!this.writing && !this.batch) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  private drained() {
    if (this.batch && !this.failed) return;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private fail(err: Error) {
    if (this.failed) return;
    this.failed = true;
    if (this.batch) giveBack(this.batch);
    this.batch = undefined;
    waiting.delete(this);
    // Never inside append: the recorder ends its segment from here.
    queueMicrotask(() => this.onError(err));
  }
}

/** A `free` box header (its size is set per write; put() copies it at once) and the zeros after it. */
const FREE_HEADER = new Uint8Array([0, 0, 0, 0, 0x66, 0x72, 0x65, 0x65]); // size, 'free'
const freeHeader = new DataView(FREE_HEADER.buffer);
const ZEROS = new Uint8Array(2 * DIRECT_BLOCK);

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
