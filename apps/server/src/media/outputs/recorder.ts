/**
 * The recorder: one more Subscriber of a channel's hub. It writes segments of about `segmentSeconds`
 * (cut at the first keyframe after that length) as fragmented MP4 files — an init segment, then
 * fragments of at most `fragmentSeconds` (≤ MAX_FRAGMENT_SECONDS) handed to the segment writer as soon
 * as they are made (segment-writer.ts: direct I/O off the event loop in rounds where the disk allows
 * it; otherwise a synchronous write and an fdatasync every `syncMs`). A kill -9 loses at most the
 * media of the last CRASH_LOSS_MS (issue 5): every sample goes to a write within HANDOFF_MS of its
 * arrival here, whatever the fragment length (see HANDOFF_MS), and a power cut little more. Every
 * track is kept, G.711 included (MP4 holds it as alaw/ulaw).
 *
 * The index row is created when a segment starts (status recording), its end/bytes/duration updated
 * at most once per `flushMs` (2 s, on the wall clock's grid) while it grows, and closed (complete) when the segment ends. New tracks
 * (a camera reconnect) or a stalled ingest end the segment; the next keyframe starts a new one.
 *
 * Narrow dependencies: the file system is Node's, the index is a `SegmentStore`, the file name comes
 * from `pathFor`; tests pass plain objects.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AccessUnit, Track } from '@opencvr/codec';
import { Fragmenter, type Fragment } from '@opencvr/fmp4';
import type { HubState, Subscriber } from '../hub.js';
import { openSegmentWriter, type SegmentWriter, type SegmentWriterOptions } from './segment-writer.js';

export interface SegmentStart {
  channelPk: number;
  /** The root setting the file is written under (stored with the row). */
  rootKey: string;
  path: string;
  startAt: Date;
  bytes: number;
}
export interface SegmentProgress {
  endAt: Date;
  durationMs: number;
  bytes: number;
}
export interface SegmentStore {
  create(seg: SegmentStart): Promise<number>;
  update(id: number, progress: SegmentProgress, complete: boolean): Promise<void>;
}

export interface RecorderOptions {
  channelPk: number;
  /** Absolute folder of the recordings. */
  root: string;
  rootKey: string;
  segmentSeconds: number;
  /** Longest fragment (default 1 s; at most MAX_FRAGMENT_SECONDS, longer is taken as that). */
  fragmentSeconds?: number;
  /** Relative file path of a segment starting at `start` (attempt > 0 when the name is taken). */
  pathFor(start: Date, attempt: number): string;
  store: SegmentStore;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /**
   * Index writes at most this often per recorder (default 2000 ms: the growing end of a segment in
   * querydaily lags by at most that; a crash does not depend on it, reconciliation reads the file).
   */
  flushMs?: number;
  /** fdatasync at most this often (default 5000 ms). */
  syncMs?: number;
  /** Write segments with direct I/O where the file system allows it (default true; segment-writer.ts). */
  directIo?: boolean;
  /** Opens a segment file (tests pass a failing one); default openSegmentWriter. */
  openWriter?: (file: string, opts: SegmentWriterOptions) => SegmentWriter;
  now?: () => number;
}

interface Open {
  writer: SegmentWriter;
  file: string;
  rel: string;
  startAt: number;
  /** Media time (s) of the segment's first fragment. */
  mediaStart: number;
  bytes: number;
  durationMs: number;
  id: Promise<number | undefined>;
  lastSync: number;
  /** Bytes and duration after each fragment not yet known to be on disk: a failed write rolls back to the last one that is. */
  marks: { bytes: number; durationMs: number }[];
  closing: boolean;
  /** The latest progress not yet written to the index. */
  dirty: boolean;
  /** Waiting for the next tick of the flush grid (flushGrid). */
  flushArmed: boolean;
  /** Writes the row's progress on that tick (made once per segment). */
  onFlushTick: () => void;
}

/** Tolerance under which a new segment is glued to the end of the previous one. */
const CONTIGUOUS_MS = 2000;

