/**
 * Fragments built in the segment writer's own memory (fmp4's Fragmenter 'sink' output into
 * SegmentWriter): the video's sample bytes copied once into the aligned chunks as they come, after
 * room kept for the moof, which goes in at the cut with a `free` box taking the slack. Every file is
 * checked box by box (walk() throws on a box that does not end where the next begins) and sample by
 * sample against the same units through the Fragmenter's plain 'buffer' output: same cuts, same
 * durations, flags and offsets, same sample bytes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccessUnit, Track, VideoAccessUnit } from '@opencvr/codec';
import { Fragmenter, type FragmenterOptions } from '@opencvr/fmp4';
import {
  CHUNK_BYTES,
  DIRECT_BLOCK,
  directBuffers,
  openSegmentWriter,
  writeRoundNow,
  type PositionalWrite,
  type SegmentWriter,
} from '../../src/media/outputs/segment-writer.js';
import { aacStream, videoStream } from '../../../../packages/fmp4/test/helpers/streams.js';
import { readFragments, walk } from '../../../../packages/fmp4/test/helpers/boxes.js';
import { decodes, ffprobe } from './support.js';

const h264 = videoStream('h264', 'h264-320x240-25fps-bf2.h264');
const aac = aacStream('aac-48k-stereo.adts');

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencvr-sink-'));
});
afterEach(() => {
  writeRoundNow();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Whether the test folder takes O_DIRECT (ext4 does; the buffered path is tested too). */
function directHere(): boolean {
  const f = path.join(dir, 'probe');
  fs.writeFileSync(f, '');
  try {
    fs.closeSync(fs.openSync(f, fs.constants.O_WRONLY | fs.constants.O_DIRECT));
    return true;
  } catch {
    return false;
  } finally {
    fs.unlinkSync(f);
  }
}

/**
 * Chunks of the writers' pool filled with 0xAA before the test takes them: bytes a writer leaves
 * unwritten (a free box's payload, padding) would show as another camera's video would.
 */
function dirtyPool(n = 8) {
  const taken = Array.from({ length: n }, () => directBuffers.take(CHUNK_BYTES));
  for (const c of taken) c.fill(0xaa);
  for (const c of taken) directBuffers.give(c);
}

interface Sample {
  track: number;
  dts: number;
  duration: number;
  flags: number | undefined;
  cts: number | undefined;
  bytes: string;
}

/**
 * The samples of a fragmented MP4 byte string, per fragment, read through its moofs' data offsets;
 * each sample must lie inside the mdat after its moof. `free` boxes are allowed between fragments and
 * their payload must be zero. Returns the top-level box types too.
 */
function samplesOf(file: Uint8Array): { types: string[]; fragments: Sample[][] } {
  const top = walk(file);
  for (const b of top) if (b.type === 'free') expect(file.subarray(b.start + 8, b.start + b.size).every((x) => x === 0)).toBe(true);
  const fragments = readFragments(file).map((f) => {
    const out: Sample[] = [];
    for (const t of f.trafs) {
      let at = f.moof.start + t.dataOffset;
      let dts = t.baseDecodeTime;
      for (const s of t.samples) {
        expect(at).toBeGreaterThanOrEqual(f.mdat.start + 8);
        expect(at + s.size!).toBeLessThanOrEqual(f.mdat.start + f.mdat.size);
        out.push({
          track: t.trackId,
          dts,
          duration: s.duration!,
          flags: s.flags ?? t.defaultSampleFlags,
          cts: s.cts,
          bytes: Buffer.from(file.subarray(at, at + s.size!)).toString('hex'),
        });
        at += s.size!;
        dts += s.duration!;
      }
    }
    return out.sort((a, b) => a.track - b.track || a.dts - b.dts);
  });
  return { types: top.map((b) => b.type), fragments };
}

type Step = { unit: AccessUnit; track: number } | 'cutHoldingLast' | 'round';

/** The same steps through a 'buffer' Fragmenter: the reference file (init + fragments). */
function reference(tracks: Track[], steps: Step[], opts: FragmenterOptions): Uint8Array {
  const fr = new Fragmenter(tracks, opts);
  const parts: Uint8Array[] = [fr.init];
  for (const s of steps) {
    if (s === 'round') continue;
    const frags = s === 'cutHoldingLast' ? fr.cutHoldingLast() : fr.push(s.unit, s.track);
    for (const f of frags) parts.push(f.data);
  }
  for (const f of fr.flush()) parts.push(f.data);
  return Buffer.concat(parts);
}

/**
 * The steps through a 'sink' Fragmenter into a segment writer on a real file; `before` appends what
 * the file starts with (default the init). Rounds are written as they come ('round'), each awaited.
 */
