/** initSegment: the box tree, the fields a player reads, and each sample entry's configuration. */
import { describe, expect, it } from 'vitest';
import type { AudioTrack } from '@opencvr/codec';
import { initSegment, mimeType } from '../src/index.js';
import { find, one, shape, view, walk } from './helpers/boxes.js';
import { aacStream, alawStream, videoStream } from './helpers/streams.js';

const h264 = videoStream('h264', 'h264-320x240-25fps-bf2.h264').track;
const h265 = videoStream('h265', 'h265-320x240-25fps-bf2.hevc').track;
const aac = aacStream('aac-48k-stereo.adts').track;
const alaw = alawStream('g711a-8k-mono.alaw').track;
const ascii = (b: Uint8Array) => String.fromCharCode(...b);

const TRAK = (handler: string, entry: unknown[]) => [
  'trak',
  [
    'tkhd',
    [
      'mdia',
      [
        'mdhd',
        'hdlr',
        [
          'minf',
          [handler, ['dinf', [['dref', ['url ']]]], ['stbl', [['stsd', [entry]], 'stts', 'stsc', 'stsz', 'stco']]],
        ],
      ],
    ],
  ],
];

describe('initSegment', () => {
  it('H.264 + AAC: ftyp, moov with two traks and mvex/trex', () => {
    const init = initSegment([h264, aac]);
    const boxes = walk(init);
    expect(boxes.reduce((n, b) => n + b.size, 0)).toBe(init.length);
    expect(shape(boxes)).toEqual([
      'ftyp',
      [
        'moov',
        ['mvhd', TRAK('vmhd', ['avc1', ['avcC']]), TRAK('smhd', ['mp4a', ['esds']]), ['mvex', ['trex', 'trex']]],
      ],
    ]);
    const ftyp = boxes[0];
    expect(ascii(init.subarray(ftyp.start + 8, ftyp.start + ftyp.size)).replace(/\0/g, '.')).toBe(
      'iso6....iso6isommp41avc1',
    );
    const v = view(init);
    const mvhd = one(boxes, 'moov/mvhd');
    expect(v.getUint32(mvhd.start + mvhd.size - 4)).toBe(3); // next_track_ID
    const [tkV, tkA] = find(boxes, 'moov/trak/tkhd');
    expect([v.getUint32(tkV.start + 20), v.getUint32(tkA.start + 20)]).toEqual([1, 2]); // track_ID
    expect([v.getUint32(tkV.start + 84) / 65536, v.getUint32(tkV.start + 88) / 65536]).toEqual([320, 240]);
    expect([v.getUint32(tkA.start + 84), v.getUint32(tkA.start + 88)]).toEqual([0, 0]);
    expect(v.getUint16(tkA.start + 44)).toBe(0x0100); // audio volume
    const mdhd = find(boxes, 'moov/trak/mdia/mdhd');
    expect(mdhd.map((b) => v.getUint32(b.start + 20))).toEqual([90000, 48000]);
    const hdlr = find(boxes, 'moov/trak/mdia/hdlr');
    expect(hdlr.map((b) => ascii(init.subarray(b.start + 16, b.start + 20)))).toEqual(['vide', 'soun']);
    const avc1 = one(boxes, 'moov/trak/mdia/minf/stbl/stsd/avc1');
    expect([v.getUint16(avc1.start + 32), v.getUint16(avc1.start + 34)]).toEqual([320, 240]);
    const trex = find(boxes, 'moov/mvex/trex');
    expect(trex.map((b) => [v.getUint32(b.start + 12), v.getUint32(b.start + 16)])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    for (const t of ['stts', 'stsc', 'stco']) {
      expect(find(boxes, `moov/trak/mdia/minf/stbl/${t}`).map((b) => v.getUint32(b.start + 12))).toEqual([0, 0]);
    }
  });

  it('avcC carries the SPS and PPS; esds carries the AudioSpecificConfig', () => {
    const init = initSegment([h264, aac]);
    const boxes = walk(init);
    const avcC = one(boxes, 'moov/trak/mdia/minf/stbl/stsd/avc1/avcC');
    const record = init.subarray(avcC.start + 8, avcC.start + avcC.size);
    expect([...record.subarray(0, 6)]).toEqual([1, h264.sps[1], h264.sps[2], h264.sps[3], 0xff, 0xe1]);
    expect(record.subarray(8, 8 + h264.sps.length)).toEqual(h264.sps);
    const esds = one(boxes, 'moov/trak/mdia/minf/stbl/stsd/mp4a/esds');
    const body = [...init.subarray(esds.start + 12, esds.start + esds.size)];
    // ES_Descriptor(3) > DecoderConfigDescriptor(4, mp4 audio 0x40, stream type 0x15) > DecSpecificInfo(5) > SL(6)
    expect(body).toEqual([3, 25, 0, 0, 0, 4, 17, 0x40, 0x15, ...new Array(11).fill(0), 5, 2, ...aac.config, 6, 1, 2]);
    expect([...aac.config]).toEqual([0x11, 0x90]); // AAC-LC, 48 kHz, 2 channels
    const mp4a = one(boxes, 'moov/trak/mdia/minf/stbl/stsd/mp4a');
    const v = view(init);
    expect([v.getUint16(mp4a.start + 24), v.getUint16(mp4a.start + 26), v.getUint32(mp4a.start + 32) / 65536]).toEqual([
      2, 16, 48000,
    ]);
  });

  it('H.265: hvc1 + hvcC with VPS, SPS and PPS arrays', () => {
    const init = initSegment([h265]);
    const boxes = walk(init);
    expect(shape(boxes)).toEqual(['ftyp', ['moov', ['mvhd', TRAK('vmhd', ['hvc1', ['hvcC']]), ['mvex', ['trex']]]]]);
    const hvcC = one(boxes, 'moov/trak/mdia/minf/stbl/stsd/hvc1/hvcC');
    const record = init.subarray(hvcC.start + 8, hvcC.start + hvcC.size);
    expect(record[22]).toBe(3); // numOfArrays
    expect(record.subarray(28, 28 + h265.vps!.length)).toEqual(h265.vps);
    expect(ascii(init.subarray(boxes[0].start + 8, boxes[0].start + boxes[0].size))).not.toContain('avc1');
  });

  it('G.711 as alaw / ulaw sample entries with no children', () => {
    const ulaw: AudioTrack = { ...alaw, codec: 'pcmu', codecString: 'ulaw' };
    for (const [track, entry] of [
      [alaw, 'alaw'],
      [ulaw, 'ulaw'],
    ] as const) {
      const init = initSegment([track]);
      const box = one(walk(init), `moov/trak/mdia/minf/stbl/stsd/${entry}`);
      expect(box.size).toBe(36);
      expect(view(init).getUint32(box.start + 32) / 65536).toBe(8000);
    }
  });

  it('sample rates above 65535 leave the 16.16 field at 0 (mdhd carries the rate)', () => {
    const init = initSegment([{ ...aac, sampleRate: 96000, clockRate: 96000 }]);
    const boxes = walk(init);
    expect(view(init).getUint32(one(boxes, 'moov/trak/mdia/minf/stbl/stsd/mp4a').start + 32)).toBe(0);
    expect(view(init).getUint32(one(boxes, 'moov/trak/mdia/mdhd').start + 20)).toBe(96000);
  });

  it('refuses no tracks and an H.265 track without a VPS', () => {
    expect(() => initSegment([])).toThrow();
    expect(() => initSegment([{ ...h265, vps: undefined }])).toThrow(/VPS/);
  });

  it('mimeType lists the codec strings', () => {
    expect(mimeType([h264, aac])).toBe('video/mp4; codecs="avc1.64000d,mp4a.40.2"');
    expect(mimeType([aac])).toBe('audio/mp4; codecs="mp4a.40.2"');
  });
});
