/**
 * Properties over random and damaged input: the demuxer never throws, always returns, and every
 * frame it gives is well formed; after garbage it finds the next start code and gives the real frames.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex } from '@opencvr/codec';
import { PsDemuxer, PsTrackAssembler, type PsFrame } from '../src/index.js';
import { fixture } from './fixtures.js';

const REAL = [fixture('gst-h264-aac.ps'), fixture('h265-pcma.ps'), fixture('ffmpeg-vob-h264.ps')];

/** Feeds `data` in chunks of the given sizes (cycled), with lost() where asked. */
function run(
  d: PsDemuxer,
  data: Uint8Array,
  sizes: number[],
  lostAt: Set<number> = new Set(),
  markers = false,
): PsFrame[] {
  const out: PsFrame[] = [];
  let at = 0;
  let i = 0;
  while (at < data.length) {
    const size = Math.max(1, sizes[i % sizes.length] ?? 1400);
    out.push(...d.push(data.subarray(at, at + size)));
    if (markers && i % 3 === 0) out.push(...d.endOfFrame());
    if (lostAt.has(i)) out.push(...d.lost());
    at += size;
    i++;
  }
  out.push(...d.flush());
  return out;
}

function wellFormed(frames: PsFrame[]) {
  for (const f of frames) {
    expect(Number.isFinite(f.pts)).toBe(true);
    expect(f.data.length).toBeGreaterThan(0);
    if (f.kind === 'video') {
      expect(f.nalus.length).toBeGreaterThan(0);
      expect(Number.isFinite(f.dts)).toBe(true);
    }
  }
}

const damaged = fc
  .tuple(
    fc.constantFrom(...REAL),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 40 }),
    fc.nat(),
    fc.nat(),
  )
  .map(([src, edits, from, cut]) => {
    const b = Uint8Array.from(src);
    for (const [at, v] of edits) b[at % b.length] = v;
    const start = from % b.length;
    return b.subarray(start, start + (cut % (b.length - start + 1)));
  });

describe('PS demuxer fuzz', () => {
  it('random bytes in random chunks: no throw, well-formed frames', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 4000 }),
        fc.array(fc.integer({ min: 1, max: 1500 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (b, sizes, markers) => {
          const d = new PsDemuxer();
          wellFormed(run(d, b, sizes, new Set([1, 4]), markers));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('real streams with bytes changed, cut, chunked and lost: no throw, well-formed frames, tracks assembler holds', () => {
    fc.assert(
      fc.property(
        damaged,
        fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(40), { maxLength: 3 }),
        (b, sizes, lost) => {
          const d = new PsDemuxer({ maxFrameBytes: 256 * 1024 });
          const frames = run(d, b, sizes, new Set(lost), true);
          wellFormed(frames);
          const tracks = new PsTrackAssembler();
          for (const f of frames) tracks.push(f, d.streamMap);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('after garbage and a transport gap, the real stream comes out as it does alone (the first picture may absorb garbage)', () => {
    const clean = REAL[1];
    const key = (f: PsFrame[]) =>
      f.filter((x) => x.kind === 'video').map((x) => (x.kind === 'video' ? x.nalus.map(toHex).join('|') : ''));
    const alone = key(run(new PsDemuxer(), clean, [1400]));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 1, max: 1500 }), (garbage, size) => {
        const d = new PsDemuxer();
        d.push(garbage);
        d.lost();
        const got = key(run(d, clean, [size]));
        expect(got.slice(-(alone.length - 1))).toEqual(alone.slice(1));
      }),
      { numRuns: 100 },
    );
  });

  it('garbage without start codes before a stream costs nothing: every frame comes out', () => {
    const clean = REAL[0];
    const alone = run(new PsDemuxer(), clean, [1400]).map((f) => `${f.kind}:${f.data.length}`);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), (raw) => {
        const garbage = raw.map((x) => (x === 1 ? 2 : x));
        const d = new PsDemuxer();
        const out = [...d.push(garbage), ...run(d, clean, [1400])].map((f) => `${f.kind}:${f.data.length}`);
        expect(out).toEqual(alone);
      }),
      { numRuns: 100 },
    );
  });

  it('garbage in front of a real stream never keeps the tracks from being announced with the real codec', () => {
    const clean = REAL[0];
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 1400 }), { maxLength: 60 }), fc.boolean(), (garbage, gap) => {
        const d = new PsDemuxer();
        const a = new PsTrackAssembler();
        let tracks: string[] | undefined;
        const take = (frames: PsFrame[]) => {
          for (const f of frames) {
            const out = a.push(f, d.streamMap);
            if (out.tracks) tracks = out.tracks.map((t) => t.codec);
          }
        };
        for (const g of garbage) take(d.push(g));
        if (gap) take(d.lost());
        for (let at = 0; at < clean.length; at += 1400) take(d.push(clean.subarray(at, at + 1400)));
        take(d.flush());
        expect(tracks?.[0]).toBe('h264');
      }),
      { numRuns: 200 },
    );
  });
});
