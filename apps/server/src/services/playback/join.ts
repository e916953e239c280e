/**
 * A range of recordings as one fragmented MP4, without transcoding: the first segment's init, then
 * the fragments from the sync fragment at or before the start to the end (the last fragment cut at
 * the sample that crosses it), with mfhd sequence numbers and tfdt values rewritten so the timeline
 * runs on across segment files. The plan knows every piece's size before a byte is sent (a moof
 * rewrite keeps its size), so the answer has a Content-Length and serves byte ranges.
 *
 * One init per file: when the tracks change inside the range (a camera came back with another
 * picture size), the file ends there and `cutAt` says where.
 */
import fs from 'node:fs/promises';
import { boxHeader, progressiveHeader, readFragmentSamples, rewriteMoof, truncateFragment, type ProgressiveTrack } from '@opencvr/fmp4';
import type { SegmentFile } from '../recording/service.js';
import type { SegmentReader } from './segment-reader.js';
import { fragmentsBetween, mediaOf, Retimer, sameInit, type FragmentsOptions } from './timeline.js';

export type Piece =
  | { kind: 'bytes'; data: Uint8Array; seconds?: number }
  | { kind: 'raw'; file: string; offset: number; length: number }
  | { kind: 'frag'; file: string; offset: number; length: number; moofLength: number; sequence: number; bases: Map<number, number>; seconds: number };

export interface JoinedMp4 {
  pieces: Piece[];
  size: number;
  /** Wall clock (ms) of the first fragment and the end of the last. */
  startAt: number;
  endAt: number;
  fragments: number;
  /** Seconds of media. */
  duration: number;
  /** The tracks changed at this wall-clock time: the file stops there. */
  cutAt?: number;
  /** Lets go of the segment files (PlaybackService holds them from planning until the bytes are sent). */
  release?: () => void;
}

const pieceLength = (p: Piece) => (p.kind === 'bytes' ? p.data.length : p.length);

async function readExactly(fh: fs.FileHandle, pos: number, len: number): Promise<Buffer> {
  // Not zero-filled: every byte is read into it, or it is thrown away.
  const buf = Buffer.allocUnsafe(len);
  let got = 0;
  while (got < len) {
    const { bytesRead } = await fh.read(buf, got, len - got, pos + got);
    if (!bytesRead) throw new Error('recording file shorter than its index says');
    got += bytesRead;
  }
  return buf;
}

/** The plan of the joined file of [from, to) (ms); undefined when no fragment covers it. */
export async function planJoin(reader: SegmentReader, segments: readonly SegmentFile[], from: number, to: number, opts: FragmentsOptions = {}): Promise<JoinedMp4 | undefined> {
  const pieces: Piece[] = [];
  let init: Uint8Array | undefined;
  const retimer = new Retimer();
  let startAt = 0;
  let endAt = 0;
  let fragments = 0;
  let cutAt: number | undefined;
  for await (const p of fragmentsBetween(reader, segments, from, to, opts)) {
    if (!init) {
      init = p.layout.init;
      pieces.push({ kind: 'bytes', data: init });
      startAt = p.wallStart;
    } else if (!sameInit(init, p.layout.init)) {
      cutAt = p.wallStart;
      break;
    }
    const placed = retimer.place(p.layout, p.frag, p.firstOfSegment);
    fragments++;
    if (p.wallEnd > to) {
      // The fragment crossing the end: cut after the last sample that starts before it.
      const fh = await fs.open(p.seg.file, 'r');
      let bytes: Buffer;
      try {
        bytes = await readExactly(fh, p.frag.offset, p.frag.length);
      } finally {
        await fh.close();
      }
      const media = mediaOf(p.seg, p.layout, to);
      const scale = (id: number) => p.layout.info.tracks.find((t) => t.trackId === id)?.timescale ?? p.layout.info.primary.timescale;
      let cut: Uint8Array | undefined;
      try {
        cut = truncateFragment(bytes, (id) => Math.ceil(media * scale(id)), p.layout.info);
      } catch {
        cut = bytes; // a layout the cutter does not rewrite: the whole fragment
      }
      if (cut) {
        const moofLength = boxHeader(cut, 0)!.size;
        const moof = rewriteMoof(cut.subarray(0, moofLength), placed.sequence, (id, cur) => placed.bases.get(id) ?? cur);
        const out = new Uint8Array(cut.length);
        out.set(moof, 0);
        out.set(cut.subarray(moofLength), moofLength);
        pieces.push({ kind: 'bytes', data: out, seconds: Math.max(0, (to - p.wallStart) / 1000) });
        endAt = to;
      } else fragments--;
      break;
    }
    pieces.push({ kind: 'frag', file: p.seg.file, offset: p.frag.offset, length: p.frag.length, moofLength: p.frag.moofLength, sequence: placed.sequence, bases: placed.bases, seconds: placed.outEnd - placed.outStart });
    endAt = p.wallEnd;
  }
  if (!init || !fragments) return undefined;
  return { pieces, size: pieces.reduce((n, p) => n + pieceLength(p), 0), startAt, endAt, fragments, duration: (endAt - startAt) / 1000, cutAt };
}

