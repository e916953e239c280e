/**
 * Reading fragmented MP4 back: a box walker over a buffer, the track facts of an init segment (ids,
 * timescales, handlers, trex defaults, sample entry and its codec string), the facts of a moof
 * (sequence, per-track tfdt, duration, sample count, whether the run starts with a sync sample), and
 * the rewrites playback and download need: a moof with a new mfhd sequence and tfdt (same size), and a
 * fragment cut after its samples before a given decode time.
 *
 * Pure: bytes in, bytes out. Callers read the boxes from disk themselves (headers first, then only
 * the moov and moof boxes; mdat bytes are never parsed).
 */
import { aacCodecString, avcCodecString, hevcCodecString, parseAudioSpecificConfig } from '@opencvr/codec';
import { BoxWriter } from './box.js';

export interface BoxRef {
  type: string;
  /** Offset of the box's first byte. */
  start: number;
  /** Offset just past the box. */
  end: number;
  /** 8, or 16 with a 64-bit size. */
  headerSize: number;
}

export class BoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BoxError';
  }
}

const u32 = (b: Uint8Array, at: number) => ((b[at] << 24) >>> 0) + (b[at + 1] << 16) + (b[at + 2] << 8) + b[at + 3];
const u64 = (b: Uint8Array, at: number) => u32(b, at) * 0x1_0000_0000 + u32(b, at + 4);
const fourcc = (b: Uint8Array, at: number) => String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);

/**
 * The header of the box at `at` (size 0 = to `end`); undefined when fewer than 8 (or 16) bytes are
 * left, or when the size is impossible (< header). The box may run past `end`: callers check.
 */
export function boxHeader(
  b: Uint8Array,
  at: number,
  end = b.length,
): { type: string; size: number; headerSize: number } | undefined {
  if (end - at < 8) return undefined;
  let size = u32(b, at);
  const type = fourcc(b, at + 4);
  let headerSize = 8;
  if (size === 1) {
    if (end - at < 16) return undefined;
    size = u64(b, at + 8);
    headerSize = 16;
  } else if (size === 0) size = end - at;
  if (size < headerSize) return undefined;
  return { type, size, headerSize };
}

/** The boxes in [start, end); stops at the first box that is malformed or runs past `end`. */
export function childBoxes(b: Uint8Array, start: number, end: number): BoxRef[] {
  const out: BoxRef[] = [];
  let p = start;
  while (p < end) {
    const h = boxHeader(b, p, end);
    if (!h || p + h.size > end) break;
    out.push({ type: h.type, start: p, end: p + h.size, headerSize: h.headerSize });
    p += h.size;
  }
  return out;
}

/** The first child of `type` of a box (children start after its header + `skip` bytes). */
export function childBox(b: Uint8Array, parent: BoxRef, type: string, skip = 0): BoxRef | undefined {
  return childBoxes(b, parent.start + parent.headerSize + skip, parent.end).find((c) => c.type === type);
}

/** Follows a path of box types from the top level of `b` (e.g. ['moov', 'mvex']). */
export function findBox(b: Uint8Array, path: readonly string[]): BoxRef | undefined {
  let box: BoxRef | undefined = childBoxes(b, 0, b.length).find((c) => c.type === path[0]);
  for (const type of path.slice(1)) {
    if (!box) return undefined;
    box = childBox(b, box, type);
  }
  return box;
}

export interface InitTrack {
  trackId: number;
  timescale: number;
  /** hdlr handler: 'vide', 'soun', ... */
  handler: string;
  kind: 'video' | 'audio' | 'other';
  /** Sample entry type: avc1, hvc1, mp4a, alaw, ... */
  entry: string;
  /** RFC 6381 codec string when it can be told (avc1.64001f, hvc1.1.6.L93.B0, mp4a.40.2, alaw). */
  codecString: string;
  /** trex defaults. */
  defaultDuration: number;
  defaultFlags: number;
}

export interface InitInfo {
  tracks: InitTrack[];
  /** The first video track, else the first track. */
  primary: InitTrack;
}

