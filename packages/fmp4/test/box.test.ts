/** BoxWriter: sizes patched on close, full-box headers, 64-bit fields, fixed buffers. */
import { describe, expect, it } from 'vitest';
import { BoxWriter } from '../src/index.js';
import { shape, walk } from './helpers/boxes.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('BoxWriter', () => {
  it('writes nested boxes with sizes that add up', () => {
    const w = new BoxWriter(4);
    w.box('moov');
    w.fullBox('mvhd', 1, 0x000203).u32(7).end();
    w.box('trak')
      .box('free')
      .bytes(new Uint8Array([1, 2, 3]))
      .end()
      .end();
    w.end();
    const out = w.finish();
    expect(out.length).toBe(8 + 16 + 8 + 11);
    expect(shape(walk(out))).toEqual([['moov', ['mvhd', ['trak', ['free']]]]]);
    expect(hex(out.subarray(8, 24))).toBe('000000106d766864' + '01000203' + '00000007');
    expect(hex(out.subarray(24))).toBe('00000013747261' + '6b' + '0000000b66726565010203');
  });

  it('writes 64-bit values above 2^32 and signed 32-bit values', () => {
    const out = new BoxWriter(16)
      .u64(2 ** 40 + 5)
      .i32(-2)
      .finish();
    expect(hex(out)).toBe('0000010000000005fffffffe');
    expect(() => new BoxWriter(8).u64(-1)).toThrow(RangeError);
    expect(() => new BoxWriter(8).u64(2 ** 53)).toThrow(RangeError);
  });

  it('a fixed writer refuses to grow; a growing one keeps what it wrote', () => {
    expect(() => new BoxWriter(7, { fixed: true }).box('free')).toThrow(/overflow/);
    const w = new BoxWriter(1);
    w.box('free').zeros(100).end();
    const out = w.finish();
    expect(out.length).toBe(108);
    expect(walk(out)[0]).toMatchObject({ type: 'free', size: 108 });
  });

  it('an exactly sized fixed writer returns its own buffer (no copy)', () => {
    const w = new BoxWriter(12, { fixed: true });
    const out = w.box('mdat').u32(1).end().finish();
    expect(out.byteOffset).toBe(0);
    expect(out.buffer.byteLength).toBe(12);
  });

  it('catches unbalanced boxes and bad four-character codes', () => {
    expect(() => new BoxWriter(8).end()).toThrow(/without an open box/);
    expect(() => new BoxWriter(8).box('moov').finish()).toThrow(/left open/);
    expect(() => new BoxWriter(8).fourcc('abc')).toThrow(/4 characters/);
  });

  it('patches a field written earlier', () => {
    const w = new BoxWriter(8).i32(0).i32(9);
    w.patchI32(0, -7);
    expect(hex(w.finish())).toBe('fffffff900000009');
  });
});
