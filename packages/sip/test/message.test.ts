import { describe, expect, it } from 'vitest';
import {
  header,
  headerAll,
  parseCSeq,
  parseNameAddr,
  parseSip,
  parseUri,
  parseVia,
  responseTo,
  serializeSip,
  SipError,
  tagOf,
  tryParseSip,
  userOf,
  type SipRequest,
} from '../src/index.js';
import { FIXTURES, fixture } from './fixtures.js';

const enc = new TextEncoder();
const text = (s: string) => enc.encode(s.replace(/\n/g, '\r\n'));

describe('parseSip on real device messages', () => {
  it.each(FIXTURES.map((f) => [f.name, f.bytes] as const))('%s parses and re-serialises to the same message', (_name, bytes) => {
    const msg = parseSip(bytes);
    const again = parseSip(serializeSip(msg));
    expect(again).toEqual(msg);
  });

  it('reads a Hikvision REGISTER', () => {
    const msg = parseSip(fixture('hikvision-ipc-register.sip')) as SipRequest;
    expect(msg.kind).toBe('request');
    expect(msg.method).toBe('REGISTER');
    expect(msg.uri).toBe('sip:34020000002000000001@3402000000');
    expect(userOf(header(msg, 'From'))).toBe('34020000001320000001');
    expect(tagOf(header(msg, 'From'))).toBe('1840661473');
    expect(header(msg, 'Expires')).toBe('3600');
    expect(parseVia(header(msg, 'Via')!)).toEqual({ transport: 'UDP', host: '192.168.1.64', port: 5060, params: { rport: null, branch: 'z9hG4bK385701375' } });
    // Byte-exact: the camera's own text comes back unchanged.
    expect(serializeSip(msg)).toEqual(fixture('hikvision-ipc-register.sip'));
  });

  it('keeps a GB2312 body byte for byte', () => {
    const bytes = fixture('hikvision-catalog-gb2312.sip');
    const msg = parseSip(bytes);
    const decoded = new TextDecoder('gb18030').decode(msg.body);
    expect(decoded).toContain('<Name>大门口 摄像机01</Name>');
    expect(Number(header(msg, 'Content-Length'))).toBe(msg.body.length);
    expect(bytes.subarray(bytes.length - msg.body.length)).toEqual(msg.body);
  });

  it('reads a response with an SDP body and a padded Content-Length', () => {
    const msg = parseSip(fixture('hikvision-invite-200-sdp.sip'));
    expect(msg.kind === 'response' && msg.status).toBe(200);
    expect(new TextDecoder().decode(msg.body)).toContain('y=0009093131');
    expect(parseCSeq(header(msg, 'CSeq')!)).toEqual({ seq: 101, method: 'INVITE' });
  });

  it('splits list headers and reads the Allow line of EasySIP', () => {
    const msg = parseSip(fixture('easysip-register.sip'));
    expect(headerAll(msg, 'Allow')).toHaveLength(10);
  });
});