/** Issue 5: a kill -9 of the server while recording loses at most the media of this long before it. */
export const CRASH_LOSS_MS = 2000;
/**
 * What the bound leaves for what follows the hand-off: the write itself (a direct pwritev on libuv's
 * pool, a few ms here) and a unit's way to the recorder (the RTP reorder buffer holds a packet up to
 * 150 ms behind a gap, UDP only). A disk slower than that, or slower than the data, breaks the bound.
 */
export const WRITE_ALLOWANCE_MS = 250;
/**
 * Every sample is handed to a write within this of its arrival at the recorder: a fragment goes to
 * the writer with `maxWaitMs` = what is left of this since its first sample arrived (at the default
 * 1 s fragments more than the writer's 500 ms round, so the round decides, as before), and a fragment
 * still open this long after it began (a camera that stalls or sends in bursts) is cut by the wall
 * clock, all but each track's last unit (whose duration needs the next).
 */
export const HANDOFF_MS = CRASH_LOSS_MS - WRITE_ALLOWANCE_MS;
/**
 * The longest fragment: below HANDOFF_MS, so that a steady stream's fragments are cut by their media
 * length (on the unit after it) and not by the wall-clock timer, with a frame and a half of slack at
 * 15 fps for arrival jitter. Its fragments go to the writer at most 250 ms after they are cut.
 */
export const MAX_FRAGMENT_SECONDS = 1.5;

/**
 * The segments waiting for the next tick of each flush grid (flushMs), all called by one timer per
 * grid. A Timeout per recorder cost more: each one's delay to the grid differs by a millisecond or
 * so, so Node kept a timer list per recorder and inserted it in its priority queue every 2 s
 * (`insert` in node:internal/timers, ~0.04 % of a core at 64 recorded streams).
 */
const flushGrids = new Map<number, { timer: NodeJS.Timeout; due: (() => void)[] }>();

function atNextGridTick(every: number, fn: () => void) {
  let grid = flushGrids.get(every);
  if (!grid) {
    const due: (() => void)[] = [];
    const timer = setTimeout(() => {
      flushGrids.delete(every);
      for (const f of due) f();
    }, every - (Date.now() % every));
    timer.unref?.();
    flushGrids.set(every, (grid = { timer, due }));
  }
  grid.due.push(fn);
}

export class RecorderOutput implements Subscriber {
  private fragmenter?: Fragmenter;
  private segment?: Open;
  /** Media time of the primary track's first unit in the current fragmenter (track clock). */
  private segFirstDts?: number;
  private segWallStart = 0;
  private primaryIndex = -1;
  private timescale = 90000;
  private allTracks: Track[] = [];
  /** What the last segment's sample buffers grew to, per track (the next fragmenter starts there). */
  private sampleCapacity?: number[];
  private prevEnd?: number;
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;
  private failedWrites = 0;
  private directIo: boolean;
  /** When the fragment in progress began: the last cut, or the fragmenter's start (this.now()). */
  private cutAt = 0;
  /** Fires HANDOFF_MS after the last cut: the fragment in progress is cut by the wall clock (onAge). */
  private ageTimer?: NodeJS.Timeout;
  readonly stats = { segments: 0, fragments: 0, bytes: 0, errors: 0 };

  constructor(private readonly opts: RecorderOptions) {
    this.directIo = opts.directIo ?? true;
  }

  private now() {
    return this.opts.now?.() ?? Date.now();
  }
  private get fragmentSeconds() {
    return Math.min(MAX_FRAGMENT_SECONDS, this.opts.fragmentSeconds ?? 1);
  }

  tracks(tracks: Track[]) {
    if (this.stopped) return;
    // A reconnect: whatever the tracks are, the segment ends and the next one starts on a keyframe.
    this.endSegment(true);
    this.prevEnd = undefined;
    this.allTracks = tracks;
    this.sampleCapacity = undefined;
    this.primaryIndex = tracks.findIndex((t) => t.kind === 'video');
    if (this.primaryIndex < 0) this.primaryIndex = tracks.length ? 0 : -1;
    const primary = tracks[this.primaryIndex];
    this.timescale = primary ? (primary.kind === 'video' ? 90000 : primary.sampleRate) : 90000;
    this.fragmenter = undefined;
  }

