/**
 * Finished access units are copied into blocks shared by the stream's next units (small units) or
 * into a buffer of their own (large ones): either way a unit's bytes must stay as they were when it
 * was emitted, whatever comes after it, and one unit's view must not reach into another's bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { VideoAccessUnit } from '@opencvr/codec';
import { h264Payloads, H264Depacketiser, newRtpView, readRtp, serializeRtp } from '../src/index.js';

/** A non-IDR slice NAL unit of `size` bytes whose body is `fill`. */
const slice = (size: number, fill: number) => {
  const n = new Uint8Array(size).fill(fill & 0xff);
  n[0] = 0x41;
  return n;
};

/**
 * Feeds each unit's NAL units as RTP (FU-A when large) through one scratch buffer; returns what came
 * out. `seen` is shown each push's units before the next push (lent units are only valid until then).
 */
function depacketise(units: Uint8Array[][], opts: { lendUnits?: boolean; seen?: (u: VideoAccessUnit) => void } = {}): VideoAccessUnit[] {
  const d = new H264Depacketiser({ lendUnits: opts.lendUnits });
  const scratch = new Uint8Array(2048);
  const view = newRtpView();
  const out: VideoAccessUnit[] = [];
  let seq = 0;
  units.forEach((nalus, i) => {
    const payloads = h264Payloads(nalus, 1400);
    payloads.forEach((payload, k) => {
      const p = serializeRtp({
        marker: k === payloads.length - 1,
        payloadType: 96,
        sequenceNumber: seq++ & 0xffff,
        timestamp: i * 3600,
        ssrc: 1,
        csrc: [],
        padding: 0,
        payload,
      });
      scratch.set(p);
      const got = d.pushView(readRtp(scratch, 0, p.length, view));
      if (opts.seen) got.forEach(opts.seen);
      out.push(...got);
      scratch.fill(0xee);
    });
  });
  return out;
}

describe('access unit bytes (shared blocks and own buffers)', () => {
  it('keeps every unit intact across many blocks; small units share a block, a large one has its own buffer', () => {
    const sizes = [...Array.from({ length: 120 }, (_, i) => 3000 + ((i * 977) % 9000)), 200_000, 10, 7];
    const units = sizes.map((s, i) => [slice(s, i)]);
    const out = depacketise(units);
    expect(out).toHaveLength(units.length); // each ends on its marker bit
    out.forEach((u, i) => expect(Array.from(u.nalus[0])).toEqual(Array.from(units[i][0])));
    expect(out[0].nalus[0].buffer).toBe(out[1].nalus[0].buffer);
    const big = out[120].nalus[0];
    expect(big.byteOffset).toBe(0);
    expect(big.buffer.byteLength).toBe(200_000);
    expect(new Set(out.map((u) => u.nalus[0].buffer)).size).toBeGreaterThan(2);
  });

  it('a unit of several NAL units: each a view of the same copy, none overlapping the next unit', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 2, max: 5000 }), { minLength: 1, maxLength: 4 }), { minLength: 2, maxLength: 40 }), (shape) => {
        const units = shape.map((sizes, i) => sizes.map((s, k) => slice(s, i * 7 + k)));
        const out = depacketise(units);
        expect(out).toHaveLength(units.length);
        const intact = (u: VideoAccessUnit, i: number) => expect(u.nalus.map((n) => Array.from(n))).toEqual(units[i].map((n) => Array.from(n)));
        // Writing over a unit's bytes (an output may) reaches neither the units after it nor those before.
        out.forEach((u, i) => {
          intact(u, i);
          for (const n of u.nalus) n.fill(0);
        });
        const again = depacketise(units);
        for (let i = again.length - 1; i >= 0; i--) {
          intact(again[i], i);
          for (const n of again[i].nalus) n.fill(0);
        }
      }),
      { numRuns: 50 },
    );
  });
});

describe('lent access units (lendUnits)', () => {
  it('each unit is whole until the next push, and units are lent from two buffers that take turns: none allocated per unit', () => {
    const sizes = Array.from({ length: 60 }, (_, i) => 3000 + ((i * 977) % 9000));
    const units = sizes.map((s, i) => [slice(s, i), slice(40, i + 100)]);
    const buffers = new Set<ArrayBufferLike>();
    let n = 0;
    const out = depacketise(units, {
      lendUnits: true,
      seen: (u) => {
        expect(u.nalus.map((x) => Array.from(x))).toEqual(units[n].map((x) => Array.from(x)));
        buffers.add(u.nalus[0].buffer);
        n++;
      },
    });
    expect(out).toHaveLength(units.length);
    expect(n).toBe(units.length);
    // Two assembly buffers (each grown at most a few times to the largest unit), not one per unit.
    expect(buffers.size).toBeLessThanOrEqual(4);
    // Lent: a later unit was written over an earlier one's bytes.
    expect(Array.from(out[0].nalus[0])).not.toEqual(Array.from(units[0][0]));
  });

  it('two units completed by one packet (a timestamp change, then its marker) are both whole when the push returns', () => {
    const d = new H264Depacketiser({ lendUnits: true });
    const view = newRtpView();
    const scratch = new Uint8Array(2048);
    const send = (nal: Uint8Array, ts: number, seq: number, marker: boolean) => {
      const p = serializeRtp({ marker, payloadType: 96, sequenceNumber: seq, timestamp: ts, ssrc: 1, csrc: [], padding: 0, payload: nal });
      scratch.set(p);
      return d.pushView(readRtp(scratch, 0, p.length, view));
    };
    expect(send(slice(500, 1), 0, 0, false)).toHaveLength(0); // unit 0 without its marker
    const got = send(slice(700, 2), 3600, 1, true); // ends unit 0 by its timestamp, unit 1 by its marker
    expect(got).toHaveLength(2);
    expect(Array.from(got[0].nalus[0])).toEqual(Array.from(slice(500, 1)));
    expect(Array.from(got[1].nalus[0])).toEqual(Array.from(slice(700, 2)));
  });
});
