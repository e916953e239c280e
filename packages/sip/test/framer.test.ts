import { describe, expect, it } from 'vitest';
import { parseSip, SipError, StreamFramer } from '../src/index.js';
import { FIXTURES } from './fixtures.js';

function concat(parts: Uint8Array[]) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
const crlf = new TextEncoder().encode('\r\n\r\n');

describe('StreamFramer', () => {
  const stream = concat(FIXTURES.flatMap((f) => [crlf, f.bytes]));

  it('cuts every fixture out of one stream with keep-alives between, whatever the chunking', () => {
    for (const size of [1, 2, 7, 64, 1000, stream.length]) {
      const framer = new StreamFramer();
      const got: Uint8Array[] = [];
      for (let i = 0; i < stream.length; i += size) got.push(...framer.push(stream.subarray(i, i + size)));
      expect(got.map((g) => parseSip(g))).toEqual(FIXTURES.map((f) => parseSip(f.bytes)));
      expect(framer.pending).toBe(0);
    }
  });

  it('counts double-CRLF pings', () => {
    const framer = new StreamFramer();
    framer.push(crlf);
    expect(framer.takePings()).toBe(1);
    expect(framer.takePings()).toBe(0);
  });

  it('throws on an oversized header section or body, and on an unreadable Content-Length', () => {
    expect(() => new StreamFramer({ maxHeaderBytes: 100 }).push(new Uint8Array(200).fill(65))).toThrow(SipError);
    const big = new TextEncoder().encode('MESSAGE sip:a@b SIP/2.0\r\nContent-Length: 5000000\r\n\r\n');
    expect(() => new StreamFramer().push(big)).toThrow(/over/);
    const bad = new TextEncoder().encode('MESSAGE sip:a@b SIP/2.0\r\nContent-Length: x\r\n\r\n');
    expect(() => new StreamFramer().push(bad)).toThrow(/Content-Length/);
  });
});
