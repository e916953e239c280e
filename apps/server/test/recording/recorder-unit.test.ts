/** The recorder output alone, with a fake index: G.711 audio kept, segment cuts, a reconnect, write failures. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccessUnit, AudioTrack } from '@opencvr/codec';
import { StreamHub, type SourceSink } from '../../src/media/hub.js';
import { RecorderOutput, type SegmentProgress, type SegmentStart } from '../../src/media/outputs/recorder.js';
import { openSegmentWriter, writeRoundNow, type PositionalWrite, type SegmentWriter } from '../../src/media/outputs/segment-writer.js';
import { segmentPath } from '../../src/services/recording/paths.js';
import { scanMp4 } from '../../src/services/recording/mp4-scan.js';
import { decodes, ffprobe } from './support.js';
import { videoStream } from '../../../../packages/fmp4/test/helpers/streams.js';

const alaw: AudioTrack = { kind: 'audio', codec: 'pcma', sampleRate: 8000, channels: 1, config: new Uint8Array(), codecString: 'alaw', clockRate: 8000 };

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opencvr-rec-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));


function fakeStore() {
  const rows: (SegmentStart & { id: number; progress?: SegmentProgress; complete: boolean; updates: number })[] = [];
  return {
    rows,
    async create(seg: SegmentStart) {
      rows.push({ ...seg, id: rows.length + 1, complete: false, updates: 0 });
      return rows.length;
    },
    async update(id: number, progress: SegmentProgress, complete: boolean) {
      const r = rows[id - 1];
      r.progress = progress;
      r.complete ||= complete;
      r.updates++;
    },
  };
}

/** Whether the test folder takes O_DIRECT (tmpfs before 6.6 does not: the direct-write tests have nothing to test there). */
async function directIoHere(): Promise<boolean> {
  const probe = openSegmentWriter(path.join(dir, 'probe'), { onError: () => undefined });
  await probe.close();
  return probe.direct;
}

/**
 * A recorder of audio-only channel `pk` on a clock the test moves, whose segment files are written
 * through `write(n)` (n: the file's index, 0 for the first); returns it with the writers it opened.
 */
function recorderWithWrites(pk: number, store: ReturnType<typeof fakeStore>, now: () => number, write: (file: number) => PositionalWrite) {
  const writers: SegmentWriter[] = [];
  const rec = new RecorderOutput({
    channelPk: pk,
    root: dir,
    rootKey: '',
    segmentSeconds: 60,
    pathFor: (s, a) => segmentPath(pk, s, a),
    store,
    now,
    openWriter: (file, opts) => {
      const w = openSegmentWriter(file, { ...opts, write: write(writers.length) });
      writers.push(w);
      return w;
    },
  });
  return { rec, writers };
}

