/**
 * A progressive (non-fragmented) MP4 header for samples taken from fragments: ftyp + moov with full
 * sample tables + the mdat header, the samples' bytes following in the order of `chunks`. Downloads
 * of recordings use it so every player (QuickTime, browsers, ffmpeg) sees one movie of the asked
 * length: an edit list per track starts the presentation at the asked second (the samples start at
 * the keyframe before it) and ends it at the asked end.
 *
 * Pure: the caller knows where each chunk's bytes are; this only writes the boxes. The track's
 * sample entry, handler and media header boxes are copied from the fragmented init segment.
 */
import { BoxWriter } from './box.js';
import { BoxError, childBoxes, readInit, type BoxRef } from './reader.js';

const u32 = (b: Uint8Array, at: number) => ((b[at] << 24) >>> 0) + (b[at + 1] << 16) + (b[at + 2] << 8) + b[at + 3];
const NON_SYNC = 0x00010000;

export interface ProgressiveTrack {
  trackId: number;
  durations: number[];
  sizes: number[];
  flags: number[];
  cts: number[];
  /** Samples per chunk, in mdat order; offset = where the chunk starts in the mdat payload. */
  chunks: { samples: number; offset: number }[];
  /** Presentation start of the track's first sample, in seconds from the file's time 0. */
  startSeconds: number;
}

export interface ProgressiveOptions {
  /** Presentation length, ms. */
  durationMs: number;
  /** Where the presentation starts, in seconds from the file's time 0 (the first video sample). */
  startSeconds: number;
  /** Bytes of sample data (the mdat payload). */
  mdatSize: number;
}

interface TrakParts {
  tkhd: BoxRef;
  mdhd: BoxRef;
  hdlr: BoxRef;
  header?: BoxRef; // vmhd / smhd
  dinf?: BoxRef;
  stsd: BoxRef;
  timescale: number;
}

function trakParts(init: Uint8Array, trak: BoxRef): TrakParts | undefined {
  const kids = childBoxes(init, trak.start + trak.headerSize, trak.end);
  const tkhd = kids.find((k) => k.type === 'tkhd');
  const mdia = kids.find((k) => k.type === 'mdia');
  if (!tkhd || !mdia) return undefined;
  const m = childBoxes(init, mdia.start + mdia.headerSize, mdia.end);
  const mdhd = m.find((k) => k.type === 'mdhd');
  const hdlr = m.find((k) => k.type === 'hdlr');
  const minf = m.find((k) => k.type === 'minf');
  if (!mdhd || !hdlr || !minf) return undefined;
  const mi = childBoxes(init, minf.start + minf.headerSize, minf.end);
  const stbl = mi.find((k) => k.type === 'stbl');
  const stsd = stbl && childBoxes(init, stbl.start + stbl.headerSize, stbl.end).find((k) => k.type === 'stsd');
  if (!stsd) return undefined;
  return {
    tkhd,
    mdhd,
    hdlr,
    header: mi.find((k) => k.type === 'vmhd' || k.type === 'smhd'),
    dinf: mi.find((k) => k.type === 'dinf'),
    stsd,
    timescale: u32(init, mdhd.start + (init[mdhd.start + 8] === 1 ? 28 : 20)),
  };
}

/** ftyp + moov + mdat header of a progressive file; the mdat payload (`mdatSize` bytes) follows it. */
export function progressiveHeader(init: Uint8Array, tracks: readonly ProgressiveTrack[], opts: ProgressiveOptions): Uint8Array {
  readInit(init); // throws on an unusable init
  const top = childBoxes(init, 0, init.length);
  const moov = top.find((b) => b.type === 'moov');
  if (!moov) throw new BoxError('no moov');
  const traks = new Map<number, TrakParts>();
  for (const k of childBoxes(init, moov.start + moov.headerSize, moov.end)) {
    if (k.type !== 'trak') continue;
    const tkhd = childBoxes(init, k.start + k.headerSize, k.end).find((p) => p.type === 'tkhd');
    const parts = trakParts(init, k);
    if (tkhd && parts) traks.set(u32(init, tkhd.start + (init[tkhd.start + 8] === 1 ? 28 : 20)), parts);
  }
  const used = tracks.filter((t) => t.durations.length && traks.has(t.trackId));
  if (!used.length) throw new BoxError('no samples');
  const samples = used.reduce((n, t) => n + t.durations.length, 0);
  const chunks = used.reduce((n, t) => n + t.chunks.length, 0);
  // Upper bound of the header, to choose 32- or 64-bit chunk offsets and mdat size once.
  const bound = 4096 + init.length + used.length * 512 + samples * 24 + chunks * 20;
  const wide = bound + opts.mdatSize + 16 > 0xffffffff;
  const first = write(init, used, traks, opts, wide, 0);
  return write(init, used, traks, opts, wide, first.length);
}