async function throughSink(
  tracks: Track[],
  steps: Step[],
  opts: FragmenterOptions & { direct?: boolean; write?: PositionalWrite; before?: (w: SegmentWriter, init: Uint8Array) => void },
): Promise<{ file: Uint8Array; writer: SegmentWriter; whileOpen: Uint8Array[] }> {
  const name = path.join(dir, `seg-${Math.random().toString(36).slice(2)}.mp4`);
  const errors: Error[] = [];
  // Writes counted until they complete: a round's file is read when its write is done.
  let running = 0;
  const inner = opts.write ?? fs.writev;
  const write: PositionalWrite = (fd, bufs, pos, done) => {
    running++;
    inner(fd, bufs, pos, (err, n) => {
      running--;
      done(err, n);
    });
  };
  const writer = openSegmentWriter(name, { direct: opts.direct, write, onError: (e) => errors.push(e) });
  const fr = new Fragmenter(tracks, { ...opts, output: 'sink', sink: writer });
  if (opts.before) opts.before(writer, fr.init);
  else writer.append([fr.init], fr.init.length);
  const whileOpen: Uint8Array[] = [];
  for (const s of steps) {
    if (s === 'round') {
      writeRoundNow();
      while (running) await new Promise((r) => setTimeout(r, 2));
      whileOpen.push(new Uint8Array(fs.readFileSync(name)));
      continue;
    }
    if (s === 'cutHoldingLast') fr.cutHoldingLast();
    else fr.push(s.unit, s.track);
  }
  fr.flush();
  await writer.close();
  fr.release();
  expect(errors).toEqual([]);
  return { file: new Uint8Array(fs.readFileSync(name)), writer, whileOpen };
}

/** Video and AAC audio interleaved by time (90 kHz and 48 kHz clocks), as a hub delivers them. */
function interleaved(videoUnits: VideoAccessUnit[], audioCount: number): Step[] {
  const steps: { t: number; step: Step }[] = [];
  videoUnits.forEach((u) => steps.push({ t: u.dts / 90000, step: { unit: u, track: 0 } }));
  aac.units.slice(0, audioCount).forEach((u) => steps.push({ t: u.pts / 48000, step: { unit: u, track: 1 } }));
  return steps.sort((a, b) => a.t - b.t).map((s) => s.step);
}

const videoSteps = (units: VideoAccessUnit[]): Step[] => units.map((unit) => ({ unit, track: 0 }));

/** A video unit of one NAL of `size` bytes (type 5 when a keyframe, else 1), pattern bytes after the header. */
function bigUnit(i: number, size: number, keyframe: boolean): VideoAccessUnit {
  const nal = new Uint8Array(size);
  for (let k = 0; k < size; k++) nal[k] = (k * 7 + i * 13) & 0xff;
  nal[0] = keyframe ? 0x65 : 0x41;
  return { kind: 'video', pts: i * 3600, dts: i * 3600, keyframe, nalus: [nal] };
}

async function expectSame(tracks: Track[], steps: Step[], opts: Parameters<typeof throughSink>[2]) {
  const ref = samplesOf(reference(tracks, steps, opts));
  const got = await throughSink(tracks, steps, opts);
  const mine = samplesOf(got.file);
  expect(mine.fragments.length).toBe(ref.fragments.length);
  expect(mine.fragments).toEqual(ref.fragments);
  return { ...got, types: mine.types };
}

