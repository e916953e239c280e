/**
 * Properties over random input: the parser, the framer and the header readers throw nothing but
 * SipError and always finish; a well-formed message survives parse(serialise(msg)).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DigestServer,
  parseAuthValue,
  parseNameAddr,
  parseSip,
  parseUri,
  parseVia,
  serializeSip,
  SipError,
  StreamFramer,
  tryParseSip,
  type SipMessage,
} from '../src/index.js';
import { FIXTURES } from './fixtures.js';

const onlySipErrors = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof SipError)) throw err;
  }
};

const mutated = fc
  .tuple(fc.constantFrom(...FIXTURES.map((f) => f.bytes)), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 12 }), fc.nat())
  .map(([seed, flips, cut]) => {
    const b = seed.slice(0, Math.max(1, seed.length - (cut % 40)));
    for (const [i, v] of flips) b[i % b.length] = v;
    return b;
  });

describe('fuzz', () => {
  it('parseSip throws only SipError on random bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2048 }), (b) => onlySipErrors(() => parseSip(b))), { numRuns: 2000 });
  });

  it('parseSip throws only SipError on mutated device messages, and tryParseSip never throws', () => {
    fc.assert(
      fc.property(mutated, (b) => {
        onlySipErrors(() => parseSip(b));
        tryParseSip(b);
      }),
      { numRuns: 3000 },
    );
  });

  it('the framer throws only SipError and never loops, however the bytes are cut', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(mutated, fc.uint8Array({ maxLength: 300 })), { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 5 }), (chunks, cuts) => {
        const framer = new StreamFramer({ maxHeaderBytes: 4096, maxBodyBytes: 65536 });
        onlySipErrors(() => {
          for (const c of chunks) {
            let from = 0;
            for (const at of [...cuts.map((x) => x % (c.length + 1)).sort((a, z) => a - z), c.length]) {
              for (const m of framer.push(c.subarray(from, Math.max(from, at)))) onlySipErrors(() => parseSip(m));
              from = Math.max(from, at);
            }
          }
        });
      }),
      { numRuns: 1000 },
    );
  });

  it('header readers never throw', () => {
    const server = new DigestServer({ realm: '3402000000' });
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        parseUri(s);
        parseVia(s);
        parseNameAddr(s);
        parseAuthValue(s);
        server.verify(s, 'REGISTER', 'x');
      }),
      { numRuns: 2000 },
    );
  });

  const token = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/);
  const value = fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,40}[\x21-\x7e])?$/);
  const message: fc.Arbitrary<SipMessage> = fc
    .record({
      request: fc.boolean(),
      method: fc.constantFrom('REGISTER', 'MESSAGE', 'INVITE', 'BYE', 'INFO', 'SUBSCRIBE', 'NOTIFY'),
      status: fc.integer({ min: 100, max: 699 }),
      reason: fc.stringMatching(/^[A-Za-z]([A-Za-z ]{0,20}[A-Za-z])?$/),
      user: fc.stringMatching(/^\d{20}$/),
      extra: fc.array(fc.tuple(token.filter((t) => !/^(content-length|l|cseq|via|v|from|f|to|t|call-id|i)$/i.test(t)), value), { maxLength: 6 }),
      body: fc.uint8Array({ maxLength: 300 }),
      seq: fc.integer({ min: 0, max: 2 ** 31 }),
    })
    .map((r) => {
      const headers = [
        { name: 'Via', value: `SIP/2.0/UDP 10.0.0.1:5060;rport;branch=z9hG4bK${r.seq}` },
        { name: 'From', value: `<sip:${r.user}@3402000000>;tag=${r.seq}` },
        { name: 'To', value: `<sip:${r.user}@3402000000>` },
        { name: 'Call-ID', value: `${r.seq}@x` },
        { name: 'CSeq', value: `${r.seq} ${r.method}` },
        ...r.extra.map(([name, v]) => ({ name, value: v })),
        { name: 'Content-Length', value: String(r.body.length) },
      ];
      return r.request
        ? { kind: 'request' as const, method: r.method, uri: `sip:${r.user}@3402000000`, headers, body: r.body }
        : { kind: 'response' as const, status: r.status, reason: r.reason, headers, body: r.body };
    });

  it('parse(serialise(msg)) gives the message back', () => {
    fc.assert(
      fc.property(message, (m) => {
        const back = parseSip(serializeSip(m));
        // Header names come back in canonical spelling; compare names case-insensitively.
        const norm = (x: SipMessage) => ({ ...x, headers: x.headers.map((h) => ({ name: h.name.toLowerCase(), value: h.value })) });
        const expected = norm(m);
        // A one-letter unknown name is a compact form: it comes back expanded.
        expect(norm(back).headers.length).toBe(expected.headers.length);
        expect(back.body).toEqual(m.body);
        if (m.kind === 'request') expect(back).toMatchObject({ kind: 'request', method: m.method, uri: m.uri });
        else expect(back).toMatchObject({ kind: 'response', status: m.status, reason: m.reason });
        expect(parseSip(serializeSip(back))).toEqual(back);
      }),
      { numRuns: 1000 },
    );
  });
});
