/**
 * Loss and reordering: packets shuffled within the reorder window and dropped at random go through
 * ReorderBuffer and a depacketiser. Nothing throws; every NAL unit that comes out is one the sender
 * sent in that picture; every picture whose packets (and the packet before them) all arrived comes out
 * whole and not damaged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { VideoAccessUnit } from '@opencvr/codec';
import { H264Depacketiser, H265Depacketiser, parseRtp, ReorderBuffer, type Depacketiser, type RtpPacket } from '../src/index.js';
import { accessUnits, capture, hex } from './fixtures.js';
import { packetiseNal } from './packetiser.js';

interface Source {
  name: string;
  packets: RtpPacket[];
  /** NAL units (hex) of each picture by RTP timestamp. */
  pictures: Map<number, string[]>;
  make: () => Depacketiser<VideoAccessUnit>;
}

function picturesOf(packets: RtpPacket[], make: () => Depacketiser<VideoAccessUnit>): Map<number, string[]> {
  const d = make();
  const aus = [...packets.flatMap((p) => d.push(p)), ...d.flush()];
  return new Map(aus.map((a) => [a.pts >>> 0, a.nalus.map(hex)]));
}

const h264 = capture('h264-high-320x180-pkt300.rtp').map(parseRtp);
const h265 = packetiseNal('h265', accessUnits('h265-main-320x180.h265'), { mtu: 300, aggregate: true, seq0: 65400 }).map(parseRtp);
const SOURCES: Source[] = [
  { name: 'h264 (ffmpeg capture, 300-byte packets)', packets: h264, pictures: picturesOf(h264, () => new H264Depacketiser()), make: () => new H264Depacketiser() },
  { name: 'h265 (test packetiser, AP and FU)', packets: h265, pictures: picturesOf(h265, () => new H265Depacketiser()), make: () => new H265Depacketiser() },
];

function deliver(src: Source, order: number[], lost: Set<number>) {
  const reorder = new ReorderBuffer({ size: 64, maxDelayMs: 100 });
  const d = src.make();
  const aus: VideoAccessUnit[] = [];
  order.forEach((i, now) => {
    if (lost.has(i)) return;
    for (const r of reorder.push(src.packets[i], now)) aus.push(...d.push(r.packet));
  });
  for (const r of reorder.flush()) aus.push(...d.push(r.packet));
  aus.push(...d.flush());
  return { aus, reorder };
}

/**
 * Indices in an order where no packet moves more than `window` places. The first stays first: the
 * buffer anchors on the first packet it sees, and an earlier one arriving after it counts as late.
 * Nor is the first dropped: whether a stream starts mid-picture cannot be told from its first packet
 * (unless that is a fragment without its start, which marks the unit damaged).
 */
const shuffled = (n: number, window: number) =>
  fc.array(fc.integer({ min: 0, max: window }), { minLength: n, maxLength: n }).map((jitter) =>
    jitter
      .map((j, i) => [i === 0 ? -1 : i + j, i] as const)
      .sort((a, b) => a[0] - b[0] || a[1] - b[1])
      .map(([, i]) => i),
  );

describe('loss and reordering', () => {
  for (const src of SOURCES) {
    const n = src.packets.length;

    it(`${src.name}: shuffled within the window, every picture comes out whole`, () => {
      expect(n).toBeGreaterThan(100);
      fc.assert(
        fc.property(shuffled(n, 40), (order) => {
          const { aus, reorder } = deliver(src, order, new Set());
          expect(reorder.stats.lost).toBe(0);
          expect(aus.map((a) => [a.pts >>> 0, a.nalus.map(hex), a.damaged ?? false])).toEqual([...src.pictures].map(([ts, nalus]) => [ts, nalus, false]));
        }),
        { numRuns: 100 },
      );
    });

    it(`${src.name}: shuffled and dropped, only sent units come out and intact pictures are whole`, () => {
      fc.assert(
        fc.property(shuffled(n, 20), fc.uniqueArray(fc.integer({ min: 1, max: n - 1 }), { minLength: 1, maxLength: 8 }), (order, dropped) => {
          const lost = new Set(dropped);
          const { aus, reorder } = deliver(src, order, lost);
          const received = [...Array(n).keys()].filter((k) => !lost.has(k));
          const first = received[0];
          const last = received[received.length - 1];
          expect(reorder.stats.lost).toBe([...lost].filter((i) => i > first && i < last).length);
          for (const a of aus) {
            const sent = src.pictures.get(a.pts >>> 0)!;
            expect(sent).toBeDefined();
            for (const nal of a.nalus) expect(sent).toContain(hex(nal));
            if (!a.damaged) expect(a.nalus.map(hex)).toEqual(sent);
          }
          // Pictures whose packets all arrived, as did the packet just before the first of them.
          const intact = [...src.pictures.keys()].filter((ts) => {
            const idx = src.packets.flatMap((p, i) => (p.timestamp === ts ? [i] : []));
            return idx.every((i) => !lost.has(i)) && !lost.has(idx[0] - 1);
          });
          const whole = new Set(aus.filter((a) => !a.damaged).map((a) => a.pts >>> 0));
          for (const ts of intact) expect(whole.has(ts)).toBe(true);
          expect(whole.size).toBeGreaterThan(0);
        }),
        { numRuns: 100 },
      );
    });
  }
});