function write(init: Uint8Array, tracks: readonly ProgressiveTrack[], traks: Map<number, TrakParts>, opts: ProgressiveOptions, wide: boolean, headerSize: number): Uint8Array {
  const movieScale = 1000;
  const duration = Math.round(opts.durationMs);
  const w = new BoxWriter(8192 + tracks.reduce((n, t) => n + t.durations.length * 24 + t.chunks.length * 24, 0));
  w.box('ftyp').fourcc('isom').u32(0x200).fourcc('isom').fourcc('iso2').fourcc('avc1').fourcc('mp41').end();
  w.box('moov');
  w.fullBox('mvhd', wide ? 1 : 0, 0);
  if (wide) w.u64(0).u64(0).u32(movieScale).u64(duration);
  else w.u32(0).u32(0).u32(movieScale).u32(duration);
  w.u32(0x00010000).u16(0x0100).zeros(10);
  for (const m of [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000]) w.u32(m);
  w.zeros(24).u32(Math.max(...tracks.map((t) => t.trackId)) + 1);
  w.end();
  for (const t of tracks) {
    const p = traks.get(t.trackId)!;
    const ts = p.timescale;
    const mediaDuration = t.durations.reduce((n, d) => n + d, 0);
    w.box('trak');
    // tkhd copied, its duration (movie timescale) set.
    w.bytes(withField(init, p.tkhd, init[p.tkhd.start + 8] === 1 ? 36 : 28, init[p.tkhd.start + 8] === 1, duration));
    // Edit list: an empty edit while the track has not started, then its media from the asked start.
    w.box('edts');
    const lead = t.startSeconds - opts.startSeconds; // > 0: the track starts after the presentation does
    const entries: [number, number][] = [];
    if (lead * 1000 >= 1) entries.push([Math.round(lead * 1000), -1]);
    const skip = Math.max(0, -lead);
    entries.push([Math.max(0, duration - (entries[0]?.[0] ?? 0)), Math.round(skip * ts + (t.cts[0] ?? 0))]);
    w.fullBox('elst', wide ? 1 : 0, 0).u32(entries.length);
    for (const [d, m] of entries) {
      // media_time -1 marks the empty edit (all ones in either width).
      if (wide) w.u64(d).u32(m < 0 ? 0xffffffff : Math.floor(m / 0x1_0000_0000)).u32(m >>> 0);
      else w.u32(d).u32(m >>> 0);
      w.u16(1).u16(0);
    }
    w.end();
    w.end(); // edts
    w.box('mdia');
    const v1 = init[p.mdhd.start + 8] === 1;
    w.bytes(withField(init, p.mdhd, v1 ? 32 : 24, v1, mediaDuration));
    w.bytes(init.subarray(p.hdlr.start, p.hdlr.end));
    w.box('minf');
    if (p.header) w.bytes(init.subarray(p.header.start, p.header.end));
    if (p.dinf) w.bytes(init.subarray(p.dinf.start, p.dinf.end));
    w.box('stbl');
    w.bytes(init.subarray(p.stsd.start, p.stsd.end));
    // stts: runs of equal durations.
    const stts: [number, number][] = [];
    for (const d of t.durations) {
      const last = stts[stts.length - 1];
      if (last && last[1] === d) last[0]++;
      else stts.push([1, d]);
    }
    w.fullBox('stts', 0, 0).u32(stts.length);
    for (const [n, d] of stts) w.u32(n).u32(d);
    w.end();
    if (t.cts.some((c) => c !== 0)) {
      const ctts: [number, number][] = [];
      for (const c of t.cts) {
        const last = ctts[ctts.length - 1];
        if (last && last[1] === c) last[0]++;
        else ctts.push([1, c]);
      }
      w.fullBox('ctts', t.cts.some((c) => c < 0) ? 1 : 0, 0).u32(ctts.length);
      for (const [n, c] of ctts) w.u32(n).i32(c);
      w.end();
    }
    const sync = t.flags.flatMap((f, i) => (f & NON_SYNC ? [] : [i + 1]));
    if (sync.length < t.flags.length) {
      w.fullBox('stss', 0, 0).u32(sync.length);
      for (const s of sync) w.u32(s);
      w.end();
    }
    // stsc: runs of chunks with the same sample count.
    const stsc: [number, number][] = [];
    t.chunks.forEach((c, i) => {
      if (stsc[stsc.length - 1]?.[1] !== c.samples) stsc.push([i + 1, c.samples]);
    });
    w.fullBox('stsc', 0, 0).u32(stsc.length);
    for (const [firstChunk, n] of stsc) w.u32(firstChunk).u32(n).u32(1);
    w.end();
    w.fullBox('stsz', 0, 0).u32(0).u32(t.sizes.length);
    for (const s of t.sizes) w.u32(s);
    w.end();
    const base = headerSize; // the payload starts right after the header (which ends with the mdat header)
    w.fullBox(wide ? 'co64' : 'stco', 0, 0).u32(t.chunks.length);
    for (const c of t.chunks) {
      if (wide) w.u64(base + c.offset);
      else w.u32(base + c.offset);
    }
    w.end();
    w.end(); // stbl
    w.end(); // minf
    w.end(); // mdia
    w.end(); // trak
  }
  w.end(); // moov
  if (wide) w.u32(1).fourcc('mdat').u64(opts.mdatSize + 16);
  else w.u32(opts.mdatSize + 8).fourcc('mdat');
  return w.finish();
}

/** A copy of a full box with the duration field at `at` set (32 or 64 bits as the box's version says). */
function withField(b: Uint8Array, box: BoxRef, at: number, v1: boolean, value: number): Uint8Array {
  const copy = b.slice(box.start, box.end);
  if (copy.length < at + (v1 ? 8 : 4)) return copy;
  const view = new DataView(copy.buffer);
  if (v1) {
    view.setUint32(at, Math.floor(value / 0x1_0000_0000));
    view.setUint32(at + 4, value >>> 0);
  } else view.setUint32(at, Math.min(value, 0xffffffff));
  return copy;
}