/**
 * The range [from, to) as one progressive MP4 (ftyp + moov with sample tables + mdat; see
 * @opencvr/fmp4 progressiveHeader): the sample bytes are copied from the segment files as they are,
 * the tables come from their moofs. An edit list starts the presentation at `from` (the samples
 * start at the keyframe before it) and ends it at `to` (the last sample is the one crossing it), so
 * players and ffprobe see exactly the asked range. Across segment files each track's timeline runs
 * on (a gap or a drift between tracks is absorbed by the previous sample's duration). Throws BoxError
 * on fragments it cannot rewrite (the caller falls back to planJoin).
 */
export async function planProgressive(reader: SegmentReader, segments: readonly SegmentFile[], from: number, to: number, opts: FragmentsOptions = {}): Promise<JoinedMp4 | undefined> {
  let init: Uint8Array | undefined;
  const retimer = new Retimer();
  const tracks = new Map<number, { t: ProgressiveTrack; end: number }>();
  const data: Piece[] = [];
  let mdat = 0;
  let startAt = 0;
  let endAt = 0;
  let fragments = 0;
  let cutAt: number | undefined;
  /** End of the presentation on the file's timeline (seconds). */
  let presentEnd = 0;
  let open: { file: string; fh: fs.FileHandle } | undefined;
  try {
    for await (const p of fragmentsBetween(reader, segments, from, to, opts)) {
      if (!init) {
        init = p.layout.init;
        startAt = p.wallStart;
      } else if (!sameInit(init, p.layout.init)) {
        cutAt = p.wallStart;
        break;
      }
      const placed = retimer.place(p.layout, p.frag, p.firstOfSegment);
      if (open?.file !== p.seg.file) {
        await open?.fh.close();
        open = undefined;
        open = { file: p.seg.file, fh: await fs.open(p.seg.file, 'r') };
      }
      const moof = await readExactly(open.fh, p.frag.offset, p.frag.moofLength);
      const info = p.layout.info;
      const scale = (id: number) => info.tracks.find((t) => t.trackId === id)?.timescale ?? info.primary.timescale;
      const crossing = p.wallEnd > to;
      const media = crossing ? mediaOf(p.seg, p.layout, to) : Infinity;
      for (const tr of readFragmentSamples(moof, info)) {
        const ts = scale(tr.trackId);
        let n = tr.durations.length;
        if (crossing) {
          // Keep the samples that start before the end.
          const limit = Math.ceil(media * ts);
          let t = tr.baseDecodeTime;
          n = 0;
          while (n < tr.durations.length && t < limit) t += tr.durations[n++];
        }
        if (!n) continue;
        const base = placed.bases.get(tr.trackId) ?? tr.baseDecodeTime;
        let tk = tracks.get(tr.trackId);
        if (!tk) {
          tk = { t: { trackId: tr.trackId, durations: [], sizes: [], flags: [], cts: [], chunks: [], startSeconds: base / ts }, end: base };
          tracks.set(tr.trackId, tk);
        } else if (base !== tk.end) {
          const last = tk.t.durations.length - 1;
          tk.t.durations[last] = Math.max(1, tk.t.durations[last] + base - tk.end);
        }
        let bytes = 0;
        let span = 0;
        for (let i = 0; i < n; i++) {
          tk.t.durations.push(tr.durations[i]);
          tk.t.sizes.push(tr.sizes[i]);
          tk.t.flags.push(tr.flags[i]);
          tk.t.cts.push(tr.cts[i]);
          bytes += tr.sizes[i];
          span += tr.durations[i];
        }
        tk.end = base + span;
        tk.t.chunks.push({ samples: n, offset: mdat });
        data.push({ kind: 'raw', file: p.seg.file, offset: p.frag.offset + tr.dataOffset, length: bytes });
        mdat += bytes;
      }
      fragments++;
      if (crossing) {
        presentEnd = placed.outStart + Math.max(0, to - p.wallStart) / 1000;
        endAt = to;
        break;
      }
      presentEnd = placed.outEnd;
      endAt = p.wallEnd;
    }
  } finally {
    await open?.fh.close();
  }
  if (!init || !fragments || !tracks.size) return undefined;
  const startSeconds = Math.max(0, (from - startAt) / 1000);
  const durationMs = Math.max(0, (presentEnd - startSeconds) * 1000);
  const header = progressiveHeader(init, [...tracks.values()].map((x) => x.t), { durationMs, startSeconds, mdatSize: mdat });
  const pieces: Piece[] = [{ kind: 'bytes', data: header }, ...data];
  return { pieces, size: header.length + mdat, startAt, endAt, fragments, duration: durationMs / 1000, cutAt };
}

