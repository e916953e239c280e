/**
 * The demuxer on real program streams (GStreamer mpegpsmux with a PSM, ffmpeg's PSM-less VOB and
 * MPEG-1 output, a GB camera's first packet) and on GB-style streams from the muxer: codecs, frame
 * counts, keyframes, timestamps, bytes identical to ffmpeg's own extraction, any chunking.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseH264Sps, parseH265Sps, splitAnnexB, toHex } from '@opencvr/codec';
import { PsDemuxer, PsMuxer, StreamType, type PsAudioFrame, type PsFrame, type PsVideoFrame } from '../src/index.js';
import { chunks, fixture, hexFixture } from './fixtures.js';

function demux(data: Uint8Array, size = data.length, demuxer = new PsDemuxer()): PsFrame[] {
  const out: PsFrame[] = [];
  for (const c of chunks(data, size)) out.push(...demuxer.push(c));
  out.push(...demuxer.flush());
  return out;
}
const videoOf = (f: PsFrame[]) => f.filter((x): x is PsVideoFrame => x.kind === 'video');
const audioOf = (f: PsFrame[]) => f.filter((x): x is PsAudioFrame => x.kind === 'audio');
const FIXTURES = path.join(import.meta.dirname, 'fixtures');

/** The H.264/H.265 elementary stream ffmpeg itself reads from a PS file (an independent reference). */
function ffmpegElementary(file: string, format: 'h264' | 'hevc'): Uint8Array[] {
  const out = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', path.join(FIXTURES, file), '-map', '0:v:0', '-c', 'copy', '-f', format, '-'],
    { maxBuffer: 64 << 20 },
  );
  return splitAnnexB(new Uint8Array(out));
}

describe('GStreamer mpegpsmux: PSM with H.264 (0x1B) and AAC (0x0F)', () => {
  const data = fixture('gst-h264-aac.ps');

  it('gives 50 H.264 frames at 25 fps starting on a keyframe, and AAC frames', () => {
    const d = new PsDemuxer();
    const frames = demux(data, 1400, d);
    const video = videoOf(frames);
    expect(video).toHaveLength(50);
    expect(video.every((f) => f.codec === 'h264' && !f.damaged)).toBe(true);
    expect(video[0].keyframe).toBe(true);
    expect(video.filter((f) => f.keyframe)).toHaveLength(2);
    for (let i = 1; i < video.length; i++) expect(video[i].pts - video[i - 1].pts).toBe(3600);
    const sps = video[0].nalus.find((n) => (n[0] & 0x1f) === 7)!;
    expect(parseH264Sps(sps)).toMatchObject({ width: 320, height: 240 });
    const audio = audioOf(frames);
    expect(audio.length).toBe(80);
    expect(audio[0]).toMatchObject({ codec: 'aac', sampleRate: 44100, channels: 1 });
    expect(toHex(audio[0].config!)).toBe('1208');
    expect(d.streamMap).toEqual([
      { streamType: 0x0f, streamId: 0xc0 },
      { streamType: 0x1b, streamId: 0xe0 },
    ]);
    expect(d.stats).toMatchObject({ badHeaders: 0, resyncBytes: 0, dropped: 0 });
  });

  it('its NAL units are byte for byte those ffmpeg reads from the file', () => {
    const ours = videoOf(demux(data, 1400)).flatMap((f) => f.nalus.map(toHex));
    const ref = ffmpegElementary('gst-h264-aac.ps', 'h264').map(toHex);
    expect(ours).toEqual(ref);
  });

  it('gives the same frames whatever the chunking (whole file, 1400-byte RTP payloads, 1, 7, 188 bytes)', () => {
    const key = (f: PsFrame[]) =>
      f.map((x) => `${x.kind}:${x.pts}:${x.data.length}:${x.kind === 'video' ? x.keyframe : ''}`);
    const whole = key(demux(data));
    for (const size of [1, 7, 188, 1400]) expect(key(demux(data, size))).toEqual(whole);
  });
});

