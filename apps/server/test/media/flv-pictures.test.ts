/**
 * FlvVideoPictures: the live H.264 leg reads ffmpeg's FLV output back into pictures, each as soon
 * as its tag is whole. The FLV is ffmpeg's own (the x264 fixture copied into it, numbered by setts: raw H.264 has no times), read in chunks of
 * every size; what is not FLV, a cut tag or a tag over the limit gives no picture and no throw.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isH264Vcl, splitAnnexB } from '@opencvr/codec';
import { FlvVideoPictures } from '../../src/media/flv-pictures.js';

// x264 output of packages/codec/test/fixtures/make.sh (one slice per picture).
const fixture = path.join(import.meta.dirname, '../../../../packages/codec/test/fixtures/h264-high-320x180.h264');
const flv = new Uint8Array(execFileSync('ffmpeg', ['-v', 'error', '-f', 'h264', '-i', fixture, '-c:v', 'copy', '-bsf:v', 'setts=ts=N', '-f', 'flv', 'pipe:1'], { maxBuffer: 64 << 20 }));
const hex = (pictures: Uint8Array[][]) => pictures.map((p) => p.map((n) => Buffer.from(n).toString('hex')));

/** The fixture's pictures as Annex-B gives them: the NAL units up to and including each slice. */
function annexBPictures(): Uint8Array[][] {
  const pictures: Uint8Array[][] = [];
  let cur: Uint8Array[] = [];
  for (const n of splitAnnexB(new Uint8Array(fs.readFileSync(fixture)))) {
    cur.push(n);
    if (isH264Vcl(n)) {
      pictures.push(cur);
      cur = [];
    }
  }
  return pictures;
}

function readAll(r: FlvVideoPictures, bytes: Uint8Array, size: number): Uint8Array[][] {
  const out: Uint8Array[][] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(...r.push(bytes.subarray(at, at + size)));
  return out;
}

describe('FlvVideoPictures', () => {
  const expected = hex(annexBPictures());

  for (const size of [1, 7, 188, 4096, flv.length]) {
    it(`gives every picture of ffmpeg's FLV read in ${size}-byte chunks, each whole as soon as its tag is`, () => {
      const out = readAll(new FlvVideoPictures(), flv, size);
      // nothing waits for the next picture: all are out before the end of the stream
      expect(hex(out)).toEqual(expected);
    });
  }

  it('the last picture comes out with its tag, not with the next one', () => {
    // where the last picture's tag (and its PreviousTagSize) ends; an end-of-sequence tag follows
    let end = 0;
    for (let at = 13; at < flv.length; at += 11 + Buffer.from(flv).readUIntBE(at + 1, 3) + 4) {
      if (flv[at] === 9 && flv[at + 12] === 1) end = at + 11 + Buffer.from(flv).readUIntBE(at + 1, 3) + 4;
    }
    expect(end).toBeLessThan(flv.length);
    expect(hex(readAll(new FlvVideoPictures(), flv.subarray(0, end), 4096))).toEqual(expected);
    expect(readAll(new FlvVideoPictures(), flv.subarray(0, end - 1), 4096)).toHaveLength(expected.length - 1);
  });

  it('bytes that are not FLV give nothing, and a new FLV after reset() reads again', () => {
    const r = new FlvVideoPictures();
    expect(r.push(new TextEncoder().encode('not an flv stream at all'))).toEqual([]);
    expect(r.push(flv.subarray(100, 5000))).toEqual([]);
    r.reset();
    expect(hex(readAll(r, flv, 4096))).toEqual(expected);
  });

  it('a tag over the limit drops what is buffered; a video tag with a cut NAL unit is no picture', () => {
    expect(readAll(new FlvVideoPictures(16), flv, 4096)).toEqual([]);
    // the first video tag after the header (13 bytes) and the script tag, its NAL length made too long
    const broken = Buffer.from(flv);
    let at = 13;
    while (broken[at] !== 9 || broken[at + 12] !== 1) at += 11 + broken.readUIntBE(at + 1, 3) + 4;
    broken.writeUInt32BE(0xffffff, at + 11 + 5);
    const out = readAll(new FlvVideoPictures(), broken, 4096);
    expect(hex(out)).toEqual(expected.slice(1));
  });
});
