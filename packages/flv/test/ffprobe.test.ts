/**
 * Read-back by Debian's ffprobe/ffmpeg 5.1: the fixture streams (see ../../fmp4/test/fixtures/make.sh)
 * muxed to FLV decode cleanly with the right codecs, sizes, frame counts, keyframes and timestamps.
 * ffmpeg 5.1 reads neither enhanced-RTMP HEVC (added in 6.1) nor codec id 12 (never upstream), so the
 * H.265 read-back runs only with ffmpeg ≥ 6.1.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import type { AccessUnit, Track } from '@opencvr/codec';
import { FlvMuxer } from '../src/index.js';
import {
  aacStream,
  alawStream,
  cleanup,
  decodeErrors,
  ffprobe,
  hasFfmpeg,
  tmpFile,
  videoStream,
} from './helpers/fixtures.js';

afterAll(cleanup);

const ffmpegMajor = hasFfmpeg
  ? Number(/ffmpeg version (\d+)\.(\d+)/.exec(execFileSync('ffmpeg', ['-version']).toString())?.[1] ?? 0)
  : 0;
const ffmpegMinor = hasFfmpeg
  ? Number(/ffmpeg version (\d+)\.(\d+)/.exec(execFileSync('ffmpeg', ['-version']).toString())?.[2] ?? 0)
  : 0;
const readsEnhancedFlv = ffmpegMajor > 6 || (ffmpegMajor === 6 && ffmpegMinor >= 1);

/** Interleaves units of several tracks by time, as a hub would deliver them. */
function mux(inputs: { track: Track; units: AccessUnit[] }[], opts = {}) {
  const tracks = inputs.map((i) => i.track);
  const m = new FlvMuxer(tracks, opts);
  const seconds = (i: number, u: AccessUnit) =>
    u.kind === 'video' ? u.dts / 90000 : u.pts / (tracks[i] as { sampleRate: number }).sampleRate;
  const all = inputs.flatMap((inp, i) => inp.units.map((u) => ({ i, u, t: seconds(i, u) }))).sort((a, b) => a.t - b.t);
  const out = [m.header()];
  for (const { i, u } of all) out.push(...m.push(u, i));
  out.push(m.end());
  return Buffer.concat(out);
}

describe.skipIf(!hasFfmpeg)('ffprobe reads muxed FLV', () => {
  it("H.264 + AAC: 320x240, every frame, both keyframes, pts equal to the input's in ms", () => {
    const v = videoStream('h264', 'h264-320x240-25fps-bf2.h264');
    const a = aacStream('aac-48k-stereo.adts', Math.round((126000 / 90000) * 48000));
    const file = tmpFile('h264-aac.flv', mux([v, a]));
    const probe = ffprobe(file);
    const vs = probe.streams.find((s) => s.codec_type === 'video')!;
    const as = probe.streams.find((s) => s.codec_type === 'audio')!;
    expect(vs).toMatchObject({ codec_name: 'h264', width: 320, height: 240, time_base: '1/1000' });
    expect(as).toMatchObject({ codec_name: 'aac', sample_rate: '48000', channels: 2 });
    const frames = probe.frames.filter((f) => f.stream_index === vs.index);
    expect(frames).toHaveLength(v.units.length);
    const first = v.units[0].dts;
    expect(frames.map((f) => f.pts)).toEqual(
      v.units.map((u) => Math.round((u.pts - first) / 90)).sort((x, y) => x - y),
    );
    expect(frames.filter((f) => f.key_frame).map((f) => f.pts)).toEqual(
      v.units.filter((u) => u.keyframe).map((u) => Math.round((u.pts - first) / 90)),
    );
    expect(probe.frames.filter((f) => f.stream_index === as.index).length).toBe(a.units.length);
    expect(decodeErrors(file)).toBe('');
  });

  it('G.711 A-law alone and with H.264', () => {
    const a = alawStream('g711a-8k-mono.alaw');
    const file = tmpFile('alaw.flv', mux([a]));
    const probe = ffprobe(file);
    expect(probe.streams).toMatchObject([{ codec_name: 'pcm_alaw', sample_rate: '8000', channels: 1 }]);
    expect(probe.frames.reduce((n, f) => n + (f.nb_samples ?? 0), 0)).toBe(16000);
    expect(decodeErrors(file)).toBe('');
    const v = videoStream('h264', 'h264-320x240-25fps-bf2.h264');
    const both = tmpFile('h264-alaw.flv', mux([v, alawStream('g711a-8k-mono.alaw', (126000 / 90000) * 8000)]));
    expect(
      ffprobe(both, false)
        .streams.map((s) => s.codec_name)
        .sort(),
    ).toEqual(['h264', 'pcm_alaw']);
    expect(decodeErrors(both)).toBe('');
  });

  it.skipIf(!readsEnhancedFlv)('H.265 as enhanced FLV (ffmpeg ≥ 6.1)', () => {
    const v = videoStream('h265', 'h265-320x240-25fps-bf2.hevc');
    const file = tmpFile('h265.flv', mux([v]));
    const probe = ffprobe(file);
    expect(probe.streams[0]).toMatchObject({ codec_name: 'hevc', width: 320, height: 240 });
    expect(probe.frames).toHaveLength(v.units.length);
    expect(decodeErrors(file)).toBe('');
  });

  it('a camera that comes back with other parameters: one file, both pictures decode', () => {
    const v = videoStream('h264', 'h264-320x240-25fps-bf2.h264');
    const m = new FlvMuxer([v.track]);
    const out = [m.header()];
    for (const u of v.units) out.push(...m.push(u));
    out.push(m.retrack([v.track]));
    for (const u of v.units) out.push(...m.push({ ...u, dts: u.dts + 9_000_000, pts: u.pts + 9_000_000 }));
    const file = tmpFile('retrack.flv', Buffer.concat(out));
    // ffmpeg shows the second onMetaData as a data frame; the pictures are what matter
    const frames = ffprobe(file).frames.filter((f) => f.media_type === 'video');
    expect(frames).toHaveLength(2 * v.units.length);
    const pts = frames.map((f) => f.pts!);
    expect(Math.min(...pts.slice(v.units.length))).toBeGreaterThan(Math.max(...pts.slice(0, v.units.length - 3)));
    expect(decodeErrors(file)).toBe('');
  });
});
