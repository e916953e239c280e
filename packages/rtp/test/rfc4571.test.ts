/** RFC 4571 framing: packets come back whole and in order from any split of the byte stream. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameRfc4571, parseRtp, Rfc4571Reader, RtpError, serializeRtp } from '../src/index.js';

describe('RFC 4571 reader', () => {
  it('reads a packet split over reads and two packets in one read; skips empty and short frames', () => {
    const a = serializeRtp({
      marker: true,
      payloadType: 96,
      sequenceNumber: 1,
      timestamp: 3600,
      ssrc: 0x1234,
      csrc: [],
      padding: 0,
      payload: Uint8Array.of(1, 2, 3),
    });
    const b = serializeRtp({
      marker: false,
      payloadType: 96,
      sequenceNumber: 2,
      timestamp: 3600,
      ssrc: 0x1234,
      csrc: [],
      padding: 0,
      payload: Uint8Array.of(4),
    });
    const stream = Buffer.concat([frameRfc4571(a), Uint8Array.of(0, 0), Uint8Array.of(0, 3, 9, 9, 9), frameRfc4571(b)]);
    const r = new Rfc4571Reader();
    expect(r.push(stream.subarray(0, 1))).toEqual([]);
    expect(r.push(stream.subarray(1, 10))).toEqual([]);
    expect(r.pending).toBe(10);
    const out = r.push(stream.subarray(10));
    expect(out.map((p) => parseRtp(p).sequenceNumber)).toEqual([1, 2]);
    expect(r.stats).toMatchObject({ packets: 2, empty: 1, short: 1 });
  });

  it('refuses to frame a packet longer than 65535 bytes', () => {
    expect(() => frameRfc4571(new Uint8Array(70000))).toThrow(RtpError);
  });

  it('property: any packets, any split of the stream → the same packets; random bytes never throw', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 12, maxLength: 3000 }), { maxLength: 20 }),
        fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 10 }),
        (packets, sizes) => {
          const stream = Buffer.concat(packets.map(frameRfc4571));
          const r = new Rfc4571Reader();
          const got: Uint8Array[] = [];
          for (let at = 0, i = 0; at < stream.length; i++) {
            const n = sizes[i % sizes.length];
            got.push(...r.push(stream.subarray(at, at + n)).map((p) => Uint8Array.from(p)));
            at += n;
          }
          expect(got).toEqual(packets);
          expect(r.pending).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 2000 }), { maxLength: 10 }), (reads) => {
        const r = new Rfc4571Reader();
        for (const b of reads) for (const p of r.push(b)) expect(p.length).toBeGreaterThanOrEqual(12);
        expect(r.pending).toBeLessThan(0x10000 + 2000 * 10);
      }),
    );
  });
});
