/**
 * Properties over random bytes: the parsers throw nothing but CodecError, the splitters never throw,
 * and Annex-B split/join and emulation prevention round-trip. Seeds include the real parameter sets.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addEmulationPrevention,
  buildAvcC,
  buildHvcC,
  CodecError,
  h264NalType,
  h265NalType,
  joinAnnexB,
  parseAdtsHeader,
  parseAudioSpecificConfig,
  parseH264Sps,
  parseH265Sps,
  parseH265Vps,
  removeEmulationPrevention,
  splitAdts,
  splitAnnexB,
} from '../src/index.js';
import { b64, fixture, SDP_SPS } from './fixtures.js';

const typedOnly = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    if (!(err instanceof CodecError)) throw err;
  }
};

const h264Sps = [...SDP_SPS.map((s) => b64(s.sps)), ...['h264-high-320x180.h264', 'h264-high422-10bit-200x120.h264'].map((n) => splitAnnexB(fixture(n)).find((x) => h264NalType(x) === 7)!)];
const h265Nalus = splitAnnexB(fixture('h265-main-320x180.h265')).filter((n) => [32, 33].includes(h265NalType(n)));

/** Real units with random bytes changed, cut or appended. */
const mutated = (seeds: Uint8Array[]) =>
  fc.tuple(fc.constantFrom(...seeds), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }), fc.nat(), fc.uint8Array({ maxLength: 8 })).map(([seed, edits, cut, tail]) => {
    const b = Uint8Array.from(seed);
    for (const [at, v] of edits) if (at % b.length > 0) b[at % b.length] = v;
    const kept = b.subarray(0, 1 + (cut % b.length));
    const out = new Uint8Array(kept.length + tail.length);
    out.set(kept);
    out.set(tail, kept.length);
    return out;
  });

const RUNS = { numRuns: 2000 };

describe('codec fuzz', () => {
  it('H.264 SPS parser and avcC builder: only CodecError, on random and mutated SPS', () => {
    const randomSps = fc.uint8Array({ maxLength: 64 }).map((b) => Uint8Array.of(0x67, ...b));
    fc.assert(
      fc.property(fc.oneof(randomSps, mutated(h264Sps)), (sps) => {
        typedOnly(() => parseH264Sps(sps));
        typedOnly(() => buildAvcC([sps], [Uint8Array.of(0x68, 0xce)]));
      }),
      RUNS,
    );
  });

  it('H.265 SPS/VPS parsers and hvcC builder: only CodecError', () => {
    const random = fc.uint8Array({ maxLength: 64 }).chain((b) => fc.constantFrom(Uint8Array.of(0x42, 0x01, ...b), Uint8Array.of(0x40, 0x01, ...b)));
    fc.assert(
      fc.property(fc.oneof(random, mutated(h265Nalus)), (nal) => {
        typedOnly(() => parseH265Sps(nal));
        typedOnly(() => parseH265Vps(nal));
        typedOnly(() => buildHvcC({ vps: [nal], sps: [nal], pps: [nal] }));
      }),
      RUNS,
    );
  });

  it('AAC config and ADTS: only CodecError; splitAdts never throws and accounts for every byte', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        typedOnly(() => parseAudioSpecificConfig(b));
        typedOnly(() => parseAdtsHeader(b));
        const { frames, rest } = splitAdts(b);
        for (const f of frames) expect(f.data.length).toBe(f.header.frameLength - f.header.headerLength);
        expect(rest.length).toBeLessThanOrEqual(b.length);
      }),
      RUNS,
    );
  });

  it('splitAnnexB never throws on random bytes and returns non-empty views', () => {
    const withStartCodes = fc.array(fc.oneof(fc.uint8Array({ maxLength: 20 }), fc.constant(Uint8Array.of(0, 0, 1)), fc.constant(Uint8Array.of(0, 0, 0, 1))), { maxLength: 20 });
    fc.assert(
      fc.property(withStartCodes, (parts) => {
        const data = Uint8Array.from(parts.flatMap((p) => [...p]));
        for (const n of splitAnnexB(data)) {
          expect(n.length).toBeGreaterThan(0);
          expect(n[n.length - 1]).not.toBe(0);
        }
      }),
      RUNS,
    );
  });

  it('split(join(units)) gives back the units when they are valid EBSP (emulation prevention applied, no trailing zero)', () => {
    const unit = fc.uint8Array({ minLength: 1, maxLength: 40 }).map((rbsp) => addEmulationPrevention(Uint8Array.of(...rbsp, 0x80)));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), (units) => {
        const back = splitAnnexB(joinAnnexB(units));
        expect(back.map((b) => [...b])).toEqual(units.map((u) => [...u]));
      }),
      RUNS,
    );
  });

  it('removeEmulationPrevention(addEmulationPrevention(x)) = x', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (rbsp) => {
        const ebsp = addEmulationPrevention(rbsp);
        for (let i = 2; i < ebsp.length; i++) {
          if (ebsp[i - 2] === 0 && ebsp[i - 1] === 0) expect(ebsp[i]).toBeGreaterThan(2);
        }
        expect([...removeEmulationPrevention(ebsp)]).toEqual([...rbsp]);
      }),
      RUNS,
    );
  });
});