/** Track facts of an init segment (ftyp + moov, or the moov alone). Throws BoxError when unusable. */
export function readInit(b: Uint8Array): InitInfo {
  const moov = childBoxes(b, 0, b.length).find((c) => c.type === 'moov');
  if (!moov) throw new BoxError('no moov');
  const tracks: InitTrack[] = [];
  const trex = new Map<number, { duration: number; flags: number }>();
  for (const c of childBoxes(b, moov.start + moov.headerSize, moov.end)) {
    if (c.type === 'trak') {
      const tkhd = childBox(b, c, 'tkhd');
      const mdia = childBox(b, c, 'mdia');
      if (!tkhd || !mdia) continue;
      const trackId = u32(b, tkhd.start + (b[tkhd.start + 8] === 1 ? 28 : 20));
      const mdhd = childBox(b, mdia, 'mdhd');
      const hdlr = childBox(b, mdia, 'hdlr');
      if (!mdhd) continue;
      const timescale = u32(b, mdhd.start + (b[mdhd.start + 8] === 1 ? 28 : 20));
      const handler = hdlr ? fourcc(b, hdlr.start + 16) : '';
      const minf = childBox(b, mdia, 'minf');
      const stbl = minf && childBox(b, minf, 'stbl');
      const stsd = stbl && childBox(b, stbl, 'stsd');
      const entry = stsd ? childBoxes(b, stsd.start + 16, stsd.end)[0] : undefined;
      tracks.push({
        trackId,
        timescale,
        handler,
        kind: handler === 'vide' ? 'video' : handler === 'soun' ? 'audio' : 'other',
        entry: entry?.type ?? '',
        codecString: entry ? codecStringOf(b, entry) : '',
        defaultDuration: 0,
        defaultFlags: 0,
      });
    } else if (c.type === 'mvex') {
      for (const t of childBoxes(b, c.start + c.headerSize, c.end)) {
        if (t.type === 'trex' && t.end - t.start >= 32)
          trex.set(u32(b, t.start + 12), { duration: u32(b, t.start + 20), flags: u32(b, t.start + 28) });
      }
    }
  }
  for (const t of tracks) {
    const d = trex.get(t.trackId);
    if (d) {
      t.defaultDuration = d.duration;
      t.defaultFlags = d.flags;
    }
  }
  const primary = tracks.find((t) => t.kind === 'video') ?? tracks[0];
  if (!primary || !primary.timescale) throw new BoxError('no usable track');
  return { tracks, primary };
}

/** MSE type of an init segment's tracks, e.g. `video/mp4; codecs="avc1.64001f,mp4a.40.2"`. */
export function mimeOfInit(info: InitInfo, tracks: readonly InitTrack[] = info.tracks): string {
  const kind = tracks.some((t) => t.kind === 'video') ? 'video' : 'audio';
  return `${kind}/mp4; codecs="${tracks.map((t) => t.codecString || t.entry).join(',')}"`;
}

function codecStringOf(b: Uint8Array, entry: BoxRef): string {
  try {
    if (entry.type === 'avc1' || entry.type === 'avc3') {
      const avcC = childBox(b, entry, 'avcC', 78);
      if (!avcC) return entry.type;
      const p = avcC.start + 8;
      const spsCount = b[p + 5] & 0x1f;
      if (!spsCount) return entry.type;
      const len = (b[p + 6] << 8) | b[p + 7];
      return avcCodecString(b.subarray(p + 8, p + 8 + len)).replace(/^avc1/, entry.type);
    }
    if (entry.type === 'hvc1' || entry.type === 'hev1') {
      const hvcC = childBox(b, entry, 'hvcC', 78);
      if (!hvcC) return entry.type;
      let p = hvcC.start + 8 + 22;
      const arrays = b[p++];
      for (let i = 0; i < arrays; i++) {
        const type = b[p] & 0x3f;
        const n = (b[p + 1] << 8) | b[p + 2];
        p += 3;
        for (let j = 0; j < n; j++) {
          const len = (b[p] << 8) | b[p + 1];
          if (type === 33) return hevcCodecString(b.subarray(p + 2, p + 2 + len), entry.type);
          p += 2 + len;
        }
      }
      return entry.type;
    }
    if (entry.type === 'mp4a') {
      const esds = childBox(b, entry, 'esds', 28);
      const asc = esds && decoderSpecificInfo(b, esds.start + 12, esds.end);
      return asc ? aacCodecString(parseAudioSpecificConfig(asc).objectType) : 'mp4a.40.2';
    }
  } catch {
    /* an odd sample entry: its type alone */
  }
  return entry.type;
}

