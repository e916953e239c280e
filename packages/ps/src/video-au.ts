/**
 * One video elementary stream (Annex-B H.264/H.265) cut into access units, whatever the PES layout.
 *
 * GB28181 cameras put one picture in one or more PES with its PTS on the first, but general program
 * streams (ffmpeg's VOB/MPEG output, DVD-style 2 KiB packs) let a PES hold the end of one picture and
 * the start of the next; the PTS then belongs to the first picture that *starts* in that PES
 * (ISO/IEC 13818-1 2.4.3.7). So pictures are found in the elementary stream itself: a new access unit
 * starts, after a picture's slices, at an access unit delimiter, a parameter set, an SEI, or a slice
 * that is the first of its picture (first_mb_in_slice = 0 / first_slice_segment_in_pic_flag).
 *
 * Bytes are appended to one growing buffer and each unit is a view of it (no copy per unit); the
 * buffer is replaced, not rewritten, when it fills, so earlier views stay valid.
 */
import type { VideoCodec } from '@opencvr/codec';

export interface RawVideoUnit {
  data: Uint8Array;
  pts?: number;
  dts?: number;
  damaged: boolean;
}

interface Mark {
  offset: number;
  pts: number;
  dts: number;
}

export class VideoUnitSplitter {
  private buf = new Uint8Array(256 * 1024);
  private len = 0;
  /** Where the unit being gathered starts, and how far the start-code scan has gone. */
  private auStart = 0;
  private scanAt = 0;
  private seenVcl = false;
  private damaged = false;
  private marks: Mark[] = [];
  private out: RawVideoUnit[] = [];

  constructor(
    public codec: VideoCodec | undefined,
    private readonly maxBytes: number,
  ) {}

  /** Bytes held for the unit being gathered. */
  get pending(): number {
    return this.len - this.auStart;
  }

  /** A PES with a PTS starts here: the PTS belongs to the first unit that starts at or after this point. */
  mark(pts: number, dts: number) {
    this.marks.push({ offset: this.len, pts, dts });
    if (this.marks.length > 64) this.marks.shift();
  }

  append(data: Uint8Array): RawVideoUnit[] {
    if (this.len - this.auStart + data.length > this.maxBytes) {
      // A unit that never ends (no picture boundary found): give it up rather than grow without end.
      this.auStart = this.scanAt = this.len;
      this.damaged = true;
      this.seenVcl = false;
      this.marks = [];
      return this.take();
    }
    this.reserve(data.length);
    this.buf.set(data, this.len);
    this.len += data.length;
    if (this.codec) this.scan();
    return this.take();
  }

  /** The transport marks the end of a picture: if the gathered bytes hold one, it is complete now. */
  endOfFrame(): RawVideoUnit[] {
    if (this.codec) {
      this.scan();
      this.scanAt = Math.max(this.scanAt, this.len - 5);
      if (this.seenVcl) this.cut(this.len);
    }
    return this.take();
  }

  lost() {
    this.damaged = true;
  }

  /** Everything gathered as a last unit (end of stream). */
  flush(): RawVideoUnit[] {
    if (this.codec) {
      this.scan(true);
      if (this.len > this.auStart) this.cut(this.len);
    }
    return this.take();
  }

  /** The bytes gathered so far (for recognising the codec before it is known). */
  peek(): Uint8Array {
    return this.buf.subarray(this.auStart, this.len);
  }

  private take(): RawVideoUnit[] {
    if (!this.out.length) return [];
    const out = this.out;
    this.out = [];
    return out;
  }

  private reserve(extra: number) {
    if (this.len + extra <= this.buf.length) return;
    // A new buffer with only the unit in progress; the old one keeps backing the units already out.
    const keep = this.len - this.auStart;
    const next = new Uint8Array(Math.max(this.buf.length, (keep + extra) * 2));
    next.set(this.buf.subarray(this.auStart, this.len));
    const shift = this.auStart;
    this.buf = next;
    this.len = keep;
    this.scanAt -= shift;
    this.auStart = 0;
    for (const m of this.marks) m.offset -= shift;
    this.marks = this.marks.filter((m) => m.offset >= 0);
  }

  /** Looks at each new start code (with the 3 bytes after it) and cuts where a new picture begins. */
  private scan(final = false) {
    const b = this.buf;
    // Two bytes after a NAL header are needed to classify it; at the end of the stream, whatever is there.
    const end = final ? this.len - 3 : this.len - 5;
    const h264 = this.codec === 'h264';
    let i = Math.max(this.scanAt, this.auStart);
    while (i < end) {
      const c = b[i + 2];
      if (c > 1) {
        i += 3;
        continue;
      }
      if (c !== 1 || b[i] !== 0 || b[i + 1] !== 0) {
        i++;
        continue;
      }
      const h = b[i + 3];
      let vcl: boolean;
      let starts: boolean;
      if (h264) {
        const t = h & 0x1f;
        vcl = t === 1 || t === 5;
        starts = vcl ? (b[i + 4] & 0x80) !== 0 : t === 9 || t === 7 || t === 8 || t === 6 || (t >= 14 && t <= 18);
      } else {
        const t = (h >> 1) & 0x3f;
        vcl = t < 32;
        starts = vcl ? (b[i + 5] & 0x80) !== 0 : (t >= 32 && t <= 35) || t === 39 || (t >= 41 && t <= 44);
      }
      if (starts && this.seenVcl) {
        // A 4-byte start code's leading zero stays with the previous unit (trailing zeros are dropped there).
        this.cut(i);
      }
      if (vcl) this.seenVcl = true;
      i += 3;
    }
    this.scanAt = i;
  }

  private cut(at: number) {
    const start = this.auStart;
    let pts: number | undefined;
    let dts: number | undefined;
    // The latest PES timestamp at or before this unit's start (older ones were for earlier units).
    let used = -1;
    for (let k = 0; k < this.marks.length && this.marks[k].offset <= start; k++) used = k;
    if (used >= 0) {
      pts = this.marks[used].pts;
      dts = this.marks[used].dts;
      this.marks.splice(0, used + 1);
    }
    if (at > start) this.out.push({ data: this.buf.subarray(start, at), pts, dts, damaged: this.damaged });
    this.auStart = at;
    this.seenVcl = false;
    this.damaged = false;
  }
}
