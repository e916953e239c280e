/**
 * The live fMP4 reader (stream-reader.ts) over ffmpeg's own output (fixtures/make.sh: fragments of
 * one picture each, as the pull source's ffmpeg writes them): tracks with their parameter sets,
 * every packet with the times and keyframe flags ffprobe reads from the same file, the same events
 * whatever the chunking, and random or corrupt input ends in BoxError, never in another exception.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { h264NalType, h265NalType, type AccessUnit } from '@opencvr/codec';
import { BoxError, Fmp4StreamReader, type StreamEvent } from '../src/index.js';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));

interface Packet {
  stream: number;
  pts: number;
  dts: number;
  key: boolean;
}
const timing = (name: string): Packet[] =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(','))
    .map(([s, pts, dts, flags]) => ({ stream: Number(s), pts: Number(pts), dts: Number(dts), key: flags.startsWith('K') }));

function readAll(bytes: Uint8Array, chunks: number[] = [bytes.length]): StreamEvent[] {
  const r = new Fmp4StreamReader();
  const out: StreamEvent[] = [];
  let p = 0;
  for (let i = 0; p < bytes.length; i++) {
    const n = chunks[i % chunks.length] || 1;
    out.push(...r.push(bytes.subarray(p, p + n)));
    p += n;
  }
  return out;
}

const units = (events: StreamEvent[]) => events.flatMap((e) => (e.type === 'unit' ? [{ index: e.index, unit: e.unit }] : []));
const rescale = (t: number, from: number, to: number) => Math.round((t * to) / from);

describe('Fmp4StreamReader', () => {
  it('reads H.264 + AAC (through FLV, as from RTMP): tracks, then each packet with ffprobe’s times', () => {
    const events = readAll(fixture('live-h264-aac.mp4'));
    const init = events[0];
    expect(init.type).toBe('init');
    if (init.type !== 'init') return;
    expect(init.skipped).toEqual([]);
    expect(init.tracks.map((t) => [t.trackId, t.timescale, t.lengthSize])).toEqual([
      [1, 16000, 4],
      [2, 48000, 0],
    ]);
    const [video, audio] = init.tracks.map((t) => t.track);
    expect(video).toMatchObject({ kind: 'video', codec: 'h264', width: 160, height: 120 });
    expect(video.kind === 'video' && h264NalType(video.sps)).toBe(7);
    expect(audio).toMatchObject({ kind: 'audio', codec: 'aac', sampleRate: 48000, channels: 1, clockRate: 48000, codecString: 'mp4a.40.2' });

    const got = units(events);
    const want = timing('live-h264-aac.timing.csv');
    expect(got.length).toBe(want.length);
    got.forEach(({ index, unit }, i) => {
      const w = want[i];
      expect(index).toBe(w.stream);
      if (unit.kind === 'video') {
        expect([unit.dts, unit.pts, unit.keyframe]).toEqual([rescale(w.dts, 16000, 90000), rescale(w.pts, 16000, 90000), w.key]);
        // NAL units without length prefixes: the first is a real NAL header (AUD, SEI, SPS or a slice).
        expect([1, 5, 6, 7, 8, 9]).toContain(h264NalType(unit.nalus[0]));
      } else {
        expect(unit.pts).toBe(w.dts);
        expect(unit.data.length).toBeGreaterThan(0);
      }
    });
    expect(got[0].unit.kind === 'video' && got[0].unit.keyframe).toBe(true);
  });

  it('reads H.265 with its VPS, SPS and PPS', () => {
    const events = readAll(fixture('live-h265.mp4'));
    const init = events[0];
    if (init.type !== 'init') throw new Error('no init');
    const video = init.tracks[0].track;
    expect(video).toMatchObject({ kind: 'video', codec: 'h265', width: 160, height: 120 });
    expect(video.kind === 'video' && video.vps && h265NalType(video.vps)).toBe(32);
    const got = units(events);
    const want = timing('live-h265.timing.csv');
    expect(got.map((u) => u.unit as AccessUnit & { kind: 'video' }).map((u) => [u.dts, u.pts, u.keyframe])).toEqual(
      want.map((w) => [w.dts, w.pts, w.key]),
    );
  });

  it('gives the same events whatever the chunking', () => {
    const bytes = fixture('live-h264-aac.mp4');
    const whole = readAll(bytes);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 20 }), (chunks) => {
        expect(readAll(bytes, chunks)).toEqual(whole);
      }),
      { numRuns: 20 },
    );
  });

  it('random bytes, or the fixture with bytes changed, end in BoxError or in events, never another error', () => {
    const bytes = fixture('live-h264-aac.mp4');
    const check = (input: Uint8Array) => {
      try {
        readAll(input, [977]);
      } catch (err) {
        expect(err).toBeInstanceOf(BoxError);
      }
    };
    fc.assert(fc.property(fc.uint8Array({ maxLength: 4096 }), (b) => check(b)), { numRuns: 300 });
    fc.assert(
      fc.property(fc.array(fc.record({ at: fc.nat(bytes.length - 1), value: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 8 }), (edits) => {
        const b = bytes.slice();
        for (const e of edits) b[e.at] = e.value;
        check(b);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a box larger than its limit instead of buffering it', () => {
    const r = new Fmp4StreamReader({ maxBoxBytes: 1000 });
    const big = new Uint8Array(16);
    new DataView(big.buffer).setUint32(0, 5000);
    big.set([0x6d, 0x64, 0x61, 0x74], 4);
    expect(() => r.push(big)).toThrow(BoxError);
  });

  it('refuses a moof before any moov, and text that is not MP4', () => {
    const moofOnly = fixture('live-h264-aac.mp4');
    const r = new Fmp4StreamReader();
    const moofAt = moofOnly.findIndex((_, i) => String.fromCharCode(...moofOnly.subarray(i, i + 4)) === 'moof') - 4;
    expect(() => r.push(moofOnly.subarray(moofAt))).toThrow(/moof before moov/);
    expect(() => new Fmp4StreamReader().push(new TextEncoder().encode('<html><body>404 Not Found</body></html>'))).toThrow(BoxError);
  });
});
