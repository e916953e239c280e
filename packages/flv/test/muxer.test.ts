/** FlvMuxer byte by byte: sequence headers, frames, HEVC in both conventions, audio, timing, changes. */
import { describe, expect, it } from 'vitest';
import { buildAvcC, buildHvcC, toHex, g711Track, type AudioTrack, type VideoAccessUnit } from '@opencvr/codec';
import { Amf0EcmaArray, decodeAmf0, FlvMuxer, readFlv } from '../src/index.js';
import { videoStream } from './helpers/fixtures.js';

const H264 = videoStream('h264', 'h264-320x240-25fps-bf2.h264');
const H265 = videoStream('h265', 'h265-320x240-25fps-bf2.hevc');
const AAC: AudioTrack = {
  kind: 'audio',
  codec: 'aac',
  sampleRate: 16000,
  channels: 1,
  config: Uint8Array.of(0x14, 0x08),
  codecString: 'mp4a.40.2',
  clockRate: 16000,
};

const frame = (dts: number, keyframe: boolean, nalus: Uint8Array[], cts = 0): VideoAccessUnit => ({
  kind: 'video',
  dts,
  pts: dts + cts,
  keyframe,
  nalus,
});
const idr = Uint8Array.of(0x65, 0x88, 0x84);
const slice = Uint8Array.of(0x41, 0x9a);
const aud = Uint8Array.of(0x09, 0xf0);

const all = (m: FlvMuxer, chunks: Uint8Array[]) => readFlv(Buffer.concat([m.header(), ...chunks]));

describe('FlvMuxer H.264', () => {
  it("header: FLV header, onMetaData, AVC sequence header with the codec package's avcC", () => {
    const m = new FlvMuxer([H264.track, AAC]);
    const f = readFlv(m.header());
    expect(f).toMatchObject({ hasAudio: true, hasVideo: true });
    expect(f.tags.map((t) => [t.type, t.timestamp])).toEqual([
      [18, 0],
      [9, 0],
      [8, 0],
    ]);
    expect(decodeAmf0(f.tags[0].data)).toEqual([
      'onMetaData',
      new Amf0EcmaArray({
        duration: 0,
        width: 320,
        height: 240,
        videocodecid: 7,
        audiocodecid: 10,
        audiosamplerate: 16000,
        audiosamplesize: 16,
        stereo: false,
        encoder: 'OpenCVR',
      }),
    ]);
    expect(toHex(f.tags[1].data)).toBe('1700000000' + toHex(buildAvcC([H264.track.sps], [H264.track.pps])));
    expect(toHex(f.tags[2].data)).toBe('af00' + '1408');
  });

  it('frames: frame type, NALU packet type, composition time, AVCC lengths; AUD dropped', () => {
    const m = new FlvMuxer([H264.track]);
    const tags = [
      ...m.push(frame(90000, true, [aud, H264.track.sps, H264.track.pps, idr], 3600)),
      ...m.push(frame(93600, false, [aud, slice], -1800)),
    ];
    const f = all(m, tags);
    const [key, inter] = f.tags.slice(2);
    expect(key.timestamp).toBe(0);
    expect(toHex(key.data)).toBe(
      '17' +
        '01' +
        '000028' +
        `0000${H264.track.sps.length.toString(16).padStart(4, '0')}${toHex(H264.track.sps)}` +
        `0000${H264.track.pps.length.toString(16).padStart(4, '0')}${toHex(H264.track.pps)}` +
        '00000003658884',
    );
    expect(inter.timestamp).toBe(40);
    expect(toHex(inter.data)).toBe('27' + '01' + 'ffffec' + '00000002419a'); // cts -20 ms as SI24
  });

  it('writes nothing before the first keyframe, and drops damaged units up to the next keyframe', () => {
    const m = new FlvMuxer([H264.track, AAC]);
    expect(m.push(frame(0, false, [slice]))).toEqual([]);
    expect(m.push({ kind: 'audio', pts: 0, data: Uint8Array.of(1) })).toEqual([]);
    expect(m.push(frame(3600, true, [idr]))).toHaveLength(1);
    expect(m.push({ ...frame(7200, false, [slice]), damaged: true })).toEqual([]);
    expect(m.push(frame(10800, false, [slice]))).toEqual([]);
    expect(m.push(frame(14400, true, [idr]))).toHaveLength(1);
  });

  it('timestamps: decode time in ms from the first unit, audio on the same origin, no step back', () => {
    const m = new FlvMuxer([H264.track, AAC]);
    const ts = (tags: Uint8Array[]) =>
      readFlv(Buffer.concat([m.header(), ...tags]))
        .tags.slice(3)
        .map((t) => [t.type, t.timestamp]);
    const tags = [
      ...m.push(frame(900000, true, [idr])), // 10 s
      ...m.push({ kind: 'audio', pts: 160000 + 1600, data: Uint8Array.of(1) }), // 10.1 s
      ...m.push(frame(900000 + 9000, false, [slice])),
      ...m.push(frame(900000 + 4500, false, [slice])), // goes back: placed one step on
      ...m.push(frame(900000 + 9000 + 90000 * 60, false, [slice])), // jumps a minute: one step on
      ...m.push(frame(900000 + 9000 + 90000 * 60 + 9000, false, [slice])),
    ];
    expect(ts(tags)).toEqual([
      [9, 0],
      [8, 100],
      [9, 100],
      [9, 200],
      [9, 300],
      [9, 400],
    ]);
  });

  it('a keyframe with other in-band parameter sets gets a new sequence header first', () => {
    const m = new FlvMuxer([H264.track]);
    m.push(frame(0, true, [idr]));
    const otherSps = Uint8Array.from(H264.track.sps);
    otherSps[3] = 0x1f; // level 3.1 instead of the fixture's
    const tags = m.push(frame(3600, true, [otherSps, H264.track.pps, idr]));
    expect(tags).toHaveLength(2);
    const f = all(m, tags);
    expect(toHex(f.tags[2].data)).toBe('1700000000' + toHex(buildAvcC([otherSps], [H264.track.pps])));
    // the same sets again: no new header
    expect(m.push(frame(7200, true, [otherSps, H264.track.pps, idr]))).toHaveLength(1);
  });

  it('retrack: end of sequence, new metadata and sequence headers, time runs on', () => {
    const m = new FlvMuxer([H264.track]);
    const a = m.push(frame(0, true, [idr]));
    const b = m.push(frame(9000, false, [slice]));
    const re = m.retrack([H265.track]);
    const c = m.push(frame(5_000_000, true, [Uint8Array.of(0x26, 0x01, 0xaf)]));
    const f = all(m, [...a, ...b, re, ...c]);
    expect(f.tags.slice(2).map((t) => [t.type, t.timestamp, toHex(t.data.subarray(0, 5))])).toEqual([
      [9, 0, '1701000000'],
      [9, 100, '2701000000'],
      [9, 100, '1702000000'], // AVC end of sequence
      [18, 100, toHex(f.tags[0].data.subarray(0, 5))],
      [9, 100, '9068766331'], // hvc1 sequence start
      [9, 200, '9168766331'], // first coded frame, one step on
    ]);
    expect((decodeAmf0(f.tags[5].data)[1] as Amf0EcmaArray).entries.videocodecid).toBe(0x68766331);
  });
});

