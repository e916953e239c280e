/**
 * Properties over random input: the packet parsers and every depacketiser throw nothing but RtpError,
 * always return, and hold bounded state (limits set small here); RTP serialise/parse round-trips;
 * the reorder buffer never releases a packet twice or holds more than its window.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AccessUnit } from '@opencvr/codec';
import {
  AacDepacketiser,
  G711Depacketiser,
  H264Depacketiser,
  H265Depacketiser,
  newRtpView,
  parseRtcp,
  parseRtp,
  readRtp,
  ReorderBuffer,
  RtpError,
  serializeRtp,
  type Depacketiser,
  type RtpPacket,
} from '../src/index.js';
import { capture } from './fixtures.js';

const typedOnly = <T>(f: () => T): T | undefined => {
  try {
    return f();
  } catch (err) {
    if (!(err instanceof RtpError)) throw err;
    return undefined;
  }
};

const RUNS = { numRuns: 1000 };

/** Real packets with bytes changed or cut, and plain random bytes. */
const realPackets = ['h264-high-320x180', 'h265-main-320x180', 'aac-lc-44100-stereo'].flatMap((n) => capture(`${n}.rtp`));
const packetBytes = fc.oneof(
  fc.uint8Array({ maxLength: 80 }),
  fc.tuple(fc.constantFrom(...realPackets), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }), fc.nat()).map(([p, edits, cut]) => {
    const b = Uint8Array.from(p);
    for (const [at, v] of edits) b[at % b.length] = v;
    return b.subarray(0, cut % (b.length + 1));
  }),
);

describe('packet parser fuzz', () => {
  it('parseRtp and parseRtcp throw only RtpError, and a parsed packet serialises back to its bytes', () => {
    fc.assert(
      fc.property(packetBytes, (b) => {
        const p = typedOnly(() => parseRtp(b));
        if (p) {
          // Padding octets other than the count carry no meaning (RFC 3550 5.1): the serialiser writes zeros.
          const expected = Uint8Array.from(b);
          if (p.padding) expected.fill(0, b.length - p.padding, b.length - 1);
          expect([...serializeRtp(p)]).toEqual([...expected]);
        }
        typedOnly(() => parseRtcp(b));
      }),
      // A padded packet whose padding octets are not zero (found by this property in CI).
      { ...RUNS, examples: [[Uint8Array.from([0xa0, 96, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2, 7, 7, 0xff, 0xee, 3])]] },
    );
  });

  it('parse(serialize(p)) = p', () => {
    const packet = fc.record({
      marker: fc.boolean(),
      payloadType: fc.integer({ min: 0, max: 127 }),
      sequenceNumber: fc.integer({ min: 0, max: 0xffff }),
      timestamp: fc.integer({ min: 0, max: 0xffffffff }),
      ssrc: fc.integer({ min: 0, max: 0xffffffff }),
      csrc: fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 15 }),
      padding: fc.integer({ min: 0, max: 255 }),
      payload: fc.uint8Array({ maxLength: 40 }),
      extension: fc.option(fc.record({ profile: fc.integer({ min: 0, max: 0xffff }), data: fc.uint8Array({ maxLength: 3 }).map((w) => new Uint8Array(w.length * 4).fill(7)) }), { nil: undefined }),
    });
    fc.assert(
      fc.property(packet, (p) => {
        const { extension, ...rest } = p;
        const input: RtpPacket = { ...rest, ...(extension ? { extension } : {}) };
        const back = parseRtp(serializeRtp(input));
        expect({ ...back, payload: [...back.payload], extension: back.extension && { ...back.extension, data: [...back.extension.data] } }).toEqual({
          ...input,
          payload: [...input.payload],
          extension: input.extension && { ...input.extension, data: [...input.extension.data] },
        });
      }),
      RUNS,
    );
  });
});

/** Random packet streams: payloads that start with the interesting type bytes, small seq/ts steps. */
const first = [0x01, 0x05, 0x18, 0x1c, 0x19, 0x1d, 0x00, 0x7c, 0x26, 0x40, 0x60, 0x62, 0x64, 0x00, 0xff];
interface Step {
  seqStep: number;
  tsStep: number;
  marker: boolean;
  head: number[];
  body: Uint8Array;
}

const stream: fc.Arbitrary<Step[]> = fc.array(
  fc.record({
    seqStep: fc.oneof(fc.constant(1), fc.integer({ min: -3, max: 5 }), fc.integer({ min: 0, max: 0xffff })),
    tsStep: fc.oneof(fc.constant(0), fc.constant(3000), fc.integer({ min: 0, max: 0xffffffff })),
    marker: fc.boolean(),
    head: fc.array(fc.constantFrom(...first, 0x80, 0x40, 0xc0), { maxLength: 3 }),
    body: fc.uint8Array({ maxLength: 60 }),
  }),
  { maxLength: 60 },
);

