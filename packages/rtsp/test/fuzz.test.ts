/**
 * Properties over random input: the parser throws nothing but RtspError, always finishes, and does not
 * depend on how the bytes are split; the SDP and WWW-Authenticate readers never throw.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  authorization,
  parseSdp,
  parseWwwAuthenticate,
  RtspError,
  RtspParser,
  sdpCodecs,
  serialize,
  request,
  utf8,
  type RtspEvent,
} from '../src/index.js';
import { gstPlayInterleaved, MESSAGES } from './fixtures.js';

type Outcome = { events: RtspEvent[]; error?: string };

function run(bytes: Uint8Array, cuts: number[]): Outcome {
  const p = new RtspParser({ maxHeaderBytes: 4096, maxBodyBytes: 65536 });
  const events: RtspEvent[] = [];
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  try {
    for (const at of [...points, bytes.length]) {
      events.push(...p.push(bytes.subarray(from, at)));
      from = at;
    }
  } catch (err) {
    if (!(err instanceof RtspError)) throw err;
    return { events, error: err.code };
  }
  return { events };
}

/** Real messages to seed mutations from. */
const seeds = [...MESSAGES.map((m) => utf8(m.text)), gstPlayInterleaved()];

const mutated = fc
  .tuple(fc.constantFrom(...seeds), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), fc.nat())
  .map(([seed, flips, cut]) => {
    const b = seed.slice(0, Math.max(1, seed.length - (cut % 16)));
    for (const [i, v] of flips) b[i % b.length] = v;
    return b;
  });

describe('RTSP parser fuzzing', () => {
  it('random bytes: only RtspError, and the same result however the bytes are cut', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), fc.array(fc.nat(), { maxLength: 6 }), (bytes, cuts) => {
        const whole = run(bytes, []);
        const pieces = run(bytes, cuts);
        if (!whole.error && !pieces.error) expect(pieces.events).toEqual(whole.events);
      }),
      { numRuns: 2000 },
    );
  });

  it('RTSP-shaped noise: only RtspError', () => {
    const line = fc.oneof(
      fc.constantFrom('RTSP/1.0 200 OK', 'OPTIONS * RTSP/1.0', 'CSeq: 1', 'Content-Length: 5', 'Content-Length: x', '$', ' folded', ''),
      fc.string({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), fc.constantFrom('\r\n', '\n'), fc.array(fc.nat(), { maxLength: 4 }), (lines, eol, cuts) => {
        run(utf8(lines.join(eol)), cuts);
      }),
      { numRuns: 2000 },
    );
  });

  it('mutated real messages: only RtspError', () => {
    fc.assert(fc.property(mutated, fc.array(fc.nat(), { maxLength: 4 }), (bytes, cuts) => void run(bytes, cuts)), { numRuns: 2000 });
  });

  it('serialize then parse is the identity for generated requests', () => {
    const token = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,15}$/);
    const value = fc.string({ maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, '').trim());
    fc.assert(
      fc.property(token, fc.webUrl(), fc.array(fc.tuple(token, value), { maxLength: 8 }), fc.uint8Array({ maxLength: 300 }), (method, uri, headers, body) => {
        const clean = headers.filter(([k]) => k.toLowerCase() !== 'content-length');
        const req = request({ method, uri: uri.replace(/\s/g, ''), cseq: 1, headers: clean, body });
        const wire = serialize(req);
        const out = run(wire, []);
        expect(out.error).toBeUndefined();
        expect(out.events).toHaveLength(1);
        const [got] = out.events;
        expect(got).toMatchObject({ kind: 'request', method, uri: req.uri });
        expect(Buffer.from((got as { body: Uint8Array }).body)).toEqual(Buffer.from(body));
      }),
      { numRuns: 500 },
    );
  });

  it('SDP and WWW-Authenticate readers never throw', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 500 }), (s) => {
        sdpCodecs(parseSdp(s));
        for (const c of parseWwwAuthenticate(s)) authorization(c, { username: 'u', password: 'p', method: 'DESCRIBE', uri: '*' });
      }),
      { numRuns: 3000 },
    );
  });
});