/** The DecoderSpecificInfo (tag 5) payload inside an esds body. */
export function decoderSpecificInfo(b: Uint8Array, start: number, end: number): Uint8Array | undefined {
  let p = start;
  const len = () => {
    let n = 0;
    for (let i = 0; i < 4; i++) {
      const c = b[p++];
      n = (n << 7) | (c & 0x7f);
      if (!(c & 0x80)) break;
    }
    return n;
  };
  while (p < end) {
    const tag = b[p++];
    const n = len();
    if (tag === 0x03)
      p += 3; // ES_ID, flags (no optional fields in ours)
    else if (tag === 0x04) p += 13;
    else if (tag === 0x05) return b.subarray(p, p + n);
    else p += n;
  }
  return undefined;
}

export interface TrafInfo {
  trackId: number;
  baseDecodeTime: number;
  /** Offset (in the moof) of the tfdt box, undefined without one. */
  tfdtAt?: number;
  sampleCount: number;
  /** Sum of sample durations, in the track's timescale. */
  duration: number;
  /** The first sample is a sync sample (sample_is_non_sync_sample clear). */
  sync: boolean;
}

export interface MoofInfo {
  sequence: number;
  /** Offset of the mfhd box in the moof. */
  mfhdAt: number;
  trafs: TrafInfo[];
}

const TFHD_BASE_DATA_OFFSET = 0x01;
const TFHD_SAMPLE_DESCRIPTION = 0x02;
const TFHD_DEFAULT_DURATION = 0x08;
const TFHD_DEFAULT_SIZE = 0x10;
const TFHD_DEFAULT_FLAGS = 0x20;
const TFHD_DEFAULT_BASE_IS_MOOF = 0x020000;
const TRUN_DATA_OFFSET = 0x01;
const TRUN_FIRST_FLAGS = 0x04;
const TRUN_DURATION = 0x100;
const TRUN_SIZE = 0x200;
const TRUN_FLAGS = 0x400;
const TRUN_CTS = 0x800;
const NON_SYNC = 0x00010000;
/** More samples than a fragment of any real stream holds (an hour of 60 fps video, 48 kHz audio frames). */
const MAX_TRUN_SAMPLES = 1 << 18;

interface Tfhd {
  trackId: number;
  flags: number;
  defaultDuration?: number;
  defaultSize?: number;
  defaultFlags?: number;
}

function readTfhd(b: Uint8Array, box: BoxRef): Tfhd {
  const flags = u32(b, box.start + 8) & 0xffffff;
  const trackId = u32(b, box.start + 12);
  let p = box.start + 16;
  if (flags & TFHD_BASE_DATA_OFFSET) p += 8;
  if (flags & TFHD_SAMPLE_DESCRIPTION) p += 4;
  const out: Tfhd = { trackId, flags };
  if (flags & TFHD_DEFAULT_DURATION) {
    out.defaultDuration = u32(b, p);
    p += 4;
  }
  if (flags & TFHD_DEFAULT_SIZE) {
    out.defaultSize = u32(b, p);
    p += 4;
  }
  if (flags & TFHD_DEFAULT_FLAGS) out.defaultFlags = u32(b, p);
  return out;
}

interface Sample {
  duration: number;
  size: number;
  flags: number;
  cts: number;
}

interface Trun {
  flags: number;
  version: number;
  dataOffset: number;
  firstFlags?: number;
  samples: Sample[];
}

