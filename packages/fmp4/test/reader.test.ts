/**
 * The reader against what the writer makes: init facts and codec strings equal the tracks', moof
 * facts equal the Fragmenter's, rewriteMoof patches only mfhd/tfdt, and truncateFragment keeps a
 * decodable prefix (read back by ffprobe).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { BoxError, boxHeader, childBoxes, findBox, mimeOfInit, readInit, readMoof, rewriteMoof, truncateFragment } from '../src/index.js';
import { cleanup, decodeErrors, ffprobe, hasFfmpeg, tmpFile } from './helpers/ffprobe.js';
import { concat, mux } from './helpers/mux.js';
import { aacStream, alawStream, videoStream } from './helpers/streams.js';

afterAll(cleanup);

const H264 = 'h264-320x240-25fps-bf2.h264';
const video = videoStream('h264', H264);
const aac = aacStream('aac-48k-stereo.adts', Math.round(1.4 * 48000));

describe('readInit', () => {
  it('tells track ids, timescales, kinds, sample entries and the codec strings of the tracks', () => {
    const m = mux([video, aac], { maxFragmentDuration: 0.5 });
    const info = readInit(m.init);
    expect(info.tracks.map((t) => [t.trackId, t.timescale, t.kind, t.entry])).toEqual([
      [1, 90000, 'video', 'avc1'],
      [2, 48000, 'audio', 'mp4a'],
    ]);
    expect(info.tracks.map((t) => t.codecString)).toEqual([video.track.codecString, aac.track.codecString]);
    expect(info.primary.trackId).toBe(1);
    expect(mimeOfInit(info)).toBe(`video/mp4; codecs="${video.track.codecString},${aac.track.codecString}"`);
  });
  it('G.711 is alaw; H.265 gives its hvc1 string', () => {
    const a = mux([video, alawStream('g711a-8k-mono.alaw', Math.round(1.4 * 8000))]);
    expect(readInit(a.init).tracks[1]).toMatchObject({ entry: 'alaw', codecString: 'alaw', timescale: 8000 });
    const h265 = videoStream('h265', 'h265-320x240-25fps-bf2.hevc');
    expect(readInit(mux([h265]).init).tracks[0].codecString).toBe(h265.track.codecString);
  });
  it('refuses bytes without a moov', () => {
    expect(() => readInit(new Uint8Array([0, 0, 0, 8, 0x66, 0x72, 0x65, 0x65]))).toThrow(BoxError);
  });
});

describe('readMoof', () => {
  it('sequence, per-track decode time, duration, count and sync equal the Fragmenter output', () => {
    const m = mux([video, aac], { maxFragmentDuration: 0.5 });
    const init = readInit(m.init);
    for (const f of m.fragments) {
      const size = boxHeader(f.data, 0)!.size;
      const info = readMoof(f.data.subarray(0, size), init);
      expect(info.sequence).toBe(f.sequence);
      for (const t of f.tracks) {
        const traf = info.trafs.find((x) => x.trackId === t.trackId)!;
        expect(traf).toMatchObject({ baseDecodeTime: t.baseDecodeTime, sampleCount: t.sampleCount, duration: t.duration });
      }
      expect(info.trafs.find((x) => x.trackId === 1)?.sync ?? false).toBe(f.keyframe);
    }
    expect(m.fragments.some((f) => !f.keyframe)).toBe(true);
  });
});

describe('rewriteMoof', () => {
  it('changes mfhd and tfdt only, keeps the size; a shifted file still plays with the new times', () => {
    const m = mux([video, aac], { maxFragmentDuration: 0.5 });
    const shift = 90000 * 100;
    const out = m.fragments.map((f, i) => {
      const size = boxHeader(f.data, 0)!.size;
      const moof = rewriteMoof(f.data.subarray(0, size), 1000 + i, (id, cur) => cur + (id === 1 ? shift : 48000 * 100));
      expect(moof.length).toBe(size);
      const info = readMoof(moof);
      expect(info.sequence).toBe(1000 + i);
      expect(info.trafs[0].baseDecodeTime).toBe(f.tracks[0].baseDecodeTime + shift);
      let diff = 0;
      for (let k = 0; k < size; k++) if (moof[k] !== f.data[k]) diff++;
      expect(diff).toBeLessThanOrEqual(4 + 8 * info.trafs.length);
      return concat([moof, f.data.subarray(size)]);
    });
    if (!hasFfmpeg) return;
    const file = tmpFile('shifted.mp4', concat([m.init, ...out]));
    expect(decodeErrors(file)).toBe('');
    const probe = ffprobe(file);
    expect(probe.frames.filter((f) => f.stream_index === 0)).toHaveLength(video.units.length);
    expect(Math.min(...probe.frames.filter((f) => f.stream_index === 0).map((f) => f.pts!))).toBeGreaterThanOrEqual(shift);
  });
  it('a version 0 tfdt that would need 64 bits throws', () => {
    const m = mux([video]);
    const f = m.fragments[0].data;
    const size = boxHeader(f, 0)!.size;
    const moof = new Uint8Array(f.subarray(0, size));
    const traf = childBoxes(moof, 8, size).find((b) => b.type === 'traf')!;
    const tfdt = childBoxes(moof, traf.start + 8, traf.end).find((b) => b.type === 'tfdt')!;
    // make it a v0 box of the same size: version byte 0, the value in the first 4 bytes, 4 bytes of padding stay
    moof[tfdt.start + 8] = 0;
    expect(() => rewriteMoof(moof, 1, () => 2 ** 33)).toThrow(RangeError);
    expect(readMoof(rewriteMoof(moof, 1, () => 77)).trafs[0].baseDecodeTime).toBe(77);
  });
});

describe('truncateFragment', () => {
  it('keeps the samples before the limit, per track, as a fragment ffprobe decodes', () => {
    const m = mux([video, aac], { maxFragmentDuration: 2 });
    const f = m.fragments[0];
    const init = readInit(m.init);
    const v = f.tracks[0];
    const a = f.tracks[1];
    const limitV = v.baseDecodeTime + Math.floor(v.duration / 2);
    const limitA = a.baseDecodeTime + Math.floor(a.duration / 2);
    const cut = truncateFragment(f.data, (id) => (id === 1 ? limitV : limitA), init)!;
    expect(cut.length).toBeLessThan(f.data.length);
    const info = readMoof(cut.subarray(0, boxHeader(cut, 0)!.size), init);
    const tv = info.trafs[0];
    expect(tv.sampleCount).toBeGreaterThan(0);
    expect(tv.sampleCount).toBeLessThan(v.sampleCount);
    expect(tv.baseDecodeTime + tv.duration).toBeGreaterThanOrEqual(limitV);
    expect(tv.baseDecodeTime + tv.duration - (tv.duration / tv.sampleCount) * 1.01).toBeLessThan(limitV);
    // nothing cut: the same bytes; nothing kept: undefined
    expect(truncateFragment(f.data, () => Infinity, init)).toBe(f.data);
    expect(truncateFragment(f.data, () => 0, init)).toBeUndefined();
    expect(findBox(cut, ['moof', 'traf', 'trun'])).toBeDefined();
    if (!hasFfmpeg) return;
    const file = tmpFile('cut.mp4', concat([m.init, cut]));
    expect(decodeErrors(file)).toBe('');
    const probe = ffprobe(file);
    expect(probe.frames.filter((x) => x.stream_index === 0)).toHaveLength(tv.sampleCount);
  });
});
