/** FLV framing: header, tag header fields (24-bit size, 24+8-bit timestamp), PreviousTagSize, reader checks. */
import { describe, expect, it } from 'vitest';
import { toHex } from '@opencvr/codec';
import { flvHeader, flvTag, FlvFormatError, readFlv, TagType } from '../src/index.js';

describe('flv header', () => {
  it('audio+video, video only, audio only', () => {
    expect(toHex(flvHeader({ audio: true, video: true }))).toBe('464c5601050000000900000000');
    expect(toHex(flvHeader({ audio: false, video: true }))).toBe('464c5601010000000900000000');
    expect(toHex(flvHeader({ audio: true, video: false }))).toBe('464c5601040000000900000000');
  });
});

describe('flv tag', () => {
  it('writes type, size, timestamp, stream id, data and PreviousTagSize', () => {
    const t = flvTag(TagType.video, 0x123456, [Uint8Array.of(1, 2), Uint8Array.of(3)]);
    expect(toHex(t)).toBe('09' + '000003' + '123456' + '00' + '000000' + '010203' + '0000000e');
  });

  it('puts the upper 8 bits of a timestamp in the extension byte and wraps at 2^32 ms', () => {
    expect(toHex(flvTag(TagType.audio, 0x01234567, []).subarray(4, 8))).toBe('23456701');
    expect(toHex(flvTag(TagType.audio, 2 ** 32 + 5, []).subarray(4, 8))).toBe('00000500');
    expect(toHex(flvTag(TagType.audio, 0xffffffff, []).subarray(4, 8))).toBe('ffffffff');
  });

  it('refuses data above 16 MiB', () => {
    expect(() => flvTag(TagType.video, 0, [new Uint8Array(0x1000000)])).toThrow(RangeError);
  });
});

describe('readFlv', () => {
  const file = (...tags: Uint8Array[]) => Buffer.concat([flvHeader({ audio: true, video: true }), ...tags]);
  it('reads back tags with their timestamps and data', () => {
    const f = readFlv(
      file(flvTag(TagType.script, 0, [Uint8Array.of(5)]), flvTag(TagType.video, 0x01000002, [Uint8Array.of(7, 8)])),
    );
    expect(f).toMatchObject({ hasAudio: true, hasVideo: true });
    expect(f.tags.map((t) => [t.type, t.timestamp, toHex(t.data), t.previousTagSize])).toEqual([
      [18, 0, '05', 12],
      [9, 0x01000002, '0708', 13],
    ]);
  });

  it('refuses broken framing', () => {
    const good = file(flvTag(TagType.video, 0, [Uint8Array.of(1)]));
    const bad = (mutate: (b: Buffer) => Buffer) =>
      expect(() => readFlv(mutate(Buffer.from(good)))).toThrow(FlvFormatError);
    bad((b) => ((b[0] = 0x47), b));
    bad((b) => ((b[8] = 10), b));
    bad((b) => ((b[12] = 1), b));
    bad((b) => ((b[b.length - 1] = 0), b)); // PreviousTagSize
    bad((b) => b.subarray(0, b.length - 2));
    bad((b) => ((b[13 + 9] = 1), b)); // stream id
  });
});