  /**
   * `kept` (the hub's cached GOP, whole until gopEnd): a video unit is held by reference, not copied,
   * until its fragment goes to the writer, which copies it once (sample-queue.ts).
   */
  unit(track: number, unit: AccessUnit, kept = false) {
    if (this.stopped || this.primaryIndex < 0 || !this.allTracks[track]) return;
    const isPrimary = track === this.primaryIndex;
    const dts = unit.kind === 'video' ? unit.dts : unit.pts;
    const startsHere = isPrimary && (unit.kind === 'audio' || unit.keyframe);
    if (startsHere && this.segmentFullAt(dts)) this.endSegment(true);
    if (!this.fragmenter) {
      if (!startsHere) return; // a segment starts on a keyframe of the primary track
      // 'parts': the fragment goes to the writer in pieces, which it copies once: the hub's kept video
      // units by reference, everything else from the fragmenter's own copy (sample-queue.ts).
      this.fragmenter = new Fragmenter(this.allTracks, { maxFragmentDuration: this.fragmentSeconds, output: 'parts', sampleCapacity: this.sampleCapacity });
      this.segFirstDts = dts;
      this.segWallStart = this.now();
      this.cutAt = this.segWallStart;
      clearTimeout(this.ageTimer);
      this.ageTimer = setTimeout(this.onAge, HANDOFF_MS).unref();
    }
    let frags: readonly Fragment[];
    try {
      frags = this.fragmenter.push(unit, track, kept);
    } catch (err) {
      this.opts.log?.warn({ err, channel: this.opts.channelPk }, 'recorder: unit refused by the muxer');
      return;
    }
    if (frags.length) this.handOff(frags);
  }

  /**
   * Writes fragments cut from the fragment in progress, each to be written within what is left of
   * HANDOFF_MS since that fragment began; the next one begins now.
   */
  private handOff(frags: readonly Fragment[]) {
    const now = this.now();
    const maxWait = this.cutAt + HANDOFF_MS - now;
    for (const f of frags) this.write(f, maxWait);
    this.cutAt = now;
    this.ageTimer?.refresh();
  }

  /**
   * HANDOFF_MS since the last cut and no cut: what the fragment holds goes to the writer at once but
   * each track's last unit (a camera that stalled; the stall itself ends the segment after the
   * ingest's media timeout, 10 s for RTSP, and the last units with it). While nothing comes this
   * fires every HANDOFF_MS and finds nothing more to cut.
   */
  private readonly onAge = () => {
    const fr = this.fragmenter;
    if (!fr || this.stopped) return;
    let frags: Fragment[] = [];
    try {
      frags = fr.cutHoldingLast();
    } catch (err) {
      this.opts.log?.warn({ err, channel: this.opts.channelPk }, 'recorder: fragment not cut');
    }
    this.handOff(frags);
  };

  /**
   * The hub is about to write over the units held by reference. Before its next keyframe the segment
   * ends or the fragment is cut here, as unit() would do on that keyframe, so the held units go to the
   * writer from the hub's bytes; what is still held (nothing, unless the cache is dropped) is copied.
   */
  gopEnd(track?: number, next?: AccessUnit) {
    const fr = this.fragmenter;
    if (!fr || this.stopped) return;
    if (next?.kind === 'video' && next.keyframe && !next.damaged && track === this.primaryIndex) {
      if (this.segmentFullAt(next.dts)) {
        this.endSegment(true);
        return;
      }
      let frags: Fragment[] = [];
      try {
        frags = fr.cutBefore(next.dts);
      } catch (err) {
        this.opts.log?.warn({ err, channel: this.opts.channelPk }, 'recorder: fragment not cut');
      }
      if (frags.length) this.handOff(frags);
    }
    this.fragmenter?.detach();
  }

