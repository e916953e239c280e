/**
 * RTMP messages to hub tracks and units (rtmp-media.ts), without a socket: the tags of an FLV that
 * ffmpeg wrote (H.264 with B-frames + AAC, fixtures/rtmp/h264-aac.flv: 10 pictures, 45 AAC frames;
 * an FLV tag body is the RTMP message body), H.265 as enhanced RTMP and as legacy codec id 12 (the
 * hub's own FLV muxer from the fmp4 fixture's units), G.711, audio the hub does not carry, the
 * metadata's hints, and times that wrap, interleave and start again. Random and mutated messages
 * throw nothing but RtmpMediaError.
 */
import fs from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AccessUnit, Track } from '@opencvr/codec';
import { Amf0EcmaArray, decodeAmf0, FlvMuxer, readFlv, type HevcMode } from '@opencvr/flv';
import { Fmp4StreamReader } from '@opencvr/fmp4';
import { RtmpMedia, RtmpMediaError, type RtmpMediaOptions } from '../../src/media/ingest/rtmp-media.js';
import { RtmpTimeline } from '../../src/media/ingest/rtmp-timeline.js';

const FLV = new Uint8Array(fs.readFileSync(new URL('../fixtures/rtmp/h264-aac.flv', import.meta.url)));
const tags = readFlv(FLV).tags;

function reader(opts: RtmpMediaOptions = { audio: true }) {
  const got = { tracks: [] as Track[][], units: [] as { track: number; unit: AccessUnit }[], unsupported: [] as string[] };
  const media = new RtmpMedia(
    {
      tracks: (t) => got.tracks.push(t),
      unit: (track, unit) => got.units.push({ track, unit }),
      unsupported: (kind, codec) => got.unsupported.push(`${kind}:${codec}`),
    },
    opts,
  );
  return { media, got };
}

/** Feeds FLV tags as RTMP messages (the metadata's object from onMetaData). */
function feed(media: RtmpMedia, list: { type: number; timestamp: number; data: Uint8Array }[]) {
  for (const t of list) {
    if (t.type === 9) media.videoMessage(t.timestamp, t.data);
    else if (t.type === 8) media.audioMessage(t.timestamp, t.data);
    else if (t.type === 18) {
      const [name, meta] = decodeAmf0(t.data);
      if (name === 'onMetaData' && meta instanceof Amf0EcmaArray) media.metadata(meta.entries);
    }
  }
}

/** The H.265 fixture's units as FLV tags in one of the two H.265 layouts. */
function hevcTags(mode: HevcMode) {
  const events = new Fmp4StreamReader().push(fs.readFileSync(new URL('../../../../packages/fmp4/test/fixtures/live-h265.mp4', import.meta.url)));
  const init = events[0];
  if (init.type !== 'init') throw new Error('fixture without init');
  const mux = new FlvMuxer([init.tracks[0].track], { hevc: mode });
  const bytes = Buffer.concat([mux.header(), ...events.flatMap((e) => (e.type === 'unit' ? mux.push(e.unit, 0) : []))]);
  const units = events.flatMap((e) => (e.type === 'unit' && e.unit.kind === 'video' ? [e.unit] : []));
  return { track: init.tracks[0].track, units, tags: readFlv(bytes).tags };
}

