/**
 * The FLV and HLS outputs with plain fakes (no server): bad units never throw into the hub, a change
 * of tracks restarts the sequence headers / init segment, slow FLV viewers skip to the next keyframe,
 * a stopped hub ends the connection. Units come from the fmp4 package's H.264 fixture.
 */
import { describe, expect, it } from 'vitest';
import { readFlv } from '@opencvr/flv';
import type { AccessUnit, Track, VideoTrack } from '@opencvr/codec';
import { FlvOutput, type FlvSink } from '../../src/media/outputs/flv.js';
import { HlsOutput } from '../../src/media/outputs/hls.js';
import { HlsSegmenter } from '../../src/media/outputs/hls-segmenter.js';
import { StreamHub, type MediaSource, type SourceSink } from '../../src/media/hub.js';
import { videoStream } from '../../../../packages/fmp4/test/helpers/streams.js';

const H264 = videoStream('h264', 'h264-320x240-25fps-bf2.h264');

function sink(buffered = () => 0) {
  const chunks: Uint8Array[] = [];
  let ended = false;
  const s: FlvSink = {
    buffered,
    open: () => !ended,
    write: (b) => void chunks.push(b),
    end: () => void (ended = true),
  };
  return { s, chunks, ended: () => ended };
}

describe('FlvOutput', () => {
  it('header, then tags; a unit the muxer refuses is dropped and counted, the next ones still go out', () => {
    const k = sink();
    const errors: unknown[] = [];
    const out = new FlvOutput(k.s, { maxBufferedBytes: 1 << 20, hevc: 'enhanced' }, (e) => errors.push(e));
    out.tracks([H264.track]);
    out.unit(0, H264.units[0]);
    // a unit too large for a tag (24-bit size)
    expect(() => out.unit(0, { ...H264.units[1], nalus: [new Uint8Array(0x1000001)] })).not.toThrow();
    out.unit(0, H264.units[2]);
    expect(errors).toHaveLength(1);
    expect(out.stats.errors).toBe(1);
    const f = readFlv(Buffer.concat(k.chunks));
    expect(f.tags.map((t) => t.type)).toEqual([18, 9, 9, 9]);
  });

  it('bad tracks: no muxer, nothing written, no throw', () => {
    const k = sink();
    const out = new FlvOutput(k.s);
    expect(() => out.tracks([{ ...H264.track, sps: Uint8Array.of(0x67) }])).not.toThrow();
    expect(() => out.unit(0, H264.units[0])).not.toThrow();
    expect(k.chunks).toHaveLength(0);
  });

  it('new tracks mid-stream: new metadata and sequence header in the same stream', () => {
    const k = sink();
    const out = new FlvOutput(k.s);
    out.tracks([H264.track]);
    for (const u of H264.units.slice(0, 5)) out.unit(0, u);
    const bigger: VideoTrack = { ...H264.track, width: 640, height: 480 };
    out.tracks([bigger]);
    out.unit(0, H264.units[0]);
    const tags = readFlv(Buffer.concat(k.chunks)).tags;
    expect(tags.filter((t) => t.type === 18)).toHaveLength(2);
    expect(tags.filter((t) => t.type === 9 && t.data[1] === 0)).toHaveLength(2); // two AVC sequence headers
  });

  it('a slow viewer drops units up to the next keyframe once its buffer is over the limit', () => {
    let buffered = 0;
    const k = sink(() => buffered);
    const out = new FlvOutput(k.s, { maxBufferedBytes: 1000, hevc: 'enhanced' });
    out.tracks([H264.track]);
    out.unit(0, H264.units[0]);
    buffered = 5000;
    out.unit(0, H264.units[1]);
    buffered = 0;
    for (const u of H264.units.slice(2, 25)) out.unit(0, u); // no keyframe among these (GOP 25)
    expect(out.stats.dropped).toBe(24);
    out.unit(0, H264.units[25]); // keyframe
    const frames = readFlv(Buffer.concat(k.chunks))
      .tags.filter((t) => t.type === 9)
      .slice(1);
    expect(frames.map((t) => t.data[0] >> 4)).toEqual([1, 1]); // only keyframes went out
  });

  it('a stopped hub ends the connection', () => {
    const k = sink();
    const out = new FlvOutput(k.s);
    out.state('live');
    expect(k.ended()).toBe(false);
    out.state('stopped');
    expect(k.ended()).toBe(true);
  });
});

