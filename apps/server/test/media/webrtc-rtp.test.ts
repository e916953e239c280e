/**
 * The WebRTC output's per-unit and per-viewer RTP pieces (webrtc-rtp.ts), on a transport that records
 * what it is given: payloads made once per unit and parameter sets, which depacketise back to the
 * unit (fast-check over random NAL units); one viewer's headers (contiguous sequence numbers, one
 * timestamp per unit, the marker on the last packet, the negotiated payload type and SSRC); NACKed
 * packets sent again as they were; a sender report each second with the counts; the DTLS client
 * repair that drops a second HelloVerifyRequest (webrtc-dtls.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { Event, RtpHeader, RtpPacket, RtcpSrPacket, type RTCDtlsTransport, type RtcpPacket } from 'werift';
import { H264Depacketiser, parseRtp } from '@opencvr/rtp';
import type { VideoAccessUnit } from '@opencvr/codec';
import { inBandParameterSets, ntpNow, rtpTime, SrtpVideoStream, videoPayloads, type VideoSenderLike } from '../../src/media/outputs/webrtc-rtp.js';
import { tolerateRepeatedHelloVerify } from '../../src/media/outputs/webrtc-dtls.js';

const SPS = Uint8Array.from([0x67, 0x64, 0x00, 0x28, 0xac, 0xd9]);
const PPS = Uint8Array.from([0x68, 0xeb, 0xe3, 0xcb]);
const nal = (type: number, size: number, fill = 0x11) => {
  const n = new Uint8Array(size).fill(fill);
  n[0] = 0x60 | type;
  return n;
};
const unit = (nalus: Uint8Array[], keyframe: boolean, pts = 90_000): VideoAccessUnit => ({ kind: 'video', pts, dts: pts, keyframe, nalus });

/** Depacketises (header, payload) pairs back into access units. */
function depacketise(sent: { header: RtpHeader; payload: Buffer }[]) {
  const d = new H264Depacketiser();
  return sent.flatMap((p) => d.push(parseRtp(new RtpPacket(p.header, p.payload).serialize())));
}

function recorder() {
  const rtp: { header: RtpHeader; payload: Buffer }[] = [];
  const rtcp: RtcpPacket[] = [];
  const transport = {
    sendRtp: (payload: Buffer, header: RtpHeader) => {
      rtp.push({ header, payload });
      return Promise.resolve(payload.length);
    },
    sendRtcp: (packets: RtcpPacket[]) => {
      rtcp.push(...packets);
      return Promise.resolve(undefined);
    },
  };
  const sender = { ssrc: 0x1234_5678, codec: { payloadType: 102 }, onGenericNack: new Event<[{ lost: number[] }]>() } as unknown as VideoSenderLike & {
    onGenericNack: Event<[{ lost: number[] }]>;
  };
  return { rtp, rtcp, transport, sender };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('videoPayloads', () => {
  it('puts the parameter sets before a keyframe without them, once per unit for every viewer', () => {
    const key = unit([nal(9, 2), nal(5, 5000)], true);
    const params = { sps: SPS, pps: PPS };
    const a = videoPayloads(key, params);
    expect(videoPayloads(key, params)).toBe(a);
    expect(videoPayloads(key, { sps: SPS, pps: PPS })).toBe(a); // same objects, another holder
    const [back] = depacketise(a.map((payload, i) => ({ payload, header: new RtpHeader({ sequenceNumber: i, timestamp: 1, payloadType: 96, marker: i === a.length - 1 }) })));
    expect(back.nalus.map((n) => n[0] & 0x1f)).toEqual([9, 7, 8, 5]);
    expect(a.every((p) => p.length <= 1200)).toBe(true);
    // Other parameter sets: made again for them.
    const other = { sps: Uint8Array.from(SPS), pps: PPS };
    expect(videoPayloads(key, other)).not.toBe(a);
    // A delta frame gets none.
    const delta = videoPayloads(unit([nal(1, 300)], false), params);
    expect(delta).toHaveLength(1);
    expect(delta[0][0] & 0x1f).toBe(1);
  });

  it('shares no bytes with the unit: the hub lends them, and payloads live on in the send queue and history', () => {
    // Small NAL units in one buffer, as the hub's GOP store holds them: each goes out whole (no FU-A).
    const store = new Uint8Array(4096);
    const small = nal(1, 300);
    store.set(small, 100);
    const lent = unit([store.subarray(100, 100 + small.length)], false);
    const payloads = videoPayloads(lent, undefined);
    store.fill(0xee);
    expect(payloads.every((p) => p.buffer !== store.buffer)).toBe(true);
    expect(Array.from(payloads[0])).toEqual(Array.from(small));
  });

  it('finds in-band parameter sets', () => {
    expect(inBandParameterSets(unit([SPS, PPS, nal(5, 10)], true))).toEqual({ sps: SPS, pps: PPS });
    expect(inBandParameterSets(unit([SPS, nal(5, 10)], true))).toBeUndefined();
  });

  it('depacketises back to the same NAL units (random units)', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ minLength: 2, maxLength: 4000 }), { minLength: 1, maxLength: 6 }), (raw) => {
        const nalus = raw.map((n) => {
          const c = Uint8Array.from(n);
          c[0] = (c[0] & 0x60) | 1; // a non-IDR slice header: F=0, no reserved or aggregate types
          return c;
        });
        const payloads = videoPayloads(unit(nalus, false), undefined);
        const units = depacketise(payloads.map((payload, i) => ({ payload, header: new RtpHeader({ sequenceNumber: i, timestamp: 9, payloadType: 96, marker: i === payloads.length - 1 }) })));
        expect(units).toHaveLength(1);
        expect(units[0].nalus.map((n) => Buffer.from(n).toString('hex'))).toEqual(nalus.map((n) => Buffer.from(n).toString('hex')));
      }),
      { numRuns: 60 },
    );
  });

  it('takes 90 kHz times modulo 2^32', () => {
    expect(rtpTime(0x1_0000_0005)).toBe(5);
    expect(rtpTime(-1)).toBe(0xffff_ffff);
  });
});

