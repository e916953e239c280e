/**
 * The H.264 packetiser (used by the WebRTC output) against the depacketiser: real streams and random
 * units round-trip byte for byte, with the packet kinds, sizes, markers and sequence numbers RFC 6184
 * asks for.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { VideoAccessUnit } from '@opencvr/codec';
import { H264Depacketiser, H264Packetiser, h264Payloads, parseRtp } from '../src/index.js';
import { accessUnits, hex } from './fixtures.js';

function roundTrip(units: { pts: number; nalus: Uint8Array[] }[], p: H264Packetiser) {
  const d = new H264Depacketiser();
  const packets = units.flatMap((u) => p.serialize(u.nalus, u.pts));
  const out: VideoAccessUnit[] = packets.flatMap((b) => d.push(parseRtp(b)));
  return { packets, out: [...out, ...d.flush()] };
}

describe('H264Packetiser', () => {
  for (const [file, fps] of [
    ['h264-high-320x180.h264', 25],
    ['h264-baseline-176x144.h264', 15],
  ] as const) {
    for (const maxPayload of [1200, 300, 64]) {
      it(`${file} at ${maxPayload}-byte payloads: the same access units back, keyframes and times kept`, () => {
        const units = accessUnits(file, fps);
        const p = new H264Packetiser({ maxPayload, ssrc: 0x1234, sequenceNumber: 65530, payloadType: 102 });
        const { packets, out } = roundTrip(units, p);
        expect(out.map((u) => u.nalus.map(hex))).toEqual(units.map((u) => u.nalus.map(hex)));
        expect(out.map((u) => u.pts)).toEqual(units.map((u) => u.pts));
        expect(out.some((u) => u.keyframe)).toBe(true);
        expect(out.some((u) => u.damaged)).toBe(false);
        const parsed = packets.map(parseRtp);
        expect(parsed.every((q) => q.payload.length <= maxPayload && q.ssrc === 0x1234 && q.payloadType === 102)).toBe(true);
        expect(parsed.filter((q) => q.marker)).toHaveLength(units.length);
        // sequence numbers are consecutive and wrap
        expect(parsed.every((q, i) => i === 0 || q.sequenceNumber === ((parsed[i - 1].sequenceNumber + 1) & 0xffff))).toBe(true);
        expect(parsed.map((q) => q.sequenceNumber)).toContain(0);
        if (maxPayload < 100) expect(parsed.some((q) => (q.payload[0] & 0x1f) === 28)).toBe(true);
      });
    }
  }

  it('aggregates SPS, PPS and a small slice into one STAP-A and fragments a large slice into FU-A', () => {
    const sps = Uint8Array.of(0x67, 0x42, 0xc0, 0x1e, 0xda);
    const pps = Uint8Array.of(0x68, 0xce, 0x3c, 0x80);
    const idr = new Uint8Array(2500).fill(0xab);
    idr[0] = 0x65;
    const ps = h264Payloads([sps, pps, idr], 1000);
    expect(ps.map((q) => q[0] & 0x1f)).toEqual([24, 28, 28, 28]);
    expect(hex(ps[0])).toBe(`78${'0005'}${hex(sps)}${'0004'}${hex(pps)}`);
    // FU indicator keeps NRI (3) of the IDR; S on the first, E on the last; no fragment over 1000
    expect(ps.slice(1).map((q) => [q[0], q[1]])).toEqual([
      [0x7c, 0x85],
      [0x7c, 0x05],
      [0x7c, 0x45],
    ]);
    expect(ps.slice(1).reduce((s, q) => s + q.length - 2, 0)).toBe(idr.length - 1);
    // without aggregation each small unit is its own packet
    expect(h264Payloads([sps, pps], 1000, false).map(hex)).toEqual([hex(sps), hex(pps)]);
    // a lone small unit is a single-NAL packet, not a STAP-A of one
    expect(h264Payloads([pps], 1000).map(hex)).toEqual([hex(pps)]);
  });

  it('timestamps past 2^32 wrap as RTP does and every packet of a unit shares one', () => {
    const p = new H264Packetiser({ maxPayload: 50 });
    const nal = new Uint8Array(200).fill(1);
    nal[0] = 0x41;
    const pk = p.packets([nal], 2 ** 32 + 90000);
    expect(new Set(pk.map((x) => x.timestamp))).toEqual(new Set([90000]));
    expect(pk.map((x) => x.marker)).toEqual([...pk.slice(1).map(() => false), true]);
  });

  it('property: random access units round-trip through any payload size', () => {
    const nal = fc
      .tuple(fc.integer({ min: 1, max: 23 }), fc.integer({ min: 0, max: 3 }), fc.uint8Array({ minLength: 0, maxLength: 3000 }))
      .map(([type, nri, body]) => Uint8Array.from([(nri << 5) | type, ...body]));
    fc.assert(
      fc.property(fc.array(fc.array(nal, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }), fc.integer({ min: 3, max: 1500 }), fc.boolean(), (aus, maxPayload, aggregate) => {
        const units = aus.map((nalus, i) => ({ pts: i * 3000, nalus }));
        const p = new H264Packetiser({ maxPayload, aggregate });
        const { packets, out } = roundTrip(units, p);
        expect(out.map((u) => u.nalus.map(hex))).toEqual(units.map((u) => u.nalus.map(hex)));
        expect(packets.every((b) => parseRtp(b).payload.length <= maxPayload)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