function readTrun(b: Uint8Array, box: BoxRef, tfhd: Tfhd, track: InitTrack | undefined): Trun {
  const version = b[box.start + 8];
  const flags = u32(b, box.start + 8) & 0xffffff;
  const count = u32(b, box.start + 12);
  let p = box.start + 16;
  let dataOffset = 0;
  if (flags & TRUN_DATA_OFFSET) {
    dataOffset = u32(b, p) | 0;
    p += 4;
  }
  let firstFlags: number | undefined;
  if (flags & TRUN_FIRST_FLAGS) {
    firstFlags = u32(b, p);
    p += 4;
  }
  const per = [TRUN_DURATION, TRUN_SIZE, TRUN_FLAGS, TRUN_CTS].filter((f) => flags & f).length * 4;
  if (p + per * count > box.end) throw new BoxError('trun runs past its box');
  // Samples of defaults only take no room in the box: a corrupt count must not allocate billions.
  if (count > MAX_TRUN_SAMPLES) throw new BoxError(`trun of ${count} samples`);
  const dd = tfhd.defaultDuration ?? track?.defaultDuration ?? 0;
  const ds = tfhd.defaultSize ?? 0;
  const df = tfhd.defaultFlags ?? track?.defaultFlags ?? 0;
  const samples: Sample[] = [];
  for (let i = 0; i < count; i++) {
    const s: Sample = { duration: dd, size: ds, flags: i === 0 && firstFlags !== undefined ? firstFlags : df, cts: 0 };
    if (flags & TRUN_DURATION) {
      s.duration = u32(b, p);
      p += 4;
    }
    if (flags & TRUN_SIZE) {
      s.size = u32(b, p);
      p += 4;
    }
    if (flags & TRUN_FLAGS) {
      s.flags = u32(b, p);
      p += 4;
    }
    if (flags & TRUN_CTS) {
      s.cts = version === 1 ? u32(b, p) | 0 : u32(b, p);
      p += 4;
    }
    samples.push(s);
  }
  return { flags, version, dataOffset, firstFlags, samples };
}

/** Facts of a moof box (the buffer holds the moof alone, from its first byte). */
export function readMoof(b: Uint8Array, init?: InitInfo): MoofInfo {
  const top = boxHeader(b, 0);
  if (!top || top.type !== 'moof' || top.size > b.length) throw new BoxError('not a whole moof');
  const moof: BoxRef = { type: 'moof', start: 0, end: top.size, headerSize: top.headerSize };
  let sequence = 0;
  let mfhdAt = -1;
  const trafs: TrafInfo[] = [];
  for (const c of childBoxes(b, moof.headerSize, moof.end)) {
    if (c.type === 'mfhd') {
      sequence = u32(b, c.start + 12);
      mfhdAt = c.start;
    } else if (c.type === 'traf') {
      const kids = childBoxes(b, c.start + c.headerSize, c.end);
      const tfhdBox = kids.find((k) => k.type === 'tfhd');
      if (!tfhdBox) throw new BoxError('traf without tfhd');
      const tfhd = readTfhd(b, tfhdBox);
      const track = init?.tracks.find((t) => t.trackId === tfhd.trackId);
      const tfdt = kids.find((k) => k.type === 'tfdt');
      const base = tfdt ? (b[tfdt.start + 8] === 1 ? u64(b, tfdt.start + 12) : u32(b, tfdt.start + 12)) : 0;
      let duration = 0;
      let sampleCount = 0;
      let firstFlags: number | undefined;
      for (const k of kids) {
        if (k.type !== 'trun') continue;
        const run = readTrun(b, k, tfhd, track);
        if (firstFlags === undefined && run.samples.length) firstFlags = run.samples[0].flags;
        sampleCount += run.samples.length;
        for (const s of run.samples) duration += s.duration;
      }
      const audio = track ? track.kind !== 'video' : false;
      trafs.push({
        trackId: tfhd.trackId,
        baseDecodeTime: base,
        tfdtAt: tfdt?.start,
        sampleCount,
        duration,
        sync: audio || (firstFlags !== undefined && !(firstFlags & NON_SYNC)),
      });
    }
  }
  if (mfhdAt < 0) throw new BoxError('moof without mfhd');
  return { sequence, mfhdAt, trafs };
}

/**
 * A copy of a moof with a new mfhd sequence number and new tfdt values (per track id; tracks not
 * given keep theirs). Same size as the input: a version 0 tfdt whose new value needs 64 bits throws.
 */
export function rewriteMoof(
  moof: Uint8Array,
  sequence: number,
  baseDecodeTime: (trackId: number, current: number) => number,
  info = readMoof(moof),
): Uint8Array {
  const out = new Uint8Array(moof);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint32(info.mfhdAt + 12, sequence >>> 0);
  for (const t of info.trafs) {
    if (t.tfdtAt === undefined) continue;
    const v = baseDecodeTime(t.trackId, t.baseDecodeTime);
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`bad decode time ${v}`);
    if (out[t.tfdtAt + 8] === 1) {
      view.setUint32(t.tfdtAt + 12, Math.floor(v / 0x1_0000_0000));
      view.setUint32(t.tfdtAt + 16, v >>> 0);
    } else {
      if (v > 0xffffffff) throw new RangeError('decode time needs a version 1 tfdt');
      view.setUint32(t.tfdtAt + 12, v);
    }
  }
  return out;
}

