/**
 * A camera that drops and comes back (the hub retries its source): the live WS-fMP4 viewer keeps its
 * timeline. The new init says `continues`, the fragments after it run on from where the media
 * stopped (the hole of the reconnect closed, never back), audio keeps its distance to the video,
 * and fragment numbers run on. A viewer that joins afterwards starts a timeline of its own.
 */
import { describe, expect, it } from 'vitest';
import type { AccessUnit, Track } from '@opencvr/codec';
import { readFragments } from '../../../../packages/fmp4/test/helpers/boxes.js';
import { StreamHub, type SourceSink } from '../../src/media/hub.js';
import { FakeSource as HandSource } from './fake-source.js';
import { WsFmp4Output, type WsLike } from '../../src/media/outputs/ws-fmp4.js';

const video = (width: number, height: number): Track => ({
  kind: 'video',
  codec: 'h264',
  // A real SPS (320x240 baseline) for the init segment; the size a track announces is its own field.
  sps: Uint8Array.from([0x67, 0x42, 0xc0, 0x0d, 0xda, 0x05, 0x07, 0xec, 0x04, 0x40, 0x00, 0x00, 0x03, 0x00, 0x40, 0x00, 0x00, 0x0c, 0xa3, 0xc5, 0x0a, 0xa8]),
  pps: Uint8Array.from([0x68, 0xce, 0x0f, 0x2c, 0x80]),
  width,
  height,
  codecString: 'avc1.42c00d',
  clockRate: 90000,
});
const aac: Track = { kind: 'audio', codec: 'aac', sampleRate: 16000, channels: 1, config: new Uint8Array([0x14, 0x08]), codecString: 'mp4a.40.2', clockRate: 16000 };
const frame = (t: number, keyframe: boolean): AccessUnit => ({ kind: 'video', pts: Math.round(t * 90000), dts: Math.round(t * 90000), keyframe, nalus: [new Uint8Array([keyframe ? 0x65 : 0x41, 1, 2])] });
const sound = (t: number): AccessUnit => ({ kind: 'audio', pts: Math.round(t * 16000), data: new Uint8Array([1, 2, 3]) });

/** A WebSocket that keeps what it was sent: text as parsed JSON, binary as bytes. */
function socket() {
  const sent: (Record<string, unknown> | Uint8Array)[] = [];
  const ws: WsLike = {
    bufferedAmount: 0,
    readyState: 1,
    send(data, done) {
      sent.push(typeof data === 'string' ? (JSON.parse(data) as Record<string, unknown>) : Uint8Array.from(data));
      done?.();
    },
  };
  return { ws, sent };
}

/** 25 fps video with a keyframe each second and AAC frames 64 ms apart, from `from` for `seconds`. */
function run(sink: SourceSink, from: number, seconds: number) {
  const units: [number, AccessUnit][] = [];
  for (let i = 0; i < seconds * 25; i++) units.push([0, frame(from + i * 0.04, i % 25 === 0)]);
  for (let i = 0; i < seconds / 0.064; i++) units.push([1, sound(from + 0.01 + i * 0.064)]);
  units.sort((a, b) => a[1].pts / (a[0] ? 16000 : 90000) - b[1].pts / (b[0] ? 16000 : 90000));
  for (const [track, u] of units) sink.unit(track, u);
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('live WS-fMP4 across a camera reconnect', () => {
  it('says the new init continues and carries the decode times on, audio in step', async () => {
    const sources: HandSource[] = [];
    const hub = new StreamHub('k', () => {
      const s = new HandSource();
      sources.push(s);
      return s;
    }, { onDemand: false, graceMs: 1000, retryMinMs: 30, retryMaxMs: 30, maxGopUnits: 1000 });
    const { ws, sent } = socket();
    const errors: unknown[] = [];
    hub.onSubscriberError = (_s, err) => errors.push(err);
    hub.subscribe(new WsFmp4Output(ws));
    sources[0].sink!.tracks([video(320, 240), aac]);
    await tick();
    run(sources[0].sink!, 0, 2);
    sources[0].sink!.failed('camera gone');
    await new Promise((r) => setTimeout(r, 80));
    // Back with another picture size and a clock of its own starting at 0 again.
    sources[1].sink!.tracks([video(640, 480), aac]);
    await tick();
    run(sources[1].sink!, 0, 1);

    expect(errors).toEqual([]);
    const inits = sent.filter((m): m is Record<string, unknown> => !(m instanceof Uint8Array) && m.type === 'init');
    expect(inits).toHaveLength(2);
    expect(inits[0].continues).toBeUndefined();
    expect(inits[1].continues).toBe(true);
    expect((inits[1].tracks as { width: number }[])[0].width).toBe(640);

    // The binary messages after the second init: its init segment, then fragments.
    const at = sent.indexOf(inits[1]);
    const beforeFrags = sent.slice(0, at).filter((m): m is Uint8Array => m instanceof Uint8Array).slice(1).flatMap((b) => readFragments(b));
    const [init2, ...after] = sent.slice(at + 1).filter((m): m is Uint8Array => m instanceof Uint8Array);
    expect(Buffer.from(init2.subarray(4, 8)).toString()).toBe('ftyp');
    const afterFrags = after.flatMap((b) => readFragments(b));

    const endOf = (frags: typeof beforeFrags, id: number) => Math.max(...frags.flatMap((f) => f.trafs.filter((t) => t.trackId === id).map((t) => t.baseDecodeTime + t.samples.reduce((n, s) => n + s.duration!, 0))));
    const startOf = (frags: typeof beforeFrags, id: number) => Math.min(...frags.flatMap((f) => f.trafs.filter((t) => t.trackId === id).map((t) => t.baseDecodeTime)));
    const videoEnd = endOf(beforeFrags, 1) / 90000;
    const audioEnd = endOf(beforeFrags, 2) / 16000;
    const videoStart = startOf(afterFrags, 1) / 90000;
    const audioStart = startOf(afterFrags, 2) / 16000;
    // The video goes on where the media ended (the 80 ms away closed), not back at 0.
    expect(videoEnd).toBeGreaterThan(1.9);
    expect(videoStart).toBeCloseTo(Math.max(videoEnd, audioEnd), 3);
    expect(audioStart).toBeGreaterThanOrEqual(audioEnd - 1e-6);
    // Audio 10 ms after the keyframe, as the camera sent it.
    expect(audioStart - videoStart).toBeCloseTo(0.01, 3);
    // The first fragment after the init is the keyframe; numbers run on by one.
    expect(afterFrags[0].trafs[0].samples[0].flags).toBe(0x02000000);
    const seqs = [...beforeFrags, ...afterFrags].map((f) => f.sequence);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBe(seqs[i - 1] + 1);

    // Someone who joins now starts a timeline of their own.
    const late = socket();
    hub.subscribe(new WsFmp4Output(late.ws));
    await tick();
    const lateInit = late.sent.find((m): m is Record<string, unknown> => !(m instanceof Uint8Array) && m.type === 'init')!;
    expect(lateInit.continues).toBeUndefined();
    hub.stop();
  });
});
