/**
 * Just enough bitstream reading to fill avcC/hvcC from a parameter set.
 * TODO(codec): switch to @opencvr/codec's SPS parsing once it lands there.
 */

/** Removes emulation-prevention bytes (00 00 03 → 00 00). */
export function unescapeRbsp(nal: Uint8Array): Uint8Array {
  const out = new Uint8Array(nal.length);
  let n = 0;
  let zeros = 0;
  for (let i = 0; i < nal.length; i++) {
    const b = nal[i];
    if (zeros >= 2 && b === 3) {
      zeros = 0;
      continue;
    }
    zeros = b === 0 ? zeros + 1 : 0;
    out[n++] = b;
  }
  return out.subarray(0, n);
}

export class BitReader {
  private bit = 0;
  constructor(private readonly data: Uint8Array) {}

  u(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) {
      const byte = this.data[this.bit >> 3];
      if (byte === undefined) throw new RangeError('bit reader: past the end');
      v = v * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit++;
    }
    return v;
  }

  skip(n: number): void {
    this.bit += n;
    if (this.bit > this.data.length * 8) throw new RangeError('bit reader: past the end');
  }

  /** Unsigned Exp-Golomb. */
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) {
      if (++zeros > 31) throw new RangeError('bit reader: bad Exp-Golomb code');
    }
    return zeros === 0 ? 0 : 2 ** zeros - 1 + this.u(zeros);
  }
}
