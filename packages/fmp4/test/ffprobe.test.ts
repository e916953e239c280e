/**
 * Golden checks: fixture streams (fixtures/make.sh) muxed by the Fragmenter and read back by Debian's
 * ffprobe 5.1 — codecs, sizes, frame counts, keyframe positions, timestamps equal to the input's, a
 * clean decode — plus the MSE shape (init segment alone, init + first fragment) and avcC/hvcC against
 * the records ffmpeg's own mp4 muxer writes.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { AccessUnit, Track } from '@opencvr/codec';
import { initSegment } from '../src/index.js';
import { one, walk } from './helpers/boxes.js';
import { cleanup, decodeErrors, ffprobe, hasFfmpeg, hasLibx265, tmpFile } from './helpers/ffprobe.js';
import { concat, mux, type Input } from './helpers/mux.js';
import { aacStream, alawStream, FIXTURES, videoStream, type VideoStream } from './helpers/streams.js';

afterAll(cleanup);

const H264 = 'h264-320x240-25fps-bf2.h264';
const H265 = 'h265-320x240-25fps-bf2.hevc';
/** The video fixtures' first dts is 126000 (1.4 s, MPEG-TS's default start); audio is aligned to it. */
const START_S = 1.4;

const clock = (t: Track) => (t.kind === 'video' ? 90000 : t.sampleRate);
const dts = (u: AccessUnit) => (u.kind === 'video' ? u.dts : u.pts);
/** The Fragmenter's origin: the earliest first decode time across inputs, in seconds. */
const originOf = (inputs: Input[]) => Math.min(...inputs.map((i) => dts(i.units[0]) / clock(i.track)));

function checkVideo(file: string, input: VideoStream, origin: number, streamIndex: number) {
  const probe = ffprobe(file);
  const s = probe.streams[streamIndex];
  expect(s).toMatchObject({
    codec_type: 'video',
    codec_name: input.track.codec === 'h264' ? 'h264' : 'hevc',
    width: 320,
    height: 240,
  });
  expect(s.time_base).toBe('1/90000');
  const frames = probe.frames.filter((f) => f.stream_index === streamIndex);
  expect(frames).toHaveLength(input.units.length);
  const shift = Math.round(origin * 90000);
  const pts = frames.map((f) => f.pts!);
  for (let i = 1; i < pts.length; i++) expect(pts[i]).toBeGreaterThan(pts[i - 1]);
  expect(pts).toEqual(input.units.map((u) => u.pts - shift).sort((a, b) => a - b));
  const keyPts = frames.filter((f) => f.key_frame).map((f) => f.pts);
  expect(keyPts).toEqual(input.units.filter((u) => u.keyframe).map((u) => u.pts - shift));
  expect(keyPts).toHaveLength(2); // GOP 25 at 25 fps over 2 s
  return probe;
}

function checkAudio(file: string, input: Input, origin: number, streamIndex: number, codec: string) {
  const probe = ffprobe(file);
  const t = input.track;
  if (t.kind !== 'audio') throw new Error('audio input expected');
  expect(probe.streams[streamIndex]).toMatchObject({
    codec_type: 'audio',
    codec_name: codec,
    sample_rate: String(t.sampleRate),
    channels: t.channels,
  });
  const frames = probe.frames.filter((f) => f.stream_index === streamIndex);
  const shift = Math.round(origin * t.sampleRate);
  if (codec === 'aac') {
    expect(frames).toHaveLength(input.units.length);
    expect(frames.map((f) => f.pts)).toEqual(input.units.map((u) => dts(u) - shift));
  } else {
    // PCM: ffmpeg regroups samples into its own frames; the samples and the start still match.
    expect(frames.reduce((n, f) => n + f.nb_samples!, 0)).toBe(
      input.units.reduce((n, u) => n + (u.kind === 'audio' ? u.data.length : 0), 0),
    );
    expect(frames[0].pts).toBe(dts(input.units[0]) - shift);
  }
}