describe('FlvMuxer H.265', () => {
  const vcl = Uint8Array.of(0x26, 0x01, 0xaf); // IDR_W_RADL
  it("enhanced RTMP: ex-header with 'hvc1', SequenceStart with hvcC, CodedFrames with composition time", () => {
    const m = new FlvMuxer([H265.track]);
    const f = all(m, m.push(frame(0, true, [Uint8Array.of(0x46, 0x01, 0x10), vcl], 7200)));
    expect(toHex(f.tags[1].data)).toBe(
      '90' + '68766331' + toHex(buildHvcC({ vps: [H265.track.vps!], sps: [H265.track.sps], pps: [H265.track.pps] })),
    );
    expect(toHex(f.tags[2].data)).toBe('91' + '68766331' + '000050' + '000000032601af'); // AUD (type 35) dropped
    expect((decodeAmf0(f.tags[0].data)[1] as Amf0EcmaArray).entries.videocodecid).toBe(0x68766331);
    expect(toHex(m.end().subarray(11, 16))).toBe('9268766331');
  });

  it('legacy codec id 12: the AVC layout with hvcC', () => {
    const m = new FlvMuxer([H265.track], { hevc: 'codec-id-12' });
    const f = all(m, m.push(frame(0, true, [vcl])));
    expect(toHex(f.tags[1].data.subarray(0, 5))).toBe('1c00000000');
    expect(toHex(f.tags[2].data)).toBe('1c01000000' + '000000032601af');
    expect((decodeAmf0(f.tags[0].data)[1] as Amf0EcmaArray).entries.videocodecid).toBe(12);
  });
});

describe('FlvMuxer audio', () => {
  it('AAC: 0xAF, raw packet type 1', () => {
    const m = new FlvMuxer([AAC]);
    const f = all(m, m.push({ kind: 'audio', pts: 1024, data: Uint8Array.of(0x21, 0x10) }));
    expect(f).toMatchObject({ hasAudio: true, hasVideo: false });
    expect(toHex(f.tags[2].data)).toBe('af012110');
  });

  it('G.711: sound format 7 (A-law) and 8 (µ-law), no sequence header', () => {
    for (const [codec, byte] of [
      ['pcma', '72'],
      ['pcmu', '82'],
    ] as const) {
      const m = new FlvMuxer([g711Track(codec)]);
      const f = all(m, [
        ...m.push({ kind: 'audio', pts: 0, data: Uint8Array.of(0xd5, 0xd5) }),
        ...m.push({ kind: 'audio', pts: 160, data: Uint8Array.of(0x55) }),
      ]);
      expect(f.tags.map((t) => t.type)).toEqual([18, 8, 8]);
      expect(toHex(f.tags[1].data)).toBe(`${byte}d5d5`);
      expect(f.tags[2].timestamp).toBe(20);
      expect((decodeAmf0(f.tags[0].data)[1] as Amf0EcmaArray).entries).toMatchObject({
        audiocodecid: Number(byte[0]),
        audiosamplerate: 8000,
      });
    }
  });
});

describe('FlvMuxer tracks', () => {
  it('needs a track, ignores units of extra tracks and refuses bad parameter sets at once', () => {
    expect(() => new FlvMuxer([])).toThrow(RangeError);
    const m = new FlvMuxer([H264.track, AAC, AAC]);
    m.push(frame(0, true, [idr]));
    expect(m.push({ kind: 'audio', pts: 0, data: Uint8Array.of(1) }, 2)).toEqual([]);
    expect(m.push({ kind: 'audio', pts: 0, data: Uint8Array.of(1) }, 1)).toHaveLength(1);
    expect(() => new FlvMuxer([{ ...H264.track, sps: Uint8Array.of(0x67) }])).toThrow();
  });
});
