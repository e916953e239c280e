/**
 * Reads a recorded fragmented MP4 back from disk without loading it: walks the top-level boxes
 * (ftyp, moov, then moof+mdat pairs), reads the track timescales from moov and, for each complete
 * fragment, the primary track's tfdt and sample durations. What it finds past the last complete
 * fragment (a box whose size runs past the end of the file, a moof without its whole mdat) is a torn
 * tail: `repairMp4` cuts the file back to `validLength`.
 */
import fs from 'node:fs';

export interface Mp4Scan {
  /** ftyp + moov present and readable. */
  ok: boolean;
  reason?: string;
  fileSize: number;
  /** End of the last complete box that keeps the file playable (init or a whole moof+mdat). */
  validLength: number;
  torn: boolean;
  fragments: number;
  /** track_ID and timescale of the primary track (the first video track, else the first track). */
  primaryTrackId: number;
  timescale: number;
  /** Decode time of the primary track's first sample and end of its last sample, seconds. */
  firstTime: number;
  endTime: number;
}

interface Header {
  type: string;
  size: number;
  headerSize: number;
}

function readAt(fd: number, pos: number, len: number): Buffer {
  const buf = Buffer.alloc(len);
  let got = 0;
  while (got < len) {
    const n = fs.readSync(fd, buf, got, len - got, pos + got);
    if (n === 0) break;
    got += n;
  }
  return got === len ? buf : buf.subarray(0, got);
}

function header(fd: number, pos: number, fileSize: number): Header | undefined {
  if (fileSize - pos < 8) return undefined;
  const b = readAt(fd, pos, 16);
  let size = b.readUInt32BE(0);
  const type = b.toString('latin1', 4, 8);
  let headerSize = 8;
  if (size === 1) {
    if (b.length < 16) return undefined;
    size = Number(b.readBigUInt64BE(8));
    headerSize = 16;
  } else if (size === 0) size = fileSize - pos;
  if (size < headerSize) return { type, size: -1, headerSize };
  return { type, size, headerSize };
}

/** Child boxes of a box body: [type, start, end) triples. */
function children(b: Buffer, start: number, end: number): { type: string; start: number; end: number }[] {
  const out: { type: string; start: number; end: number }[] = [];
  let p = start;
  while (p + 8 <= end) {
    const size = b.readUInt32BE(p);
    if (size < 8 || p + size > end) break;
    out.push({ type: b.toString('latin1', p + 4, p + 8), start: p, end: p + size });
    p += size;
  }
  return out;
}
const child = (b: Buffer, start: number, end: number, type: string) => children(b, start, end).find((c) => c.type === type);

interface TrackInfo {
  id: number;
  timescale: number;
  video: boolean;
  defaultDuration: number;
}

function parseMoov(b: Buffer): TrackInfo[] {
  const tracks: TrackInfo[] = [];
  const defaults = new Map<number, number>();
  for (const c of children(b, 8, b.length)) {
    if (c.type === 'trak') {
      const tkhd = child(b, c.start + 8, c.end, 'tkhd');
      const mdia = child(b, c.start + 8, c.end, 'mdia');
      if (!tkhd || !mdia) continue;
      const v = b[tkhd.start + 8];
      const id = b.readUInt32BE(tkhd.start + (v === 1 ? 28 : 20));
      const mdhd = child(b, mdia.start + 8, mdia.end, 'mdhd');
      const hdlr = child(b, mdia.start + 8, mdia.end, 'hdlr');
      if (!mdhd) continue;
      const mv = b[mdhd.start + 8];
      const timescale = b.readUInt32BE(mdhd.start + (mv === 1 ? 28 : 20));
      const handler = hdlr ? b.toString('latin1', hdlr.start + 16, hdlr.start + 20) : '';
      tracks.push({ id, timescale, video: handler === 'vide', defaultDuration: 0 });
    } else if (c.type === 'mvex') {
      for (const t of children(b, c.start + 8, c.end)) {
        if (t.type === 'trex') defaults.set(b.readUInt32BE(t.start + 12), b.readUInt32BE(t.start + 20));
      }
    }
  }
  for (const t of tracks) t.defaultDuration = defaults.get(t.id) ?? 0;
  return tracks;
}