describe('SrtpVideoStream', () => {
  it("sends one viewer's units with contiguous sequence numbers, one timestamp per unit and the marker on the last packet", async () => {
    const r = recorder();
    const s = new SrtpVideoStream(r.transport, r.sender);
    const a = videoPayloads(unit([nal(5, 3000)], true, 3000), undefined);
    const b = videoPayloads(unit([nal(1, 100)], false, 6600), undefined);
    await s.sendUnit(a, 3000);
    await s.sendUnit(b, 6600);
    s.close();
    expect(r.rtp).toHaveLength(a.length + b.length);
    const seqs = r.rtp.map((p) => p.header.sequenceNumber);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBe((seqs[i - 1] + 1) & 0xffff);
    expect(r.rtp.map((p) => p.header.marker)).toEqual([...a.map((_, i) => i === a.length - 1), true]);
    expect(new Set(r.rtp.slice(0, a.length).map((p) => p.header.timestamp)).size).toBe(1);
    expect((r.rtp[a.length].header.timestamp - r.rtp[0].header.timestamp + 0x1_0000_0000) % 0x1_0000_0000).toBe(3600);
    expect(r.rtp.every((p) => p.header.payloadType === 102 && p.header.ssrc === 0x1234_5678)).toBe(true);
    expect(s.stats.packets).toBe(a.length + b.length);
  });

  it('sends NACKed packets again as they were and ignores sequence numbers it no longer has', async () => {
    const r = recorder();
    const s = new SrtpVideoStream(r.transport, r.sender);
    const a = videoPayloads(unit([nal(5, 5000)], true), undefined);
    await s.sendUnit(a, 90_000);
    const lost = r.rtp[2];
    const last = r.rtp[r.rtp.length - 1];
    r.sender.onGenericNack.execute({ lost: [lost.header.sequenceNumber, last.header.sequenceNumber, (last.header.sequenceNumber + 100) & 0xffff] });
    s.close();
    const again = r.rtp.slice(a.length);
    expect(again).toHaveLength(2);
    expect(again[0].payload).toBe(lost.payload);
    expect(again[0].header).toMatchObject({ sequenceNumber: lost.header.sequenceNumber, timestamp: lost.header.timestamp, marker: false, ssrc: 0x1234_5678 });
    expect(again[1].header.marker).toBe(true);
    expect(s.stats.retransmitted).toBe(2);
  });

  it('sends a sender report every second with the packet and octet counts, none before the first unit', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    const r = recorder();
    const s = new SrtpVideoStream(r.transport, r.sender);
    vi.advanceTimersByTime(1000);
    expect(r.rtcp).toHaveLength(0);
    const a = videoPayloads(unit([nal(1, 2000)], false), undefined);
    await s.sendUnit(a, 90_000);
    vi.advanceTimersByTime(1000);
    s.close();
    vi.advanceTimersByTime(3000);
    expect(r.rtcp).toHaveLength(1);
    const sr = r.rtcp[0] as RtcpSrPacket;
    expect(sr).toBeInstanceOf(RtcpSrPacket);
    expect(sr.ssrc).toBe(0x1234_5678);
    expect(sr.senderInfo.packetCount).toBe(a.length);
    expect(sr.senderInfo.octetCount).toBe(a.reduce((n, p) => n + p.length, 0));
    expect(sr.senderInfo.rtpTimestamp).toBe(r.rtp[0].header.timestamp);
    // The unit went out one second after the start (the first timer tick).
    expect(sr.senderInfo.ntpTimestamp >> 32n).toBe(BigInt(Date.UTC(2026, 0, 1) / 1000 + 1 + 2_208_988_800));
  });

  it('writes NTP time as seconds since 1900 and a 32-bit fraction', () => {
    expect(ntpNow(0)).toBe(2_208_988_800n << 32n);
    expect(ntpNow(1500)).toBe(((2_208_988_801n) << 32n) | 0x8000_0000n);
  });
});

describe('tolerateRepeatedHelloVerify', () => {
  it("drops a HelloVerifyRequest once werift's DTLS client has answered the first", async () => {
    const onStateChange = new Event<['closed' | 'new' | 'connected' | 'failed' | 'connecting']>();
    const seen: number[][] = [];
    const socket = { dtls: { flight: 1 }, onHandleHandshakes: (hs: { msg_type: number }[]) => (seen.push(hs.map((h) => h.msg_type)), Promise.resolve()) };
    const transport = { onStateChange, dtls: undefined } as unknown as RTCDtlsTransport;
    tolerateRepeatedHelloVerify(transport);
    onStateChange.execute('connecting');
    transport.dtls = socket as unknown as RTCDtlsTransport['dtls'];
    await Promise.resolve();
    const handle = (types: number[]) => socket.onHandleHandshakes(types.map((msg_type) => ({ msg_type })));
    await handle([3]); // the first: flight 1 -> 3
    socket.dtls.flight = 3;
    await handle([3]); // the answer to a retransmitted ClientHello: dropped
    await handle([2, 11, 12, 13, 14]);
    expect(seen).toEqual([[3], [2, 11, 12, 13, 14]]);
  });
});
