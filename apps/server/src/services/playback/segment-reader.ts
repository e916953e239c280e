/**
 * Reads a recorded segment file's layout without loading it: box headers are read one at a time,
 * only the init (ftyp + moov) and each moof are read whole, mdat payloads are skipped. The result
 * lists the fragments with their decode time, duration, byte range and whether the primary (video)
 * run starts with a sync sample. Results are cached per file (key: size + mtime); a file that grew
 * (the segment being recorded) is scanned on from where the cached scan stopped.
 */
import fs from 'node:fs/promises';
import { boxHeader, readInit, readMoof, type InitInfo } from '@opencvr/fmp4';

export interface FragmentEntry {
  /** Offset of the moof; the fragment (moof + mdat) is [offset, offset + length). */
  offset: number;
  length: number;
  moofLength: number;
  /** tfdt of the primary track, in its timescale. */
  time: number;
  /** Sum of the primary track's sample durations, in its timescale. */
  duration: number;
  /** The primary run starts with a sync sample (a decoder can start here). */
  sync: boolean;
  /** Per track: tfdt and duration, in the track's timescale. */
  tracks: { trackId: number; base: number; duration: number }[];
}

export interface SegmentLayout {
  file: string;
  size: number;
  mtimeMs: number;
  /** ftyp + moov bytes (a few KB). */
  init: Uint8Array;
  info: InitInfo;
  fragments: FragmentEntry[];
  /** End of the last whole fragment (what is past it is a torn or growing tail). */
  validLength: number;
  /** Decode time of the first fragment's primary run, seconds (the index row's start). */
  firstTime: number;
}

const MAX_BOX = 64 * 1024 * 1024;

async function readAt(fh: fs.FileHandle, pos: number, len: number): Promise<Buffer> {
  const buf = Buffer.alloc(len);
  let got = 0;
  while (got < len) {
    const { bytesRead } = await fh.read(buf, got, len - got, pos + got);
    if (!bytesRead) break;
    got += bytesRead;
  }
  return got === len ? buf : buf.subarray(0, got);
}

export class SegmentFormatError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'SegmentFormatError';
  }
}

/** Scans `file` (from `prior`'s valid end when given and the file only grew). */
export async function scanSegment(file: string, prior?: SegmentLayout): Promise<SegmentLayout> {
  const fh = await fs.open(file, 'r');
  try {
    const st = await fh.stat();
    const size = st.size;
    let pos = 0;
    let init: Uint8Array | undefined;
    let info: InitInfo | undefined;
    let fragments: FragmentEntry[] = [];
    let validLength = 0;
    if (prior && prior.size <= size) {
      ({ init, info } = prior);
      fragments = [...prior.fragments];
      pos = validLength = prior.validLength;
    }
    let ftypAt = -1;
    let pending: { offset: number; moofLength: number; moof: Buffer } | undefined;
    while (pos < size) {
      const head = await readAt(fh, pos, 16);
      const h = boxHeader(head, 0, Math.min(16, size - pos));
      if (!h || pos + h.size > size || h.size > Number.MAX_SAFE_INTEGER) break;
      if (h.type === 'ftyp' && !init) ftypAt = pos;
      else if (h.type === 'moov' && !init) {
        if (h.size > MAX_BOX) throw new SegmentFormatError(file, 'moov too large');
        const start = ftypAt >= 0 ? ftypAt : pos;
        init = new Uint8Array(await readAt(fh, start, pos + h.size - start));
        try {
          info = readInit(init);
        } catch (err) {
          throw new SegmentFormatError(file, (err as Error).message);
        }
        validLength = pos + h.size;
      } else if (h.type === 'moof') {
        if (!info || h.size > MAX_BOX) break;
        pending = { offset: pos, moofLength: h.size, moof: await readAt(fh, pos, h.size) };
      } else if (h.type === 'mdat') {
        if (pending && info) {
          let m;
          try {
            m = readMoof(pending.moof, info);
          } catch {
            break;
          }
          const primary = m.trafs.find((t) => t.trackId === info!.primary.trackId);
          fragments.push({
            offset: pending.offset,
            length: pos + h.size - pending.offset,
            moofLength: pending.moofLength,
            time: primary?.baseDecodeTime ?? 0,
            duration: primary?.duration ?? 0,
            sync: primary?.sync ?? false,
            tracks: m.trafs.map((t) => ({ trackId: t.trackId, base: t.baseDecodeTime, duration: t.duration })),
          });
          validLength = pos + h.size;
        }
        pending = undefined;
      }
      pos += h.size;
    }
    if (!init || !info) throw new SegmentFormatError(file, 'no init segment');
    const ts = info.primary.timescale;
    return {
      file,
      size,
      mtimeMs: st.mtimeMs,
      init,
      info,
      fragments,
      validLength,
      firstTime: fragments.length ? fragments[0].time / ts : 0,
    };
  } finally {
    await fh.close();
  }
}

/** The init (ftyp + moov) of a segment file, read box by box from its start up to the moov. */
export async function readSegmentInit(file: string): Promise<InitInfo> {
  const fh = await fs.open(file, 'r');
  try {
    const { size } = await fh.stat();
    for (let pos = 0; pos < size; ) {
      const h = boxHeader(await readAt(fh, pos, 16), 0, Math.min(16, size - pos));
      if (!h || pos + h.size > size) break;
      if (h.type === 'moov') {
        if (h.size > MAX_BOX) throw new SegmentFormatError(file, 'moov too large');
        try {
          return readInit(new Uint8Array(await readAt(fh, pos, h.size)));
        } catch (err) {
          throw new SegmentFormatError(file, (err as Error).message);
        }
      }
      if (h.type === 'moof' || h.type === 'mdat') break;
      pos += h.size;
    }
    throw new SegmentFormatError(file, 'no init segment');
  } finally {
    await fh.close();
  }
}

/** Scans with a per-file cache (size + mtime); bounded to `max` files, least recently used out first. */
export class SegmentReader {
  private cache = new Map<string, SegmentLayout>();
  readonly stats = { scans: 0, hits: 0 };

  constructor(private readonly max = 512) {}

  async layout(file: string): Promise<SegmentLayout> {
    const st = await fs.stat(file);
    const cached = this.cache.get(file);
    if (cached && cached.size === st.size && cached.mtimeMs === st.mtimeMs) {
      this.cache.delete(file);
      this.cache.set(file, cached);
      this.stats.hits++;
      return cached;
    }
    this.stats.scans++;
    // A file that only grew (being recorded) is scanned on from its last whole fragment.
    const layout = await scanSegment(file, cached && cached.size < st.size ? cached : undefined);
    this.cache.delete(file);
    this.cache.set(file, layout);
    while (this.cache.size > this.max) this.cache.delete(this.cache.keys().next().value!);
    return layout;
  }

  /**
   * The tracks of `file` (its init): the cached layout's, else read from the head of the file (ftyp
   * and moov; no fragment is read). A file's init never changes, so any cached scan answers.
   */
  async info(file: string): Promise<InitInfo> {
    const cached = this.cache.get(file);
    if (cached) return cached.info;
    return readSegmentInit(file);
  }

  forget(file: string) {
    this.cache.delete(file);
  }
}
