import { describe, expect, it } from 'vitest';
import { splitAdts, type AudioAccessUnit } from '@opencvr/codec';
import { AacDepacketiser, G711Depacketiser, parseRtp, RtpError, type Depacketiser, type RtpPacket } from '../src/index.js';
import { capture, elementary, hex, PROBES } from './fixtures.js';
import { packetiseAac } from './packetiser.js';

const run = (d: Depacketiser<AudioAccessUnit>, packets: Uint8Array[]) => [...packets.flatMap((b) => d.push(parseRtp(b))), ...d.flush()];
const rawFrames = () => splitAdts(elementary('aac-lc-44100-stereo.aac')).frames.map((f) => f.data);

describe('AAC (RFC 3640 AAC-hbr)', () => {
  it("ffmpeg's packets (several AUs each) give the ADTS file's raw frames, 1024 samples apart", () => {
    const packets = capture('aac-lc-44100-stereo.rtp');
    const aus = run(new AacDepacketiser(), packets);
    // ffmpeg's RTP muxer buffers up to 5 frames a packet and does not send the last 4 at the end of
    // the input: 41 of ffprobe's 45 frames went out, and they are the file's first 41.
    expect(Number(PROBES['aac-lc-44100-stereo.aac'].nb_read_frames)).toBe(45);
    expect(aus.length).toBe(41);
    expect(aus.map((a) => hex(a.data))).toEqual(rawFrames().slice(0, 41).map(hex));
    const ts0 = parseRtp(packets[0]).timestamp;
    expect(aus.map((a) => a.pts - ts0)).toEqual(aus.map((_, i) => i * 1024));
  });

  const cases = [
    { name: 'MTU 1400, several frames per packet', mtu: 1400 },
    { name: 'MTU 100, every frame fragmented', mtu: 100 },
    { name: 'MTU 200, a mix', mtu: 200 },
  ];
  for (const c of cases) {
    it(`round trip: ${c.name}`, () => {
      const frames = rawFrames();
      const aus = run(new AacDepacketiser(), packetiseAac(frames, { mtu: c.mtu, seq0: 65530, ts0: 0xfffff000 }));
      expect(aus.map((a) => hex(a.data))).toEqual(frames.map(hex));
      expect(aus.map((a) => a.pts - 0xfffff000)).toEqual(frames.map((_, i) => i * 1024));
    });
  }

  it('a lost fragment drops that frame only', () => {
    const frames = rawFrames();
    const packets = packetiseAac(frames, { mtu: 100 });
    const lostAt = 5;
    const aus = run(new AacDepacketiser(), packets.filter((_, i) => i !== lostAt));
    const lostPts = parseRtp(packets[lostAt]).timestamp;
    expect(aus.map((a) => a.pts)).toEqual(frames.map((_, i) => i * 1024).filter((t) => t !== lostPts));
    for (const a of aus) expect(hex(a.data)).toBe(hex(frames[a.pts / 1024]));
  });

  it('strips ADTS headers a camera left on the frames', () => {
    const adts = elementary('aac-lc-44100-stereo.aac');
    const withHeaders = splitAdts(adts).frames.map((f) => adts.subarray(f.data.byteOffset - adts.byteOffset - 7, f.data.byteOffset - adts.byteOffset + f.data.length));
    const aus = run(new AacDepacketiser(), packetiseAac(withHeaders, { mtu: 1400 }));
    expect(aus.map((a) => hex(a.data))).toEqual(rawFrames().map(hex));
  });

  it('malformed AU headers are typed errors', () => {
    const p = (payload: number[]): RtpPacket => ({ marker: true, payloadType: 97, sequenceNumber: 1, timestamp: 0, ssrc: 1, csrc: [], padding: 0, payload: Uint8Array.from(payload) });
    const d = new AacDepacketiser();
    for (const bad of [[], [0x00], [0x00, 0x00], [0x00, 0x10], [0x00, 0x20, 0x00, 0x08, 0x00, 0x08, 0xaa], [0x00, 0x08, 0x00]]) {
      expect(() => d.push(p(bad))).toThrow(RtpError);
    }
    expect(() => new AacDepacketiser({ unsupported: { ctsdeltalength: 2 } })).toThrow(/ctsdeltalength/);
  });
});

describe('G.711', () => {
  for (const name of ['pcma-8000', 'pcmu-8000']) {
    it(`${name}: every payload as a run of samples at its timestamp, 0.5 s in all`, () => {
      const packets = capture(`${name}.rtp`);
      const aus = run(new G711Depacketiser(), packets);
      expect(aus.reduce((s, a) => s + a.data.length, 0)).toBe(4000);
      for (let i = 1; i < aus.length; i++) expect(aus[i].pts - aus[i - 1].pts).toBe(aus[i - 1].data.length);
      // A copy: the packet's bytes may be a reused read buffer.
      expect(aus[0].data.buffer).not.toBe(packets[0].buffer);
    });
  }
});
