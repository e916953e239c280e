/**
 * Init rewrites: withTracks leaves a track out (with truncateFragment dropping its samples, ffmpeg
 * reads a file with the other tracks only); withEditList writes one edit per track, the durations
 * and a mehd, and ffmpeg applies the edit's media time. Checked on what the Fragmenter writes.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BoxError, childBoxes, findBox, progressiveHeader, readFragmentSamples, readInit, truncateFragment, withEditList, withTracks, type ProgressiveTrack } from '../src/index.js';
import { cleanup, decodeErrors, ffprobe, hasFfmpeg, tmpFile } from './helpers/ffprobe.js';
import { concat, mux } from './helpers/mux.js';
import { alawStream, videoStream } from './helpers/streams.js';

afterAll(cleanup);

const video = videoStream('h264', 'h264-320x240-25fps-bf2.h264');
const alaw = alawStream('g711a-8k-mono.alaw');
const u32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getUint32(at);

describe('withTracks', () => {
  it('leaves the G.711 track out of the init and, with truncateFragment, out of the fragments', () => {
    const m = mux([video, alaw], { maxFragmentDuration: 0.5 });
    const init = withTracks(m.init, (id) => id === 1);
    const info = readInit(init);
    expect(info.tracks.map((t) => [t.trackId, t.entry])).toEqual([[1, 'avc1']]);
    const frags = m.fragments.map((f) => truncateFragment(f.data, (id) => (id === 1 ? Infinity : -Infinity), readInit(m.init))).filter((f): f is Uint8Array => !!f);
    expect(frags.length).toBeGreaterThan(2);
    if (!hasFfmpeg) return;
    const file = tmpFile('video-only.mp4', concat([init, ...frags]));
    expect(decodeErrors(file)).toBe('');
    expect(ffprobe(file, false).streams.map((s) => s.codec_name)).toEqual(['h264']);
  });
  it('refuses to leave no track', () => {
    const m = mux([video]);
    expect(() => withTracks(m.init, () => false)).toThrow(BoxError);
  });
});

describe('withEditList', () => {
  it('writes an edit per track (media time in the track timescale, duration in the movie timescale), mvhd/tkhd durations and mehd', () => {
    const m = mux([video, alaw], { maxFragmentDuration: 0.5 });
    const init = withEditList(m.init, { durationMs: 1000, startSeconds: 0.4 });
    expect(readInit(init).tracks).toEqual(readInit(m.init).tracks);
    const mvhd = findBox(init, ['moov', 'mvhd'])!;
    expect(u32(init, mvhd.start + 24)).toBe(1000);
    const mehd = findBox(init, ['moov', 'mvex', 'mehd'])!;
    expect(u32(init, mehd.start + 12)).toBe(1000);
    const elst = findBox(init, ['moov', 'trak', 'edts', 'elst'])!;
    expect([u32(init, elst.start + 12), u32(init, elst.start + 16), u32(init, elst.start + 20)]).toEqual([1, 1000, 0.4 * 90000]);
    if (!hasFfmpeg) return;
    const file = tmpFile('edit.mp4', concat([init, ...m.fragments.map((f) => f.data)]));
    expect(decodeErrors(file)).toBe('');
    const r = spawnSync('ffprobe', ['-v', 'error', '-show_entries', 'format=start_time', '-of', 'csv=p=0', file]);
    expect(Number(r.stdout.toString())).toBeCloseTo(-0.4, 2); // ffmpeg moves the timeline by the edit's media time
  });
});

describe('progressiveHeader with readFragmentSamples', () => {
  it('rewrites fragments as one progressive movie: same frames, and the edit list trims it to the asked range', () => {
    const m = mux([video, alaw], { maxFragmentDuration: 0.5 });
    const info = readInit(m.init);
    const tracks = new Map<number, ProgressiveTrack>();
    const data: Uint8Array[] = [];
    let mdat = 0;
    for (const f of m.fragments) {
      const moofSize = u32(f.data, 0);
      for (const t of readFragmentSamples(f.data.subarray(0, moofSize), info)) {
        const tk = tracks.get(t.trackId) ?? { trackId: t.trackId, durations: [], sizes: [], flags: [], cts: [], chunks: [], startSeconds: t.baseDecodeTime / info.tracks.find((x) => x.trackId === t.trackId)!.timescale };
        tracks.set(t.trackId, tk);
        tk.durations.push(...t.durations);
        tk.sizes.push(...t.sizes);
        tk.flags.push(...t.flags);
        tk.cts.push(...t.cts);
        const bytes = t.sizes.reduce((n, s) => n + s, 0);
        tk.chunks.push({ samples: t.sizes.length, offset: mdat });
        data.push(f.data.subarray(t.dataOffset, t.dataOffset + bytes));
        mdat += bytes;
      }
    }
    const frames = tracks.get(1)!.durations.length;
    const header = progressiveHeader(m.init, [...tracks.values()], { durationMs: 1000, startSeconds: 0.4, mdatSize: mdat });
    expect(childBoxes(header, 0, header.length).map((b) => b.type)).toEqual(['ftyp', 'moov']);
    if (!hasFfmpeg) return;
    const file = tmpFile('progressive.mp4', concat([header, ...data]));
    expect(decodeErrors(file)).toBe('');
    const r = spawnSync('ffprobe', ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'format=duration:stream=nb_read_frames', '-of', 'json', file]);
    const j = JSON.parse(r.stdout.toString());
    expect(Number(j.format.duration)).toBeCloseTo(1, 1);
    expect(Number(j.streams[0].nb_read_frames)).toBe(25); // 1 s of 25 fps, of the file's `frames`
    expect(frames).toBeGreaterThan(25);
  });
  it('readFragmentSamples refuses random bytes with a BoxError, never another exception', () => {
    const info = readInit(mux([video]).init);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const b = new Uint8Array(bytes.length + 8);
        new DataView(b.buffer).setUint32(0, b.length);
        b.set([0x6d, 0x6f, 0x6f, 0x66], 4); // 'moof'
        b.set(bytes, 8);
        try {
          readFragmentSamples(b, info);
        } catch (err) {
          expect(err).toBeInstanceOf(BoxError);
        }
      }),
    );
  });
});
