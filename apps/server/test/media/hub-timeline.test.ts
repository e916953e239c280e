import { describe, expect, it } from 'vitest';
import type { AccessUnit, Track, VideoAccessUnit } from '@opencvr/codec';
import { HubTimeline } from '../../src/media/hub-timeline.js';
import { StreamHub, type Subscriber } from '../../src/media/hub.js';
import { FakeSource as HandSource } from './fake-source.js';

const V = 90000;
const A = 8000;
const vid = (t: number, keyframe = false, cts = 0): VideoAccessUnit => ({ kind: 'video', pts: Math.round((t + cts) * V), dts: Math.round(t * V), keyframe, nalus: [new Uint8Array(4)] });
const aud = (t: number): AccessUnit => ({ kind: 'audio', pts: Math.round(t * A), data: new Uint8Array(4) });
const seconds = (u: AccessUnit, rate: number) => (u.kind === 'video' ? u.dts : u.pts) / rate;

describe('HubTimeline', () => {
  it('leaves the first session as the source timed it (the same objects)', () => {
    const tl = new HubTimeline();
    tl.session();
    const units = [vid(5, true), aud(5.01), vid(5.04)];
    const out = units.map((u) => tl.map(u.kind === 'video' ? 0 : 1, u.kind === 'video' ? V : A, u, 1000));
    expect(out.every((u, i) => u === units[i])).toBe(true);
  });

  it('carries a reconnected source on from where the media stopped plus the time it was away, audio and video in step', () => {
    const tl = new HubTimeline();
    tl.session();
    // 10 s of 25 fps video and 8 kHz audio every 20 ms, the last unit at wall 10 000 ms.
    for (let i = 0; i < 250; i++) tl.map(0, V, vid(i * 0.04, i % 25 === 0), i * 40);
    for (let i = 0; i < 500; i++) tl.map(1, A, aud(i * 0.02), i * 20);
    // Away 3 s; the new session's clock starts near 0 again, audio 0.1 s after video.
    tl.session();
    const k = tl.map(0, V, vid(0.02, true), 9980 + 3000);
    const a = tl.map(1, A, aud(0.12), 9980 + 3100);
    const p = tl.map(0, V, vid(0.06), 9980 + 3040);
    // The old media ended at 9.96 + 0.04 = 10.0 s (video) / 9.98 + 0.02 (audio); plus the 3 s away.
    expect(seconds(k, V)).toBeCloseTo(13, 3);
    expect(seconds(p, V) - seconds(k, V)).toBeCloseTo(0.04, 4);
    // In step: audio stays 0.1 s after the keyframe, as the source had it.
    expect(seconds(a, A) - seconds(k, V)).toBeCloseTo(0.1, 3);
    expect(tl.offset).toBeCloseTo(12.98, 3);
  });

  it('never goes back: a source whose clock is far ahead or behind, a reconnect at once, B-frames', () => {
    const tl = new HubTimeline();
    tl.session();
    // Presentation 0.08 s after decode (B-frames): the last picture shown is at 2.08 + 0.04.
    for (let i = 0; i <= 50; i++) tl.map(0, V, vid(i * 0.04, i === 0, 0.08), 1000);
    tl.session();
    const k = tl.map(0, V, vid(5000, true), 1000); // same wall instant, clock hours ahead
    expect(k.pts / V).toBeGreaterThanOrEqual(2.08 + 0.04 - 1e-9);
    expect(seconds(k, V)).toBeCloseTo(2.12, 3);
    tl.session();
    const k2 = tl.map(0, V, vid(-3, true), 1500); // a clock behind 0, 0.5 s later
    expect(seconds(k2, V)).toBeCloseTo(2.16 + 0.5, 3);
  });

  it('a track that starts before the one that set the offset moves everything forward, none back', () => {
    const tl = new HubTimeline();
    tl.session();
    tl.map(0, V, vid(0, true), 0);
    tl.map(0, V, vid(0.04), 0); // the media ends at 0.08
    tl.session();
    const k = tl.map(0, V, vid(0.5, true), 0); // -> 0.08
    const a = tl.map(1, A, aud(0.2), 0); // would be -0.22, before the old end
    expect(seconds(k, V)).toBeCloseTo(0.08, 3);
    expect(seconds(a, A)).toBeCloseTo(0.08, 3);
    const p = tl.map(0, V, vid(0.54), 0);
    expect(seconds(p, V)).toBeGreaterThan(seconds(k, V));
  });
});

const video: Track = { kind: 'video', codec: 'h264', sps: new Uint8Array([0x67]), pps: new Uint8Array([0x68]), width: 320, height: 240, codecString: 'avc1.42c00d', clockRate: 90000 };

describe('StreamHub across a reconnect', () => {
  it('gives its subscribers times that carry on after the source came back', async () => {
    const sources: HandSource[] = [];
    const hub = new StreamHub('k', () => {
      const s = new HandSource();
      sources.push(s);
      return s;
    }, { onDemand: false, graceMs: 1000, retryMinMs: 20, retryMaxMs: 20, maxGopUnits: 100 });
    const dts: number[] = [];
    const sub: Subscriber = { tracks: () => undefined, unit: (_t, u) => dts.push((u as VideoAccessUnit).dts) };
    hub.subscribe(sub);
    const first = sources[0].sink!;
    first.tracks([video]);
    for (let i = 0; i < 10; i++) first.unit(0, vid(i * 0.04, i === 0));
    first.failed('gone');
    await new Promise((r) => setTimeout(r, 60));
    const second = sources[1].sink!;
    second.tracks([{ ...video, width: 640, height: 480 }]);
    for (let i = 0; i < 3; i++) second.unit(0, vid(i * 0.04, i === 0));
    hub.stop();
    expect(dts.slice(0, 10)).toEqual([...Array(10).keys()].map((i) => Math.round(i * 0.04 * V)));
    const after = dts.slice(10);
    // From 0.4 s plus at least the 20 ms back-off; 40 ms apart as the source sent them.
    expect(after[0] / V).toBeGreaterThanOrEqual(0.4 + 0.02);
    expect(after[0] / V).toBeLessThan(0.4 + 1);
    expect(after[1] - after[0]).toBe(3600);
    expect(after[2] - after[1]).toBe(3600);
  });
});
