/** Fragmenter: where fragments are cut, decode-time continuity, keyframe flags, odd streams. */
import { describe, expect, it } from 'vitest';
import type { AccessUnit } from '@opencvr/codec';
import { Fragmenter, type Fragment, type FragmenterOptions } from '../src/index.js';
import { SampleQueue, sampleBytes } from '../src/sample-queue.js';
import { readFragments } from './helpers/boxes.js';
import { AAC_TRACK, audio, H264_TRACK, video } from './helpers/units.js';

const G711 = {
  ...AAC_TRACK,
  codec: 'pcma' as const,
  sampleRate: 8000,
  clockRate: 8000,
  config: new Uint8Array(0),
  codecString: 'alaw',
};

function run(
  tracks: ConstructorParameters<typeof Fragmenter>[0],
  units: [AccessUnit, number?][],
  opts: FragmenterOptions = {},
) {
  const f = new Fragmenter(tracks, opts);
  const out: Fragment[] = [];
  for (const [u, t] of units) out.push(...f.push(u, t));
  out.push(...f.flush());
  return out;
}

/** 25 fps video (3600 ticks), keyframe every `gop` frames, starting at dts `start`. */
const frames = (n: number, gop: number, start = 0) =>
  Array.from({ length: n }, (_, i) => video(start + i * 3600, i % gop === 0));
/** 16 kHz AAC frames (1024 samples). */
const aacFrames = (n: number, start = 0) => Array.from({ length: n }, (_, i) => audio(start + i * 1024));
/** Merged by time in seconds. */
const merge = (v: AccessUnit[], a: AccessUnit[]): [AccessUnit][] =>
  [...v.map((u) => ({ u, t: (u.kind === 'video' ? u.dts : 0) / 90000 })), ...a.map((u) => ({ u, t: u.pts / 16000 }))]
    .sort((x, y) => x.t - y.t)
    .map(({ u }) => [u]);

function expectContinuous(fragments: Fragment[]) {
  const next = new Map<number, number>();
  for (const f of fragments) {
    for (const t of f.tracks) {
      if (next.has(t.trackId)) expect(t.baseDecodeTime).toBe(next.get(t.trackId));
      next.set(t.trackId, t.baseDecodeTime + t.duration);
    }
  }
}

