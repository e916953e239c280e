import { describe, expect, it } from 'vitest';
import { parseRtcp, parseRtp, rtpToWallClock, RtpError, serializeRtp, type RtpPacket } from '../src/index.js';
import { capture, hex } from './fixtures.js';

const bytes = (h: string) => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ''), 'hex'));
const base: RtpPacket = { marker: false, payloadType: 96, sequenceNumber: 1, timestamp: 2, ssrc: 3, csrc: [], padding: 0, payload: bytes('aabb') };

describe('RTP header round-trip table', () => {
  const cases: { name: string; wire: string; packet: RtpPacket }[] = [
    { name: 'plain', wire: '8060 0001 00000002 00000003 aabb', packet: base },
    {
      name: 'marker, PT 8, max numbers',
      wire: '8088 ffff ffffffff fffffffe 01',
      packet: { ...base, marker: true, payloadType: 8, sequenceNumber: 0xffff, timestamp: 0xffffffff, ssrc: 0xfffffffe, payload: bytes('01') },
    },
    { name: 'two CSRCs', wire: '8260 0001 00000002 00000003 0000000a 0000000b aabb', packet: { ...base, csrc: [10, 11] } },
    {
      name: 'header extension',
      wire: '9060 0001 00000002 00000003 bede0001 11223344 aabb',
      packet: { ...base, extension: { profile: 0xbede, data: bytes('11223344') } },
    },
    { name: 'padding', wire: 'a060 0001 00000002 00000003 aabb 000003', packet: { ...base, padding: 3 } },
    { name: 'empty payload', wire: '8060 0001 00000002 00000003', packet: { ...base, payload: bytes('') } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const p = parseRtp(bytes(c.wire));
      expect({ ...p, payload: hex(p.payload), extension: p.extension && { ...p.extension, data: hex(p.extension.data) } }).toEqual({
        ...c.packet,
        payload: hex(c.packet.payload),
        extension: c.packet.extension && { ...c.packet.extension, data: hex(c.packet.extension.data) },
      });
      expect(hex(serializeRtp(c.packet))).toBe(c.wire.replace(/\s+/g, ''));
    });
  }
});

describe('malformed RTP is a typed error', () => {
  const cases: { name: string; wire: string; code: string }[] = [
    { name: 'short header', wire: '8060 0001 00000002 000000', code: 'truncated' },
    { name: 'version 1', wire: '4060 0001 00000002 00000003', code: 'bad-version' },
    { name: 'CSRC count past the end', wire: '8f60 0001 00000002 00000003 00000001', code: 'truncated' },
    { name: 'extension header cut', wire: '9060 0001 00000002 00000003 bede', code: 'truncated' },
    { name: 'extension length past the end', wire: '9060 0001 00000002 00000003 bede0002 11223344', code: 'truncated' },
    { name: 'padding 0', wire: 'a060 0001 00000002 00000003 aa00', code: 'bad-packet' },
    { name: 'padding longer than the payload', wire: 'a060 0001 00000002 00000003 aa09', code: 'bad-packet' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      try {
        parseRtp(bytes(c.wire));
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(RtpError);
        expect((err as RtpError).code).toBe(c.code);
      }
    });
  }
});

describe('captured ffmpeg packets', () => {
  for (const name of ['h264-high-320x180', 'h265-main-320x180', 'aac-lc-44100-stereo', 'pcma-8000', 'pcmu-8000']) {
    it(`${name}: every packet parses and serialises back to the same bytes; the sender report maps RTP time`, () => {
      const packets = capture(`${name}.rtp`);
      const parsed = packets.map(parseRtp);
      packets.forEach((b, i) => expect(hex(serializeRtp(parsed[i]))).toBe(hex(b)));
      expect(new Set(parsed.map((p) => p.ssrc)).size).toBe(1);
      const [sr] = capture(`${name}.rtcp`).flatMap(parseRtcp);
      expect(sr.type).toBe('sr');
      if (sr.type !== 'sr') return;
      expect(sr.ssrc).toBe(parsed[0].ssrc);
      expect(sr.packetCount).toBeGreaterThanOrEqual(0); // ffmpeg sends its first SR before the first packet
      expect(new Date(sr.ntpMs).getUTCFullYear()).toBeGreaterThanOrEqual(2024);
      const clock = name.startsWith('h26') ? 90000 : name.startsWith('aac') ? 44100 : 8000;
      expect(rtpToWallClock(sr, (sr.rtpTimestamp + clock) >>> 0, clock) - sr.ntpMs).toBeCloseTo(1000, 6);
      expect(rtpToWallClock(sr, (sr.rtpTimestamp - clock / 2) >>> 0, clock) - sr.ntpMs).toBeCloseTo(-500, 6);
    });
  }
  it('payload types: 96 video, 97 AAC, 8 PCMA, 0 PCMU', () => {
    const pt = (n: string) => parseRtp(capture(`${n}.rtp`)[0]).payloadType;
    expect(['h264-high-320x180', 'aac-lc-44100-stereo', 'pcma-8000', 'pcmu-8000'].map(pt)).toEqual([96, 97, 8, 0]);
  });
});

describe('RTCP', () => {
  it('a compound packet: SR then SDES kept as bytes', () => {
    const sr = '80c80006 00000003 e0000000 80000000 00000064 0000000a 00000100';
    const sdes = '81ca0002 00000003 01000000';
    const [a, b] = parseRtcp(bytes(sr + sdes));
    expect(a).toMatchObject({ type: 'sr', ssrc: 3, rtpTimestamp: 100, packetCount: 10, octetCount: 256 });
    if (a.type === 'sr') expect(a.ntpMs).toBe((0xe0000000 - 2208988800) * 1000 + 500);
    expect(b).toMatchObject({ type: 'other', packetType: 202 });
  });
  it('lengths past the end and short SRs are typed errors', () => {
    expect(() => parseRtcp(bytes('80c80006 00000003'))).toThrow(RtpError);
    expect(() => parseRtcp(bytes('80c80001 00000003'))).toThrow(RtpError);
    expect(() => parseRtcp(bytes('80c8'))).toThrow(RtpError);
  });
});