describe('RecorderOutput', () => {
  it('records G.711 audio in segments of SegmentSeconds, starts a new segment on reconnect, closes the rows', async () => {
    const store = fakeStore();
    let clock = Date.UTC(2024, 0, 1, 12);
    const rec = new RecorderOutput({ channelPk: 7, root: dir, rootKey: '', segmentSeconds: 3, pathFor: (s, a) => segmentPath(7, s, a), store, now: () => clock, flushMs: 50 });
    rec.tracks([alaw]);
    const feed = (from: number, n: number) => {
      for (let i = 0; i < n; i++) {
        const pts = (from + i) * 160; // 20 ms of 8 kHz samples
        rec.unit(0, { kind: 'audio', pts, data: new Uint8Array(160).fill(0xd5) });
        clock += 20;
      }
    };
    feed(0, 400); // 8 s
    rec.tracks([alaw]); // the camera reconnects
    feed(0, 100); // 2 s
    await rec.stop();
    expect(store.rows.map((r) => r.complete)).toEqual([true, true, true, true]);
    const durations = store.rows.map((r) => r.progress!.durationMs);
    expect(durations.slice(0, 2)).toEqual([3000, 3000]);
    expect(durations[2]).toBe(2000);
    expect(durations[3]).toBe(2000);
    for (const r of store.rows) {
      const file = path.join(dir, r.path);
      expect(r.path).toMatch(/^7\/20240101\/\d{6}(-\d)?\.mp4$/);
      expect(fs.statSync(file).size).toBe(r.progress!.bytes);
      const probe = ffprobe(file);
      expect(probe.streams[0]).toMatchObject({ codec_name: 'pcm_alaw' });
      expect(Math.abs(Number(probe.format.duration) * 1000 - r.progress!.durationMs)).toBeLessThan(30);
      decodes(file);
      const scan = scanMp4(file);
      expect(scan).toMatchObject({ ok: true, torn: false });
      expect(Math.round((scan.endTime - scan.firstTime) * 1000)).toBe(r.progress!.durationMs);
    }
    // contiguous while the stream runs
    expect(store.rows[1].startAt.getTime()).toBe(store.rows[0].progress!.endAt.getTime());
  });

  it('video held by reference from the hub: the same segment files as a recorder given copies', async () => {
    // The H.264 fixture (B-frames, a keyframe every 2 s) looped 5 times with G.711 audio, segments of
    // 3 s: cuts before keyframes inside segments and at their ends, by the hub's gopEnd().
    const h264 = videoStream('h264', 'h264-320x240-25fps-bf2.h264');
    const span = 100 * 3600;
    const units: [number, AccessUnit][] = [];
    for (let loop = 0; loop < 5; loop++) {
      for (const u of h264.units) units.push([0, { ...u, pts: u.pts + loop * span, dts: u.dts + loop * span }]);
      for (let i = 0; i < 200; i++) units.push([1, { kind: 'audio', pts: loop * 32000 + i * 160, data: new Uint8Array(160).fill(i) }]);
    }
    const time = ([t, u]: [number, AccessUnit]) => (t === 0 && u.kind === 'video' ? u.dts / 90000 : u.pts / 8000);
    units.sort((a, b) => time(a) - time(b));
    let clock = Date.UTC(2024, 0, 1, 12);
    const open = (root: string, store: ReturnType<typeof fakeStore>) =>
      new RecorderOutput({ channelPk: 3, root, rootKey: '', segmentSeconds: 3, pathFor: (s, a) => segmentPath(3, s, a), store, now: () => clock });
    const copiedStore = fakeStore();
    const refStore = fakeStore();
    const copied = open(path.join(dir, 'copied'), copiedStore);
    const byRef = open(path.join(dir, 'ref'), refStore);
    let sink: SourceSink | undefined;
    const hub = new StreamHub('d/3/0', () => ({ start: (s) => (sink = s), stop: () => undefined }), {
      onDemand: false,
      graceMs: 1000,
      retryMinMs: 1000,
      retryMaxMs: 1000,
      maxGopUnits: 2000,
    });
    hub.subscribe(byRef);
    const tracks = [h264.track, alaw];
    copied.tracks(tracks);
    sink!.tracks(tracks);
    // The source lends each unit from one scratch buffer it writes over afterwards, as the RTSP ingest does.
    const scratch = new Uint8Array(512 * 1024);
    for (const [t, u] of units) {
      copied.unit(t, u);
      let lent: AccessUnit = u;
      if (u.kind === 'video') {
        let at = 0;
        const nalus = u.nalus.map((n) => {
          scratch.set(n, at);
          at += n.length;
          return scratch.subarray(at - n.length, at);
        });
        lent = { ...u, nalus };
      }
      sink!.unit(t, lent);
      scratch.fill(0xee);
      clock += 10;
    }
    await copied.stop();
    await byRef.stop();
    hub.stop();
    expect(copiedStore.rows.length).toBeGreaterThanOrEqual(3);
    expect(refStore.rows.map((r) => [r.path, r.progress?.bytes, r.progress?.durationMs])).toEqual(
      copiedStore.rows.map((r) => [r.path, r.progress?.bytes, r.progress?.durationMs]),
    );
    for (const r of copiedStore.rows) {
      const a = fs.readFileSync(path.join(dir, 'copied', r.path));
      const b = fs.readFileSync(path.join(dir, 'ref', r.path));
      expect(b.equals(a), r.path).toBe(true);
    }
    decodes(path.join(dir, 'ref', refStore.rows[1].path));
  });

  it('a write failure closes the segment at its last whole fragment; the next unit starts a new file', async () => {
    const store = fakeStore();
    const rec = new RecorderOutput({
      channelPk: 1,
      root: dir,
      rootKey: '',
      segmentSeconds: 60,
      pathFor: (s, a) => segmentPath(1, s, a),
      store,
    });
    rec.tracks([alaw]);
    for (let i = 0; i < 200; i++) rec.unit(0, { kind: 'audio', pts: i * 160, data: new Uint8Array(160) });
    await rec.idle();
    expect(store.rows).toHaveLength(1);
    // the folder is replaced by a file under the recorder: the next segment cannot open
    fs.rmSync(dir, { recursive: true, force: true });
    fs.writeFileSync(dir, 'not a folder');
    rec.tracks([alaw]);
    for (let i = 0; i < 200; i++) rec.unit(0, { kind: 'audio', pts: i * 160, data: new Uint8Array(160) });
    await rec.stop();
    expect(store.rows).toHaveLength(1);
    expect(store.rows[0].complete).toBe(true);
    expect(rec.stats.errors).toBeGreaterThan(0);
  });

  it('a direct write that fails later rolls the segment back to what is on disk; the next unit starts a new file', async () => {
    if (!(await directIoHere())) return; // the injected write is never used without direct I/O
    const store = fakeStore();
    let clock = Date.UTC(2024, 0, 1, 12);
    const { rec, writers } = recorderWithWrites(2, store, () => clock, (file) => {
      // The first file's fifth write fails (the first holds the init segment and fragment 1).
      let calls = 0;
      return (fd, bufs, pos, done) => {
        if (file === 0 && ++calls === 5) setImmediate(() => done(Object.assign(new Error('EIO'), { code: 'EIO' }), 0));
        else fs.writev(fd, bufs, pos, done);
      };
    });
    rec.tracks([alaw]);
    let pts = 0;
    /** One second of audio; the unit after each second closes a fragment, which one write takes. */
    const second = async () => {
      for (let i = 0; i < 50; i++, pts += 160) {
        rec.unit(0, { kind: 'audio', pts, data: new Uint8Array(160).fill(0xd5) });
        clock += 20;
      }
      writeRoundNow();
      const w = writers[writers.length - 1];
      while (w && w.written !== w.bytes && !w.failed) await new Promise((r) => setTimeout(r, 2));
      await new Promise((r) => setImmediate(r)); // the error reaches the recorder
    };
    for (let s = 0; s < 8; s++) await second(); // fragment 5 (written after second 6) fails
    expect(rec.stats.errors).toBe(1);
    expect(writers).toHaveLength(2); // the next second started a new file
    await rec.stop();
    expect(store.rows).toHaveLength(2);
    const [a, b] = store.rows;
    expect(a.complete && b.complete).toBe(true);
    expect(a.progress!.durationMs).toBe(4000);
    for (const r of store.rows) {
      const file = path.join(dir, r.path);
      expect(fs.statSync(file).size).toBe(r.progress!.bytes);
      const scan = scanMp4(file);
      expect(scan).toMatchObject({ ok: true, torn: false });
      expect(Math.round((scan.endTime - scan.firstTime) * 1000)).toBe(r.progress!.durationMs);
    }
    expect(b.progress!.durationMs).toBeGreaterThan(0);
  });

  it('a channel whose disk refuses direct writes opens its next segments buffered', async () => {
    if (!(await directIoHere())) return; // no direct I/O here: nothing to refuse
    const store = fakeStore();
    let clock = Date.UTC(2024, 0, 1, 12);
    let refused = 0;
    const { rec, writers } = recorderWithWrites(3, store, () => clock, () => (_fd, _bufs, _pos, done) => {
      refused++;
      setImmediate(() => done(Object.assign(new Error('EINVAL'), { code: 'EINVAL' }), 0));
    });
    let pts = 0;
    const feed = (n: number) => {
      for (let i = 0; i < n; i++, pts += 160) {
        rec.unit(0, { kind: 'audio', pts, data: new Uint8Array(160).fill(0xd5) });
        clock += 20;
      }
    };
    rec.tracks([alaw]);
    feed(100);
    writeRoundNow();
    while (writers[0].direct) await new Promise((r) => setTimeout(r, 2));
    rec.tracks([alaw]); // a reconnect: the next segment
    feed(100);
    await rec.stop();
    expect(refused).toBe(1); // the second file never tried a direct write
    expect(writers.map((w) => w.direct)).toEqual([false, false]);
    expect(store.rows).toHaveLength(2);
    for (const r of store.rows) {
      expect(r.complete).toBe(true);
      expect(fs.statSync(path.join(dir, r.path)).size).toBe(r.progress!.bytes);
      expect(scanMp4(path.join(dir, r.path))).toMatchObject({ ok: true, torn: false });
    }
  });
});