/** The bytes [start, end] (inclusive) of a joined file, read piece by piece (≤ 1 MB at a time). */
export async function* readJoined(j: JoinedMp4, start = 0, end = j.size - 1): AsyncGenerator<Buffer> {
  let pos = 0;
  let open: { file: string; fh: fs.FileHandle } | undefined;
  try {
    for (const p of j.pieces) {
      const len = pieceLength(p);
      const pStart = pos;
      pos += len;
      if (pos <= start) continue;
      if (pStart > end) break;
      const a = Math.max(start, pStart) - pStart;
      const b = Math.min(end + 1, pos) - pStart;
      if (p.kind === 'bytes') {
        yield Buffer.from(p.data.buffer, p.data.byteOffset + a, b - a);
        continue;
      }
      if (open?.file !== p.file) {
        await open?.fh.close();
        open = undefined;
        open = { file: p.file, fh: await fs.open(p.file, 'r') };
      }
      const fh = open.fh;
      if (p.kind === 'raw') {
        for (let off = a; off < b; ) {
          const n = Math.min(1 << 20, b - off);
          yield await readExactly(fh, p.offset + off, n);
          off += n;
        }
        continue;
      }
      if (a < p.moofLength) {
        const moof = await readExactly(fh, p.offset, p.moofLength);
        const h = boxHeader(moof, 0);
        if (h?.type !== 'moof' || h.size !== p.moofLength) throw new Error('recording file changed under the download');
        const out = rewriteMoof(moof, p.sequence, (id, cur) => p.bases.get(id) ?? cur);
        yield Buffer.from(out.buffer, out.byteOffset + a, Math.min(b, p.moofLength) - a);
      }
      for (let off = Math.max(a, p.moofLength); off < b; ) {
        const n = Math.min(1 << 20, b - off);
        yield await readExactly(fh, p.offset + off, n);
        off += n;
      }
    }
  } finally {
    await open?.fh.close();
  }
}
