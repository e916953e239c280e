/** FLV tags read from a stream in pieces (FlvTagStream): split anywhere, the same tags as the whole; bad framing throws. */
import { describe, expect, it } from 'vitest';
import { flvHeader, flvTag, FlvFormatError, FlvTagStream, readFlv, TagType } from '../src/index.js';

const stream = () =>
  Buffer.concat([
    flvHeader({ audio: true, video: false }),
    flvTag(TagType.script, 0, [Uint8Array.of(2, 0, 1, 0x41)]),
    flvTag(TagType.audio, 0, [Uint8Array.of(0xaf, 0, 0x12, 0x10)]),
    flvTag(TagType.audio, 23, [Uint8Array.of(0xaf, 1, 9, 8, 7)]),
    flvTag(TagType.audio, 0x01234567, [Uint8Array.of(0xaf, 1, 6)]),
  ]);
const summary = (tags: { type: number; timestamp: number; data: Uint8Array }[]) => tags.map((t) => [t.type, t.timestamp, [...t.data]]);

describe('FlvTagStream', () => {
  it('gives each tag once whole, wherever the stream is cut', () => {
    const bytes = stream();
    const whole = summary(readFlv(bytes).tags);
    expect(whole).toHaveLength(4);
    for (let size = 1; size <= bytes.length; size++) {
      const reader = new FlvTagStream();
      const got = [];
      for (let p = 0; p < bytes.length; p += size) got.push(...summary(reader.push(bytes.subarray(p, p + size))));
      expect(got, `pieces of ${size}`).toEqual(whole);
    }
  });

  it('a tag given stays as it was while later pieces come', () => {
    const bytes = stream();
    const reader = new FlvTagStream();
    const first = reader.push(bytes.subarray(0, 40));
    reader.push(bytes.subarray(40));
    expect(summary(first)[0]).toEqual([TagType.script, 0, [2, 0, 1, 0x41]]);
  });

  it('throws on bytes that are not FLV, a wrong PreviousTagSize or a tag above the limit; reset() starts again', () => {
    expect(() => new FlvTagStream().push(Buffer.from('not an flv stream'))).toThrow(FlvFormatError);
    const bad = stream();
    bad.writeUInt32BE(99, 13 + 15);
    expect(() => new FlvTagStream().push(bad)).toThrow(/PreviousTagSize/);
    const big = Buffer.concat([flvHeader({ audio: true, video: false }), flvTag(TagType.audio, 0, [new Uint8Array(100)])]);
    expect(() => new FlvTagStream(50).push(big)).toThrow(/100 bytes/);
    const reader = new FlvTagStream();
    expect(() => reader.push(Buffer.from('garbage garbage'))).toThrow(FlvFormatError);
    reader.reset();
    expect(reader.push(stream())).toHaveLength(4);
  });
});
