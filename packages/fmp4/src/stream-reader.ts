/**
 * Reads a live fragmented MP4 byte stream (what `ffmpeg -f mp4 -movflags empty_moov+default_base_moof
 * -frag_duration 1` writes to a pipe) back into tracks and access units: the init segment gives each
 * track's codec and its parameter sets (avcC, hvcC) or AudioSpecificConfig (esds), each moof + mdat
 * gives samples with their decode and presentation times. Length-prefixed NAL units become NAL units
 * without prefixes, as the hub carries them.
 *
 * Pure and incremental: push() takes bytes in any chunking and returns what became whole. Bad input
 * throws BoxError (the caller drops the stream); it never grows without bound (maxBoxBytes).
 */
import {
  aacTrack,
  CodecError,
  g711Track,
  parseAvcC,
  parseHvcC,
  videoTrackFromParameterSets,
  type AccessUnit,
  type DecoderConfig,
  type Track,
} from '@opencvr/codec';
import { boxHeader, BoxError, childBox, childBoxes, decoderSpecificInfo, readFragmentSamples, readInit, type BoxRef, type InitInfo } from './reader.js';

/** One track of the stream as the hub knows it, with its id and timescale in the MP4. */
export interface StreamTrack {
  trackId: number;
  timescale: number;
  track: Track;
  /** Bytes of the NAL unit length prefix (video). */
  lengthSize: number;
}

/** A track of the init segment this reader cannot carry (e.g. MP3 audio): its sample entry type. */
export interface SkippedTrack {
  trackId: number;
  entry: string;
  kind: 'video' | 'audio' | 'other';
}

export type StreamEvent =
  | { type: 'init'; tracks: StreamTrack[]; skipped: SkippedTrack[] }
  /** `index`: the track's place in the init event's `tracks`. Times are in the hub's clocks (90 kHz video, sample rate audio). */
  | { type: 'unit'; index: number; unit: AccessUnit };

export interface StreamReaderOptions {
  /** A box larger than this is taken for corrupt input (default 16 MiB). */
  maxBoxBytes?: number;
}

const NON_SYNC = 0x00010000;
const u16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];

export class Fmp4StreamReader {
  private buf: Uint8Array = new Uint8Array(0);
  private init?: InitInfo;
  private tracks: StreamTrack[] = [];
  private moof?: Uint8Array;
  private readonly maxBox: number;

  constructor(opts: StreamReaderOptions = {}) {
    this.maxBox = opts.maxBoxBytes ?? 16 << 20;
  }

  /** Bytes in; the events of every box that became whole. Throws BoxError on input that is not fMP4. */
  push(chunk: Uint8Array): StreamEvent[] {
    this.buf = this.buf.length ? concat(this.buf, chunk) : chunk.slice();
    const out: StreamEvent[] = [];
    let p = 0;
    for (;;) {
      const h = boxHeader(this.buf, p);
      if (!h) {
        // A header cut by the chunking (under 16 bytes), or a size below the header's: corrupt.
        if (this.buf.length - p >= 16) throw new BoxError('bad box size');
        break;
      }
      if (!/^[\x20-\x7e]{4}$/.test(h.type)) throw new BoxError('not an MP4 box');
      // Size 0 means "to the end of the file": a live stream has no end to run to.
      if (this.buf[p] + this.buf[p + 1] + this.buf[p + 2] + this.buf[p + 3] === 0) throw new BoxError(`${h.type} box without a size`);
      if (h.size > this.maxBox) throw new BoxError(`${h.type} box of ${h.size} bytes`);
      if (p + h.size > this.buf.length) break;
      this.box(h.type, this.buf.subarray(p, p + h.size), out);
      p += h.size;
    }
    this.buf = p ? this.buf.slice(p) : this.buf;
    return out;
  }

  /** Drops what is buffered (a new stream follows). */
  reset() {
    this.buf = new Uint8Array(0);
    this.init = undefined;
    this.tracks = [];
    this.moof = undefined;
  }

  private box(type: string, b: Uint8Array, out: StreamEvent[]) {
    if (type === 'moov') {
      this.init = readInit(b);
      const skipped: SkippedTrack[] = [];
      this.tracks = [];
      for (const t of this.init.tracks) {
        const made = streamTrackOf(b, t.trackId, t.timescale);
        if (made) this.tracks.push(made);
        else skipped.push({ trackId: t.trackId, entry: t.entry, kind: t.kind });
      }
      this.moof = undefined;
      out.push({ type: 'init', tracks: this.tracks, skipped });
    } else if (type === 'moof') {
      if (!this.init) throw new BoxError('moof before moov');
      this.moof = b.slice();
    } else if (type === 'mdat') {
      const moof = this.moof;
      this.moof = undefined;
      if (moof) this.samples(moof, b, out);
    }
    // ftyp, styp, sidx, free, mfra, ...: nothing to carry.
  }

