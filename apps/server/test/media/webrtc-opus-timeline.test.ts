/**
 * The Opus RTP timestamps on the hub's clock (webrtc-opus-timeline.ts), without ffmpeg: AAC frames
 * noted as written (hub time, 1024 samples at 44.1 kHz), packets as ffmpeg sends them (20 ms = 960
 * ticks apart from a random base, unsigned 32-bit, no gap whatever the input had).
 */
import { describe, expect, it } from 'vitest';
import { GAP_S, OpusTimeline } from '../../src/media/outputs/webrtc-opus-timeline.js';

const FRAME = 1024 / 44100;
const U32 = 0x1_0000_0000;

/** ffmpeg's k-th packet of a run from `base`. */
const ffmpegTs = (base: number, k: number) => (base + k * 960) % U32;
/** Step from one sent timestamp to the next (unsigned). */
const steps = (ts: number[]) => ts.slice(1).map((t, i) => (t - ts[i] + U32) % U32);

/** Notes `n` frames from hub time `from` (s), one after the other. */
function frames(t: OpusTimeline, from: number, n: number) {
  for (let i = 0; i < n; i++) t.input(from + i * FRAME, FRAME);
}

describe('Opus timestamps on the hub clock', () => {
  it('input without a hole: the timestamps are ffmpeg own, across the 32-bit wrap', () => {
    const t = new OpusTimeline();
    t.run();
    frames(t, 12.5, 200);
    const base = U32 - 960 * 10;
    const sent = Array.from({ length: 200 }, (_, k) => t.output(7, ffmpegTs(base, k)));
    expect(sent).toEqual(Array.from({ length: 200 }, (_, k) => ffmpegTs(base, k)));
  });

  it('a hole of 5 s in the hub times: the packet that follows it jumps by 5 s, the ones before are as they were', () => {
    const t = new OpusTimeline();
    t.run();
    frames(t, 0, 86); // 2.0 s
    frames(t, 86 * FRAME + 5, 86); // the camera back 5 s later on the hub's clock
    const base = 123456;
    const sent = Array.from({ length: 200 }, (_, k) => t.output(7, ffmpegTs(base, k))!);
    const step = steps(sent);
    // 2.0 s of input = 99.9 packets: the jump is at the packet that starts past it.
    const jump = step.findIndex((s) => s !== 960);
    expect(jump + 1).toBe(100);
    expect(step[jump]).toBe(960 + 5 * 48000);
    expect(step.filter((s) => s !== 960)).toHaveLength(1);
    expect(sent.slice(0, 100)).toEqual(Array.from({ length: 100 }, (_, k) => ffmpegTs(base, k)));
  });

  it('hub times with millisecond rounding (RTMP) or a hole under GAP_S: no jump', () => {
    const t = new OpusTimeline();
    t.run();
    for (let i = 0; i < 300; i++) t.input(Math.round((i * FRAME + (i > 150 ? GAP_S * 0.8 : 0)) * 1000) / 1000, FRAME);
    const sent = Array.from({ length: 300 }, (_, k) => t.output(1, ffmpegTs(5, k))!);
    expect(new Set(steps(sent))).toEqual(new Set([960]));
  });

  it('small losses add up: once the hub time is GAP_S ahead the packets catch up at once', () => {
    const t = new OpusTimeline();
    t.run();
    // A frame lost every 10 (23 ms each): the third loss puts the hub 70 ms ahead of the input.
    let hub = 0;
    for (let i = 0; i < 40; i++) {
      if (i && i % 10 === 0) hub += FRAME;
      t.input(hub, FRAME);
      hub += FRAME;
    }
    const sent = Array.from({ length: 45 }, (_, k) => t.output(1, ffmpegTs(0, k))!);
    const jumps = steps(sent).filter((s) => s !== 960);
    expect(jumps).toEqual([960 + Math.round(3 * FRAME * 48000)]);
  });

  it('hub times that go back never send the timestamps back', () => {
    const t = new OpusTimeline();
    t.run();
    frames(t, 10, 50);
    frames(t, 5, 50);
    const sent = Array.from({ length: 100 }, (_, k) => t.output(1, ffmpegTs(0, k))!);
    expect(new Set(steps(sent))).toEqual(new Set([960]));
  });

  it('a restarted ffmpeg (new SSRC, random base) carries on the hub clock; a late packet of the old one keeps its own', () => {
    const t = new OpusTimeline();
    t.run();
    frames(t, 0, 43); // 1 s
    const first = Array.from({ length: 40 }, (_, k) => t.output(1, ffmpegTs(1000, k))!);
    t.run();
    frames(t, 3, 43); // written to the new process from hub time 3 s
    const second = Array.from({ length: 40 }, (_, k) => t.output(2, ffmpegTs(999_999_999, k))!);
    // Hub time 3 s is 3 * 48000 ticks after the first packet's (hub time 0).
    expect((second[0] - first[0] + U32) % U32).toBe(3 * 48000);
    expect(new Set(steps(second))).toEqual(new Set([960]));
    expect(t.output(1, ffmpegTs(1000, 40))).toBe(ffmpegTs(1000, 40));
    // A third SSRC while the current run has its own: no run of ours.
    expect(t.output(3, 5)).toBeUndefined();
  });

  it('a packet before any input of its run is not placed', () => {
    const t = new OpusTimeline();
    expect(t.output(1, 0)).toBeUndefined();
    t.run();
    expect(t.output(1, 0)).toBeUndefined();
  });
});
