import { describe, expect, it } from 'vitest';
import {
  bodyText,
  getHeader,
  getHeaders,
  parseSdp,
  request,
  RtspError,
  RtspParser,
  sdpCodecs,
  serialize,
  serializeInterleaved,
  utf8,
  fromUtf8,
  type RtspEvent,
  type RtspMessage,
} from '../src/index.js';
import { gstPlayInterleaved, MESSAGES } from './fixtures.js';

const parseAll = (bytes: Uint8Array, chunk = bytes.length || 1): RtspEvent[] => {
  const p = new RtspParser();
  const out: RtspEvent[] = [];
  for (let i = 0; i < bytes.length; i += chunk) out.push(...p.push(bytes.subarray(i, i + chunk)));
  expect(p.buffered).toBe(0);
  return out;
};

describe('RTSP messages: round trip of real exchanges', () => {
  for (const c of MESSAGES) {
    it(`${c.name} (${c.source})`, () => {
      const bytes = utf8(c.text);
      const [msg, ...rest] = parseAll(bytes) as RtspMessage[];
      expect(rest).toEqual([]);
      expect(msg.kind).toBe(c.text.startsWith('RTSP/') ? 'response' : 'request');
      const again = serialize(msg);
      if (c.exact) expect(fromUtf8(again)).toBe(c.text);
      // Always: what we write parses back to the same message.
      expect(parseAll(again)).toEqual([msg]);
      // Byte by byte gives the same as all at once.
      expect(parseAll(bytes, 1)).toEqual([msg]);
    });
  }

  it('reads status, reason, headers case-insensitively and the body', () => {
    const describe = MESSAGES.find((m) => m.name === 'GStreamer DESCRIBE response')!;
    const [msg] = parseAll(utf8(describe.text));
    if (msg.kind !== 'response') throw new Error('expected a response');
    expect(msg.status).toBe(200);
    expect(msg.reason).toBe('OK');
    expect(getHeader(msg, 'content-base')).toBe('rtsp://127.0.0.1:18554/cam/');
    expect(getHeader(msg, 'CSEQ')).toBe('2');
    expect(msg.body.length).toBe(524);
    expect(sdpCodecs(parseSdp(bodyText(msg)))).toEqual(['H264']);
  });

  it('unfolds continuation lines (RFC 2326 10.4)', () => {
    const c = MESSAGES.find((m) => m.name.includes('folded'))!;
    const [msg] = parseAll(utf8(c.text));
    expect(getHeader(msg as RtspMessage, 'Transport')).toBe('RTP/AVP;unicast; client_port=4588-4589;server_port=6256-6257');
  });

  it('keeps repeated headers (two WWW-Authenticate)', () => {
    const c = MESSAGES.find((m) => m.name.startsWith('Hikvision 401'))!;
    const [msg] = parseAll(utf8(c.text));
    expect(getHeaders(msg as RtspMessage, 'www-authenticate')).toHaveLength(2);
  });

  it('returns interleaved frames apart from messages (GStreamer PLAY over TCP)', () => {
    const bytes = gstPlayInterleaved();
    for (const chunk of [bytes.length, 1, 7, 100]) {
      const events = parseAll(bytes, chunk);
      expect(events.map((e) => e.kind)).toEqual(['response', 'interleaved', 'interleaved', 'interleaved', 'interleaved']);
      const frames = events.filter((e) => e.kind === 'interleaved');
      expect(frames.every((f) => f.channel === 0)).toBe(true);
      // RTP version 2 in every frame, payload type 96.
      expect(frames.every((f) => f.data[0] >> 6 === 2 && (f.data[1] & 0x7f) === 96)).toBe(true);
      expect(frames.map((f) => f.data.length)).toEqual([14, 39, 16, 699]);
    }
  });

  it('serialises interleaved frames back to the same bytes', () => {
    const bytes = gstPlayInterleaved();
    const events = parseAll(bytes);
    const out = events.map((e) => (e.kind === 'interleaved' ? serializeInterleaved(e.channel, e.data) : serialize(e)));
    expect(Buffer.concat(out)).toEqual(Buffer.from(bytes));
  });

  it('tolerates blank lines between messages and LF-only line ends', () => {
    const events = parseAll(utf8('\r\n\r\nRTSP/1.0 200 OK\nCSeq: 5\n\n\r\nRTSP/1.0 404 Not Found\r\nCSeq: 6\r\n\r\n'));
    expect(events.map((e) => (e.kind === 'response' ? e.status : 0))).toEqual([200, 404]);
  });

  it('builds requests with CSeq first and Content-Length for a body', () => {
    const req = request({ method: 'SET_PARAMETER', uri: 'rtsp://h/cam', cseq: 7, headers: { 'Content-Type': 'text/parameters' }, body: 'a: 1\r\n' });
    expect(fromUtf8(serialize(req))).toBe(
      'SET_PARAMETER rtsp://h/cam RTSP/1.0\r\nCSeq: 7\r\nContent-Type: text/parameters\r\nContent-Length: 6\r\n\r\na: 1\r\n',
    );
  });

  it('refuses to serialise header injection', () => {
    const req = request({ method: 'OPTIONS', uri: 'rtsp://h/', cseq: 1, headers: { 'User-Agent': 'x\r\nEvil: 1' } });
    expect(() => serialize(req)).toThrow(RtspError);
    expect(() => serialize(request({ method: 'BAD METHOD', uri: 'rtsp://h/' }))).toThrow(RtspError);
    expect(() => serialize(request({ method: 'OPTIONS', uri: 'rtsp://h/ x' }))).toThrow(RtspError);
  });

  const bad: [string, string, string][] = [
    ['a start line that is neither', 'HELLO\r\n\r\n', 'bad-start-line'],
    ['HTTP instead of RTSP', 'HTTP/1.1 200 OK\r\n\r\n', 'bad-start-line'],
    ['a header without a colon', 'RTSP/1.0 200 OK\r\nCSeq 1\r\n\r\n', 'bad-header'],
    ['a negative Content-Length', 'RTSP/1.0 200 OK\r\nContent-Length: -1\r\n\r\n', 'bad-content-length'],
    ['a huge Content-Length', 'RTSP/1.0 200 OK\r\nContent-Length: 99999999999\r\n\r\n', 'bad-content-length'],
    ['a body over the limit', 'RTSP/1.0 200 OK\r\nContent-Length: 5000000\r\n\r\n', 'body-too-large'],
  ];
  for (const [name, text, code] of bad) {
    it(`throws RtspError(${code}) on ${name}, and keeps failing after`, () => {
      const p = new RtspParser();
      let err: unknown;
      try {
        p.push(utf8(text));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(RtspError);
      expect((err as RtspError).code).toBe(code);
      expect(() => p.push(utf8('RTSP/1.0 200 OK\r\n\r\n'))).toThrow(RtspError);
    });
  }

  it('bounds the header block', () => {
    const p = new RtspParser({ maxHeaderBytes: 1024 });
    expect(() => p.push(utf8(`RTSP/1.0 200 OK\r\nX: ${'a'.repeat(2000)}`))).toThrow(/header block over 1024/);
  });
});