describe('HlsOutput', () => {
  const seg = () =>
    new HlsSegmenter({ targetSegment: 1, partTarget: 0.5, windowSegments: 4, partSegments: 2, maxSegment: 10 });

  it('fragments units into parts and segments; a bad unit is dropped and counted', () => {
    const s = seg();
    const errors: unknown[] = [];
    const out = new HlsOutput(s, (e) => errors.push(e));
    out.tracks([H264.track]);
    expect(() => out.unit(3, H264.units[0])).not.toThrow(); // no such track
    for (const u of H264.units) out.unit(0, u);
    expect(errors).toHaveLength(1);
    const m = s.model();
    expect(m.segments[0]).toMatchObject({ msn: 1, duration: 1, map: 'init.mp4' });
    expect(m.segments[0].parts!.every((p) => p.duration <= 0.5)).toBe(true);
    expect(m.segments[0].parts![0].independent).toBe(true);
    expect(Buffer.from(s.init()!.subarray(4, 8)).toString()).toBe('ftyp');
  });

  it('new tracks: a new init generation and a discontinuity; in-band parameter sets unlike the init do the same', () => {
    const s = seg();
    const out = new HlsOutput(s);
    out.tracks([H264.track]);
    for (const u of H264.units) out.unit(0, u);
    out.tracks([H264.track]);
    for (const u of H264.units) out.unit(0, { ...u, dts: u.dts + 900000, pts: u.pts + 900000 });
    expect(s.initGeneration).toBe(1);
    const segs = s.model().segments;
    expect(segs.find((x) => x.discontinuity)).toMatchObject({ map: 'init_1.mp4' });
    // a keyframe whose SPS differs from the track's (level changed)
    const sps = Uint8Array.from(H264.track.sps);
    sps[3] = 0x1f;
    const key = H264.units.find((u) => u.kind === 'video' && u.keyframe)!;
    if (key.kind !== 'video') throw new Error('video');
    out.unit(0, {
      ...key,
      dts: key.dts + 1800000,
      pts: key.pts + 1800000,
      nalus: [sps, H264.track.pps, ...key.nalus.filter((n) => (n[0] & 0x1f) === 5)],
    });
    expect(s.initGeneration).toBe(2);
  });

  it('a reconnect: the parts still held go out before the discontinuity, none lost', () => {
    const s = seg();
    const out = new HlsOutput(s);
    out.tracks([H264.track]);
    for (const u of H264.units) out.unit(0, u);
    out.tracks([H264.track]);
    for (const u of H264.units) out.unit(0, { ...u, dts: u.dts + 900000, pts: u.pts + 900000 });
    const segs = s.model().segments;
    const at = segs.findIndex((x) => x.discontinuity);
    expect(at).toBeGreaterThan(0);
    const before = segs.slice(0, at).reduce((n, x) => n + (x.duration ?? 0), 0);
    // Every frame of the first run (25 fps) is in the playlist before the discontinuity.
    expect(before).toBeCloseTo(H264.units.length / 25, 3);
  });

  it('a stopped hub closes the session, with its words and reason', () => {
    const stopped: unknown[] = [];
    const out = new HlsOutput(seg(), undefined, (reason, why) => stopped.push({ reason, why }));
    out.state('stopped', 'the original stream is h264, not H.265', { key: 'streamOriginalNotHevc' });
    expect(stopped).toEqual([{ reason: 'the original stream is h264, not H.265', why: { key: 'streamOriginalNotHevc' } }]);
  });
});

describe('outputs on a hub', () => {
  it('a throwing-free chain: the hub delivers the cached GOP first, outputs start on the keyframe', () => {
    let sinkRef: SourceSink | undefined;
    const source: MediaSource = { start: (s) => void (sinkRef = s), stop: () => undefined };
    const hub = new StreamHub('stream_1_0', () => source, {
      onDemand: true,
      graceMs: 1000,
      retryMinMs: 10,
      retryMaxMs: 10,
      maxGopUnits: 100,
    });
    const k = sink();
    const unsubscribe = hub.subscribe(new FlvOutput(k.s));
    sinkRef!.tracks([H264.track] as Track[]);
    for (const u of H264.units.slice(0, 10)) sinkRef!.unit(0, u as AccessUnit);
    const late = sink();
    const unsubscribe2 = hub.subscribe(new FlvOutput(late.s)); // joins mid-GOP: gets the GOP from its keyframe
    expect(readFlv(Buffer.concat(late.chunks)).tags.filter((t) => t.type === 9)).toHaveLength(11);
    unsubscribe();
    unsubscribe2();
    hub.stop();
  });
});
