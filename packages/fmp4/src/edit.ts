/**
 * Init segment rewrites for playback and download of recordings (pure: bytes in, bytes out):
 *
 * - `withEditList`: one edit per track (edts/elst) so a player starts at the asked time although the
 *   first fragment starts at the keyframe before it, and stops at the asked end; mvhd, tkhd and a new
 *   mvex/mehd carry the duration. ffmpeg, Chromium and QuickTime honour a single-entry edit list.
 * - `withTracks`: the init without some tracks (their trak and trex), e.g. an audio track MSE cannot
 *   play; `truncateFragment(frag, id => dropped ? -Infinity : Infinity)` drops their samples.
 *
 * Every box not named here is copied as it is; the ftyp (and anything else at the top) is kept.
 */
import { BoxWriter } from './box.js';
import { BoxError, childBoxes, readInit, type BoxRef } from './reader.js';

const u32 = (b: Uint8Array, at: number) => ((b[at] << 24) >>> 0) + (b[at + 1] << 16) + (b[at + 2] << 8) + b[at + 3];

export interface EditListOptions {
  /** Length of the presentation, in ms (the movie timescale is read from mvhd). */
  durationMs: number;
  /** Where the presentation starts on each track's media timeline, in seconds (≥ 0). */
  startSeconds: number | ((trackId: number) => number);
}

function topMoov(init: Uint8Array): { top: BoxRef[]; moov: BoxRef } {
  const top = childBoxes(init, 0, init.length);
  const moov = top.find((b) => b.type === 'moov');
  if (!moov) throw new BoxError('no moov');
  return { top, moov };
}

/** A copy of an init segment (ftyp + moov) with an edit list and durations; see the file comment. */
export function withEditList(init: Uint8Array, opts: EditListOptions): Uint8Array {
  if (!(opts.durationMs >= 0) || !Number.isFinite(opts.durationMs)) throw new RangeError(`bad duration ${opts.durationMs}`);
  const info = readInit(init);
  const { top, moov } = topMoov(init);
  const kids = childBoxes(init, moov.start + moov.headerSize, moov.end);
  const mvhd = kids.find((k) => k.type === 'mvhd');
  if (!mvhd) throw new BoxError('moov without mvhd');
  const mvhdV1 = init[mvhd.start + 8] === 1;
  const movieScale = u32(init, mvhd.start + (mvhdV1 ? 28 : 20));
  if (!movieScale) throw new BoxError('mvhd timescale 0');
  const duration = Math.round((opts.durationMs / 1000) * movieScale);
  const start = (id: number) => (typeof opts.startSeconds === 'number' ? opts.startSeconds : opts.startSeconds(id));
  const big = duration > 0xffffffff;

  const w = new BoxWriter(init.length + 128 * (kids.length + 2));
  for (const b of top) {
    if (b !== moov) {
      w.bytes(init.subarray(b.start, b.end));
      continue;
    }
    w.box('moov');
    for (const k of kids) {
      if (k.type === 'mvhd') writeWithDuration(w, init, k, mvhdV1 ? 32 : 24, mvhdV1, duration);
      else if (k.type === 'trak') {
        const parts = childBoxes(init, k.start + k.headerSize, k.end);
        const tkhd = parts.find((p) => p.type === 'tkhd');
        const mdia = parts.find((p) => p.type === 'mdia');
        const trackId = tkhd ? u32(init, tkhd.start + (init[tkhd.start + 8] === 1 ? 28 : 20)) : 0;
        const track = info.tracks.find((t) => t.trackId === trackId);
        w.box('trak');
        for (const p of parts) {
          if (p.type === 'edts') continue; // replaced
          if (p === tkhd) {
            const v1 = init[p.start + 8] === 1;
            writeWithDuration(w, init, p, v1 ? 36 : 28, v1, duration);
            if (track && mdia) {
              const mediaTime = Math.round(Math.max(0, start(trackId)) * track.timescale);
              const v = big || mediaTime > 0x7fffffff ? 1 : 0;
              w.box('edts').fullBox('elst', v, 0).u32(1);
              if (v) w.u64(duration).u64(mediaTime);
              else w.u32(duration).u32(mediaTime);
              w.u16(1).u16(0); // rate 1.0
              w.end().end();
            }
          } else w.bytes(init.subarray(p.start, p.end));
        }
        w.end();
      } else if (k.type === 'mvex') {
        w.box('mvex');
        if (big) w.fullBox('mehd', 1, 0).u64(duration).end();
        else w.fullBox('mehd', 0, 0).u32(duration).end();
        for (const c of childBoxes(init, k.start + k.headerSize, k.end)) if (c.type !== 'mehd') w.bytes(init.subarray(c.start, c.end));
        w.end();
      } else w.bytes(init.subarray(k.start, k.end));
    }
    w.end();
  }
  return w.finish();
}

/** Copies a full box whose duration field sits at `at` (from the box start), with `duration` there. */
function writeWithDuration(w: BoxWriter, b: Uint8Array, box: BoxRef, at: number, v1: boolean, duration: number) {
  const copy = b.slice(box.start, box.end);
  // A version 0 box cannot hold a duration past 32 bits: it stays unknown (0), as in fragmented files.
  if (copy.length >= at + (v1 ? 8 : 4) && (v1 || duration <= 0xffffffff)) {
    const view = new DataView(copy.buffer);
    if (v1) {
      view.setUint32(at, Math.floor(duration / 0x1_0000_0000));
      view.setUint32(at + 4, duration >>> 0);
    } else view.setUint32(at, duration);
  }
  w.bytes(copy);
}

/** A copy of an init segment keeping only the tracks `keep` says yes to (trak and trex); throws when none is left. */
export function withTracks(init: Uint8Array, keep: (trackId: number) => boolean): Uint8Array {
  const { top, moov } = topMoov(init);
  const kids = childBoxes(init, moov.start + moov.headerSize, moov.end);
  const trackIdOf = (trak: BoxRef) => {
    const tkhd = childBoxes(init, trak.start + trak.headerSize, trak.end).find((p) => p.type === 'tkhd');
    return tkhd ? u32(init, tkhd.start + (init[tkhd.start + 8] === 1 ? 28 : 20)) : 0;
  };
  const kept = kids.filter((k) => k.type === 'trak' && keep(trackIdOf(k)));
  if (!kept.length) throw new BoxError('no track left');
  const w = new BoxWriter(init.length);
  for (const b of top) {
    if (b !== moov) {
      w.bytes(init.subarray(b.start, b.end));
      continue;
    }
    w.box('moov');
    for (const k of kids) {
      if (k.type === 'trak') {
        if (kept.includes(k)) w.bytes(init.subarray(k.start, k.end));
      } else if (k.type === 'mvex') {
        w.box('mvex');
        for (const c of childBoxes(init, k.start + k.headerSize, k.end)) {
          if (c.type === 'trex' && c.end - c.start >= 16 && !keep(u32(init, c.start + 12))) continue;
          w.bytes(init.subarray(c.start, c.end));
        }
        w.end();
      } else w.bytes(init.subarray(k.start, k.end));
    }
    w.end();
  }
  return w.finish();
}