describe('parseSip edge cases', () => {
  it('expands compact forms, unfolds continuation lines, tolerates bare LF and leading CRLF', () => {
    const raw = new TextEncoder().encode(
      '\r\n\r\nMESSAGE sip:a@b SIP/2.0\nv: SIP/2.0/TCP 10.0.0.1:5060;branch=z9hG4bK1, SIP/2.0/UDP 10.0.0.2;branch=z9hG4bK2\nf: <sip:x@y>;tag=1\nt: <sip:a@b>\ni: abc\nCSeq: 7\n  MESSAGE\nc: Application/MANSCDP+xml\nl: 2\n\nhi',
    );
    const msg = parseSip(raw);
    expect(headerAll(msg, 'Via')).toEqual(['SIP/2.0/TCP 10.0.0.1:5060;branch=z9hG4bK1', 'SIP/2.0/UDP 10.0.0.2;branch=z9hG4bK2']);
    expect(header(msg, 'Call-ID')).toBe('abc');
    expect(header(msg, 'CSeq')).toBe('7 MESSAGE');
    expect(header(msg, 'Content-Type')).toBe('Application/MANSCDP+xml');
    expect(new TextDecoder().decode(msg.body)).toBe('hi');
  });

  it('refuses with a SipError and keeps what it read (for a 400)', () => {
    const r = tryParseSip(text('MESSAGE sip:a@b SIP/2.0\nVia: SIP/2.0/UDP 1.2.3.4;branch=z9hG4bKx\nFrom: <sip:x@y>;tag=1\nTo: <sip:a@b>\nCSeq: 1 MESSAGE\n\n'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('missing-header');
    expect(r.error.partial?.headers.some((h) => h.name === 'Via')).toBe(true);
  });

  it.each([
    ['garbage start line', 'HELLO\n\n', 'bad-start-line'],
    ['status out of range', 'SIP/2.0 99 Huh\n\n', 'bad-start-line'],
    ['CSeq method mismatch', 'MESSAGE sip:a@b SIP/2.0\nVia: SIP/2.0/UDP h;branch=z9hG4bKx\nFrom: <sip:x@y>;tag=1\nTo: <sip:a@b>\nCall-ID: 1\nCSeq: 1 INVITE\n\n', 'bad-header'],
    ['body shorter than Content-Length', 'MESSAGE sip:a@b SIP/2.0\nVia: SIP/2.0/UDP h;branch=z9hG4bKx\nFrom: <sip:x@y>;tag=1\nTo: <sip:a@b>\nCall-ID: 1\nCSeq: 1 MESSAGE\nContent-Length: 10\n\nabc', 'truncated'],
    ['negative Content-Length', 'MESSAGE sip:a@b SIP/2.0\nVia: SIP/2.0/UDP h;branch=z9hG4bKx\nFrom: <sip:x@y>;tag=1\nTo: <sip:a@b>\nCall-ID: 1\nCSeq: 1 MESSAGE\nContent-Length: -1\n\n', 'bad-header'],
    ['header without colon', 'MESSAGE sip:a@b SIP/2.0\nVia SIP/2.0/UDP h\n\n', 'bad-header'],
  ])('%s', (_what, raw, code) => {
    expect(() => parseSip(text(raw))).toThrow(SipError);
    const r = tryParseSip(text(raw));
    expect(!r.ok && r.error.code).toBe(code);
  });

  it('refuses an oversized header section', () => {
    const big = `MESSAGE sip:a@b SIP/2.0\nX-Pad: ${'a'.repeat(20000)}\n\n`;
    expect(tryParseSip(text(big), { maxHeaderBytes: 4096 })).toMatchObject({ ok: false, error: { code: 'too-large' } });
  });
});

describe('header values', () => {
  it('reads URIs with ports, IPv6 hosts and params', () => {
    expect(parseUri('sip:34020000001320000001@192.168.1.64:5060;transport=tcp')).toEqual({
      scheme: 'sip',
      user: '34020000001320000001',
      host: '192.168.1.64',
      port: 5060,
      params: { transport: 'tcp' },
    });
    expect(parseUri('sip:[::1]:15060')).toMatchObject({ host: '[::1]', port: 15060 });
    expect(parseUri('http://x')).toBeUndefined();
    expect(parseUri('sip:a@b:99999')).toBeUndefined();
  });

  it('reads name-addr forms', () => {
    expect(parseNameAddr('"Cam, 1" <sip:a@b>;tag=9')).toEqual({ displayName: 'Cam, 1', uri: 'sip:a@b', params: { tag: '9' } });
    expect(parseNameAddr('sip:a@b;tag=9')).toEqual({ uri: 'sip:a@b', params: { tag: '9' } });
    expect(parseNameAddr('<sip:a@b')).toBeUndefined();
  });

  it('reads a Via with spaces around separators', () => {
    expect(parseVia('SIP / 2.0 / UDP first.example.com: 4000;ttl=16 ;maddr=224.2.0.1 ;branch=z9hG4bKa7c6a8dlze.1')).toEqual({
      transport: 'UDP',
      host: 'first.example.com',
      port: 4000,
      params: { ttl: '16', maddr: '224.2.0.1', branch: 'z9hG4bKa7c6a8dlze.1' },
    });
  });

  it('builds a response that copies the transaction headers and adds a To tag', () => {
    const req = parseSip(fixture('hikvision-keepalive.sip')) as SipRequest;
    const res = responseTo(req, 200, { toTag: 'abc' });
    expect(header(res, 'Via')).toBe(header(req, 'Via'));
    expect(tagOf(header(res, 'To'))).toBe('abc');
    expect(header(res, 'CSeq')).toBe('20 MESSAGE');
    expect(new TextDecoder().decode(serializeSip(res))).toMatch(/^SIP\/2\.0 200 OK\r\n/);
  });

  it('never lets a header value inject a line', () => {
    const req = parseSip(fixture('hikvision-keepalive.sip')) as SipRequest;
    const res = responseTo(req, 200, { headers: [{ name: 'Subject', value: 'a\r\nEvil: 1' }] });
    expect(header(parseSip(serializeSip(res)), 'Evil')).toBeUndefined();
  });
});