function feed(d: Depacketiser, steps: Step[]): AccessUnit[] {
  const out: AccessUnit[] = [];
  let seq = 0;
  let ts = 0;
  for (const s of steps) {
    seq = (seq + s.seqStep) & 0xffff;
    ts = (ts + s.tsStep) >>> 0;
    const payload = Uint8Array.of(...s.head, ...s.body);
    const got = typedOnly(() => d.push({ marker: s.marker, payloadType: 96, sequenceNumber: seq, timestamp: ts, ssrc: 1, csrc: [], padding: 0, payload }));
    if (got) out.push(...got);
  }
  out.push(...d.flush());
  return out;
}

const LIMITS = { maxUnitBytes: 300, maxAccessUnitBytes: 600, maxNalus: 8 };

describe('readRtp (in place) against parseRtp', () => {
  it('throws the same RtpError codes and reads the same fields and payload, at any offset', () => {
    const view = newRtpView();
    fc.assert(
      fc.property(packetBytes, fc.nat({ max: 9 }), (b, offset) => {
        const framed = new Uint8Array(b.length + offset + 3).fill(0x24);
        framed.set(b, offset);
        let want: RtpPacket | string;
        let got: string | undefined;
        try {
          want = parseRtp(b);
        } catch (err) {
          want = (err as RtpError).code;
        }
        try {
          readRtp(framed, offset, offset + b.length, view);
        } catch (err) {
          if (!(err instanceof RtpError)) throw err;
          got = err.code;
        }
        if (typeof want === 'string') {
          expect(got).toBe(want);
          return;
        }
        expect(got).toBeUndefined();
        const { marker, payloadType, sequenceNumber, timestamp, ssrc } = view;
        expect({ marker, payloadType, sequenceNumber, timestamp, ssrc }).toEqual({
          marker: want.marker,
          payloadType: want.payloadType,
          sequenceNumber: want.sequenceNumber,
          timestamp: want.timestamp,
          ssrc: want.ssrc,
        });
        expect([...view.bytes.subarray(view.payloadStart, view.payloadEnd)]).toEqual([...want.payload]);
      }),
      RUNS,
    );
  });
});

describe('depacketiser fuzz', () => {
  const makers: [string, () => Depacketiser][] = [
    ['h264', () => new H264Depacketiser(LIMITS)],
    ['h265', () => new H265Depacketiser(LIMITS)],
    ['aac', () => new AacDepacketiser({ maxUnitBytes: 300 })],
    ['aac-lbr', () => new AacDepacketiser({ sizeLength: 6, indexLength: 2, indexDeltaLength: 2 })],
    ['g711', () => new G711Depacketiser()],
  ];
  for (const [name, make] of makers) {
    it(`${name}: only RtpError, and units within the limits`, () => {
      fc.assert(
        fc.property(stream, (steps) => {
          const d = make();
          for (const au of feed(d, steps)) {
            if (au.kind === 'video') {
              expect(au.nalus.length).toBeLessThanOrEqual(LIMITS.maxNalus);
              expect(au.nalus.reduce((s, n) => s + n.length, 0)).toBeLessThanOrEqual(LIMITS.maxAccessUnitBytes);
              for (const n of au.nalus) expect(n.length).toBeGreaterThan(0);
            } else {
              expect(au.data.length).toBeLessThanOrEqual(Math.max(300, 60 + 3));
            }
            expect(Number.isFinite(au.pts)).toBe(true);
          }
          // Internal buffers stay bounded between packets, whatever came in.
          const state = d as unknown as { fragmentBytes?: number; auBytes?: number };
          expect(state.fragmentBytes ?? 0).toBeLessThanOrEqual(300);
          expect(state.auBytes ?? 0).toBeLessThanOrEqual(LIMITS.maxAccessUnitBytes);
        }),
        RUNS,
      );
    });
  }
});

describe('reorder buffer fuzz', () => {
  it('never releases a sequence number twice in a row of the window, never holds more than its size', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: -5, max: 20 }), fc.integer({ min: 0, max: 0xffff })), { maxLength: 300 }), fc.integer({ min: 1, max: 64 }), (steps, size) => {
        const b = new ReorderBuffer({ size, maxDelayMs: 50 });
        let seq = 100;
        let pushed = 0;
        const released: number[] = [];
        steps.forEach((s, now) => {
          seq = (seq + s) & 0xffff;
          pushed++;
          for (const r of b.push({ marker: false, payloadType: 96, sequenceNumber: seq, timestamp: 0, ssrc: 1, csrc: [], padding: 0, payload: new Uint8Array(0) }, now * 10)) {
            released.push(r.packet.sequenceNumber);
            expect(r.lost).toBeGreaterThanOrEqual(0);
          }
          expect(pushed - released.length - b.stats.late - b.stats.duplicate).toBeLessThanOrEqual(size);
        });
        released.push(...b.flush().map((r) => r.packet.sequenceNumber));
        expect(released.length + b.stats.late + b.stats.duplicate).toBe(pushed);
        for (let i = 1; i < released.length; i++) expect(released[i]).not.toBe(released[i - 1]);
      }),
      RUNS,
    );
  });
});
