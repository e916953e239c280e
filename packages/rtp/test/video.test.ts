/**
 * H.264 and H.265 depacketising: ffmpeg's own RTP back into the units of the file it was sent from
 * (and ffprobe's frame and key-frame counts), and round-trip tables through the test packetiser.
 */
import { describe, expect, it } from 'vitest';
import { splitAnnexB, type VideoAccessUnit } from '@opencvr/codec';
import { H264Depacketiser, H265Depacketiser, parseRtp, RtpError, type Depacketiser, type RtpPacket } from '../src/index.js';
import { accessUnits, capture, elementary, hex, PROBES } from './fixtures.js';
import { packetiseNal } from './packetiser.js';

function depacketise(d: Depacketiser<VideoAccessUnit>, packets: Uint8Array[]): VideoAccessUnit[] {
  const out = packets.flatMap((b) => d.push(parseRtp(b)));
  return [...out, ...d.flush()];
}

const CAPTURES = [
  { capture: 'h264-high-320x180', file: 'h264-high-320x180.h264', make: () => new H264Depacketiser() },
  { capture: 'h264-high-320x180-pkt300', file: 'h264-high-320x180.h264', make: () => new H264Depacketiser() },
  { capture: 'h264-baseline-176x144', file: 'h264-baseline-176x144.h264', make: () => new H264Depacketiser() },
  { capture: 'h265-main-320x180', file: 'h265-main-320x180.h265', make: () => new H265Depacketiser() },
];

describe('ffmpeg RTP captures into access units', () => {
  for (const c of CAPTURES) {
    it(`${c.capture}: the file's NAL units byte for byte, ffprobe's frames and key frames`, () => {
      const packets = capture(`${c.capture}.rtp`);
      const aus = depacketise(c.make(), packets);
      const probe = PROBES[c.file];
      expect(aus.length).toBe(Number(probe.nb_read_frames));
      expect(aus.map((a) => (a.keyframe ? '1' : '0')).join('')).toBe(probe.keyframes);
      // ffmpeg's RTP muxer leaves the zero byte of the next 4-byte start code on a unit (x265 writes
      // 4-byte start codes before every unit); splitAnnexB counts it as trailing_zero_8bits.
      const trim = (n: Uint8Array) => {
        let e = n.length;
        while (e > 0 && n[e - 1] === 0) e--;
        return hex(n.subarray(0, e));
      };
      expect(aus.flatMap((a) => a.nalus).map(trim)).toEqual(splitAnnexB(elementary(c.file)).map(hex));
      expect(aus.some((a) => a.damaged)).toBe(false);
      // Timestamps: continuous 90 kHz from the first packet's, in decoding order (pts = dts from RTP).
      // capture.mjs numbers the frames 1/fps apart in decoding order (setts).
      const ts0 = parseRtp(packets[0]).timestamp;
      const tick = 90000 / (c.file.includes('176x144') ? 15 : 25);
      expect(aus.map((a) => a.pts - ts0)).toEqual(aus.map((_, i) => i * tick));
      expect(aus.every((a) => a.pts === a.dts)).toBe(true);
    });
  }

  it('the sequence numbers of the captures wrap', () => {
    for (const n of ['h264-high-320x180', 'h265-main-320x180']) {
      const seqs = capture(`${n}.rtp`).map((b) => parseRtp(b).sequenceNumber);
      expect(seqs).toContain(65535);
      expect(seqs).toContain(0);
    }
  });

  it('an access unit owns its bytes: one buffer for all its NAL units, none shared with the packets', () => {
    const packets = capture('h264-high-320x180.rtp').map(parseRtp);
    const d = new H264Depacketiser();
    const aus = packets.flatMap((p) => d.push(p));
    const multi = aus.find((au) => au.nalus.length > 1)!;
    expect(new Set(multi.nalus.map((n) => n.buffer)).size).toBe(1);
    const packetBuffers = new Set(packets.map((p) => p.payload.buffer));
    for (const au of aus) for (const n of au.nalus) expect(packetBuffers.has(n.buffer)).toBe(false);
  });
});

