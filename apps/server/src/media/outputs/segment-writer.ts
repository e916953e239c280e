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
 * Direct writes must start and end on block boundaries, from block-aligned memory. Each append
 * writes [the unfinished last block of the file][the new bytes][a `free` box up to the next block
 * boundary], from a page-aligned buffer; the next append rewrites that last block with more bytes
 * after it. So the file always ends in whole boxes (a player or a crash scan sees ftyp, moov, moof +
 * mdat pairs and a trailing free box, which ISO BMFF readers skip), and `close` cuts the padding off.
 * Appends are copied at once (the caller's bytes may be reused as soon as it returns) and written in
 * order, one at a time.
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

/** The write buffers of every recorder; a write gives its buffer back when it completes. */
export const directBuffers = new BytePool(WASM_PAGE, 32 * 1024 * 1024, alignedBytes);

const ftruncate = promisify(fs.ftruncate);
const fdatasync = promisify(fs.fdatasync);
const close = promisify(fs.close);

export interface SegmentWriterOptions {
  /** Write with O_DIRECT where the file system allows it (default true). */
  direct?: boolean;
  /** Called once, when a write fails; later appends are dropped. */
  onError(err: Error): void;
  /** The positional write of direct mode (tests make it fail); default fs.write. */
  write?: PositionalWrite;
}

export type PositionalWrite = (
  fd: number,
  buf: Uint8Array,
  offset: number,
  length: number,
  position: number,
  done: (err: NodeJS.ErrnoException | null, written: number) => void,
) => void;

interface PendingWrite {
  buf: Uint8Array;
  length: number;
  position: number;
  /** Bytes of the segment on disk once this write is done. */
  end: number;
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
      return new SegmentWriter(direct, true, opts.onError, opts.write);
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
  /** End of what was written including padding. */
  private fileEnd = 0;
  private readonly queue: PendingWrite[] = [];
  private writing = false;
  private syncing?: Promise<void>;
  private closed?: Promise<void>;
  private drainWaiters: (() => void)[] = [];

  constructor(
    private readonly fd: number,
    readonly direct: boolean,
    private readonly onError: (err: Error) => void,
    private readonly write: PositionalWrite = fs.write,
  ) {
    this.tail = new Uint8Array(direct ? DIRECT_BLOCK : 0);
  }

  /** Appends the bytes of `parts` (`byteLength` in all); they are copied before this returns. */
  append(parts: readonly Uint8Array[], byteLength: number): void {
    if (this.failed || this.closed) return;
    if (!this.direct) {
      try {
        writeAll(this.fd, parts, byteLength);
      } catch (err) {
        this.fail(err as Error);
        return;
      }
      this.bytes = this.written = this.fileEnd = this.bytes + byteLength;
      return;
    }
    const kept = this.bytes % DIRECT_BLOCK;
    const data = kept + byteLength;
    let pad = (DIRECT_BLOCK - (data % DIRECT_BLOCK)) % DIRECT_BLOCK;
    if (pad > 0 && pad < FREE_BOX_HEADER) pad += DIRECT_BLOCK;
    const length = data + pad;
    const buf = directBuffers.take(length);
    buf.set(this.tail.subarray(0, kept), 0);
    let at = kept;
    for (const p of parts) {
      buf.set(p, at);
      at += p.byteLength;
    }
    if (at !== data) {
      directBuffers.give(buf);
      throw new RangeError(`append: parts hold ${at - kept} bytes, not ${byteLength}`);
    }
    if (pad) {
      // Zeros, not what the pooled buffer held before (another camera's video).
      buf.fill(0, data, length);
      new DataView(buf.buffer, buf.byteOffset + data, FREE_BOX_HEADER).setUint32(0, pad);
      buf.set(FREE, data + 4);
    }
    const end = this.bytes + byteLength;
    const nextKept = end % DIRECT_BLOCK;
    this.tail.set(buf.subarray(data - nextKept, data), 0);
    this.queue.push({ buf, length, position: this.bytes - kept, end });
    this.bytes = end;
    this.pump();
  }

  /** fdatasync, unless one is running. */
  sync(): void {
    if (this.syncing || this.closed) return;
    this.syncing = fdatasync(this.fd)
      .catch(() => {
        /* a failing disk shows in the next write */
      })
      .finally(() => (this.syncing = undefined));
  }

  /**
   * Waits for the writes, cuts the padding (or, after a failure, what follows the last complete
   * write), syncs and closes. Never rejects: a failure here leaves a file the start-up scan repairs.
   */
  close(): Promise<void> {
    this.closed ??= (async () => {
      await this.drain();
      await this.syncing;
      const end = this.failed ? this.written : this.bytes;
      try {
        if (this.failed || this.fileEnd !== end) await ftruncate(this.fd, end);
        await fdatasync(this.fd);
      } catch {
        /* reconciliation at start cuts a torn tail */
      }
      await close(this.fd).catch(() => undefined);
    })();
    return this.closed;
  }

  private drain(): Promise<void> {
    if (!this.writing && !this.queue.length) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  private pump() {
    if (this.writing) return;
    const w = this.queue[0];
    if (!w) {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const resolve of waiters) resolve();
      return;
    }
    this.writing = true;
    this.write(this.fd, w.buf, 0, w.length, w.position, (err, n) => {
      this.writing = false;
      this.queue.shift();
      directBuffers.give(w.buf);
      if (!err && n !== w.length) err = new Error(`short write: ${n} of ${w.length} bytes`);
      if (err) this.fail(err);
      else {
        this.written = w.end;
        this.fileEnd = Math.max(this.fileEnd, w.position + w.length);
      }
      this.pump();
    });
  }

  private fail(err: Error) {
    if (this.failed) return;
    this.failed = true;
    for (const w of this.queue.splice(this.writing ? 1 : 0)) directBuffers.give(w.buf);
    // Never inside append: the recorder ends its segment from here.
    queueMicrotask(() => this.onError(err));
  }
}

const FREE = new Uint8Array([0x66, 0x72, 0x65, 0x65]); // 'free'

/** Writes every part in one writev where the kernel takes it all (it may write less: the rest follows). */
function writeAll(fd: number, parts: readonly Uint8Array[], byteLength: number) {
  let written = fs.writevSync(fd, parts as Uint8Array[]);
  if (written === byteLength) return;
  for (const p of parts) {
    if (written >= p.byteLength) {
      written -= p.byteLength;
      continue;
    }
    let off = written;
    written = 0;
    while (off < p.byteLength) off += fs.writeSync(fd, p, off, p.byteLength - off);
  }
}