/** tfdt and the sum of sample durations of one track in a moof, or undefined if it has no run. */
function parseMoof(b: Buffer, track: TrackInfo): { base: number; duration: number } | undefined {
  for (const traf of children(b, 8, b.length)) {
    if (traf.type !== 'traf') continue;
    const tfhd = child(b, traf.start + 8, traf.end, 'tfhd');
    if (!tfhd || b.readUInt32BE(tfhd.start + 12) !== track.id) continue;
    const tfFlags = b.readUInt32BE(tfhd.start + 8) & 0xffffff;
    let p = tfhd.start + 16;
    if (tfFlags & 0x01) p += 8;
    if (tfFlags & 0x02) p += 4;
    const defaultDuration = tfFlags & 0x08 ? b.readUInt32BE(p) : track.defaultDuration;
    const tfdt = child(b, traf.start + 8, traf.end, 'tfdt');
    const base = tfdt ? (b[tfdt.start + 8] === 1 ? Number(b.readBigUInt64BE(tfdt.start + 12)) : b.readUInt32BE(tfdt.start + 12)) : 0;
    let duration = 0;
    for (const trun of children(b, traf.start + 8, traf.end)) {
      if (trun.type !== 'trun') continue;
      const flags = b.readUInt32BE(trun.start + 8) & 0xffffff;
      const count = b.readUInt32BE(trun.start + 12);
      let q = trun.start + 16;
      if (flags & 0x01) q += 4;
      if (flags & 0x04) q += 4;
      const per = (flags & 0x100 ? 4 : 0) + (flags & 0x200 ? 4 : 0) + (flags & 0x400 ? 4 : 0) + (flags & 0x800 ? 4 : 0);
      if (q + per * count > trun.end) throw new Error('trun runs past its box');
      for (let i = 0; i < count; i++) {
        duration += flags & 0x100 ? b.readUInt32BE(q) : defaultDuration;
        q += per;
      }
    }
    return { base, duration };
  }
  return undefined;
}

/** Walks the file at `file`. Never throws for a bad file: `ok` false says it is unusable. */
export function scanMp4(file: string): Mp4Scan {
  const fd = fs.openSync(file, 'r');
  try {
    const fileSize = fs.fstatSync(fd).size;
    const out: Mp4Scan = { ok: false, fileSize, validLength: 0, torn: false, fragments: 0, primaryTrackId: 0, timescale: 0, firstTime: 0, endTime: 0 };
    let pos = 0;
    let tracks: TrackInfo[] | undefined;
    let primary: TrackInfo | undefined;
    let first: number | undefined;
    let end = 0;
    let sawFtyp = false;
    let pendingMoof: { base: number; duration: number } | undefined | null = null; // null: no moof waiting for its mdat
    while (pos < fileSize) {
      const h = header(fd, pos, fileSize);
      if (!h || h.size < 0 || pos + h.size > fileSize) {
        out.torn = true;
        break;
      }
      if (h.type === 'ftyp') sawFtyp = true;
      else if (h.type === 'moov') {
        if (h.size > 64 * 1024 * 1024) {
          out.reason = 'moov too large';
          return out;
        }
        try {
          tracks = parseMoov(readAt(fd, pos, h.size));
        } catch {
          out.reason = 'unreadable moov';
          return out;
        }
        primary = tracks.find((t) => t.video) ?? tracks[0];
        if (!sawFtyp || !primary || !primary.timescale) {
          out.reason = 'no ftyp or no track';
          return out;
        }
        out.validLength = pos + h.size;
      } else if (h.type === 'moof') {
        if (!primary || h.size > 64 * 1024 * 1024) {
          out.torn = true;
          break;
        }
        try {
          pendingMoof = parseMoof(readAt(fd, pos, h.size), primary);
        } catch {
          out.torn = true;
          break;
        }
      } else if (h.type === 'mdat') {
        if (pendingMoof !== null) {
          out.fragments++;
          if (pendingMoof) {
            first ??= pendingMoof.base;
            end = Math.max(end, pendingMoof.base + pendingMoof.duration);
          }
          pendingMoof = null;
          out.validLength = pos + h.size;
        }
      } else if (primary && pendingMoof === null) out.validLength = pos + h.size; // free, etc.
      pos += h.size;
    }
    if (pendingMoof !== null) out.torn = true; // a moof whose mdat never came
    if (out.validLength < fileSize) out.torn = true;
    if (!primary) {
      out.reason = out.reason ?? 'no moov';
      return out;
    }
    out.ok = true;
    out.primaryTrackId = primary.id;
    out.timescale = primary.timescale;
    out.firstTime = (first ?? 0) / primary.timescale;
    out.endTime = end / primary.timescale;
    return out;
  } finally {
    fs.closeSync(fd);
  }
}

/** Scans, and cuts a torn tail off the file. */
export function repairMp4(file: string): Mp4Scan {
  const scan = scanMp4(file);
  if (scan.ok && scan.torn && scan.validLength < scan.fileSize) {
    fs.truncateSync(file, scan.validLength);
    return { ...scan, fileSize: scan.validLength, torn: false };
  }
  return scan;
}