describe('round-trip tables through the test packetiser', () => {
  const cases = [
    { name: 'h264, MTU 1400, single units and FU-A', codec: 'h264', file: 'h264-high-320x180.h264', mtu: 1400, aggregate: false },
    { name: 'h264, MTU 1400, STAP-A', codec: 'h264', file: 'h264-high-320x180.h264', mtu: 1400, aggregate: true },
    { name: 'h264, MTU 100, many fragments', codec: 'h264', file: 'h264-baseline-176x144.h264', mtu: 100, aggregate: true },
    { name: 'h264 1080p, MTU 1200, seq and timestamp wrap', codec: 'h264', file: 'h264-main-1080p-1frame.h264', mtu: 1200, aggregate: true, seq0: 65530, ts0: 0xffffffff },
    { name: 'h265, MTU 1400, single units and FU', codec: 'h265', file: 'h265-main-320x180.h265', mtu: 1400, aggregate: false },
    { name: 'h265, MTU 300, AP and FU', codec: 'h265', file: 'h265-main-320x180.h265', mtu: 300, aggregate: true },
    { name: 'h265 main10, MTU 64', codec: 'h265', file: 'h265-main10-208x120.h265', mtu: 64, aggregate: true },
  ] as const;
  for (const c of cases) {
    it(c.name, () => {
      const fps = c.file.includes('176x144') ? 15 : 25;
      const frames = accessUnits(c.file, fps);
      const packets = packetiseNal(c.codec, frames, { mtu: c.mtu, aggregate: c.aggregate, seq0: 'seq0' in c ? c.seq0 : 0, ts0: 'ts0' in c ? c.ts0 : 0 });
      const aus = depacketise(c.codec === 'h264' ? new H264Depacketiser() : new H265Depacketiser(), packets);
      expect(aus.map((a) => a.nalus.map(hex))).toEqual(frames.map((f) => f.nalus.map(hex)));
      const ts0 = 'ts0' in c ? c.ts0 : 0;
      expect(aus.map((a) => a.pts - ts0)).toEqual(frames.map((f) => f.pts));
      expect(aus.some((a) => a.damaged)).toBe(false);
    });
  }
});

describe('an access unit ends on the marker bit or on a timestamp change', () => {
  const p = (seq: number, ts: number, marker: boolean, payload: number[]): RtpPacket => ({
    marker,
    payloadType: 96,
    sequenceNumber: seq,
    timestamp: ts,
    ssrc: 1,
    csrc: [],
    padding: 0,
    payload: Uint8Array.from(payload),
  });
  it('without markers, a new timestamp closes the unit', () => {
    const d = new H264Depacketiser();
    expect(d.push(p(1, 0, false, [0x65, 1]))).toEqual([]);
    expect(d.push(p(2, 0, false, [0x65, 2]))).toEqual([]);
    const [au] = d.push(p(3, 3000, false, [0x41, 3]));
    expect(au).toMatchObject({ pts: 0, keyframe: true });
    expect(au.nalus.map(hex)).toEqual(['6501', '6502']);
    expect(d.flush().map((a) => a.nalus.map(hex))).toEqual([['4103']]);
  });
  it('a lost FU fragment drops that NAL unit and marks the unit damaged; the next unit is whole', () => {
    const d = new H264Depacketiser();
    const out = [
      ...d.push(p(1, 0, false, [0x67, 0x42])),
      ...d.push(p(2, 0, false, [0x7c, 0x85, 1])), // FU-A start of an IDR
      // seq 3 (middle) lost
      ...d.push(p(4, 0, true, [0x7c, 0x45, 3])), // end
      ...d.push(p(5, 3000, true, [0x41, 9])),
    ];
    expect(out.map((a) => [a.nalus.map(hex), a.damaged ?? false])).toEqual([
      [['6742'], true],
      [['4109'], false],
    ]);
  });
  it('a gap right after a marker damages the next unit only', () => {
    const d = new H264Depacketiser();
    const out = [...d.push(p(1, 0, true, [0x65, 1])), ...d.push(p(3, 3000, true, [0x41, 2])), ...d.push(p(4, 6000, true, [0x41, 3]))];
    expect(out.map((a) => a.damaged ?? false)).toEqual([false, true, false]);
  });
  it('H.264 payloads it cannot read are typed errors and leave the state alone', () => {
    const d = new H264Depacketiser();
    d.push(p(1, 0, false, [0x65, 1]));
    for (const bad of [[], [0x18, 0x00], [0x18, 0x00, 0x05, 0x65], [0x1c], [0x19, 0, 0], [0x1d, 0x80], [0x00, 1], [0x1e]]) {
      expect(() => d.push(p(2, 0, false, bad))).toThrow(RtpError);
    }
    expect(d.push(p(2, 0, true, [0x65, 2]))[0].nalus.map(hex)).toEqual(['6501', '6502']);
  });
  it('H.265: DONL is refused clearly, PACI is unsupported', () => {
    expect(() => new H265Depacketiser({ maxDonDiff: 2 })).toThrow(/DONL/);
    expect(() => new H265Depacketiser().push(p(1, 0, true, [50 << 1, 1, 0, 0]))).toThrow(RtpError);
  });
});
