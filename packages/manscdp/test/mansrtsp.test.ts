import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  encodeMansrtsp,
  ManscdpError,
  mansrtspPause,
  mansrtspResume,
  mansrtspScale,
  mansrtspSeek,
  mansrtspTeardown,
  parseMansrtspRequest,
  parseMansrtspResponse,
} from '../src/index.js';

describe('MANSRTSP', () => {
  it('writes PLAY, PAUSE, Scale, seek and TEARDOWN', () => {
    expect(mansrtspPause(20)).toBe('PAUSE RTSP/1.0\r\nCSeq: 20\r\nPauseTime: now\r\n\r\n');
    expect(mansrtspResume(21)).toBe('PLAY RTSP/1.0\r\nCSeq: 21\r\n\r\n');
    expect(mansrtspScale(22, 2)).toBe('PLAY RTSP/1.0\r\nCSeq: 22\r\nScale: 2.000000\r\n\r\n');
    expect(mansrtspSeek(23, 11)).toBe('PLAY RTSP/1.0\r\nCSeq: 23\r\nRange: npt=11-\r\n\r\n');
    expect(mansrtspTeardown(24)).toBe('TEARDOWN RTSP/1.0\r\nCSeq: 24\r\n\r\n');
    expect(encodeMansrtsp({ method: 'PLAY', cseq: 1, scale: 0.25, rangeStart: 1.5 })).toContain(
      'Scale: 0.250000\r\nRange: npt=1.500-',
    );
  });

  it('refuses speeds outside 0.25-8 and bad CSeq', () => {
    expect(() => mansrtspScale(1, 3)).toThrow(/Scale 3/);
    expect(() => mansrtspScale(1, 16)).toThrow(ManscdpError);
    expect(() => mansrtspPause(-1)).toThrow(/CSeq/);
    expect(() => mansrtspSeek(1, -5)).toThrow(/Range start/);
  });

  // Captured from a platform driving a Hikvision NVR playback (fixtures/README.md, section 5.2).
  it('reads captured requests and the NVR answers', () => {
    expect(parseMansrtspRequest('PLAY RTSP/1.0\r\nCSeq: 22\r\nScale: 2.000000\r\nRange: npt=11-\r\n\r\n')).toEqual({
      method: 'PLAY',
      cseq: 22,
      scale: 2,
      rangeStart: 11,
    });
    expect(parseMansrtspRequest('PAUSE RTSP/1.0\r\nCSeq: 20\r\nPauseTime: 0\r\n\r\n')).toEqual({
      method: 'PAUSE',
      cseq: 20,
    });
    expect(parseMansrtspResponse('RTSP/1.0 200 OK\r\nCSeq: 21\r\nRTP-Info: seq=9810092;rtptime=3450012\r\n')).toEqual({
      status: 200,
      reason: 'OK',
      cseq: 21,
      rtpInfo: 'seq=9810092;rtptime=3450012',
    });
    expect(() => parseMansrtspResponse('SIP/2.0 200 OK\r\n')).toThrow(/status line/);
    expect(() => parseMansrtspRequest('PLAY RTSP/1.0\r\n\r\n')).toThrow(/CSeq/);
  });

  it('round trip and random text', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.constantFrom(undefined, 0.25, 0.5, 1, 2, 4, 8),
        fc.option(fc.integer({ min: 0, max: 86400 }), { nil: undefined }),
        (cseq, scale, rangeStart) => {
          const r = { method: 'PLAY' as const, cseq, scale, rangeStart };
          expect(parseMansrtspRequest(encodeMansrtsp(r))).toEqual(
            Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)),
          );
        },
      ),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        for (const f of [parseMansrtspRequest, parseMansrtspResponse]) {
          try {
            f(s);
          } catch (e) {
            expect(e).toBeInstanceOf(ManscdpError);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});
