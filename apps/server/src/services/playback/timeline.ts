/**
 * From index rows to a continuous fragment sequence: which fragments of which segment files cover a
 * wall-clock range (starting at the sync fragment at or before the start), and their new decode
 * times so the output timeline runs on without jumps across segment boundaries and gaps.
 */
import type { FragmentEntry, SegmentLayout, SegmentReader } from './segment-reader.js';
import type { SegmentFile } from '../recording/service.js';

export interface PlannedFragment {
  seg: SegmentFile;
  layout: SegmentLayout;
  frag: FragmentEntry;
  /** Wall clock of the fragment's first primary sample and its end, ms. */
  wallStart: number;
  wallEnd: number;
  /** The first fragment taken from this segment file. */
  firstOfSegment: boolean;
}

export function wallOf(seg: Pick<SegmentFile, 'startAt'>, layout: SegmentLayout, frag: FragmentEntry): [number, number] {
  const ts = layout.info.primary.timescale;
  const start = seg.startAt.getTime() + (frag.time / ts - layout.firstTime) * 1000;
  return [start, start + (frag.duration / ts) * 1000];
}

/** Media time (seconds, the file's clock) of a wall-clock instant in a segment. */
export function mediaOf(seg: Pick<SegmentFile, 'startAt'>, layout: SegmentLayout, wall: number): number {
  return layout.firstTime + (wall - seg.startAt.getTime()) / 1000;
}

export interface FragmentsOptions {
  /** Called for a segment file that cannot be read (gone, not an MP4); it is skipped. */
  onBadSegment?(seg: SegmentFile, err: unknown): void;
  /**
   * Continue after this fragment (a segment still being written grew, or the next segment began):
   * its segment goes on with the fragments after `offset`, later ones from their first sync fragment;
   * nothing ending at or before `wallEnd` is given again. `from` is then only used to find segments.
   */
  after?: { segId: number; offset: number; wallEnd: number };
}

/**
 * The fragments covering [from, to) (ms), in order: from the last sync fragment at or before `from`
 * (or the first sync fragment after it when the recordings start later) to the last fragment that
 * starts before `to`. Later segment files start at their first sync fragment; fragments wholly
 * covered by what was already given (overlapping files) are left out.
 */
export async function* fragmentsBetween(reader: SegmentReader, segments: readonly SegmentFile[], from: number, to: number, opts: FragmentsOptions = {}): AsyncGenerator<PlannedFragment> {
  const after = opts.after;
  let started = !!after;
  let lastEnd = after ? after.wallEnd : -Infinity;
  for (const seg of segments) {
    let layout: SegmentLayout;
    try {
      layout = await reader.layout(seg.file);
    } catch (err) {
      opts.onBadSegment?.(seg, err);
      continue;
    }
    const frags = layout.fragments.map((frag) => ({ frag, wall: wallOf(seg, layout, frag) }));
    let i0 = -1;
    if (!started) {
      for (let i = 0; i < frags.length; i++) if (frags[i].frag.sync && frags[i].wall[0] <= from) i0 = i;
    }
    if (after && seg.id === after.segId) {
      i0 = frags.findIndex((f) => f.frag.offset > after.offset);
      if (i0 < 0) continue;
    }
    if (i0 < 0) i0 = frags.findIndex((f) => f.frag.sync);
    if (i0 < 0) continue;
    let first = !(after && seg.id === after.segId);
    for (let i = i0; i < frags.length; i++) {
      const { frag, wall } = frags[i];
      if (wall[0] >= to) return;
      if (wall[1] <= lastEnd && !(after && seg.id === after.segId)) continue;
      started = true;
      lastEnd = Math.max(lastEnd, wall[1]);
      yield { seg, layout, frag, wallStart: wall[0], wallEnd: wall[1], firstOfSegment: first };
      first = false;
    }
  }
}

/**
 * New mfhd sequence numbers and tfdt values for a run of fragments sharing one init segment: each
 * continuity block (a segment file, or what follows a gap or a skip) is shifted so its first primary
 * sample starts where the previous fragment's ended; the other tracks move by the same seconds.
 */
export class Retimer {
  private sequence = 1;
  /** Output time (seconds) where the last primary run ended. */
  private outEnd = 0;
  private shift = 0;
  private started = false;

  /** Where the next fragment will start on the output timeline, seconds. */
  get end(): number {
    return this.outEnd;
  }

  place(layout: SegmentLayout, frag: FragmentEntry, newBlock: boolean): { sequence: number; bases: Map<number, number>; outStart: number; outEnd: number } {
    const ts = layout.info.primary.timescale;
    if (newBlock || !this.started) this.shift = this.outEnd - frag.time / ts;
    this.started = true;
    const bases = new Map<number, number>();
    for (const t of frag.tracks) {
      const scale = layout.info.tracks.find((x) => x.trackId === t.trackId)?.timescale ?? ts;
      bases.set(t.trackId, Math.max(0, Math.round(t.base + this.shift * scale)));
    }
    const outStart = frag.time / ts + this.shift;
    this.outEnd = outStart + frag.duration / ts;
    return { sequence: this.sequence++, bases, outStart, outEnd: this.outEnd };
  }
}

/** Two init segments with the same bytes describe the same tracks. */
export const sameInit = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