/**
 * A fragment (moof + its mdat, as written by `mediaFragment`: default-base-is-moof, one trun per
 * traf) cut to the samples that start before `limit(trackId)` (decode time in the track's timescale;
 * Infinity keeps all). Returns undefined when nothing is kept, the input when everything is, and
 * throws BoxError for layouts it does not rewrite (explicit base data offsets, several truns).
 */
export function truncateFragment(
  frag: Uint8Array,
  limit: (trackId: number) => number,
  init?: InitInfo,
): Uint8Array | undefined {
  const top = boxHeader(frag, 0);
  if (!top || top.type !== 'moof') throw new BoxError('not a fragment');
  const moof: BoxRef = { type: 'moof', start: 0, end: top.size, headerSize: top.headerSize };
  const mdatH = boxHeader(frag, moof.end);
  if (!mdatH || mdatH.type !== 'mdat' || moof.end + mdatH.size > frag.length)
    throw new BoxError('fragment without its mdat');
  const mfhd = childBox(frag, moof, 'mfhd');
  if (!mfhd) throw new BoxError('moof without mfhd');
  interface Part {
    tfhd: BoxRef;
    tfdt?: BoxRef;
    run: Trun;
    keep: number;
    dataStart: number;
  }
  const parts: Part[] = [];
  let all = true;
  for (const traf of childBoxes(frag, moof.headerSize, moof.end).filter((c) => c.type === 'traf')) {
    const kids = childBoxes(frag, traf.start + traf.headerSize, traf.end);
    const tfhdBox = kids.find((k) => k.type === 'tfhd');
    const truns = kids.filter((k) => k.type === 'trun');
    if (!tfhdBox || truns.length !== 1) throw new BoxError('traf layout not rewritable');
    const tfhd = readTfhd(frag, tfhdBox);
    if (tfhd.flags & TFHD_BASE_DATA_OFFSET || !(tfhd.flags & TFHD_DEFAULT_BASE_IS_MOOF))
      throw new BoxError('traf layout not rewritable');
    const tfdt = kids.find((k) => k.type === 'tfdt');
    const base = tfdt ? (frag[tfdt.start + 8] === 1 ? u64(frag, tfdt.start + 12) : u32(frag, tfdt.start + 12)) : 0;
    const run = readTrun(
      frag,
      truns[0],
      tfhd,
      init?.tracks.find((t) => t.trackId === tfhd.trackId),
    );
    if (!(run.flags & TRUN_DATA_OFFSET)) throw new BoxError('trun without data offset');
    const lim = limit(tfhd.trackId);
    let keep = 0;
    let t = base;
    while (keep < run.samples.length && t < lim) t += run.samples[keep++].duration;
    if (keep < run.samples.length) all = false;
    parts.push({ tfhd: tfhdBox, tfdt, run, keep, dataStart: run.dataOffset });
  }
  if (all) return frag;
  const kept = parts.filter((p) => p.keep > 0);
  if (!kept.length) return undefined;
  const trunSize = (p: Part) => {
    const per = [TRUN_DURATION, TRUN_SIZE, TRUN_FLAGS, TRUN_CTS].filter((f) => p.run.flags & f).length * 4;
    return 12 + 4 + (p.run.flags & TRUN_DATA_OFFSET ? 4 : 0) + (p.run.flags & TRUN_FIRST_FLAGS ? 4 : 0) + per * p.keep;
  };
  const trafSize = (p: Part) =>
    8 + (p.tfhd.end - p.tfhd.start) + (p.tfdt ? p.tfdt.end - p.tfdt.start : 0) + trunSize(p);
  const moofSize = 8 + (mfhd.end - mfhd.start) + kept.reduce((n, p) => n + trafSize(p), 0);
  const bytesOf = (p: Part) => p.run.samples.slice(0, p.keep).reduce((n, s) => n + s.size, 0);
  const mdatSize = 8 + kept.reduce((n, p) => n + bytesOf(p), 0);
  const w = new BoxWriter(moofSize + mdatSize, { fixed: true });
  w.box('moof');
  w.bytes(frag.subarray(mfhd.start, mfhd.end));
  let dataOffset = moofSize + 8;
  for (const p of kept) {
    w.box('traf');
    w.bytes(frag.subarray(p.tfhd.start, p.tfhd.end));
    if (p.tfdt) w.bytes(frag.subarray(p.tfdt.start, p.tfdt.end));
    w.fullBox('trun', p.run.version, p.run.flags).u32(p.keep).i32(dataOffset);
    if (p.run.flags & TRUN_FIRST_FLAGS) w.u32(p.run.firstFlags ?? 0);
    for (const s of p.run.samples.slice(0, p.keep)) {
      if (p.run.flags & TRUN_DURATION) w.u32(s.duration);
      if (p.run.flags & TRUN_SIZE) w.u32(s.size);
      if (p.run.flags & TRUN_FLAGS) w.u32(s.flags);
      if (p.run.flags & TRUN_CTS) w.i32(s.cts);
    }
    w.end();
    w.end();
    dataOffset += bytesOf(p);
  }
  w.end();
  w.box('mdat');
  for (const p of kept) {
    const n = bytesOf(p);
    if (p.dataStart + n > frag.length) throw new BoxError('sample data past the fragment');
    w.bytes(frag.subarray(p.dataStart, p.dataStart + n));
  }
  w.end();
  return w.finish();
}

