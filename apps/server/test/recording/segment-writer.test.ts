/** The recorder's segment writer: direct I/O with a trailing free box, buffered where direct I/O is refused, failures. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHUNK_BYTES, DIRECT_BLOCK, openSegmentWriter, SegmentWriter, writeRoundNow, type PositionalWrite } from '../../src/media/outputs/segment-writer.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencvr-segw-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Whether the test folder's file system takes O_DIRECT (ext4 and xfs do; tmpfs before Linux 6.6 does not). */
function directSupported(): boolean {
  const f = path.join(dir, 'probe');
  fs.writeFileSync(f, '');
  try {
    fs.closeSync(fs.openSync(f, fs.constants.O_WRONLY | fs.constants.O_DIRECT));
    return true;
  } catch {
    return false;
  } finally {
    fs.unlinkSync(f);
  }
}

/** Top-level boxes of a file: [type, size]. */
function boxes(b: Uint8Array): [string, number][] {
  const out: [string, number][] = [];
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let p = 0; p + 8 <= b.length; ) {
    const size = v.getUint32(p);
    out.push([Buffer.from(b.subarray(p + 4, p + 8)).toString('latin1'), size]);
    if (size < 8) break;
    p += size;
  }
  return out;
}

/** A box of `size` bytes (≥ 8) with pseudo-random contents. */
function box(type: string, size: number, seed: number): Uint8Array {
  const b = new Uint8Array(size);
  for (let i = 8; i < size; i++) b[i] = (i * 31 + seed * 7) & 0xff;
  new DataView(b.buffer).setUint32(0, size);
  b.set(Buffer.from(type, 'latin1'), 4);
  return b;
}

/** Starts the waiting writes now (not after WRITE_ROUND_MS) and waits until `w`'s are done. */
const settle = (w: SegmentWriter) =>
  new Promise<void>((resolve) => {
    writeRoundNow();
    const check = () => (w.written === w.bytes || w.failed ? resolve() : setTimeout(check, 2));
    check();
  });