  /** A segment is open and long enough to end before a keyframe of the primary track at `dts`. */
  private segmentFullAt(dts: number): boolean {
    if (!this.fragmenter || this.segFirstDts === undefined) return false;
    const media = (dts - this.segFirstDts) / this.timescale;
    const wall = (this.now() - this.segWallStart) / 1000;
    return media >= this.opts.segmentSeconds || wall >= this.opts.segmentSeconds * 1.5 + 2;
  }

  state(state: HubState, reason: string) {
    // The ingest stalled or stopped: close what was recorded; a reconnect sends tracks again.
    if (state === 'retrying' || state === 'stopped') {
      this.endSegment(true);
      this.prevEnd = undefined;
      if (reason) this.opts.log?.info({ channel: this.opts.channelPk, state, reason }, 'recorder: segment closed');
    }
  }

  /** Ends the recording: flushes the last fragment, closes the row; resolves when the index is written. */
  async stop(): Promise<void> {
    if (!this.stopped) {
      this.endSegment(true);
      this.stopped = true;
    }
    await this.chain;
  }

  /** Resolves when every index write queued so far is done. */
  idle(): Promise<void> {
    return this.chain;
  }

  /** Relative path of the segment being written, if any. */
  get current(): { rel: string; file: string; bytes: number } | undefined {
    return this.segment && { rel: this.segment.rel, file: this.segment.file, bytes: this.segment.bytes };
  }

  private enqueue(op: () => Promise<void>) {
    this.chain = this.chain.then(op).catch((err) => {
      this.stats.errors++;
      this.opts.log?.warn({ err, channel: this.opts.channelPk }, 'recorder: index write failed');
    });
  }

  /** `maxWait`: the fragment's write starts within that many ms (HANDOFF_MS, handOff). */
  private write(f: Fragment, maxWait: number) {
    if (!this.segment && !this.openSegment(f)) return;
    const seg = this.segment!;
    seg.writer.append(f.parts, f.byteLength, maxWait);
    if (seg.writer.failed) return;
    seg.bytes = seg.writer.bytes;
    seg.durationMs = Math.max(seg.durationMs, Math.round((f.startTime + f.duration - seg.mediaStart) * 1000));
    seg.marks.push({ bytes: seg.bytes, durationMs: seg.durationMs });
    if (seg.marks.length > 32) seg.marks = seg.marks.filter((m, i, all) => i === all.length - 1 || all[i + 1].bytes > seg.writer.written);
    this.stats.fragments++;
    this.stats.bytes += f.byteLength;
    seg.dirty = true;
    this.scheduleFlush(seg);
    const now = this.now();
    if (now - seg.lastSync >= (this.opts.syncMs ?? 5000)) {
      seg.lastSync = now;
      seg.writer.sync();
    }
  }