describe('Fragmenter', () => {
  it('cuts before each keyframe and starts each such fragment flagged', () => {
    const out = run(
      [H264_TRACK],
      frames(75, 25, 900000).map((u) => [u]),
      { maxFragmentDuration: 2 },
    );
    expect(out.map((f) => [f.sequence, f.keyframe, f.startTime, f.duration, f.tracks[0].sampleCount])).toEqual([
      [1, true, 0, 1, 25],
      [2, true, 1, 1, 25],
      [3, true, 2, 1, 25], // the last sample's duration is the last step seen
    ]);
    expectContinuous(out);
  });

  it('cuts long GOPs at the limit, never past it', () => {
    const out = run(
      [H264_TRACK],
      frames(100, 100).map((u) => [u]),
      { maxFragmentDuration: 0.5 },
    );
    expect(out.map((f) => f.tracks[0].sampleCount)).toEqual([12, 12, 12, 12, 12, 12, 12, 12, 4]);
    expect(out.map((f) => f.keyframe)).toEqual([true, ...new Array(8).fill(false)]);
    for (const f of out) expect(f.duration).toBeLessThanOrEqual(0.5);
    expectContinuous(out);
  });

  it('drops everything before the first video keyframe (unless told not to)', () => {
    const v = frames(30, 25, 0).slice(20); // 5 delta frames, then a keyframe
    const units = merge(v, aacFrames(20, 16000 * 0.72));
    const out = run([H264_TRACK, AAC_TRACK], units, { maxFragmentDuration: 2 });
    expect(out[0].keyframe).toBe(true);
    expect(out.reduce((n, f) => n + f.tracks[0].sampleCount, 0)).toBe(5);
    const all = run(
      [H264_TRACK],
      v.map((u) => [u]),
      { waitForKeyframe: false },
    );
    expect(all.map((f) => [f.keyframe, f.tracks[0].sampleCount])).toEqual([
      [false, 5],
      [true, 5],
    ]);
  });

  it('holds back the last audio frame for its duration; both tracks stay continuous', () => {
    const units = merge(frames(50, 25), aacFrames(50));
    const out = run([H264_TRACK, AAC_TRACK], units, { maxFragmentDuration: 2 });
    expect(out.map((f) => f.tracks.map((t) => [t.trackId, t.sampleCount]))).toEqual([
      [
        [1, 25],
        [2, 15], // frames 0..15 arrive before the 2nd keyframe at 1 s; the 16th waits for its successor
      ],
      [
        [1, 25],
        [2, 35],
      ],
    ]);
    expect(out[1].tracks[1].baseDecodeTime).toBe(15 * 1024);
    expectContinuous(out);
    const parsed = out.flatMap((f) => readFragments(f.data));
    expect(parsed.flatMap((p) => p.trafs[1].samples.map((s) => s.duration))).toEqual(new Array(50).fill(1024));
  });

  it('rebases to the earliest first unit across tracks, keeping their offset', () => {
    const units = merge(frames(25, 25, 90000 * 100), aacFrames(30, 16000 * 100 + 1600)); // audio 0.1 s later
    const out = run([H264_TRACK, AAC_TRACK], units);
    expect(out[0].tracks.map((t) => t.baseDecodeTime)).toEqual([0, 1600]);
    const raw = run([H264_TRACK, AAC_TRACK], units, { rebase: false });
    expect(raw[0].tracks.map((t) => t.baseDecodeTime)).toEqual([9000000, 1601600]);
  });

  it('audio only: cut by duration, every fragment a start point; G.711 durations from bytes', () => {
    const out = run(
      [AAC_TRACK],
      aacFrames(40).map((u) => [u]),
      { maxFragmentDuration: 0.5 },
    );
    expect(out.map((f) => f.tracks[0].sampleCount)).toEqual([7, 7, 7, 7, 7, 5]);
    expect(out.every((f) => f.keyframe)).toBe(true);
    expectContinuous(out);
    const pcm = run([G711], [[audio(0, 160)], [audio(160, 160)], [audio(320, 80)]]);
    expect(pcm[0].tracks[0]).toMatchObject({ sampleCount: 3, duration: 400 }); // the last: 80 bytes = 80 samples
  });

  it('B-frames: presentation time of the keyframe, composition offsets in the trun', () => {
    const v = [
      video(0, true, { cts: 7200 }),
      video(3600, false, { cts: 10800 }),
      video(7200, false),
      video(10800, false, { cts: 3600 }),
    ];
    const [f] = run(
      [H264_TRACK],
      v.map((u) => [u]),
    );
    expect([f.startTime, f.presentationTime]).toEqual([0, 0.08]);
    expect(readFragments(f.data)[0].trafs[0].samples.map((s) => s.cts)).toEqual([7200, 10800, 0, 3600]);
  });

  it('a timestamp jump does not become a duration: decode time runs on', () => {
    const v = [...frames(10, 10, 0), ...frames(10, 10, 90000 * 3600), ...frames(5, 100, 1000)];
    const out = run(
      [H264_TRACK],
      v.map((u) => [u]),
      { maxFragmentDuration: 2 },
    );
    const durations = out.flatMap((f) => readFragments(f.data)[0].trafs[0].samples.map((s) => s.duration));
    expect(durations).toEqual(new Array(25).fill(3600));
    expectContinuous(out);
  });

  it('drops a damaged unit and what depends on it; the last good frame covers the gap', () => {
    const v = frames(20, 10);
    v[3].damaged = true;
    const out = run(
      [H264_TRACK],
      v.map((u) => [u]),
      { maxFragmentDuration: 2 },
    );
    const durations = out.flatMap((f) => readFragments(f.data)[0].trafs[0].samples.map((s) => s.duration));
    expect(durations).toEqual([3600, 3600, 3600 * 8, ...new Array(10).fill(3600)]); // frames 3..9 dropped
    expectContinuous(out);
    const kept = run(
      [H264_TRACK],
      v.map((u) => [u]),
      { maxFragmentDuration: 2, dropDamaged: false },
    );
    expect(kept.reduce((n, f) => n + f.tracks[0].sampleCount, 0)).toBe(20);
    const badKey = frames(20, 10);
    badKey[0].damaged = true;
    expect(
      run(
        [H264_TRACK],
        badKey.map((u) => [u]),
      )[0].startTime,
    ).toBe(0); // starts at the next keyframe
    expect(
      run(
        [H264_TRACK],
        badKey.map((u) => [u]),
      ).reduce((n, f) => n + f.tracks[0].sampleCount, 0),
    ).toBe(10);
  });

  it('a stalled video track does not hold audio forever', () => {
    const units = merge(frames(2, 25), aacFrames(100));
    const out = run([H264_TRACK, AAC_TRACK], units.slice(0, -1), { maxFragmentDuration: 0.5 });
    expect(out.length).toBeGreaterThan(3);
    for (const f of out.slice(0, -1))
      expect(f.tracks.find((t) => t.trackId === 2)!.duration / 16000).toBeLessThanOrEqual(1);
    expectContinuous(out);
  });

  it('init, mimeType, sequence numbers and argument checks', () => {
    const f = new Fragmenter([H264_TRACK, AAC_TRACK], { firstSequence: 100 });
    expect(f.init).toBe(f.init);
    expect(f.mimeType).toBe('video/mp4; codecs="avc1.64000d,mp4a.40.2"');
    expect(f.flush()).toEqual([]);
    f.push(video(0, true));
    expect(f.push(video(3600, true)).map((x) => x.sequence)).toEqual([100]);
    expect(f.flush().map((x) => x.sequence)).toEqual([101]);
    expect(() => new Fragmenter([AAC_TRACK]).push(video(0, true))).toThrow(/no video track/);
    expect(() => f.push(audio(0), 0)).toThrow(/no audio track at 0/);
    expect(() => new Fragmenter([])).toThrow();
    expect(() => new Fragmenter([AAC_TRACK], { maxFragmentDuration: 0 })).toThrow();
  });

  it('allocate: fragments written into given (dirty, larger) buffers are byte for byte the same', () => {
    const units = merge(frames(60, 25), aacFrames(100)) as [AccessUnit, number?][];
    const plain = run([H264_TRACK, AAC_TRACK], units);
    const given: Uint8Array[] = [];
    const pooled = run([H264_TRACK, AAC_TRACK], units, {
      allocate: (size) => {
        const b = new Uint8Array(size + 100).fill(0xcd);
        given.push(b);
        return b;
      },
    });
    expect(pooled.length).toBe(plain.length);
    expect(given.length).toBe(plain.length);
    pooled.forEach((f, i) => {
      expect(Buffer.from(f.data).equals(Buffer.from(plain[i].data))).toBe(true);
      expect(f.data.buffer).toBe(given[i].buffer);
    });
    expect(() => run([H264_TRACK], frames(30, 25).map((u) => [u]), { allocate: (n) => new Uint8Array(n - 1) })).toThrow(RangeError);
  });

  it("output 'parts': the same bytes as one buffer, valid until the next push", () => {
    // B-frames (composition offsets), audio held back, a large keyframe that makes the queue grow.
    const v = Array.from({ length: 60 }, (_, i) =>
      video(i * 3600, i % 25 === 0, { cts: i % 3 === 1 ? 7200 : 0, slice: i === 25 ? 300_000 : 50 + (i % 7) * 10 }),
    );
    const units = merge(v, aacFrames(100)) as [AccessUnit, number?][];
    const plain = run([H264_TRACK, AAC_TRACK], units, { dropSei: true });
    const f = new Fragmenter([H264_TRACK, AAC_TRACK], { output: 'parts', dropSei: true });
    const seen: Buffer[] = [];
    const take = (frags: readonly Fragment[]) => {
      for (const x of frags) {
        expect(x.parts.length).toBeGreaterThan(1);
        const joined = Buffer.concat(x.parts);
        expect(joined.length).toBe(x.byteLength);
        expect(Buffer.from(x.data).equals(joined)).toBe(true);
        seen.push(joined);
      }
    };
    for (const [u, t] of units) take(f.push(u, t));
    take(f.flush());
    expect(seen.length).toBe(plain.length);
    seen.forEach((b, i) => expect(b.equals(Buffer.from(plain[i].data)), `fragment ${i}`).toBe(true));
  });

  it('video by reference (the hub cut before each keyframe, then reused the bytes): the same bytes as copies, with no video copied', () => {
    // B-frames, audio held back, a large keyframe; a GOP longer than the 1 s limit (cut by duration
    // inside it) and a cache dropped mid-GOP (detach, then copies and references mixed).
    const v = Array.from({ length: 120 }, (_, i) =>
      video(i * 3600, i % 40 === 0, { cts: i % 3 === 1 ? 7200 : 0, slice: i === 40 ? 300_000 : 50 + (i % 7) * 10 }),
    );
    const units = merge(v, aacFrames(200)) as [AccessUnit, number?][];
    const opts: FragmenterOptions = { output: 'parts', maxFragmentDuration: 1 };
    const copied = new Fragmenter([H264_TRACK, AAC_TRACK], opts);
    const byRef = new Fragmenter([H264_TRACK, AAC_TRACK], opts);
    const expected: Buffer[] = [];
    const got: Buffer[] = [];
    const collect = (into: Buffer[], frags: readonly Fragment[]) => {
      for (const x of frags) into.push(Buffer.concat(x.parts));
    };
    /** The hub's cache: units lent by reference, written over when the GOP ends. */
    let held: AccessUnit[] = [];
    const gopEnd = (next?: AccessUnit) => {
      if (next?.kind === 'video') collect(got, byRef.cutBefore(next.dts));
      byRef.detach();
      for (const u of held) if (u.kind === 'video') for (const n of u.nalus) n.fill(0xee);
      held = [];
    };
    let viaRef = 0;
    units.forEach(([u], i) => {
      collect(expected, copied.push(u));
      if (u.kind === 'video' && u.keyframe) gopEnd(u);
      if (i === 150) gopEnd(); // the cache dropped (maxGopUnits): what follows until a keyframe is copied
      const kept = !(i > 150 && i < 180);
      // Units are pushed by reference as the hub's own copies (which it overwrites later).
      const unit: AccessUnit = u.kind === 'video' ? { ...u, nalus: u.nalus.map((n) => n.slice()) } : u;
      if (kept) held.push(unit);
      if (kept && unit.kind === 'video') viaRef++;
      collect(got, byRef.push(unit, undefined, kept));
    });
    collect(expected, copied.flush());
    collect(got, byRef.flush());
    expect(viaRef).toBeGreaterThan(90);
    expect(got.length).toBe(expected.length);
    got.forEach((b, i) => expect(b.equals(expected[i]), `fragment ${i}`).toBe(true));
  });

  it('by reference: buffer output copies instead; a queue hands referenced samples out as parts only', () => {
    const units = frames(30, 25);
    const plain = run([H264_TRACK], units.map((u) => [u]), { maxFragmentDuration: 2 });
    const f = new Fragmenter([H264_TRACK], { maxFragmentDuration: 2 });
    const out: Fragment[] = [];
    for (const u of units) out.push(...f.push(u, undefined, true));
    out.push(...f.flush());
    expect(out.map((x) => Buffer.from(x.data))).toEqual(plain.map((x) => Buffer.from(x.data)));

    const q = new SampleQueue('h264', false);
    q.push(units[0]);
    q.pushRef(units[1]);
    expect(q.referenced).toBe(1);
    expect(() => q.take(2)).toThrow(/by reference/);
    expect(() => q.pushRef(audio(0))).toThrow(TypeError);
    const parts: Uint8Array[] = [];
    q.takeParts(2, parts);
    // The first sample's bytes, then the second's slice (AUD, SPS, PPS dropped; SEI and slice kept) each after its length.
    expect(parts.length).toBe(1 + 4);
    // Not copied: a view of the unit's own bytes (the same memory, not an equal copy).
    const sei = units[1].kind === 'video' ? units[1].nalus[1] : new Uint8Array(0);
    expect(parts[2].buffer).toBe(sei.buffer);
    expect([parts[2].byteOffset, parts[2].length]).toEqual([sei.byteOffset, sei.length]);
    expect(Buffer.from(parts[1])).toEqual(Buffer.from([0, 0, 0, 5]));
    expect(q.count).toBe(0);
    q.release();
  });

  it('release(): the next fragmenter reuses the sample buffers (none made), with the same bytes out as a fresh one', () => {
    const v = Array.from({ length: 60 }, (_, i) => video(i * 3600, i % 25 === 0, { slice: i === 25 ? 300_000 : 20_000 + i }));
    const units = merge(v, aacFrames(100)) as [AccessUnit, number?][];
    const fresh = run([H264_TRACK, AAC_TRACK], units).map((x) => Buffer.from(x.data));
    // A segment after another, as the recorder does: flush, write, release, start a new fragmenter.
    const segment = () => {
      const f = new Fragmenter([H264_TRACK, AAC_TRACK], { output: 'parts' });
      const out: Buffer[] = [];
      for (const [u, t] of units) for (const x of f.push(u, t)) out.push(Buffer.concat(x.parts));
      for (const x of f.flush()) out.push(Buffer.concat(x.parts));
      f.release();
      return out;
    };
    segment();
    const made = sampleBytes.stats.made;
    for (let i = 0; i < 3; i++) {
      const out = segment();
      expect(out.length).toBe(fresh.length);
      out.forEach((b, k) => expect(b.equals(fresh[k]), `segment ${i} fragment ${k}`).toBe(true));
    }
    expect(sampleBytes.stats.made).toBe(made);
  });

  it("sampleCapacity: a fragmenter started at the last one's sampleCapacities() takes its buffers once and grows none", () => {
    // 1 s fragments of ~500 KB (20 KB frames at 25 fps): a queue from 64 KiB doubles three times.
    const v = Array.from({ length: 100 }, (_, i) => video(i * 3600, i % 25 === 0, { slice: 20_000 + i }));
    const units = merge(v, aacFrames(170)) as [AccessUnit, number?][];
    const segment = (capacity?: number[]) => {
      const taken = sampleBytes.stats.taken;
      const f = new Fragmenter([H264_TRACK, AAC_TRACK], { output: 'parts', maxFragmentDuration: 1, sampleCapacity: capacity });
      const start = f.sampleCapacities();
      for (const [u, t] of units) f.push(u, t);
      f.flush();
      const end = f.sampleCapacities();
      f.release();
      return { taken: sampleBytes.stats.taken - taken, start, end };
    };
    const first = segment();
    expect(first.end[0]).toBeGreaterThanOrEqual(500_000);
    expect(first.taken).toBeGreaterThan(4);
    const next = segment(first.end);
    expect(next.start).toEqual(first.end);
    expect(next.taken).toBe(4); // two buffers per track
    expect(next.end).toEqual(first.end);
  });

  it("copies what it is given: the caller's buffers may be reused as soon as push() returns", () => {
    const units = merge(frames(60, 25), aacFrames(100)) as [AccessUnit, number?][];
    const clone = (u: AccessUnit): AccessUnit =>
      u.kind === 'video' ? { ...u, nalus: u.nalus.map((n) => Uint8Array.from(n)) } : { ...u, data: Uint8Array.from(u.data) };
    const plain = run([H264_TRACK, AAC_TRACK], units.map(([u, t]) => [clone(u), t]));
    for (const output of ['buffer', 'parts'] as const) {
      const f = new Fragmenter([H264_TRACK, AAC_TRACK], { output });
      const out: Buffer[] = [];
      for (const [u, t] of units) {
        const mine = clone(u);
        for (const x of f.push(mine, t)) out.push(Buffer.from(x.data));
        // The ingest reuses its blocks: scribble over what was just pushed.
        if (mine.kind === 'video') for (const n of mine.nalus) n.fill(0xee, 1);
        else mine.data.fill(0xee);
      }
      for (const x of f.flush()) out.push(Buffer.from(x.data));
      expect(out.length).toBe(plain.length);
      out.forEach((b, i) => expect(b.equals(Buffer.from(plain[i].data)), `${output} fragment ${i}`).toBe(true));
    }
  });

  it('a unit MP4 cannot hold is refused before anything is cut: no sample is lost', () => {
    const f = new Fragmenter([H264_TRACK], { maxFragmentDuration: 2 });
    const out: Fragment[] = [];
    for (const u of frames(25, 25)) out.push(...f.push(u));
    const bad = video(25 * 3600, true);
    bad.pts = bad.dts + 2 ** 33; // a composition offset past 32 bits
    expect(() => f.push(bad)).toThrow(RangeError);
    for (const u of frames(25, 25, 26 * 3600)) out.push(...f.push(u));
    out.push(...f.flush());
    expect(out.map((x) => x.tracks[0].sampleCount)).toEqual([25, 25]);
    expectContinuous(out);
  });
});