describe('PS without a PSM: codec from the elementary stream', () => {
  it('ffmpeg -f vob (MPEG-2 packs, H.264 on 0xE2): 50 frames, identical to ffmpeg', () => {
    const frames = videoOf(demux(fixture('ffmpeg-vob-h264.ps'), 1400));
    expect(frames).toHaveLength(50);
    expect(frames[0]).toMatchObject({ codec: 'h264', keyframe: true, streamId: 0xe2 });
    expect(frames.flatMap((f) => f.nalus.map(toHex))).toEqual(
      ffmpegElementary('ffmpeg-vob-h264.ps', 'h264').map(toHex),
    );
  });

  it('ffmpeg -f mpeg (MPEG-1 packs and PES, B-frames): PTS and DTS, identical to ffmpeg', () => {
    const d = new PsDemuxer();
    const frames = videoOf(demux(fixture('ffmpeg-mpeg1-h264.ps'), 1400, d));
    expect(frames).toHaveLength(25);
    expect(d.stats.packs).toBeGreaterThan(0);
    expect(frames.some((f) => f.pts !== f.dts)).toBe(true);
    expect(frames.every((f) => f.pts >= f.dts)).toBe(true);
    expect(frames.flatMap((f) => f.nalus.map(toHex))).toEqual(
      ffmpegElementary('ffmpeg-mpeg1-h264.ps', 'h264').map(toHex),
    );
  });
});

describe('H.265 (0x24) and G.711 A-law (0x90), GB camera layout', () => {
  const data = fixture('h265-pcma.ps');

  it('gives 25 H.265 frames (keyframe first, the picture size from the SPS) and 50 G.711 packets of 20 ms', () => {
    const frames = demux(data, 1400);
    const video = videoOf(frames);
    expect(video).toHaveLength(25);
    expect(video[0]).toMatchObject({ codec: 'h265', keyframe: true, pts: 90000 });
    const sps = video[0].nalus.find((n) => ((n[0] >> 1) & 0x3f) === 33)!;
    expect(parseH265Sps(sps)).toMatchObject({ width: 320, height: 240 });
    expect(video.flatMap((f) => f.nalus.map(toHex))).toEqual(ffmpegElementary('h265-pcma.ps', 'hevc').map(toHex));
    const audio = audioOf(frames);
    expect(audio).toHaveLength(50);
    expect(audio[0]).toMatchObject({ codec: 'pcma', sampleRate: 8000, channels: 1, pts: 90000 });
    expect(audio[1].pts - audio[0].pts).toBe(1800);
    expect(audio.every((a) => a.data.length === 160)).toBe(true);
  });

  it('without a PSM, H.265 is recognised by its VPS and audio is taken as G.711 A-law', () => {
    const es = videoOf(demux(data));
    const audio = audioOf(demux(data));
    const mux = new PsMuxer(
      [
        { streamId: 0xe0, streamType: StreamType.h265 },
        { streamId: 0xc0, streamType: StreamType.pcma },
      ],
      { streamMap: false, packPerFrame: false },
    );
    const parts: Uint8Array[] = [];
    es.forEach((f, i) => {
      parts.push(mux.frame({ streamId: 0xe0, pts: f.pts, keyframe: f.keyframe, data: f.data }));
      parts.push(mux.frame({ streamId: 0xc0, pts: audio[2 * i].pts, data: audio[2 * i].data }));
    });
    const frames = demux(Buffer.concat(parts), 1400);
    expect(videoOf(frames).map((f) => [f.codec, f.pts, f.keyframe])).toEqual(
      es.map((f) => ['h265', f.pts, f.keyframe]),
    );
    expect(audioOf(frames)[0]).toMatchObject({ codec: 'pcma' });
  });
});

