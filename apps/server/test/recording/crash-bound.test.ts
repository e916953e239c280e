/**
 * Issue 5's rule, without a process to kill: a camera played at its own pace on fake timers, segment
 * files written through a write that puts the bytes on disk at the instant the writer starts it. What
 * a kill -9 at an instant leaves is the file as it is then; the media it lost is what the camera had
 * sent by then and the file does not hold. The rule (recorder.ts): every sample is handed to a write
 * within HANDOFF_MS of its arrival, whatever the fragment length, and a stalled camera's fragment is
 * cut by the wall clock. kill.test.ts kills the real server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VideoAccessUnit } from '@opencvr/codec';
import { HANDOFF_MS, MAX_FRAGMENT_SECONDS, RecorderOutput } from '../../src/media/outputs/recorder.js';
import { openSegmentWriter, WRITE_ROUND_MS, writeRoundNow, type PositionalWrite, type SegmentWriter } from '../../src/media/outputs/segment-writer.js';
import { segmentPath } from '../../src/services/recording/paths.js';
import { scanMp4 } from '../../src/services/recording/mp4-scan.js';
import { ffprobe, fragmentDurations } from './support.js';
import { videoStream } from '../../../../packages/fmp4/test/helpers/streams.js';

/** H.264, 25 fps, B-frames, an IDR every second: 50 units (2 s). */
const h264 = videoStream('h264', 'h264-320x240-25fps-bf2.h264');
const FRAME_MS = 40;
const LOOP_TICKS = h264.units.length * 3600;
/** Units between keyframes as the recorder sees them: 4 s, as cameras often do (the other IDRs go as plain frames). */
const GOP = 100;

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencvr-crash-'));
});
afterEach(() => {
  writeRoundNow();
  vi.useRealTimers();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Unit `i` of the fixture looped, its times shifted by `shiftTicks` (90 kHz), a keyframe every GOP units. */
function unitAt(i: number, shiftTicks = 0): VideoAccessUnit {
  const u = h264.units[i % h264.units.length];
  const loop = Math.floor(i / h264.units.length) * LOOP_TICKS + shiftTicks;
  return { ...u, pts: u.pts + loop, dts: u.dts + loop, keyframe: i % GOP === 0 };
}

/** Media held by the file now, in ms (the crash scan reconciliation runs at start). */
function onDisk(file: string | undefined): number {
  if (!file || !fs.existsSync(file)) return 0;
  const scan = scanMp4(file);
  return scan.fragments ? (scan.endTime - scan.firstTime) * 1000 : 0;
}

/**
 * A recorder of one H.264 channel on fake timers whose direct writes are synchronous: bytes are on disk
 * when the writer starts their write. `beforeWrite` runs at that instant, before the bytes land (a
 * kill -9 just before a write loses the most). Appends and writes are logged with their instant.
 */
function recorder(fragmentSeconds: number | undefined, beforeWrite: () => void = () => undefined) {
  const writes: number[] = [];
  const appends: number[] = [];
  const writers: SegmentWriter[] = [];
  const write: PositionalWrite = (fd, bufs, pos, done) => {
    beforeWrite();
    writes.push(Date.now());
    const n = fs.writevSync(fd, bufs, pos);
    process.nextTick(() => done(null, n));
  };
  const rec = new RecorderOutput({
    channelPk: 1,
    root: dir,
    rootKey: '',
    segmentSeconds: 600,
    fragmentSeconds,
    pathFor: (s, a) => segmentPath(1, s, a),
    store: { create: async () => 1, update: async () => undefined },
    openWriter: (file, opts) => {
      const w = openSegmentWriter(file, { ...opts, write });
      const append = w.append.bind(w);
      w.append = (parts, n, maxWait) => {
        appends.push(Date.now());
        append(parts, n, maxWait);
      };
      writers.push(w);
      return w;
    },
  });
  rec.tracks([h264.track]);
  return { rec, writes, appends, writers, file: () => rec.current?.file };
}

/** Whether the test folder takes O_DIRECT (the rounds are direct mode's; buffered appends are written at once). */
async function directIoHere(): Promise<boolean> {
  const probe = openSegmentWriter(path.join(dir, 'probe'), { onError: () => undefined });
  await probe.close();
  fs.rmSync(path.join(dir, 'probe'));
  return probe.direct;
}

/** A deterministic PRNG (mulberry32): the same "random" kill instants on every run. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the crash bound (issue 5)', () => {
  it('fragments of the longest length asked for: a kill -9 at any instant loses at most HANDOFF_MS of media', async () => {
    if (!(await directIoHere())) return; // no rounds without direct I/O: every append is written before it returns
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const t0 = Date.now();
    let worst = 0;
    // Just before each write: what the camera has sent since t0 against what the file holds.
    const r = recorder(2, () => (worst = Math.max(worst, Date.now() - t0 - onDisk(r.file()))));
    const rec = r.rec;
    // Random instants of a kill -9: the file is copied as it is then, for ffprobe.
    const random = prng(5);
    const killAt = new Set(Array.from({ length: 6 }, () => 25 + Math.floor(random() * 350)));
    const snapshots: { file: string; sentMs: number }[] = [];
    const UNITS = 400; // 16 s
    for (let i = 0; i < UNITS; i++) {
      if (killAt.has(i) && r.file()) {
        const copy = path.join(dir, `kill-${i}.mp4`);
        fs.copyFileSync(r.file()!, copy);
        snapshots.push({ file: copy, sentMs: Date.now() - t0 });
      }
      rec.unit(0, unitAt(i));
      await vi.advanceTimersByTimeAsync(FRAME_MS);
    }
    const file = r.file()!;
    await vi.advanceTimersByTimeAsync(HANDOFF_MS);
    // 2 s asked, MAX_FRAGMENT_SECONDS taken: the longest the recorder makes, here 37 frames (1.48 s)
    const lengths = fragmentDurations(file);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(MAX_FRAGMENT_SECONDS);
    expect(Math.max(...lengths)).toBeGreaterThan(MAX_FRAGMENT_SECONDS - 2 * (FRAME_MS / 1000));
    // the worst instant: just before a fragment's write, all of that fragment and what came since
    expect(Math.round(worst)).toBeLessThanOrEqual(HANDOFF_MS);
    expect(worst).toBeGreaterThan(MAX_FRAGMENT_SECONDS * 1000); // the instants looked at include the worst ones
    expect(snapshots).toHaveLength(killAt.size);
    for (const s of snapshots) {
      const probed = Number(ffprobe(s.file).format.duration) * 1000;
      expect(s.sentMs - probed, `kill after ${s.sentMs} ms`).toBeLessThanOrEqual(HANDOFF_MS);
    }
    await rec.stop();
    await vi.advanceTimersByTimeAsync(WRITE_ROUND_MS);
    expect(Math.round(onDisk(file))).toBe(UNITS * FRAME_MS);
  });

  it('a camera that stalls: the fragment in progress goes to disk by the wall clock but its last frame, and the timeline keeps the stall', async () => {
    if (!(await directIoHere())) return;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const r = recorder(MAX_FRAGMENT_SECONDS);
    const SENT = 80; // 3.2 s, then nothing for 4 s
    for (let i = 0; i < SENT; i++) {
      r.rec.unit(0, unitAt(i));
      await vi.advanceTimersByTimeAsync(FRAME_MS);
    }
    const file = r.file()!;
    const beforeStall = onDisk(file);
    await vi.advanceTimersByTimeAsync(4000 - FRAME_MS);
    // everything but the last frame, whose duration waits for the next unit
    expect(beforeStall).toBeLessThan((SENT - 1) * FRAME_MS);
    expect(Math.round(onDisk(file))).toBe((SENT - 1) * FRAME_MS);
    // the camera is back, its clock 4 s on: the frame before the stall lasts the stall
    const STALL_TICKS = 4000 * 90;
    for (let i = SENT; i < SENT + 50; i++) {
      r.rec.unit(0, unitAt(i, STALL_TICKS - FRAME_MS * 90));
      await vi.advanceTimersByTimeAsync(FRAME_MS);
    }
    await r.rec.stop();
    await vi.advanceTimersByTimeAsync(WRITE_ROUND_MS);
    expect(Math.round(onDisk(file))).toBe((SENT + 50) * FRAME_MS + 4000 - FRAME_MS);
  });

  it('at the default 1 s fragments the writes keep their rounds of WRITE_ROUND_MS', async () => {
    if (!(await directIoHere())) return;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const r = recorder(undefined);
    for (let i = 0; i < 250; i++) {
      r.rec.unit(0, unitAt(i));
      await vi.advanceTimersByTimeAsync(FRAME_MS);
    }
    expect(r.writes.length).toBeGreaterThan(8);
    // each write starts one round after the first append it carries
    let from = 0;
    for (const w of r.writes) {
      const first = r.appends.find((a) => a >= from)!;
      expect(w - first).toBe(WRITE_ROUND_MS);
      from = w + 1;
    }
    await r.rec.stop();
  });
});

describe('SegmentWriter rounds', () => {
  it('an append that may wait less than a round brings the round forward, for every writer with bytes waiting', async () => {
    if (!(await directIoHere())) return;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const t0 = Date.now();
    const written: [string, number][] = [];
    const errors: Error[] = [];
    const open = (name: string) =>
      openSegmentWriter(path.join(dir, name), {
        onError: (err) => errors.push(err),
        write: (fd, bufs, pos, done) => {
          written.push([name, Date.now() - t0]);
          const n = fs.writevSync(fd, bufs, pos);
          process.nextTick(() => done(null, n));
        },
      });
    const a = open('a');
    const b = open('b');
    const bytes = new Uint8Array(1000).fill(1);
    a.append([bytes], bytes.length);
    await vi.advanceTimersByTimeAsync(100);
    b.append([bytes], bytes.length, 50); // old bytes: at most 50 ms more
    await vi.advanceTimersByTimeAsync(49);
    expect(written).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(written).toEqual([
      ['a', 150],
      ['b', 150],
    ]);
    // a longer allowance than the round changes nothing; a round is not put off by a later append
    a.append([bytes], bytes.length, 5000);
    await vi.advanceTimersByTimeAsync(300);
    b.append([bytes], bytes.length);
    await vi.advanceTimersByTimeAsync(200);
    expect(written.slice(2)).toEqual([
      ['a', 650],
      ['b', 650],
    ]);
    // past its time already: written at once, with what else is waiting
    b.append([bytes], bytes.length);
    a.append([bytes], bytes.length, -20);
    expect(written.slice(4)).toEqual([
      ['b', 650],
      ['a', 650],
    ]);
    await a.close();
    await b.close();
    expect(errors).toEqual([]);
  });
});
