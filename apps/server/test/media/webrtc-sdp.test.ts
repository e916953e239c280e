/** The WHEP output's SDP helpers on an offer written in the shape Chromium sends (its H.264 payload types and fmtp lines, rtx, host candidates). */
import { describe, expect, it } from 'vitest';
import { candidateAddresses, chooseH264, keepCandidates, keepVideoPayloadType, offeredAudio, offeredH264, passthroughAudio } from '../../src/media/outputs/webrtc-sdp.js';

const CHROME = [
  'v=0',
  'o=- 4611731400430051336 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0',
  'm=video 9 UDP/TLS/RTP/SAVPF 96 97 102 103 104 105 106 107 108 109 127 125',
  'c=IN IP4 0.0.0.0',
  'a=mid:0',
  'a=recvonly',
  'a=rtpmap:96 VP8/90000',
  'a=rtcp-fb:96 nack',
  'a=rtpmap:97 rtx/90000',
  'a=fmtp:97 apt=96',
  'a=rtpmap:102 H264/90000',
  'a=rtcp-fb:102 nack',
  'a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f',
  'a=rtpmap:103 rtx/90000',
  'a=fmtp:103 apt=102',
  'a=rtpmap:104 H264/90000',
  'a=fmtp:104 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42001f',
  'a=rtpmap:105 rtx/90000',
  'a=fmtp:105 apt=104',
  'a=rtpmap:106 H264/90000',
  'a=fmtp:106 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
  'a=rtpmap:107 rtx/90000',
  'a=fmtp:107 apt=106',
  'a=rtpmap:108 H264/90000',
  'a=fmtp:108 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=4d001f',
  'a=rtpmap:109 rtx/90000',
  'a=rtpmap:127 H264/90000',
  'a=fmtp:127 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=640032',
  'a=rtpmap:125 rtx/90000',
  'a=fmtp:125 apt=127',
  'a=candidate:1 1 udp 2122260223 192.168.1.20 51000 typ host generation 0',
  'a=candidate:2 1 udp 2122260223 127.0.0.1 51001 typ host generation 0',
  '',
].join('\r\n');

const sps = (hex: string) => Uint8Array.from(Buffer.from(`67${hex}`, 'hex'));

describe('WHEP SDP', () => {
  it('lists the offered H.264 payload types with their parameters', () => {
    expect(offeredH264(CHROME).map((o) => [o.payloadType, o.profileLevelId, o.packetizationMode])).toEqual([
      [102, '42001f', 1],
      [104, '42001f', 0],
      [106, '42e01f', 1],
      [108, '4d001f', 1],
      [127, '640032', 1],
    ]);
  });

  it('chooses the profile of the stream, never packetization-mode=0, constrained baseline without an SPS', () => {
    const offers = offeredH264(CHROME);
    expect(chooseH264(offers, sps('64001f'))?.payloadType).toBe(127); // High
    expect(chooseH264(offers, sps('4d401e'))?.payloadType).toBe(108); // Main
    expect(chooseH264(offers, sps('42e01e'))?.payloadType).toBe(106); // Constrained Baseline, exact
    expect(chooseH264(offers, sps('42c01e'))?.payloadType).toBe(102); // Baseline: same profile
    expect(chooseH264(offers, sps('f40033'))?.payloadType).toBe(102); // High 4:4:4: none matches, first usable
    expect(chooseH264(offers)?.payloadType).toBe(106);
    expect(chooseH264(offers.filter((o) => o.packetizationMode === 0))).toBeUndefined();
  });

  it('keeps one video payload type in the offer and drops the lines of the others', () => {
    const out = keepVideoPayloadType(CHROME, 127);
    expect(out).toContain('m=video 9 UDP/TLS/RTP/SAVPF 127\r\n');
    expect(out).toContain('a=fmtp:127 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=640032');
    expect(out).not.toMatch(/a=(rtpmap|fmtp|rtcp-fb):(96|97|102|103|104|105|106|107|108|109|125) /);
    expect(out).toContain('a=mid:0');
    expect(out).toContain('a=candidate:1 ');
    expect(out.endsWith('\r\n')).toBe(true);
  });

  it('keeps only the candidates on allowed addresses', () => {
    const out = keepCandidates(CHROME, new Set(['127.0.0.1']));
    expect(candidateAddresses(out)).toEqual(['127.0.0.1']);
    expect(candidateAddresses(keepCandidates(CHROME, new Set()))).toEqual([]);
  });
});

/** Chromium's audio section (recvonly): Opus first, then the G.711 pair among others. */
const AUDIO = [
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 63 9 0 8 13 110 126',
  'c=IN IP4 0.0.0.0',
  'a=mid:1',
  'a=recvonly',
  'a=rtpmap:111 opus/48000/2',
  'a=fmtp:111 minptime=10;useinbandfec=1',
  'a=rtpmap:63 red/48000/2',
  'a=rtpmap:9 G722/8000',
  'a=rtpmap:0 PCMU/8000',
  'a=rtpmap:8 PCMA/8000',
  'a=rtpmap:13 CN/8000',
  'a=rtpmap:110 telephone-event/48000',
  'a=rtpmap:126 telephone-event/8000',
  '',
].join('\r\n');

describe('WHEP audio', () => {
  it('lists the audio codecs of the offer', () => {
    const list = offeredAudio(CHROME + AUDIO);
    expect(list.slice(0, 5).map((c) => c.name)).toEqual(['OPUS', 'RED', 'G722', 'PCMU', 'PCMA']);
    expect(list.find((c) => c.name === 'PCMA')).toEqual({ name: 'PCMA', clockRate: 8000, payloadType: 8 });
    expect(offeredAudio(CHROME)).toEqual([]);
  });

  it('passes G.711 through when the offer has it; AAC and an offer without it get no passthrough', () => {
    expect(passthroughAudio(CHROME + AUDIO, 'pcma')).toBe('PCMA');
    expect(passthroughAudio(CHROME + AUDIO, 'pcmu')).toBe('PCMU');
    expect(passthroughAudio(CHROME + AUDIO, 'aac')).toBeUndefined();
    expect(passthroughAudio(CHROME + AUDIO, undefined)).toBeUndefined();
    expect(passthroughAudio(CHROME + AUDIO.replace('a=rtpmap:8 PCMA/8000\r\n', ''), 'pcma')).toBeUndefined();
    expect(passthroughAudio(CHROME, 'pcma')).toBeUndefined();
  });
});
