/**
 * feed(): the ingest path that hands interleaved frames over as views of the bytes they came in.
 * The chunk is the socket's reused read buffer, so every test overwrites it after each call: what the
 * parser kept must be its own copy, and what it delivered must equal what push() (copies) gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RtspError, RtspParser, serializeInterleaved, utf8, type RtspEvent } from '../src/index.js';
import { gstPlayInterleaved, MESSAGES } from './fixtures.js';

type Outcome = { events: RtspEvent[]; error?: string; buffered: number };

/** Events as short strings (deep equality over many typed arrays is slow under fast-check). */
const digest = (events: RtspEvent[]) =>
  events.map((e) => (e.kind === 'interleaved' ? `$${e.channel}:${Buffer.from(e.data).toString('hex')}` : `${JSON.stringify({ ...e, body: undefined })}:${Buffer.from(e.body).toString('hex')}`));

/** Feeds `bytes` cut at `cuts`, each piece through one scratch buffer that is wiped after the call. */
function feedReused(bytes: Uint8Array, cuts: number[]): Outcome {
  const p = new RtspParser({ maxHeaderBytes: 4096, maxBodyBytes: 65536 });
  const scratch = new Uint8Array(bytes.length + 1);
  const events: RtspEvent[] = [];
  const handler = {
    interleaved: (channel: number, data: Uint8Array, start: number, end: number) =>
      events.push({ kind: 'interleaved' as const, channel, data: data.slice(start, end) }),
    message: (msg: RtspEvent) => events.push(msg),
  };
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  try {
    for (const at of [...points, bytes.length]) {
      scratch.set(bytes.subarray(from, at));
      p.feed(scratch.subarray(0, at - from), handler);
      scratch.fill(0xee);
      from = at;
    }
  } catch (err) {
    if (!(err instanceof RtspError)) throw err;
    return { events, error: err.code, buffered: p.buffered };
  }
  return { events, buffered: p.buffered };
}

function pushWhole(bytes: Uint8Array): Outcome {
  const p = new RtspParser({ maxHeaderBytes: 4096, maxBodyBytes: 65536 });
  try {
    return { events: p.push(bytes), buffered: p.buffered };
  } catch (err) {
    if (!(err instanceof RtspError)) throw err;
    return { events: [], error: err.code, buffered: 0 };
  }
}

/** A response, then RTP frames of every size class, then another response with a body, then frames. */
function session(): Uint8Array {
  const parts: Uint8Array[] = [utf8(MESSAGES[0].text)];
  for (const size of [0, 1, 3, 12, 1400, 1500, 4000]) {
    const payload = Uint8Array.from({ length: size }, (_, i) => (i * 7 + size) & 0xff);
    parts.push(serializeInterleaved(size % 4, payload));
  }
  parts.push(utf8('\r\n'), utf8('RTSP/1.0 200 OK\r\nCSeq: 9\r\nContent-Length: 5\r\n\r\nhello'));
  parts.push(serializeInterleaved(0, Uint8Array.of(0x80, 0x60, 1, 2)), gstPlayInterleaved());
  const out = new Uint8Array(parts.reduce((n, x) => n + x.length, 0));
  let at = 0;
  for (const x of parts) {
    out.set(x, at);
    at += x.length;
  }
  return out;
}

describe('RtspParser.feed over a reused read buffer', () => {
  it('delivers what push() gives, for every way of cutting a real session into reads', () => {
    const bytes = session();
    const whole = pushWhole(bytes);
    expect(whole.error).toBeUndefined();
    expect(whole.events.filter((e) => e.kind === 'interleaved').length).toBeGreaterThan(8);
    for (const step of [1, 2, 3, 5, 7, 64, 1399, 1400, 1404, 4096]) {
      const cuts = Array.from({ length: Math.ceil(bytes.length / step) }, (_, i) => i * step);
      const got = feedReused(bytes, cuts);
      expect(got.error).toBeUndefined();
      expect(digest(got.events)).toEqual(digest(whole.events));
      expect(got.buffered).toBe(0);
    }
  });

  it('hands a frame inside a chunk over in place, as offsets into that chunk (no copy)', () => {
    const chunk = serializeInterleaved(2, Uint8Array.of(9, 8, 7));
    const seen: [number, Uint8Array, number, number][] = [];
    new RtspParser().feed(chunk, { interleaved: (c, b, s, e) => seen.push([c, b, s, e]), message: () => undefined });
    expect(seen).toEqual([[2, chunk, 4, 7]]);
    expect(seen[0][1]).toBe(chunk);
  });

  it('reads only the first `length` bytes of the chunk', () => {
    const frame = serializeInterleaved(0, Uint8Array.of(1, 2, 3));
    const chunk = new Uint8Array(64).fill(0x24);
    chunk.set(frame);
    const seen: number[][] = [];
    const p = new RtspParser();
    p.feed(chunk, { interleaved: (_c, b, s, e) => seen.push([...b.subarray(s, e)]), message: () => undefined }, frame.length);
    expect(seen).toEqual([[1, 2, 3]]);
    expect(p.buffered).toBe(0);
  });

  it('random cuts of random and real bytes: the same events as one push, only RtspError', () => {
    const input = fc.oneof(fc.uint8Array({ maxLength: 3000 }), fc.constant(session()), fc.constant(gstPlayInterleaved()));
    fc.assert(
      fc.property(input, fc.array(fc.nat(), { maxLength: 12 }), (bytes, cuts) => {
        const whole = pushWhole(bytes);
        const pieces = feedReused(bytes, cuts);
        if (!whole.error && !pieces.error) {
          expect(digest(pieces.events)).toEqual(digest(whole.events));
          expect(pieces.buffered).toBe(whole.buffered);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps failing after an error', () => {
    const p = new RtspParser();
    const h = { interleaved: () => undefined, message: () => undefined };
    expect(() => p.feed(utf8('HELLO\r\n\r\n'), h)).toThrow(RtspError);
    expect(() => p.feed(serializeInterleaved(0, Uint8Array.of(1)), h)).toThrow(RtspError);
  });
});