describe('a real GB28181 camera packet (SRS test data)', () => {
  it('reads the PSM with descriptors, skips header stuffing, and gathers SPS, PPS, SEI and IDR (PES without PTS) into one keyframe', () => {
    const first = hexFixture('srs-gb-camera-packet1.hex');
    // The IDR PES is 0x3562 bytes long; complete it, then the next frame's pack header and PES.
    const filler = new Uint8Array(6 + 0x3562 - 16).fill(0x88);
    const next = new PsMuxer([{ streamId: 0xe0, streamType: 0x1b }]).frame({
      streamId: 0xe0,
      pts: 109496722 + 3600 /* the first PES's PTS + 40 ms */,
      data: Uint8Array.of(0, 0, 0, 1, 0x41, 0x9a),
    });
    const d = new PsDemuxer();
    const frames = [...d.push(first), ...d.push(filler), ...d.push(next), ...d.flush()];
    expect(d.streamMap).toEqual([
      { streamType: 0x1b, streamId: 0xe0 },
      { streamType: 0x0f, streamId: 0xc0 },
    ]);
    const video = videoOf(frames);
    expect(video).toHaveLength(2);
    expect(video[0]).toMatchObject({ codec: 'h264', keyframe: true });
    expect(video[0].nalus.map((n) => n[0] & 0x1f)).toEqual([7, 8, 6, 5]);
    expect(parseH264Sps(video[0].nalus[0])).toMatchObject({ width: 640, height: 480 });
    expect(video[1].pts - video[0].pts).toBe(3600);
    expect(d.stats.badHeaders).toBe(0);
  });
});

describe('transport events and edge cases', () => {
  const streams = [
    { streamId: 0xe0, streamType: StreamType.h264 },
    { streamId: 0xc0, streamType: StreamType.pcma },
  ];
  const idr = Uint8Array.of(0, 0, 0, 1, 0x67, 0x42, 0, 0x1e, 0, 0, 0, 1, 0x68, 0xce, 0, 0, 0, 1, 0x65, 0x88, 0x84);
  const p = Uint8Array.of(0, 0, 0, 1, 0x41, 0x9a, 0x02);

  it('the RTP marker finishes a frame at once; a marker before any picture does not', () => {
    const mux = new PsMuxer(streams);
    const d = new PsDemuxer();
    expect(d.push(mux.frame({ streamId: 0xe0, pts: 1000, keyframe: true, data: idr.subarray(0, 17) }))).toEqual([]);
    expect(d.endOfFrame()).toEqual([]); // parameter sets only, no slice yet
    d.push(mux.frame({ streamId: 0xe0, pts: 1000, data: idr.subarray(17) }));
    const out = d.endOfFrame();
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ kind: 'video', keyframe: true, pts: 1000 });
    expect((out[0] as PsVideoFrame).nalus).toHaveLength(3);
  });

  it('a frame split into several PES (only the first with a PTS) is one frame; a lost packet marks it damaged', () => {
    const mux = new PsMuxer(streams, { maxPes: 4 });
    const d = new PsDemuxer();
    const bytes = mux.frame({ streamId: 0xe0, pts: 5000, keyframe: true, data: idr });
    // All but the last PES (the end of the IDR slice), then a gap.
    d.push(bytes.subarray(0, bytes.length - 10));
    d.lost();
    const out = [
      ...d.push(mux.frame({ streamId: 0xe0, pts: 8600, data: p })),
      ...d.push(mux.frame({ streamId: 0xe0, pts: 12200, data: p })),
      ...d.flush(),
    ] as PsVideoFrame[];
    expect(out.map((f) => [f.pts, f.damaged])).toEqual([
      [5000, true],
      [8600, false],
      [12200, false],
    ]);
  });

  it('timestamps are unwrapped past the 33-bit wrap', () => {
    const mux = new PsMuxer(streams);
    const d = new PsDemuxer();
    const start = 2 ** 33 - 3600;
    const out: PsFrame[] = [];
    for (let i = 0; i < 4; i++)
      out.push(
        ...d.push(
          mux.frame({ streamId: 0xe0, pts: (start + i * 3600) % 2 ** 33, keyframe: i === 0, data: i ? p : idr }),
        ),
      );
    out.push(...d.flush());
    expect(out.map((f) => f.pts - out[0].pts)).toEqual([0, 3600, 7200, 10800]);
  });

  it('streams of a type it cannot play (MPEG-4 video 0x10) are reported and dropped', () => {
    const mux = new PsMuxer([{ streamId: 0xe0, streamType: StreamType.mpeg4Video }]);
    const d = new PsDemuxer();
    const out = [
      ...d.push(mux.frame({ streamId: 0xe0, pts: 0, keyframe: true, data: Uint8Array.of(0, 0, 1, 0xb6, 1, 2) })),
      ...d.flush(),
    ];
    expect(out).toEqual([]);
    expect([...d.unsupported]).toEqual([[0xe0, 0x10]]);
    expect(d.stats.dropped).toBe(1);
  });

  it('pack header stuffing and private/padding streams are skipped', () => {
    const mux = new PsMuxer(streams, { stuffing: 7 });
    const padding = Uint8Array.of(0, 0, 1, 0xbe, 0, 4, 0xff, 0xff, 0xff, 0xff);
    const priv = Uint8Array.of(0, 0, 1, 0xbd, 0, 3, 0, 0, 1);
    const d = new PsDemuxer();
    const out = [
      ...d.push(mux.frame({ streamId: 0xe0, pts: 0, keyframe: true, data: idr })),
      ...d.push(padding),
      ...d.push(priv),
      ...d.push(mux.frame({ streamId: 0xe0, pts: 3600, data: p })),
      ...d.flush(),
    ];
    expect(out.map((f) => f.pts)).toEqual([0, 3600]);
    expect(d.stats).toMatchObject({ skipped: 2, badHeaders: 0 });
  });

  it('an unbounded video PES (length 0) ends at the next start code', () => {
    const pes = Uint8Array.of(0, 0, 1, 0xe0, 0, 0, 0x80, 0x80, 5, 0x21, 0, 1, 0, 1, ...idr);
    const mux = new PsMuxer(streams);
    const d = new PsDemuxer();
    const out = [
      ...d.push(pes),
      ...d.push(mux.frame({ streamId: 0xe0, pts: 3600, data: p })),
      ...d.flush(),
    ] as PsVideoFrame[];
    expect(out.map((f) => [f.pts, f.nalus.length])).toEqual([
      [0, 3],
      [3600, 1],
    ]);
  });
});

