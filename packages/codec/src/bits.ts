/**
 * An MSB-first bit reader over RBSP bytes (emulation prevention already removed), with the Exp-Golomb
 * codes of H.264/H.265 (ue(v), se(v)). Reading past the end throws CodecError('truncated').
 */
import { CodecError } from './errors.js';

export class BitReader {
  private pos = 0;
  constructor(private readonly data: Uint8Array) {}

  get bitsLeft(): number {
    return this.data.length * 8 - this.pos;
  }

  get bitPosition(): number {
    return this.pos;
  }

  /** One bit as 0 or 1. */
  bit(): number {
    if (this.pos >= this.data.length * 8) throw new CodecError('truncated', 'bit reader: read past the end');
    const b = (this.data[this.pos >> 3] >> (7 - (this.pos & 7))) & 1;
    this.pos++;
    return b;
  }

  flag(): boolean {
    return this.bit() === 1;
  }

  /** n bits (0..32) as an unsigned number. */
  u(n: number): number {
    if (n < 0 || n > 32) throw new CodecError('bad-value', `bit reader: cannot read ${n} bits at once`);
    if (n > this.bitsLeft) throw new CodecError('truncated', 'bit reader: read past the end');
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 2 + this.bit();
    return v;
  }

  skip(n: number): void {
    if (n > this.bitsLeft) throw new CodecError('truncated', 'bit reader: skip past the end');
    this.pos += n;
  }

  /** ue(v): unsigned Exp-Golomb, up to 2^32 - 2. */
  ue(): number {
    let zeros = 0;
    while (this.bit() === 0) {
      zeros++;
      if (zeros > 31) throw new CodecError('bad-value', 'bit reader: Exp-Golomb code longer than 32 bits');
    }
    return 2 ** zeros - 1 + this.u(zeros);
  }

  /** se(v): signed Exp-Golomb. */
  se(): number {
    const k = this.ue();
    return k % 2 === 1 ? (k + 1) / 2 : -(k / 2);
  }
}

/** An MSB-first bit writer, for building records and test streams. */
export class BitWriter {
  private bytes: number[] = [];
  private cur = 0;
  private n = 0;

  u(bits: number, value: number): this {
    for (let i = bits - 1; i >= 0; i--) this.bit(Math.floor(value / 2 ** i) & 1);
    return this;
  }

  bit(b: number): this {
    this.cur = (this.cur << 1) | (b & 1);
    if (++this.n === 8) {
      this.bytes.push(this.cur);
      this.cur = 0;
      this.n = 0;
    }
    return this;
  }

  ue(value: number): this {
    const v = value + 1;
    const len = Math.floor(Math.log2(v));
    this.u(len, 0);
    return this.u(len + 1, v);
  }

  se(value: number): this {
    return this.ue(value > 0 ? 2 * value - 1 : -2 * value);
  }

  /** The bytes written, the last one padded with zero bits. */
  finish(): Uint8Array {
    const out = [...this.bytes];
    if (this.n > 0) out.push(this.cur << (8 - this.n));
    return Uint8Array.from(out);
  }
}