/** The samples of one traf of a fragment, for rewriting the fragment as a progressive file. */
export interface TrafSamples {
  trackId: number;
  baseDecodeTime: number;
  /** Offset of the first sample's data from the moof's first byte (default-base-is-moof). */
  dataOffset: number;
  durations: number[];
  sizes: number[];
  flags: number[];
  /** Composition offsets (signed). */
  cts: number[];
}

/**
 * Per traf, the samples of a moof whose data offsets count from the moof (default-base-is-moof, as
 * `mediaFragment` writes; several truns must follow each other in the mdat). Throws BoxError for
 * other layouts.
 */
export function readFragmentSamples(moof: Uint8Array, init?: InitInfo): TrafSamples[] {
  const top = boxHeader(moof, 0);
  if (!top || top.type !== 'moof' || top.size > moof.length) throw new BoxError('not a whole moof');
  const out: TrafSamples[] = [];
  for (const traf of childBoxes(moof, top.headerSize, top.size).filter((c) => c.type === 'traf')) {
    const kids = childBoxes(moof, traf.start + traf.headerSize, traf.end);
    const tfhdBox = kids.find((k) => k.type === 'tfhd');
    if (!tfhdBox) throw new BoxError('traf without tfhd');
    const tfhd = readTfhd(moof, tfhdBox);
    if (tfhd.flags & TFHD_BASE_DATA_OFFSET || !(tfhd.flags & TFHD_DEFAULT_BASE_IS_MOOF)) throw new BoxError('traf layout not rewritable');
    const tfdt = kids.find((k) => k.type === 'tfdt');
    const t: TrafSamples = {
      trackId: tfhd.trackId,
      baseDecodeTime: tfdt ? (moof[tfdt.start + 8] === 1 ? u64(moof, tfdt.start + 12) : u32(moof, tfdt.start + 12)) : 0,
      dataOffset: -1,
      durations: [],
      sizes: [],
      flags: [],
      cts: [],
    };
    const track = init?.tracks.find((x) => x.trackId === tfhd.trackId);
    let next = -1;
    for (const k of kids) {
      if (k.type !== 'trun') continue;
      const run = readTrun(moof, k, tfhd, track);
      if (!(run.flags & TRUN_DATA_OFFSET)) throw new BoxError('trun without data offset');
      if (t.dataOffset < 0) t.dataOffset = run.dataOffset;
      else if (run.dataOffset !== next) throw new BoxError('truns not contiguous');
      next = run.dataOffset;
      for (const s of run.samples) {
        t.durations.push(s.duration);
        t.sizes.push(s.size);
        t.flags.push(s.flags);
        t.cts.push(s.cts);
        next += s.size;
      }
    }
    if (t.durations.length) out.push(t);
  }
  return out;
}