describe('AAC in ADTS that no MP4 config can describe', () => {
  /** An ADTS frame (no CRC): AAC LC, 44.1 kHz, the given channel configuration, `payload` bytes. */
  const adts = (channelConfig: number, payload: number) => {
    const len = 7 + payload;
    const b = new Uint8Array(len);
    b.set([0xff, 0xf1, (1 << 6) | (4 << 2) | (channelConfig >> 2), ((channelConfig & 3) << 6) | (len >> 11), (len >> 3) & 0xff, ((len & 7) << 5) | 0x1f, 0xfc]);
    return b;
  };

  it('channel configuration 0 (a PCE in the frame) is dropped and counted, not thrown; good frames around it come out on time', () => {
    const mux = new PsMuxer([{ streamId: 0xc0, streamType: StreamType.aac }]);
    const pes = [adts(1, 30), adts(0, 30), adts(1, 30)].map((data, i) => mux.frame({ streamId: 0xc0, pts: 9000 + i * 2090, keyframe: i === 0, data }));
    const d = new PsDemuxer();
    let frames: PsFrame[] = [];
    expect(() => (frames = demux(Buffer.concat(pes), 1400, d))).not.toThrow();
    const audio = audioOf(frames);
    expect(audio).toHaveLength(2);
    expect(audio.map((f) => f.channels)).toEqual([1, 1]);
    expect(audio[1].pts - audio[0].pts).toBe(2 * 2090);
    expect(d.stats).toMatchObject({ dropped: 1 });
  });
});

