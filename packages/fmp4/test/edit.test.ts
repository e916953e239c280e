/**
 * Init rewrites: withTracks leaves a track out (with truncateFragment dropping its samples, ffmpeg
 * reads a file with the other tracks only); withEditList writes one edit per track, the durations
 * and a mehd, and ffmpeg applies the edit's media time. Checked on what the Fragmenter writes.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { BoxError, findBox, readInit, truncateFragment, withEditList, withTracks } from '../src/index.js';
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