describe('fragments built in the segment writer (sink)', () => {
  it('video with AAC interleaved: whole boxes, the samples of the plain fragmenter, readable by ffprobe', async () => {
    dirtyPool();
    const steps = interleaved(h264.units, 140);
    const { file, types } = await expectSame([h264.track, aac.track], steps, { maxFragmentDuration: 1 });
    expect(types.slice(0, 2)).toEqual(['ftyp', 'moov']);
    expect(types.filter((t) => t === 'moof').length).toBeGreaterThanOrEqual(2);
    // video's run first in each mdat, audio's after it
    for (const f of readFragments(file)) {
      const [v, a] = f.trafs;
      expect(v.trackId).toBe(1);
      if (a) expect(a.dataOffset).toBe(v.dataOffset + v.samples.reduce((n, s) => n + s.size!, 0));
    }
    const name = path.join(dir, 'probe.mp4');
    fs.writeFileSync(name, file);
    const probe = ffprobe(name);
    decodes(name);
    expect(probe.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
  });

  it('every header room from too small to too large: slack 0, 4 (the longer tfhd), 8 and up as a zeroed free box, and a header larger than its room', async () => {
    dirtyPool();
    const steps = videoSteps(h264.units.slice(0, 12));
    const seen = new Set<string>();
    let longer = 0;
    for (let room = 16; room <= 400; room += 4) {
      const { types, file } = await expectSame([h264.track], steps, { maxFragmentDuration: 10, headerRoom: room });
      seen.add(types.slice(2).join(','));
      // the header that took 4 bytes of slack: a sample-description-index in its tfhd
      if (readFragments(file).some((f) => f.trafs[0].tfhdFlags & 0x02)) longer++;
    }
    // one fragment (12 frames, one keyframe): with and without a free box before its moof
    expect(seen).toEqual(new Set(['moof,mdat', 'free,moof,mdat']));
    expect(longer).toBe(1);
  });

  it('fragments larger than a chunk, samples and their 4-byte lengths across chunk edges', async () => {
    dirtyPool();
    const units = Array.from({ length: 30 }, (_, i) => bigUnit(i, 90_001 + i * 37, i % 10 === 0));
    const { file } = await expectSame([h264.track], videoSteps(units), { maxFragmentDuration: 10 });
    expect(file.length).toBeGreaterThan(3 * CHUNK_BYTES);
    expect(readFragments(file).length).toBe(3);
  });

  it('a keyframe whose sample starts exactly at a chunk edge, or whose length straddles it', async () => {
    const units = [bigUnit(0, 5000, true), bigUnit(1, 3000, false), bigUnit(2, 4000, true), bigUnit(3, 2000, false)];
    const room = 512;
    for (const edge of [-3, -2, -1, 0, 1, 2, 3, 4]) {
      // the file starts with the init and a free box that puts the first keyframe's length at CHUNK_BYTES + edge
      const before = (w: SegmentWriter, init: Uint8Array) => {
        const filler = new Uint8Array(CHUNK_BYTES + edge - room - init.length);
        new DataView(filler.buffer).setUint32(0, filler.length);
        filler.set([0x66, 0x72, 0x65, 0x65], 4);
        w.append([init, filler], init.length + filler.length);
      };
      const ref = samplesOf(reference([h264.track], videoSteps(units), { maxFragmentDuration: 10 }));
      const { file } = await throughSink([h264.track], videoSteps(units), { maxFragmentDuration: 10, headerRoom: room, before });
      const mine = samplesOf(file);
      expect(mine.fragments).toEqual(ref.fragments);
      const first = readFragments(file)[0];
      expect(first.moof.start + first.trafs[0].dataOffset).toBe(CHUNK_BYTES + edge);
    }
  });

  it('a round while a fragment is in progress writes only the completed ones: the file on disk ends in whole boxes', async () => {
    if (!directHere()) return;
    dirtyPool();
    const units = h264.units.slice(0, 40);
    const steps: Step[] = [];
    units.forEach((unit, i) => {
      steps.push({ unit, track: 0 });
      if (i % 7 === 3) steps.push('round');
    });
    const { whileOpen, writer } = await expectSame([h264.track], steps, { maxFragmentDuration: 0.5 });
    expect(writer.direct).toBe(true);
    for (const f of whileOpen) {
      expect(f.length % DIRECT_BLOCK).toBe(0);
      const types = samplesOf(f).types;
      expect(types[types.length - 1]).toBe('free');
    }
    // the rounds saw fragments come in one by one
    expect(new Set(whileOpen.map((f) => readFragments(f).length)).size).toBeGreaterThan(2);
  });

  it('a cut by the wall clock holds the last frame back: its bytes move to the next fragment', async () => {
    const steps: Step[] = [...videoSteps(h264.units.slice(0, 7)), 'cutHoldingLast', 'round', ...videoSteps(h264.units.slice(7, 20)), 'cutHoldingLast'];
    await expectSame([h264.track], steps, { maxFragmentDuration: 1 });
  });

  it('buffered (no direct I/O): each fragment is written when it is complete', async () => {
    const steps = interleaved(h264.units, 100);
    const { writer } = await expectSame([h264.track, aac.track], steps, { maxFragmentDuration: 0.5, direct: false });
    expect(writer.direct).toBe(false);
  });

  it('a direct write refused with EINVAL while a fragment is in progress: the file goes on buffered, nothing lost', async () => {
    if (!directHere()) return;
    let refused = 0;
    const write: PositionalWrite = (fd, bufs, pos, done) => {
      if (!refused++) return process.nextTick(() => done(Object.assign(new Error('EINVAL'), { code: 'EINVAL' }), 0));
      fs.writev(fd, bufs, pos, done);
    };
    const units = h264.units.slice(0, 40);
    const steps: Step[] = [];
    units.forEach((unit, i) => {
      steps.push({ unit, track: 0 });
      if (i === 15) steps.push('round');
    });
    const { writer } = await expectSame([h264.track], steps, { maxFragmentDuration: 0.5, write });
    expect(refused).toBe(1);
    expect(writer.direct).toBe(false);
  });
});