describe('RTMP messages as hub tracks and units', () => {
  it('H.264 with B-frames + AAC from ffmpeg: both tracks at once, every picture with its composition time, AAC frames 1024 samples apart', () => {
    const { media, got } = reader();
    feed(media, tags);
    expect(got.tracks).toHaveLength(1);
    const [video, audio] = got.tracks[0];
    expect(video).toMatchObject({ kind: 'video', codec: 'h264', width: 160, height: 120 });
    expect(audio).toMatchObject({ kind: 'audio', codec: 'aac', sampleRate: 44100, channels: 1, codecString: 'mp4a.40.2' });
    const pictures = got.units.filter((u) => u.track === 0).map((u) => u.unit);
    const frames = got.units.filter((u) => u.track === 1).map((u) => u.unit);
    expect(pictures).toHaveLength(10);
    expect(frames).toHaveLength(45);
    // ffprobe: pts 200,400,300,700,500... dts 0,100,200... (ms) for the first pictures.
    expect(pictures.slice(0, 5).map((p) => p.kind === 'video' && [p.dts / 90, p.pts / 90, p.keyframe])).toEqual([
      [0, 200, true],
      [100, 400, false],
      [200, 300, false],
      [300, 700, false],
      [400, 500, false],
    ]);
    for (const p of pictures) if (p.kind === 'video') expect(p.nalus.every((n) => n.length > 0 && (n[0] & 0x80) === 0)).toBe(true);
    const pts = frames.map((f) => f.pts);
    expect(pts.slice(1).map((p, i) => p - pts[i])).toEqual(Array(44).fill(1024));
  });

  it.each(['enhanced', 'codec-id-12'] as const)('H.265 as %s: the parameter sets of the sequence header, the NAL units of each picture', (mode) => {
    const { track, units, tags: list } = hevcTags(mode);
    const { media, got } = reader();
    feed(media, list);
    if (track.kind !== 'video') throw new Error('fixture without video');
    expect(got.tracks).toEqual([[expect.objectContaining({ codec: 'h265', vps: track.vps, sps: track.sps, width: 160, height: 120 })]]);
    expect(got.units).toHaveLength(units.length);
    // The muxer leaves out access unit delimiters; every other NAL unit comes back.
    const keep = (n: Uint8Array) => ((n[0] >> 1) & 0x3f) !== 35;
    got.units.forEach(({ unit }, i) => {
      const src = units[i];
      if (unit.kind !== 'video') throw new Error('audio unit');
      expect(unit.keyframe).toBe(src.keyframe);
      expect(unit.nalus.map((n) => Buffer.from(n).toString('hex'))).toEqual(src.nalus.filter(keep).map((n) => Buffer.from(n).toString('hex')));
      expect(unit.pts - unit.dts).toBeCloseTo(src.pts - src.dts, -2);
    });
  });

  it('G.711 A-law and µ-law (sound formats 7 and 8) are 8 kHz tracks of the samples after the flags byte', () => {
    for (const [format, codec] of [
      [7, 'pcma'],
      [8, 'pcmu'],
    ] as const) {
      const { media, got } = reader();
      media.metadata({ audiocodecid: format });
      media.audioMessage(1000, Uint8Array.of((format << 4) | 0x2, 1, 2, 3));
      media.audioMessage(1020, Uint8Array.of((format << 4) | 0x2, 4, 5, 6));
      expect(got.tracks).toEqual([[expect.objectContaining({ kind: 'audio', codec, sampleRate: 8000, channels: 1 })]]);
      expect(got.units.map(({ unit }) => unit.kind === 'audio' && [unit.pts, [...unit.data]])).toEqual([
        [8000, [1, 2, 3]],
        [8160, [4, 5, 6]],
      ]);
    }
  });

  it('audio the hub does not carry is said once; the video is given after the wait without it', () => {
    const { media, got } = reader({ audio: true, waitMs: 500 });
    const video = tags.filter((t) => t.type === 9);
    const mp3 = (ts: number) => ({ type: 8, timestamp: ts, data: Uint8Array.of(0x2f, 0xff, 0xfb) });
    feed(media, [mp3(0), mp3(26), ...video]);
    expect(got.unsupported).toEqual(['audio:MP3']);
    expect(got.tracks).toEqual([[expect.objectContaining({ codec: 'h264' })]]);
    expect(got.units).toHaveLength(10);
  });

  describe('audio to encode (MP3, Speex, Nellymoser: the sink has `encode`)', () => {
    const mp3 = (ts: number) => ({ type: 8, timestamp: ts, data: Uint8Array.of(0x2f, 0xff, 0xfb) });
    function encoding(opts: RtmpMediaOptions = { audio: true }) {
      const encoded: { ms: number; codec: string; body: number[] }[] = [];
      const got = { tracks: [] as Track[][], units: [] as { track: number; unit: AccessUnit }[], unsupported: [] as string[] };
      const media = new RtmpMedia(
        {
          tracks: (t) => got.tracks.push(t),
          unit: (track, unit) => got.units.push({ track, unit }),
          unsupported: (kind, codec) => got.unsupported.push(`${kind}:${codec}`),
          encode: (ms, body, codec) => encoded.push({ ms, codec, body: [...body] }),
        },
        opts,
      );
      return { media, got, encoded };
    }
    const aacTags = tags.filter((t) => t.type === 8);

    it('goes to the encoder with its times on the output timeline (a wrap is a step forward); the AAC coming back is the audio track, given once with the video', () => {
      const { media, got, encoded } = encoding();
      const base = 0xffffffff - 30;
      media.audioMessage(base, mp3(0).data);
      media.audioMessage((base + 26) >>> 0, mp3(26).data);
      media.audioMessage((base + 52) >>> 0, Uint8Array.of(0xb2, 1)); // Speex
      expect(encoded).toEqual([
        { ms: base, codec: 'MP3', body: [0x2f, 0xff, 0xfb] },
        { ms: base + 26, codec: 'MP3', body: [0x2f, 0xff, 0xfb] },
        { ms: base + 52, codec: 'Speex', body: [0xb2, 1] },
      ]);
      expect(got.unsupported).toEqual([]);
      // The encoder's AAC at the same times, between the video messages.
      for (const t of tags) {
        if (t.type === 8) media.encodedAudio(base + t.timestamp, t.data);
        else if (t.type === 9) media.videoMessage((base + t.timestamp) >>> 0, t.data);
      }
      expect(got.tracks).toHaveLength(1);
      expect(got.tracks[0].map((t) => t.codec)).toEqual(['h264', 'aac']);
      const frames = got.units.filter((u) => u.track === 1).map((u) => u.unit.pts);
      expect(frames).toHaveLength(45);
      expect(frames.slice(1).map((p, i) => p - frames[i])).toEqual(Array(44).fill(1024));
      const pictures = got.units.filter((u) => u.track === 0).map((u) => (u.unit.kind === 'video' ? u.unit.dts / 90 : 0));
      expect(pictures[0]).toBe(base);
      // The first frame at the time the encoder gave it (aacTags[0] is the sequence header).
      expect(frames[0]).toBe(Math.round((base + aacTags[1].timestamp) * 44.1));
    });

    it('audioLost(): the video is given at once without audio, and AAC that comes later is dropped', () => {
      const { media, got } = encoding({ audio: true, waitMs: 60_000 });
      media.metadata({ videocodecid: 7, audiocodecid: 2 });
      media.audioMessage(0, mp3(0).data);
      feed(media, tags.filter((t) => t.type === 9));
      expect(got.tracks).toEqual([]);
      media.audioLost();
      expect(got.tracks).toEqual([[expect.objectContaining({ codec: 'h264' })]]);
      expect(got.units).toHaveLength(10);
      for (const t of aacTags) media.encodedAudio(t.timestamp, t.data);
      expect(got.tracks).toHaveLength(1);
      expect(got.units).toHaveLength(10);
    });

    it('audio being encoded is waited for as a track the metadata names (announcedWaitMs), not waitMs: an encoder slow to start still gives both tracks at once', () => {
      const { media, got } = encoding({ audio: true, waitMs: 300, announcedWaitMs: 5000 });
      media.audioMessage(0, mp3(0).data);
      const video = tags.filter((t) => t.type === 9);
      // The clip's 10 pictures (900 ms), then again 1 s later: 1.9 s of video before the first AAC.
      feed(media, [...video, ...video.map((t) => ({ ...t, timestamp: t.timestamp + 1000 }))]);
      expect(got.tracks).toEqual([]);
      for (const t of aacTags.slice(0, 3)) media.encodedAudio(2000 + t.timestamp, t.data);
      expect(got.tracks.map((ts) => ts.map((t) => t.codec))).toEqual([['h264', 'aac']]);
      expect(got.units.filter((u) => u.track === 0)).toHaveLength(20);
    });

    it('encoded AAC behind the last frame (a restarted encoder’s priming) is dropped; once the stream’s audio is AAC itself, encoded AAC is', () => {
      const { media, got } = encoding({ audio: true, waitMs: 0 });
      media.audioMessage(0, mp3(0).data);
      for (const t of aacTags.slice(0, 11)) media.encodedAudio(t.timestamp, t.data);
      expect(got.units).toHaveLength(10);
      const last = got.units.at(-1)!.unit.pts;
      media.encodedAudio(aacTags[5].timestamp, aacTags[5].data);
      expect(got.units).toHaveLength(10);
      // The publisher now sends AAC: its own frames play, the encoder's late ones are dropped.
      media.audioMessage(aacTags[11].timestamp, aacTags[11].data);
      expect(got.units).toHaveLength(11);
      expect(got.units.at(-1)!.unit.pts).toBeGreaterThan(last);
      media.encodedAudio(aacTags[12].timestamp, aacTags[12].data);
      expect(got.units).toHaveLength(11);
    });
  });

  it('audio before the first picture (a relaying server joined mid-stream): a video track the metadata names is waited for, so the tracks come once', () => {
    const audioFirst = [...tags.filter((t) => t.type === 8), ...tags.filter((t) => t.type === 9).map((t) => ({ ...t, timestamp: t.timestamp + 1500 }))];
    const named = reader({ audio: true, waitMs: 300 });
    named.media.metadata({ videocodecid: 7, audiocodecid: 10 });
    feed(named.media, audioFirst);
    expect(named.got.tracks).toEqual([[expect.objectContaining({ codec: 'h264' }), expect.objectContaining({ kind: 'audio' })]]);
    // Without metadata the audio goes alone after waitMs, and the video comes as new tracks.
    const unnamed = reader({ audio: true, waitMs: 300 });
    feed(unnamed.media, audioFirst);
    expect(unnamed.got.tracks.map((t) => t.length)).toEqual([1, 2]);
    // A named video that never comes: the audio goes after announcedWaitMs.
    const never = reader({ audio: true, waitMs: 300, announcedWaitMs: 800 });
    never.media.metadata({ videocodecid: 7, audiocodecid: 10 });
    feed(never.media, tags.filter((t) => t.type === 8));
    expect(never.got.tracks).toEqual([[expect.objectContaining({ kind: 'audio' })]]);
  });

  it('a video codec the hub does not carry (VP6, an enhanced av01) is said once', () => {
    const { media, got } = reader();
    media.videoMessage(0, Uint8Array.of(0x14, 0, 0, 0, 0));
    media.videoMessage(40, Uint8Array.of(0x24, 0, 0, 0, 0));
    expect(got.unsupported).toEqual(['video:VP6']);
    const ex = reader();
    ex.media.videoMessage(0, Uint8Array.of(0x90, 0x61, 0x76, 0x30, 0x31));
    expect(ex.got.unsupported).toEqual(['video:av01']);
  });

  it('metadata without audio gives the video track at its sequence header; with EnableAudio off the audio is left out', () => {
    const { media, got } = reader();
    media.metadata({ videocodecid: 7, width: 160 });
    feed(media, tags.filter((t) => t.type === 9).slice(0, 1));
    expect(got.tracks).toEqual([[expect.objectContaining({ codec: 'h264' })]]);
    const off = reader({ audio: false });
    feed(off.media, tags);
    expect(off.got.tracks).toEqual([[expect.objectContaining({ codec: 'h264' })]]);
    expect(off.got.units).toHaveLength(10);
  });

  it('a new sequence header with other parameter sets gives the tracks again; the same one does not', () => {
    const { media, got } = reader();
    feed(media, tags);
    const header = tags.find((t) => t.type === 9)!;
    media.videoMessage(2000, header.data);
    expect(got.tracks).toHaveLength(1);
    const { tags: hevc } = hevcTags('enhanced');
    media.videoMessage(2100, hevc[1].data);
    expect(got.tracks).toHaveLength(2);
    expect(got.tracks[1].map((t) => t.codec)).toEqual(['h265', 'aac']);
  });

  it('frames before their sequence header are dropped; broken frames throw RtmpMediaError and the next frame still plays', () => {
    const { media, got } = reader({ audio: false });
    const video = tags.filter((t) => t.type === 9);
    media.videoMessage(0, video[1].data);
    expect(got.units).toHaveLength(0);
    media.videoMessage(0, video[0].data);
    const broken = video[1].data.slice();
    broken[5] = 0x7f; // a NAL length far past the end
    expect(() => media.videoMessage(40, broken)).toThrow(RtmpMediaError);
    expect(() => media.videoMessage(40, Uint8Array.of(0x17, 0))).toThrow(RtmpMediaError);
    media.videoMessage(80, video[1].data);
    expect(got.units).toHaveLength(1);
  });

  it('random and mutated messages throw nothing but RtmpMediaError', () => {
    const seeds = [...tags.map((t) => ({ type: t.type, data: t.data })), ...hevcTags('enhanced').tags.slice(0, 6).map((t) => ({ type: t.type, data: t.data }))].filter(
      (t) => t.type !== 18,
    );
    const mutated = fc
      .tuple(fc.constantFrom(...seeds), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }), fc.nat())
      .map(([seed, edits, cut]) => {
        const b = Uint8Array.from(seed.data);
        for (const [at, v] of edits) b[at % b.length] = v;
        return { type: seed.type, data: b.subarray(0, cut % (b.length + 1)) };
      });
    const random = fc.record({ type: fc.constantFrom(8, 9), data: fc.uint8Array({ maxLength: 80 }) });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.oneof(mutated, random), fc.nat({ max: 0xffffffff })), { maxLength: 30 }), (messages) => {
        const { media } = reader();
        for (const [m, ts] of messages) {
          try {
            if (m.type === 9) media.videoMessage(ts, m.data);
            else media.audioMessage(ts, m.data);
          } catch (err) {
            if (!(err instanceof RtmpMediaError)) throw err;
          }
        }
      }),
      { numRuns: 1500 },
    );
  });
});