describe('SegmentWriter', () => {
  it('writes directly where it can: after each append the file is the bytes so far plus a free box to a block boundary; close cuts it', async () => {
    const file = path.join(dir, 'a.mp4');
    const w = openSegmentWriter(file, { onError: (err) => expect.fail(err.message) });
    expect(w.direct).toBe(directSupported());
    const expected: Uint8Array[] = [];
    // Sizes around the block and the free box's 8-byte header: exact blocks, 1..8 short of one, large.
    const sizes = [100, DIRECT_BLOCK - 100, DIRECT_BLOCK, 3, DIRECT_BLOCK - 8, 9, DIRECT_BLOCK - 11, 300_000, 17, 5000];
    for (let i = 0; i < sizes.length; i++) {
      const b = box(i % 2 ? 'mdat' : 'moof', Math.max(8, sizes[i]), i);
      const half = b.length >> 1;
      w.append([b.subarray(0, half), b.subarray(half)], b.length);
      b.fill(0xee); // the writer copied the bytes: the caller may reuse them at once
      expected.push(box(i % 2 ? 'mdat' : 'moof', Math.max(8, sizes[i]), i));
      await settle(w);
      const all = Buffer.concat(expected);
      const onDisk = fs.readFileSync(file);
      expect(onDisk.subarray(0, all.length).equals(all)).toBe(true);
      if (w.direct) {
        expect(onDisk.length % DIRECT_BLOCK).toBe(0);
        const rest = onDisk.length - all.length;
        if (rest) expect(boxes(onDisk.subarray(all.length))).toEqual([['free', rest]]);
        expect(boxes(onDisk).map(([t]) => t)).toEqual([...expected.map((_, j) => (j % 2 ? 'mdat' : 'moof')), ...(rest ? ['free'] : [])]);
      } else expect(onDisk.length).toBe(all.length);
    }
    w.sync();
    await w.close();
    expect(fs.readFileSync(file).equals(Buffer.concat(expected))).toBe(true);
    expect(w.bytes).toBe(Buffer.concat(expected).length);
  });

  it('a write spans chunks; the free box header may straddle two', async () => {
    if (!directSupported()) return;
    const file = path.join(dir, 'e.mp4');
    const w = openSegmentWriter(file, { onError: (err) => expect.fail(err.message) });
    const a = box('mdat', CHUNK_BYTES - 3, 5); // the free box starts 3 bytes before a chunk ends
    w.append([a], a.length);
    await settle(w);
    let onDisk = fs.readFileSync(file);
    expect(onDisk.subarray(0, a.length).equals(Buffer.from(a))).toBe(true);
    expect(boxes(onDisk.subarray(a.length))).toEqual([['free', DIRECT_BLOCK + 3]]);
    const b = box('mdat', 3 * CHUNK_BYTES + 1234, 6); // rewrites the last block, then three chunks more
    w.append([b.subarray(0, 10), b.subarray(10)], b.length);
    await settle(w);
    onDisk = fs.readFileSync(file);
    expect(onDisk.subarray(0, a.length + b.length).equals(Buffer.concat([a, b]))).toBe(true);
    await w.close();
    expect(fs.readFileSync(file).equals(Buffer.concat([a, b]))).toBe(true);
  });

  it('refuses an existing file and appends nothing after close', async () => {
    const file = path.join(dir, 'b.mp4');
    const w = openSegmentWriter(file, { onError: () => undefined });
    expect(() => openSegmentWriter(file, { onError: () => undefined })).toThrow(/EEXIST/);
    w.append([box('ftyp', 24, 1)], 24);
    await w.close();
    w.append([box('moof', 100, 2)], 100);
    await w.close();
    expect(fs.statSync(file).size).toBe(24);
  });

  it('buffered mode (direct I/O off) writes the bytes as they come', async () => {
    const file = path.join(dir, 'c.mp4');
    const w = openSegmentWriter(file, { direct: false, onError: (err) => expect.fail(err.message) });
    expect(w.direct).toBe(false);
    w.append([box('ftyp', 24, 1), box('moov', 1000, 2)], 1024);
    expect(fs.statSync(file).size).toBe(1024); // synchronous
    await w.close();
    expect(fs.statSync(file).size).toBe(1024);
  });

  it('a failed write reports once, drops what follows and close keeps only the writes that completed', async () => {
    if (!directSupported()) return; // the positional write is the direct mode's
    const file = path.join(dir, 'd.mp4');
    let calls = 0;
    const failSecond: PositionalWrite = (fd, bufs, pos, done) => {
      if (++calls === 2) setImmediate(() => done(Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' }), 0));
      else fs.writev(fd, bufs, pos, done);
    };
    const errors: Error[] = [];
    const w = openSegmentWriter(file, { onError: (err) => errors.push(err), write: failSecond });
    const parts = [box('ftyp', 24, 1), box('moov', 700, 2), box('moof', 5000, 3), box('mdat', 9000, 4)];
    w.append([parts[0]], 24);
    w.append([parts[1]], 700); // one write with the first
    await settle(w);
    w.append([parts[2]], 5000);
    await settle(w); // fails
    w.append([parts[3]], 9000); // dropped
    await w.close();
    expect(errors.map((e) => (e as NodeJS.ErrnoException).code)).toEqual(['EIO']);
    expect(w.failed).toBe(true);
    expect(w.written).toBe(724);
    expect(fs.readFileSync(file).equals(Buffer.concat(parts.slice(0, 2)))).toBe(true);
    expect(calls).toBe(2);
  });

  it('appends made while a write runs go in one write after it; a round writes every waiting writer', async () => {
    if (!directSupported()) return;
    const writes: [string, number][] = [];
    const counting =
      (name: string): PositionalWrite =>
      (fd, bufs, pos, done) => {
        writes.push([name, bufs.reduce((n, b) => n + b.length, 0)]);
        fs.writev(fd, bufs, pos, done);
      };
    const a = openSegmentWriter(path.join(dir, 'a.mp4'), { onError: (err) => expect.fail(err.message), write: counting('a') });
    const b = openSegmentWriter(path.join(dir, 'b.mp4'), { onError: (err) => expect.fail(err.message), write: counting('b') });
    const parts = [box('ftyp', 24, 1), box('moov', 700, 2), box('moof', 5000, 3), box('mdat', 9000, 4)];
    a.append([parts[0]], 24);
    b.append([parts[0]], 24);
    writeRoundNow(); // both start
    a.append([parts[1]], 700);
    a.append([parts[2]], 5000); // wait for a's first write, then go together
    await Promise.all([settle(a), settle(b)]);
    expect(writes).toEqual([
      ['a', DIRECT_BLOCK],
      ['b', DIRECT_BLOCK],
      ['a', 2 * DIRECT_BLOCK],
    ]);
    await Promise.all([a.close(), b.close()]);
    expect(fs.readFileSync(path.join(dir, 'a.mp4')).equals(Buffer.concat(parts.slice(0, 3)))).toBe(true);
  });

  it('a direct write refused with EINVAL (larger device blocks) goes on buffered and says so once', async () => {
    if (!directSupported()) return;
    let calls = 0;
    let refusals = 0;
    const refuse: PositionalWrite = (_fd, _bufs, _pos, done) => {
      calls++;
      setImmediate(() => done(Object.assign(new Error('EINVAL: invalid argument, write'), { code: 'EINVAL' }), 0));
    };
    const w = openSegmentWriter(path.join(dir, 'a.mp4'), { onError: (err) => expect.fail(err.message), write: refuse, onDirectRefused: () => refusals++ });
    expect(w.direct).toBe(true);
    const parts = [box('ftyp', 24, 1), box('moov', 700, 2), box('moof', 5000, 3), box('mdat', 9000, 4)];
    w.append([parts[0]], 24);
    writeRoundNow(); // refused
    w.append([parts[1]], 700); // waiting while the refused write runs
    await new Promise((r) => setTimeout(r, 20));
    expect(w.direct).toBe(false);
    w.append([parts[2]], 5000);
    w.append([parts[3]], 9000);
    await w.close();
    expect(calls).toBe(1);
    expect(refusals).toBe(1);
    expect(fs.readFileSync(path.join(dir, 'a.mp4')).equals(Buffer.concat(parts))).toBe(true);
  });

  it('a write error on a device is reported, not thrown', async () => {
    const fd = fs.openSync('/dev/full', 'w');
    const errors: string[] = [];
    const w = new SegmentWriter(fd, true, (err) => errors.push((err as NodeJS.ErrnoException).code ?? err.message));
    w.append([box('ftyp', 24, 1)], 24);
    await w.close();
    expect(errors).toEqual(['ENOSPC']);
  });
});
