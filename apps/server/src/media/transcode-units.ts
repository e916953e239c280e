/**
 * H.264 Annex-B from a pipe (ffmpeg's stdout) back into access units: NAL units are cut at start
 * codes as bytes arrive (a start code split across chunks is found), and a picture ends where the next
 * one begins: an access unit delimiter, SEI or parameter set after a slice, or a slice that starts a
 * new picture (first_mb_in_slice = 0). The last picture comes out when the next one starts, or at flush.
 */
import { h264NalType } from '@opencvr/codec';

const START = Buffer.from([0, 0, 1]);

export class AnnexBAccessUnits {
  private buf: Buffer = Buffer.alloc(0);
  private nalStart = -1;
  private scan = 0;
  private au: Uint8Array[] = [];
  private hasVcl = false;
  private auBytes = 0;

  constructor(private readonly maxAccessUnitBytes = 16 << 20) {}

  /** The pictures completed by this chunk, each as its NAL units (views, no start codes). */
  push(chunk: Uint8Array): Uint8Array[][] {
    const out: Uint8Array[][] = [];
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (;;) {
      const at = this.buf.indexOf(START, this.scan);
      if (at < 0) break;
      if (this.nalStart >= 0) this.nal(trimZeros(this.buf.subarray(this.nalStart, at)), out);
      this.nalStart = at + 3;
      this.scan = at + 3;
    }
    // Keep the unit being received; a start code may straddle the next chunk.
    this.scan = Math.max(this.nalStart >= 0 ? this.nalStart : 0, this.buf.length - 2);
    if (this.nalStart > 0) {
      this.buf = this.buf.subarray(this.nalStart);
      this.scan -= this.nalStart;
      this.nalStart = 0;
    } else if (this.nalStart < 0) {
      this.buf = this.buf.subarray(this.scan);
      this.scan = 0;
    }
    if (this.buf.length > this.maxAccessUnitBytes) this.reset();
    return out;
  }

  /** Whatever is left, as a last picture (end of stream). */
  flush(): Uint8Array[][] {
    const out: Uint8Array[][] = [];
    if (this.nalStart >= 0) this.nal(trimZeros(this.buf.subarray(this.nalStart)), out);
    this.emit(out);
    this.reset();
    return out;
  }

  /** Drops everything buffered (a restarted encoder). */
  reset() {
    this.buf = Buffer.alloc(0);
    this.nalStart = -1;
    this.scan = 0;
    this.au = [];
    this.hasVcl = false;
    this.auBytes = 0;
  }

  private nal(n: Uint8Array, out: Uint8Array[][]) {
    if (n.length === 0) return;
    const type = h264NalType(n);
    const vcl = type >= 1 && type <= 5;
    const startsPicture = vcl ? n.length > 1 && (n[1] & 0x80) !== 0 : type === 9 || type === 6 || type === 7 || type === 8;
    if (this.hasVcl && startsPicture) this.emit(out);
    this.au.push(n);
    this.auBytes += n.length;
    if (vcl) this.hasVcl = true;
    if (this.auBytes > this.maxAccessUnitBytes) {
      this.au = [];
      this.auBytes = 0;
      this.hasVcl = false;
    }
  }

  private emit(out: Uint8Array[][]) {
    if (this.hasVcl) out.push(this.au);
    this.au = [];
    this.auBytes = 0;
    this.hasVcl = false;
  }
}

function trimZeros(b: Uint8Array): Uint8Array {
  let e = b.length;
  while (e > 0 && b[e - 1] === 0) e--;
  return b.subarray(0, e);
}
