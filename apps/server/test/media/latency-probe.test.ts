/**
 * The bench's latency probe: every unit that goes out in a fragment is recorded once, with the time
 * between its arrival and the send; units the fragmenter holds back (the next fragment's first
 * video frame, the other track's last unit) are recorded with the fragment that carries them.
 */
import { describe, expect, it } from 'vitest';
import type { AccessUnit, AudioTrack, VideoTrack } from '@opencvr/codec';
import { Fragmenter } from '@opencvr/fmp4';
import { LatencyProbe } from '../../src/media/latency-probe.js';

const VIDEO: VideoTrack = {
  kind: 'video',
  codec: 'h264',
  // Baseline 320x240 parameter sets (x264).
  sps: Uint8Array.from([0x67, 0x42, 0xc0, 0x0d, 0xda, 0x05, 0x07, 0xec, 0x04, 0x40, 0x00, 0x00, 0x03, 0x00, 0x40, 0x00, 0x00, 0x0c, 0xa3, 0xc5, 0x0a, 0xa8]),
  pps: Uint8Array.from([0x68, 0xce, 0x0f, 0x2c, 0x80]),
  width: 320,
  height: 240,
  codecString: 'avc1.42c00d',
  clockRate: 90000,
};
const AUDIO: AudioTrack = { kind: 'audio', codec: 'aac', sampleRate: 16000, channels: 1, config: Uint8Array.from([0x14, 0x08]), codecString: 'mp4a.40.2', clockRate: 16000 };

const frame = (i: number, gop: number): AccessUnit => ({
  kind: 'video',
  pts: i * 3600,
  dts: i * 3600,
  keyframe: i % gop === 0,
  nalus: [Uint8Array.from([i % gop === 0 ? 0x65 : 0x41, 0x88, 0x80, i & 0xff])],
});
const aac = (i: number): AccessUnit => ({ kind: 'audio', pts: i * 1024, data: Uint8Array.from([0x21, 0x10, i & 0xff]) });

const total = (p: LatencyProbe, name: string) => p.snapshot().outputs[name]?.count ?? 0;

describe('latency probe', () => {
  it('records each sent unit once, held-back units with the fragment that carries them', () => {
    const probe = new LatencyProbe();
    const tracker = probe.fmp4('test');
    const f = new Fragmenter([VIDEO, AUDIO], { maxFragmentDuration: 0.5 });
    let samples = 0;
    const push = (u: AccessUnit, track: number) => {
      probe.arrived(u);
      for (const frag of f.push(u, track)) {
        samples += frag.tracks.reduce((n, t) => n + t.sampleCount, 0);
        tracker.sent(frag.tracks, track);
      }
      tracker.pushed(track, u);
    };
    // 4 s of 25 fps video with a keyframe every 2 s, and 16 kHz AAC between the frames.
    let a = 0;
    for (let i = 0; i < 100; i++) {
      push(frame(i, 50), 0);
      while ((a * 1024) / 16000 < (i + 1) / 25) push(aac(a++), 1);
    }
    expect(samples).toBeGreaterThan(150);
    expect(total(probe, 'test')).toBe(samples);
  });

  it('a unit that never reached a hub with the probe on is not recorded', () => {
    const probe = new LatencyProbe();
    probe.record('x', probe.arrivalOf(frame(0, 1)));
    expect(total(probe, 'x')).toBe(0);
    const u = frame(1, 1);
    probe.arrived(u);
    probe.record('x', probe.arrivalOf(u));
    expect(probe.snapshot().outputs.x).toMatchObject({ count: 1, over: 0 });
  });
});