describe.skipIf(!hasFfmpeg)('ffprobe reads back what the Fragmenter writes', () => {
  it('H.264 (High, B-frames) + AAC-LC 48 kHz stereo, 500 ms live fragments', () => {
    const video = videoStream('h264', H264);
    const audio = aacStream('aac-48k-stereo.adts', START_S * 48000);
    const inputs = [video, audio];
    const { file, fragments } = mux(inputs, { maxFragmentDuration: 0.5 });
    const path = tmpFile('h264-aac.mp4', file);
    const origin = originOf(inputs);
    checkVideo(path, video, origin, 0);
    checkAudio(path, audio, origin, 1, 'aac');
    expect(decodeErrors(path)).toBe('');
    // A fragment starts at each of the two keyframes; the 1 s GOPs are cut by the 500 ms limit into
    // 12 + 12 + 1 frames (a 13th frame would make 0.52 s).
    expect(fragments.map((f) => [f.keyframe, f.tracks[0].sampleCount])).toEqual([
      [true, 12],
      [false, 12],
      [false, 1],
      [true, 12],
      [false, 12],
      [false, 1],
    ]);
    expect(fragments.filter((f) => f.keyframe).map((f) => f.presentationTime)).toEqual([0.08, 1.08]);
    for (const f of fragments) expect(f.duration).toBeLessThanOrEqual(0.5);
  });

  it.skipIf(!hasLibx265)('H.265 (Main, B-frames) + AAC, 2 s recorder fragments', () => {
    const video = videoStream('h265', H265);
    const audio = aacStream('aac-48k-stereo.adts', START_S * 48000);
    const inputs = [video, audio];
    const { file, fragments } = mux(inputs, { maxFragmentDuration: 2 });
    const path = tmpFile('h265-aac.mp4', file);
    const origin = originOf(inputs);
    const probe = checkVideo(path, video, origin, 0);
    expect(probe.streams[0]).toMatchObject({ codec_tag_string: 'hvc1' });
    checkAudio(path, audio, origin, 1, 'aac');
    expect(decodeErrors(path)).toBe('');
    expect(fragments.map((f) => f.keyframe)).toEqual([true, true]); // one fragment per GOP
  });

  it('H.264 video only', () => {
    const video = videoStream('h264', H264);
    const { file, fragments } = mux([video], { maxFragmentDuration: 2 });
    const path = tmpFile('h264.mp4', file);
    checkVideo(path, video, video.units[0].dts / 90000, 0);
    expect(decodeErrors(path)).toBe('');
    expect(fragments.map((f) => [f.keyframe, f.startTime, f.duration])).toEqual([
      [true, 0, 1],
      [true, 1, 1],
    ]);
  });

  it('H.264 + G.711 A-law 8 kHz mono (alaw sample entry)', () => {
    const video = videoStream('h264', H264);
    const audio = alawStream('g711a-8k-mono.alaw', START_S * 8000);
    const inputs = [video, audio];
    const path = tmpFile('h264-alaw.mp4', mux(inputs).file);
    const origin = originOf(inputs);
    checkVideo(path, video, origin, 0);
    checkAudio(path, audio, origin, 1, 'pcm_alaw');
    expect(decodeErrors(path)).toBe('');
  });

  it('AAC audio only: every fragment can start playback', () => {
    const audio = aacStream('aac-48k-stereo.adts', 1234567);
    const { file, fragments } = mux([audio], { maxFragmentDuration: 0.5 });
    const path = tmpFile('aac.mp4', file);
    checkAudio(path, audio, 1234567 / 48000, 0, 'aac');
    expect(decodeErrors(path)).toBe('');
    expect(fragments.length).toBeGreaterThanOrEqual(4);
    expect(fragments.every((f) => f.keyframe)).toBe(true);
  });

  it('MSE shape: the init segment alone, then init + first fragment', () => {
    const video = videoStream('h264', H264);
    const audio = aacStream('aac-48k-stereo.adts', START_S * 48000);
    const { init, fragments } = mux([video, audio], { maxFragmentDuration: 0.5 });
    const alone = ffprobe(tmpFile('init.mp4', init), false);
    expect(alone.streams.map((s) => [s.codec_name, s.width ?? s.sample_rate])).toEqual([
      ['h264', 320],
      ['aac', '48000'],
    ]);
    const first = fragments[0];
    const path = tmpFile('init-frag1.mp4', concat([init, first.data]));
    const probe = ffprobe(path);
    expect(probe.frames.filter((f) => f.stream_index === 0)).toHaveLength(first.tracks[0].sampleCount);
    expect(probe.frames.filter((f) => f.stream_index === 1)).toHaveLength(first.tracks[1].sampleCount);
    expect(probe.frames.find((f) => f.stream_index === 0)?.key_frame).toBe(1);
    expect(decodeErrors(path)).toBe('');
  });
});

/** The sample entry's config record that ffmpeg's own mp4 muxer writes for a fixture. */
function ffmpegConfigRecord(fixture: string, format: string, entry: string, record: string): Uint8Array {
  const out = tmpFile(`${record}.mp4`, new Uint8Array(0));
  const r = spawnSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    format,
    '-i',
    `${FIXTURES}/${fixture}`,
    '-c',
    'copy',
    '-f',
    'mp4',
    out,
  ]);
  if (r.status !== 0) throw new Error(`ffmpeg: ${r.stderr}`);
  const bytes = new Uint8Array(fs.readFileSync(out));
  const box = one(walk(bytes), `moov/trak/mdia/minf/stbl/stsd/${entry}/${record}`);
  return bytes.subarray(box.start + 8, box.start + box.size);
}

/** The config record in our init segment for a track. */
function ourConfigRecord(track: Track, entry: string, record: string): Uint8Array {
  const init = initSegment([track]);
  const box = one(walk(init), `moov/trak/mdia/minf/stbl/stsd/${entry}/${record}`);
  return init.subarray(box.start + 8, box.start + box.size);
}

describe.skipIf(!hasFfmpeg)('init segment config records match the ffmpeg mp4 muxer', () => {
  it('avcC', () => {
    const { track } = videoStream('h264', H264);
    const ours = ourConfigRecord(track, 'avc1', 'avcC');
    // Byte for byte, including the High-profile tail (4:2:0, 8-bit, no SPS extensions).
    expect(ours).toEqual(ffmpegConfigRecord(H264, 'h264', 'avc1', 'avcC'));
    expect([...ours.subarray(-4)]).toEqual([0xfd, 0xf8, 0xf8, 0]);
  });

  it.skipIf(!hasLibx265)('hvcC', () => {
    const { track } = videoStream('h265', H265);
    const ours = ourConfigRecord(track, 'hvc1', 'hvcC');
    const theirs = ffmpegConfigRecord(H265, 'hevc', 'hev1', 'hvcC');
    // Byte for byte except array_completeness: 1 in ours (hvc1: parameter sets only in hvcC), 0 in
    // ffmpeg's hev1 (parameter sets may repeat in band).
    const arrays = [23, 28 + track.vps!.length, 33 + track.vps!.length + track.sps.length];
    expect(arrays.map((at) => ours[at])).toEqual([0xa0, 0xa1, 0xa2]);
    const incomplete = ours.slice();
    for (const at of arrays) incomplete[at] &= 0x7f;
    expect(incomplete).toEqual(theirs);
  });
});
