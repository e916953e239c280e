/** Test-only ISO BMFF walker: the box tree with offsets, and readers for the fragment boxes. */
export interface Box {
  type: string;
  /** Offset of the box's first byte in the walked buffer. */
  start: number;
  size: number;
  children?: Box[];
}

/** Containers and where their children begin, counted from the box start. */
const CHILDREN_AT: Record<string, number> = {
  moov: 8,
  trak: 8,
  mdia: 8,
  minf: 8,
  dinf: 8,
  stbl: 8,
  mvex: 8,
  moof: 8,
  traf: 8,
  dref: 16,
  stsd: 16,
  avc1: 86,
  avc3: 86,
  hvc1: 86,
  hev1: 86,
  mp4a: 36,
  alaw: 36,
  ulaw: 36,
};

const fourcc = (b: Uint8Array, at: number) => String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);

/** Walks boxes in [start, end); throws when a size is below 8 or runs past its parent. */
export function walk(buf: Uint8Array, start = 0, end = buf.length): Box[] {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const out: Box[] = [];
  let p = start;
  while (p < end) {
    if (end - p < 8) throw new Error(`box header truncated at ${p}`);
    const size = view.getUint32(p);
    const type = fourcc(buf, p + 4);
    if (size < 8 || p + size > end) throw new Error(`bad size ${size} of '${type}' at ${p} (parent ends at ${end})`);
    const box: Box = { type, start: p, size };
    const at = CHILDREN_AT[type];
    if (at !== undefined) box.children = walk(buf, p + at, p + size);
    out.push(box);
    p += size;
  }
  return out;
}

export function find(boxes: Box[], path: string): Box[] {
  const [head, ...rest] = path.split('/');
  const here = boxes.filter((b) => b.type === head);
  if (!rest.length) return here;
  return here.flatMap((b) => find(b.children ?? [], rest.join('/')));
}

export function one(boxes: Box[], path: string): Box {
  const found = find(boxes, path);
  if (found.length !== 1) throw new Error(`expected one ${path}, found ${found.length}`);
  return found[0];
}

/** Types of the tree as nested arrays, e.g. ['moov', ['mvhd', ...]]. */
export function shape(boxes: Box[]): unknown[] {
  return boxes.map((b) => (b.children ? [b.type, shape(b.children)] : b.type));
}

export const view = (buf: Uint8Array) => new DataView(buf.buffer, buf.byteOffset, buf.byteLength);

export interface TrunSample {
  duration?: number;
  size?: number;
  flags?: number;
  cts?: number;
}
export interface Traf {
  trackId: number;
  tfhdFlags: number;
  defaultSampleFlags?: number;
  baseDecodeTime: number;
  trunVersion: number;
  trunFlags: number;
  dataOffset: number;
  samples: TrunSample[];
}
export interface ParsedFragment {
  moof: Box;
  mdat: Box;
  sequence: number;
  trafs: Traf[];
}

export function readTraf(buf: Uint8Array, traf: Box): Traf {
  const v = view(buf);
  const tfhd = one(traf.children!, 'tfhd');
  const tfhdFlags = v.getUint32(tfhd.start + 8) & 0xffffff;
  let p = tfhd.start + 16;
  if (tfhdFlags & 0x01) p += 8; // base_data_offset
  if (tfhdFlags & 0x02) p += 4; // sample_description_index
  if (tfhdFlags & 0x08) p += 4; // default_sample_duration
  if (tfhdFlags & 0x10) p += 4; // default_sample_size
  const defaultSampleFlags = tfhdFlags & 0x20 ? v.getUint32(p) : undefined;
  const tfdt = one(traf.children!, 'tfdt');
  const tfdtVersion = buf[tfdt.start + 8];
  const baseDecodeTime =
    tfdtVersion === 1
      ? v.getUint32(tfdt.start + 12) * 2 ** 32 + v.getUint32(tfdt.start + 16)
      : v.getUint32(tfdt.start + 12);
  const trun = one(traf.children!, 'trun');
  const trunVersion = buf[trun.start + 8];
  const trunFlags = v.getUint32(trun.start + 8) & 0xffffff;
  const count = v.getUint32(trun.start + 12);
  p = trun.start + 16;
  let dataOffset = 0;
  if (trunFlags & 0x01) {
    dataOffset = v.getInt32(p);
    p += 4;
  }
  if (trunFlags & 0x04) p += 4; // first_sample_flags
  const samples: TrunSample[] = [];
  for (let i = 0; i < count; i++) {
    const s: TrunSample = {};
    if (trunFlags & 0x100) {
      s.duration = v.getUint32(p);
      p += 4;
    }
    if (trunFlags & 0x200) {
      s.size = v.getUint32(p);
      p += 4;
    }
    if (trunFlags & 0x400) {
      s.flags = v.getUint32(p);
      p += 4;
    }
    if (trunFlags & 0x800) {
      s.cts = trunVersion === 1 ? v.getInt32(p) : v.getUint32(p);
      p += 4;
    }
    samples.push(s);
  }
  if (p !== trun.start + trun.size) throw new Error(`trun size ${trun.size} but fields end at ${p - trun.start}`);
  return {
    trackId: v.getUint32(tfhd.start + 12),
    tfhdFlags,
    defaultSampleFlags,
    baseDecodeTime,
    trunVersion,
    trunFlags,
    dataOffset,
    samples,
  };
}

/** Every moof+mdat pair in a buffer (boxes at top level; ftyp/moov are skipped). */
export function readFragments(buf: Uint8Array): ParsedFragment[] {
  const top = walk(buf);
  const out: ParsedFragment[] = [];
  top.forEach((b, i) => {
    if (b.type !== 'moof') return;
    const mdat = top[i + 1];
    if (mdat?.type !== 'mdat') throw new Error(`moof at ${b.start} not followed by mdat`);
    const mfhd = one(b.children!, 'mfhd');
    out.push({
      moof: b,
      mdat,
      sequence: view(buf).getUint32(mfhd.start + 12),
      trafs: find(b.children!, 'traf').map((t) => readTraf(buf, t)),
    });
  });
  return out;
}