  private samples(moof: Uint8Array, mdat: Uint8Array, out: StreamEvent[]) {
    // Data offsets count from the moof's first byte (default-base-is-moof), the mdat follows it.
    for (const t of readFragmentSamples(moof, this.init)) {
      const index = this.tracks.findIndex((x) => x.trackId === t.trackId);
      if (index < 0) continue;
      const st = this.tracks[index];
      let at = t.dataOffset - moof.length;
      let dts = t.baseDecodeTime;
      for (let i = 0; i < t.sizes.length; i++) {
        const size = t.sizes[i];
        if (at < 8 || at + size > mdat.length) throw new BoxError('sample data outside the mdat');
        const data = mdat.subarray(at, at + size);
        const unit = unitOf(st, data, dts, dts + t.cts[i], !(t.flags[i] & NON_SYNC));
        if (unit) out.push({ type: 'unit', index, unit });
        at += size;
        dts += t.durations[i];
      }
    }
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

const rescale = (t: number, from: number, to: number) => (from === to ? t : Math.round((t * to) / from));

function unitOf(st: StreamTrack, data: Uint8Array, dts: number, pts: number, sync: boolean): AccessUnit | undefined {
  const { track, timescale } = st;
  if (track.kind === 'audio') return { kind: 'audio', pts: rescale(dts, timescale, track.clockRate), data: data.slice() };
  const nalus: Uint8Array[] = [];
  let p = 0;
  while (p + st.lengthSize <= data.length) {
    let len = 0;
    for (let i = 0; i < st.lengthSize; i++) len = len * 256 + data[p + i];
    p += st.lengthSize;
    if (len === 0 || p + len > data.length) throw new BoxError('NAL unit length past its sample');
    nalus.push(data.slice(p, p + len));
    p += len;
  }
  if (!nalus.length) return undefined;
  return { kind: 'video', dts: rescale(dts, timescale, 90000), pts: rescale(pts, timescale, 90000), keyframe: sync, nalus };
}

/** The hub's track of a trak of the init segment `b`, or undefined for a codec it does not carry. */
function streamTrackOf(b: Uint8Array, trackId: number, timescale: number): StreamTrack | undefined {
  const trak = trakOf(b, trackId);
  const stsd = trak && findIn(b, trak, ['mdia', 'minf', 'stbl', 'stsd']);
  const entry = stsd ? childBoxes(b, stsd.start + 16, stsd.end)[0] : undefined;
  if (!entry) return undefined;
  try {
    switch (entry.type) {
      case 'avc1':
      case 'avc3': {
        const avcC = childBox(b, entry, 'avcC', 78);
        return avcC && avcTrack(b, avcC, trackId, timescale);
      }
      case 'hvc1':
      case 'hev1': {
        const hvcC = childBox(b, entry, 'hvcC', 78);
        return hvcC && hevcTrack(b, hvcC, trackId, timescale);
      }
      case 'mp4a': {
        const esds = childBox(b, entry, 'esds', 28);
        const asc = esds && decoderSpecificInfo(b, esds.start + 12, esds.end);
        // MP3 (and other MPEG audio) also hides behind mp4a: only an AudioSpecificConfig is AAC.
        return asc?.length ? { trackId, timescale, track: aacTrack(asc.slice()), lengthSize: 0 } : undefined;
      }
      case 'alaw':
      case 'ulaw': {
        // AudioSampleEntry: channelcount at 24, the integer part of the 16.16 sample rate at 32.
        const channels = u16(b, entry.start + 24);
        const rate = u16(b, entry.start + 32);
        return { trackId, timescale, track: g711Track(entry.type === 'alaw' ? 'pcma' : 'pcmu', rate || 8000, channels || 1), lengthSize: 0 };
      }
    }
  } catch (err) {
    if (err instanceof BoxError) throw err;
    // A parameter set or config the codec package cannot read: the track is skipped, not the stream.
    return undefined;
  }
  return undefined;
}

function trakOf(b: Uint8Array, trackId: number): BoxRef | undefined {
  const moov = childBoxes(b, 0, b.length).find((c) => c.type === 'moov');
  if (!moov) return undefined;
  for (const trak of childBoxes(b, moov.start + moov.headerSize, moov.end)) {
    if (trak.type !== 'trak') continue;
    const tkhd = childBox(b, trak, 'tkhd');
    if (!tkhd) continue;
    const id = new DataView(b.buffer, b.byteOffset).getUint32(tkhd.start + (b[tkhd.start + 8] === 1 ? 28 : 20));
    if (id === trackId) return trak;
  }
  return undefined;
}

function findIn(b: Uint8Array, from: BoxRef, path: string[]): BoxRef | undefined {
  let box: BoxRef | undefined = from;
  for (const type of path) box = box && childBox(b, box, type);
  return box;
}

function avcTrack(b: Uint8Array, avcC: BoxRef, trackId: number, timescale: number): StreamTrack | undefined {
  const c = configRecord(() => parseAvcC(b.subarray(avcC.start + 8, avcC.end)));
  const [[sps], [pps]] = [c.sps, c.pps];
  if (!sps || !pps) return undefined;
  return { trackId, timescale, track: videoTrackFromParameterSets('h264', { sps, pps }), lengthSize: c.lengthSize };
}

function hevcTrack(b: Uint8Array, hvcC: BoxRef, trackId: number, timescale: number): StreamTrack | undefined {
  const c = configRecord(() => parseHvcC(b.subarray(hvcC.start + 8, hvcC.end)));
  const [[vps], [sps], [pps]] = [c.vps, c.sps, c.pps];
  if (!vps || !sps || !pps) return undefined;
  return { trackId, timescale, track: videoTrackFromParameterSets('h265', { vps, sps, pps }), lengthSize: c.lengthSize };
}

/** A decoder configuration record (the codec package reads it): one cut short is a broken stream, as any box past its end. */
function configRecord(read: () => DecoderConfig): DecoderConfig {
  try {
    return read();
  } catch (err) {
    if (err instanceof CodecError && err.code === 'truncated') throw new BoxError(err.message);
    throw err;
  }
}
