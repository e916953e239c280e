/**
 * The live outputs across a camera reconnect (the hub retries its source, whose clock starts over):
 * the hub carries the times on (hub-timeline.ts), so a WebRTC viewer's RTP timestamps go on forward
 * from where they stopped and its sequence numbers run on by one, and an FLV viewer's tag
 * timestamps never go back. The stream is a real H.264 file with B-frames (pts ahead of dts). An
 * AAC stream through the real ffmpeg (AAC → Opus for WebRTC) jumps by the time away too: ffmpeg's own
 * timestamps run on without a hole.
 */
import { describe, expect, it } from 'vitest';
import { Event, type RtpHeader } from 'werift';
import { readFlv } from '@opencvr/flv';
import { StreamHub } from '../../src/media/hub.js';
import { FakeSource as HandSource } from './fake-source.js';
import { FlvOutput, type FlvSink } from '../../src/media/outputs/flv.js';
import { WebRtcOutput } from '../../src/media/outputs/webrtc.js';
import { SrtpVideoStream, type VideoSenderLike } from '../../src/media/outputs/webrtc-rtp.js';
import { OpusTranscoder } from '../../src/media/outputs/webrtc-opus.js';
import { aacStream, videoStream } from '../../../../packages/fmp4/test/helpers/streams.js';
import { until } from '../helpers/index.js';

const H264 = videoStream('h264', 'h264-320x240-25fps-bf2.h264');
const AAC = aacStream('aac-48k-stereo.adts');

/** A hub whose source the test drives: the stream once, the camera gone, back ~40 ms later with the same stream (its clock from the start again). */
async function twoSessions(subscribe: (hub: StreamHub) => void) {
  const sources: HandSource[] = [];
  const hub = new StreamHub('k', () => {
    const s = new HandSource();
    sources.push(s);
    return s;
  }, { onDemand: false, graceMs: 1000, retryMinMs: 20, retryMaxMs: 20, maxGopUnits: 1000 });
  subscribe(hub);
  for (const n of [0, 1]) {
    if (n) await new Promise((r) => setTimeout(r, 40));
    const sink = sources[n].sink!;
    sink.tracks([H264.track]);
    for (const u of H264.units) sink.unit(0, u);
    if (!n) sink.failed('camera gone');
  }
  hub.stop();
}

describe('live outputs across a camera reconnect', () => {
  it('WebRTC: RTP timestamps go on forward, sequence numbers run on by one', async () => {
    const rtp: RtpHeader[] = [];
    const transport = { sendRtp: (_p: Buffer, header: RtpHeader) => (rtp.push(header), Promise.resolve(0)), sendRtcp: () => Promise.resolve(undefined) };
    const sender = { ssrc: 0x1234, codec: { payloadType: 102 }, onGenericNack: new Event<[{ lost: number[] }]>() } as unknown as VideoSenderLike;
    const stream = new SrtpVideoStream(transport, sender);
    await twoSessions((hub) => hub.subscribe(new WebRtcOutput(stream, () => true, undefined, undefined, { push: (job) => job() })));
    stream.close();
    for (let i = 1; i < rtp.length; i++) expect(rtp[i].sequenceNumber).toBe((rtp[i - 1].sequenceNumber + 1) & 0xffff);
    // A unit's timestamp, from its last packet (the marker); relative to the first (unsigned 32-bit: the offset is random).
    const units = rtp.filter((h) => h.marker);
    const rel = units.map((h) => (h.timestamp - units[0].timestamp) >>> 0);
    // Within a GOP a B-frame's timestamp is a few frames behind the one before (pts order); never more.
    const back = rel.findIndex((t, i) => i > 0 && t < rel[i - 1] - 4 * 3600);
    expect(back).toBe(-1);
    expect(units.length).toBe(2 * H264.units.length);
    const before = Math.max(...rel.slice(0, H264.units.length));
    const after = rel.slice(H264.units.length);
    // The second run starts after the first ended (2 s of 25 fps, plus the time away), not back at 0.
    expect(Math.min(...after)).toBeGreaterThan(before);
    expect(Math.min(...after) - before).toBeLessThan(90000);
  });

  it('FLV: tag timestamps never go back', async () => {
    const chunks: Uint8Array[] = [];
    const sink: FlvSink = { buffered: () => 0, open: () => true, write: (b) => void chunks.push(b.slice()), end: () => undefined };
    await twoSessions((hub) => hub.subscribe(new FlvOutput(sink)));
    const video = readFlv(Buffer.concat(chunks)).tags.filter((t) => t.type === 9);
    // Each run: its sequence header and its pictures.
    expect(video.length).toBeGreaterThanOrEqual(2 * (H264.units.length + 1));
    for (let i = 1; i < video.length; i++) expect(video[i].timestamp).toBeGreaterThanOrEqual(video[i - 1].timestamp);
    expect(video[video.length - 1].timestamp).toBeGreaterThan(3900);
  });

  it('WebRTC Opus from AAC (the real ffmpeg): the timestamps jump once, by the hub\'s time away, and step 20 ms otherwise', async () => {
    const sources: HandSource[] = [];
    const hub = new StreamHub('k', () => {
      const s = new HandSource();
      sources.push(s);
      return s;
    }, { onDemand: false, graceMs: 1000, retryMinMs: 20, retryMaxMs: 20, maxGopUnits: 1000 });
    // The AAC times on the hub's clock (48 kHz), as the transcoder gets them.
    const hubPts: number[][] = [[], []];
    hub.subscribe({ tracks: () => undefined, unit: (_t, u) => void hubPts[sources.length - 1]?.push(u.pts) });
    const sent: number[] = [];
    const opus = new OpusTranscoder(hub);
    const leave = opus.add((_p, ts) => sent.push(ts));
    const track = AAC.track;
    expect(track.clockRate).toBe(48000);
    try {
      // Session 1: frames (the fixture again and again, its clock running on) until ffmpeg has taken 100.
      await until(() => sources[0]);
      sources[0].sink!.tracks([track]);
      let i = 0;
      await until(() => {
        sources[0].sink!.unit(0, { ...AAC.units[i % AAC.units.length], pts: i * 1024 });
        i++;
        return opus.stats.framesIn >= 100;
      }, 30_000, { everyMs: 5 });
      sources[0].sink!.failed('camera gone');
      await until(() => sources[1], 5000);
      await new Promise((r) => setTimeout(r, 1500));
      // Session 2: its clock from 0 again; the hub moves it on by the time away.
      sources[1].sink!.tracks([track]);
      for (let k = 0; k < 100; k++) sources[1].sink!.unit(0, { ...AAC.units[k % AAC.units.length], pts: k * 1024 });
      const frames = opus.stats.framesIn;
      // ffmpeg keeps a few frames in its pipeline: all but those come out (1024 samples a frame, 960 a packet).
      await until(() => sent.length >= Math.floor(((frames - 10) * 1024) / 960), 30_000, { what: 'Opus packets' });
    } finally {
      leave();
      hub.stop();
    }
    const [first, second] = hubPts;
    expect(second.length).toBe(100);
    // The hole the hub made: from the end of session 1's last frame to session 2's first.
    const hole = second[0] - (first[first.length - 1] + 1024);
    expect(hole).toBeGreaterThanOrEqual(1.5 * 48000);
    const steps = sent.slice(1).map((t, k) => (t - sent[k] + 0x1_0000_0000) % 0x1_0000_0000);
    expect(steps.filter((s) => s !== 960)).toEqual([960 + hole]);
  }, 60_000);
});