  private openSegment(f: Fragment): boolean {
    const fr = this.fragmenter!;
    const now = this.now();
    // The fragment was made when the unit after its last sample arrived: its start was that long ago.
    let startAt = now - Math.round((f.startTime + f.duration) * 1000);
    if (this.prevEnd !== undefined && Math.abs(startAt - this.prevEnd) <= CONTIGUOUS_MS) startAt = this.prevEnd;
    const start = new Date(startAt);
    let writer: SegmentWriter | undefined;
    let rel = '';
    let file = '';
    // eslint-disable-next-line prefer-const -- assigned once the writer it is the error handler of exists
    let seg: Open | undefined;
    const writerOpts: SegmentWriterOptions = {
      direct: this.directIo,
      onError: (err) => seg && this.onWriteError(seg, err),
      // This channel's disk takes O_DIRECT opens but not our writes: its next files are buffered.
      onDirectRefused: () => (this.directIo = false),
    };
    try {
      for (let attempt = 0; writer === undefined; attempt++) {
        rel = this.opts.pathFor(start, attempt);
        file = path.join(this.opts.root, rel);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        try {
          writer = (this.opts.openWriter ?? openSegmentWriter)(file, writerOpts);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 100) throw err;
        }
      }
    } catch (err) {
      this.stats.errors++;
      if (this.failedWrites++ < 3) this.opts.log?.warn({ err, channel: this.opts.channelPk }, 'recorder: segment file not opened');
      this.fragmenter = undefined;
      this.segFirstDts = undefined;
      clearTimeout(this.ageTimer);
      this.ageTimer = undefined;
      return false;
    }
    writer.append([fr.init], fr.init.byteLength);
    const bytes = fr.init.byteLength;
    const open: Open = {
      writer,
      file,
      rel,
      startAt,
      mediaStart: f.startTime,
      bytes,
      durationMs: 0,
      id: Promise.resolve(undefined),
      lastSync: now,
      marks: [],
      closing: false,
      dirty: false,
      flushArmed: false,
      onFlushTick: () => {
        open.flushArmed = false;
        if (open.dirty && !open.closing) this.flushRow(open, false);
      },
    };
    seg = open;
    const store = this.opts.store;
    const created = store.create({ channelPk: this.opts.channelPk, rootKey: this.opts.rootKey, path: rel, startAt: start, bytes });
    seg.id = created.catch((err) => {
      this.stats.errors++;
      this.opts.log?.warn({ err, channel: this.opts.channelPk, path: rel }, 'recorder: index row not created');
      return undefined;
    });
    this.enqueue(async () => void (await seg.id));
    this.segment = seg;
    this.stats.segments++;
    return true;
  }

  private scheduleFlush(seg: Open) {
    if (seg.flushArmed) return;
    // On the wall clock's grid of flushMs, not flushMs after this fragment: every recorder of the
    // process flushes in the same timer tick, which the index writes as one statement (store.ts),
    // and the event loop wakes once for all of them.
    seg.flushArmed = true;
    atNextGridTick(this.opts.flushMs ?? 2000, seg.onFlushTick);
  }

  private flushRow(seg: Open, complete: boolean) {
    seg.dirty = false;
    this.enqueue(async () => {
      const id = await seg.id;
      // Read when the write runs: a failed write may have rolled the segment back since.
      const progress: SegmentProgress = { endAt: new Date(seg.startAt + seg.durationMs), durationMs: seg.durationMs, bytes: seg.bytes };
      if (id !== undefined) await this.opts.store.update(id, progress, complete);
    });
  }

  /** Flushes the fragmenter (when `flush`), closes the file and the row. */
  private endSegment(flush: boolean) {
    const fr = this.fragmenter;
    this.fragmenter = undefined;
    this.segFirstDts = undefined;
    clearTimeout(this.ageTimer);
    this.ageTimer = undefined;
    if (flush && fr && this.segment) {
      try {
        const maxWait = this.cutAt + HANDOFF_MS - this.now();
        for (const f of fr.flush()) this.write(f, maxWait);
      } catch (err) {
        this.opts.log?.warn({ err, channel: this.opts.channelPk }, 'recorder: flush failed');
      }
    }
    // The writer copied every fragment: the sample buffers go back to the pool for the next
    // segment's fragmenter, which starts at their size.
    if (fr) {
      this.sampleCapacity = fr.sampleCapacities();
      fr.release();
    }
    const seg = this.segment;
    if (!seg) return;
    this.segment = undefined;
    // A flush still due on the grid finds the segment closing and leaves the row to the close below.
    seg.closing = true;
    this.prevEnd = seg.startAt + seg.durationMs;
    this.enqueue(async () => {
      await seg.writer.close();
      if (!seg.writer.failed) this.failedWrites = 0;
    });
    this.flushRow(seg, true);
  }

  /**
   * A write failed: the segment keeps what is on disk, up to the last whole fragment (the writer cuts
   * the rest when it closes), and ends; the next keyframe starts a new file.
   */
  private onWriteError(seg: Open, err: Error) {
    this.stats.errors++;
    if (this.failedWrites++ < 3) this.opts.log?.warn({ err, channel: this.opts.channelPk }, 'recorder: write failed; segment closed');
    const kept = seg.marks.filter((m) => m.bytes <= seg.writer.written).pop();
    seg.bytes = seg.writer.written;
    seg.durationMs = kept?.durationMs ?? 0;
    if (this.segment !== seg) return; // already ending: its row is written after the close
    this.fragmenter = undefined;
    this.segFirstDts = undefined;
    this.endSegment(false);
  }
}
