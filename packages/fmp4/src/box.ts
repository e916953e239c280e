/**
 * ISO BMFF box writer over one buffer. Boxes are opened and closed like brackets; the 32-bit size of
 * each box is patched in when it closes, so nested boxes cost no copies. A writer made with
 * `fixed: true` never grows (the fragment path sizes its buffer exactly and writes sample bytes once).
 */
export class BoxWriter {
  private buf: Uint8Array;
  private view: DataView;
  private readonly fixed: boolean;
  private readonly open: number[] = [];
  pos = 0;

  /** `opts.into`: write into this buffer (fixed writers only; its length is the capacity). */
  constructor(capacity: number, opts: { fixed?: boolean; into?: Uint8Array } = {}) {
    this.buf = opts.into ?? new Uint8Array(capacity);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    this.fixed = opts.fixed ?? !!opts.into;
  }

  private room(n: number): number {
    const at = this.pos;
    if (at + n > this.buf.length) {
      if (this.fixed) throw new RangeError(`box writer overflow: ${at + n} > ${this.buf.length}`);
      const next = new Uint8Array(Math.max(this.buf.length * 2, at + n));
      next.set(this.buf.subarray(0, at));
      this.buf = next;
      this.view = new DataView(next.buffer);
    }
    this.pos = at + n;
    return at;
  }

  /** Opens a box: size placeholder + four-character type. */
  box(type: string): this {
    this.open.push(this.pos);
    this.u32(0).fourcc(type);
    return this;
  }

  /** Opens a full box: box header + version (8 bits) + flags (24 bits). */
  fullBox(type: string, version: number, flags: number): this {
    return this.box(type).u8(version).u24(flags);
  }

  /** Closes the innermost open box, writing its size. */
  end(): this {
    const start = this.open.pop();
    if (start === undefined) throw new Error('box writer: end() without an open box');
    this.view.setUint32(start, this.pos - start);
    return this;
  }

  u8(v: number): this {
    const at = this.room(1); // before reading this.buf: room() may grow it
    this.buf[at] = v;
    return this;
  }
  u16(v: number): this {
    const at = this.room(2); // before reading this.view: room() may grow the buffer
    this.view.setUint16(at, v);
    return this;
  }
  u24(v: number): this {
    const at = this.room(3);
    this.buf[at] = (v >>> 16) & 0xff;
    this.buf[at + 1] = (v >>> 8) & 0xff;
    this.buf[at + 2] = v & 0xff;
    return this;
  }
  u32(v: number): this {
    const at = this.room(4); // before reading this.view: room() may grow the buffer
    this.view.setUint32(at, v >>> 0);
    return this;
  }
  i32(v: number): this {
    const at = this.room(4); // before reading this.view: room() may grow the buffer
    this.view.setInt32(at, v | 0);
    return this;
  }
  /** Unsigned 64-bit from a safe integer. */
  u64(v: number): this {
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`u64 out of range: ${v}`);
    const at = this.room(8);
    this.view.setUint32(at, Math.floor(v / 0x1_0000_0000));
    this.view.setUint32(at + 4, v >>> 0);
    return this;
  }
  fourcc(s: string): this {
    if (s.length !== 4) throw new Error(`fourcc must be 4 characters: '${s}'`);
    const at = this.room(4);
    for (let i = 0; i < 4; i++) this.buf[at + i] = s.charCodeAt(i);
    return this;
  }
  /** Copies bytes in (the one copy of sample data on the fragment path). */
  bytes(b: Uint8Array): this {
    const at = this.room(b.length);
    this.buf.set(b, at);
    return this;
  }
  zeros(n: number): this {
    const at = this.room(n);
    this.buf.fill(0, at, this.pos);
    return this;
  }

  /** Overwrites a 32-bit field written earlier (e.g. trun data_offset once the moof size is known). */
  patchI32(at: number, v: number): void {
    this.view.setInt32(at, v | 0);
  }

  /** The bytes written; every box must be closed. */
  finish(): Uint8Array {
    if (this.open.length) throw new Error(`box writer: ${this.open.length} box(es) left open`);
    return this.pos === this.buf.length ? this.buf : this.buf.subarray(0, this.pos);
  }
}
