/**
 * Video units assembled in a caller's memory (useMemory: the hub's GOP store): the units are the
 * same as those assembled in the depacketiser's own buffers, their bytes are the memory's and stay
 * where they were committed, and a switch takes effect between units only.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { VideoAccessUnit } from '@opencvr/codec';
import {
  H264Depacketiser,
  h264Payloads,
  H265Depacketiser,
  newRtpView,
  readRtp,
  RtpError,
  serializeRtp,
  type AssemblyMemory,
  type Depacketiser,
} from '../src/index.js';
import { capture } from './fixtures.js';

/**
 * Chunked memory that never reuses a byte: a unit that outgrows its chunk moves to a new one of
 * `chunkBytes` (or the unit's size when larger). Moves are counted; every chunk is kept.
 */
class TestMemory implements AssemblyMemory {
  bytes = new Uint8Array(0);
  base = 0;
  moves = 0;
  readonly chunks: Uint8Array[] = [];
  constructor(private readonly chunkBytes: number) {}
  ensure(have: number, total: number): void {
    if (this.base + total <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(this.chunkBytes, total));
    next.set(this.bytes.subarray(this.base, this.base + have));
    if (have) this.moves++;
    this.chunks.push(next);
    this.bytes = next;
    this.base = 0;
  }
  commit(n: number): void {
    this.base += n;
  }
  owns(u: VideoAccessUnit): boolean {
    return u.nalus.every((n) => this.chunks.some((c) => c.buffer === n.buffer));
  }
}

const summary = (u: VideoAccessUnit) => ({
  pts: u.pts,
  keyframe: u.keyframe,
  damaged: u.damaged ?? false,
  nalus: u.nalus.map((n) => Array.from(n)),
});

/** Feeds packets through one scratch buffer (overwritten after each push), as the RTSP client does; then flushes. */
function run(d: Depacketiser, packets: readonly Uint8Array[], flush = true): VideoAccessUnit[] {
  const scratch = new Uint8Array(70_000);
  const view = newRtpView();
  const out: VideoAccessUnit[] = [];
  for (const p of packets) {
    scratch.set(p);
    let got: readonly VideoAccessUnit[];
    try {
      got = d.pushView(readRtp(scratch, 0, p.length, view)) as readonly VideoAccessUnit[];
    } catch (err) {
      if (!(err instanceof RtpError)) throw err;
      continue;
    }
    out.push(...got);
    scratch.fill(0xee, 0, p.length);
  }
  if (flush) out.push(...(d.flush() as VideoAccessUnit[]));
  return out;
}

const slice = (size: number, fill: number) => {
  const n = new Uint8Array(size).fill(fill & 0xff);
  n[0] = 0x41;
  return n;
};

/** RTP packets of units given as NAL units (FU-A when large); `marker: false` leaves units to end on the next timestamp. */
function packetsOf(units: Uint8Array[][], marker = true): Uint8Array[] {
  let seq = 0;
  return units.flatMap((nalus, i) => {
    const payloads = h264Payloads(nalus, 1400);
    return payloads.map((payload, k) =>
      serializeRtp({ marker: marker && k === payloads.length - 1, payloadType: 96, sequenceNumber: seq++ & 0xffff, timestamp: i * 3600, ssrc: 1, csrc: [], padding: 0, payload }),
    );
  });
}

describe('units assembled in a caller memory', () => {
  for (const [name, make] of [
    ['h264-high-320x180', () => new H264Depacketiser()],
    ['h264-high-320x180-pkt300', () => new H264Depacketiser()],
    ['h265-main-320x180', () => new H265Depacketiser()],
  ] as const) {
    it(`${name}: the same units as in own buffers, each in the memory, intact after the whole stream`, () => {
      const packets = capture(`${name}.rtp`);
      const own = run(make(), packets).map(summary);
      const memory = new TestMemory(4096); // small: keyframes outgrow their chunk and move
      const d = make();
      d.useMemory(memory);
      const inMemory = run(d, packets);
      expect(inMemory.map(summary)).toEqual(own);
      expect(inMemory.every((u) => memory.owns(u))).toBe(true);
      expect(memory.moves).toBeGreaterThan(0);
    });
  }

  it('units follow each other in the memory: two completed by one packet are both whole, the second right after the first', () => {
    const memory = new TestMemory(1 << 20);
    const d = new H264Depacketiser();
    d.useMemory(memory);
    const units = [[slice(500, 1)], [slice(700, 2), slice(30, 3)], [slice(5000, 4)]];
    const out = run(d, packetsOf(units, false)); // no marker: each unit ends on the next timestamp
    expect(out.map((u) => u.nalus.map((n) => Array.from(n)))).toEqual(units.map((u) => u.map((n) => Array.from(n))));
    expect(out[1].nalus[0].byteOffset).toBe(out[0].nalus[0].byteOffset + 500);
    expect(out[1].nalus[1].byteOffset).toBe(out[1].nalus[0].byteOffset + 700);
    expect(memory.base).toBe(500 + 730 + 5000);
  });

  it('useMemory during a unit takes effect after it; undefined goes back to own buffers', () => {
    const memory = new TestMemory(1 << 20);
    const d = new H264Depacketiser();
    const units = [[slice(3000, 1)], [slice(3000, 2)], [slice(3000, 3)]];
    const packets = packetsOf(units);
    const out = run(d, packets.slice(0, 1), false); // the first of unit 0's fragments
    d.useMemory(memory);
    out.push(...run(d, packets.slice(1, 6), false)); // the rest of unit 0, and unit 1 (3 packets each)
    d.useMemory(undefined);
    out.push(...run(d, packets.slice(6)));
    expect(out.map((u) => Array.from(u.nalus[0]))).toEqual(units.map((u) => Array.from(u[0])));
    expect([memory.owns(out[0]), memory.owns(out[1]), memory.owns(out[2])]).toEqual([false, true, false]);
  });

  it('with loss, reordering and cut packets the units are those of own buffers (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 1, max: 6000 }), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 25 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.integer({ min: 64, max: 20_000 }),
        fc.boolean(),
        (shape, drops, chunk, marker) => {
          let packets = packetsOf(
            shape.map((sizes, i) => sizes.map((s, k) => slice(s, i * 5 + k))),
            marker,
          );
          for (const at of drops) if (packets.length) packets = packets.filter((_, i) => i !== at % packets.length);
          const own = run(new H264Depacketiser(), packets).map(summary);
          const memory = new TestMemory(chunk);
          const d = new H264Depacketiser();
          d.useMemory(memory);
          const got = run(d, packets);
          expect(got.map(summary)).toEqual(own);
          expect(got.every((u) => memory.owns(u))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