describe('RTMP times on one timeline', () => {
  it('a 32-bit wrap is a step forward', () => {
    const t = new RtmpTimeline();
    expect([0xffffffd8, 0xfffffff0, 0x10, 0x38].map((raw) => t.at(raw))).toEqual([0xffffffd8, 0xfffffff0, 0x100000010, 0x100000038]);
  });

  it('audio a little behind the video keeps its own times', () => {
    const t = new RtmpTimeline();
    expect(t.at(1000)).toBe(1000);
    expect(t.at(1040)).toBe(1040);
    expect(t.at(800, 780)).toBe(800);
    expect(t.at(1080, 1040)).toBe(1080);
  });

  it('a publisher that starts again (times back near 0, or a track going back) goes on forward', () => {
    const t = new RtmpTimeline();
    t.at(50_000);
    const video = t.at(50_040);
    const again = t.at(0, video);
    expect(again).toBeGreaterThan(video);
    expect(t.at(40, again)).toBe(again + 40);
    // Audio of the restarted publisher, near the new times: forward of its last too.
    expect(t.at(20, 50_030)).toBe(again + 20);
    // A restart 2 s back only (within the jump limit): the track going back tells it.
    const u = new RtmpTimeline();
    u.at(3000);
    const last = u.at(3040);
    expect(u.at(1000, last)).toBeGreaterThan(last);
  });
});
