import { describe, expect, it } from 'vitest';
import { parseSdp } from '@opencvr/rtsp';
import { decodeBase64, mediaTrack, RtpError, sdpTracks } from '../src/index.js';
import { captureSdp, hex, PROBES } from './fixtures.js';

const media = (lines: string[]) => parseSdp(['v=0', 's=-', ...lines, ''].join('\r\n')).media[0];

describe('ffmpeg SDP files to tracks', () => {
  const cases = [
    { name: 'h264-high-320x180', file: 'h264-high-320x180.h264', codec: 'h264', codecString: 'avc1.64000c' },
    { name: 'h264-baseline-176x144', file: 'h264-baseline-176x144.h264', codec: 'h264', codecString: 'avc1.42c00a' },
    { name: 'h265-main-320x180', file: 'h265-main-320x180.h265', codec: 'h265', codecString: 'hvc1.1.6.L60.90' },
  ];
  for (const c of cases) {
    it(`${c.name}: size from sprop parameter sets matches ffprobe`, () => {
      const { tracks, skipped } = sdpTracks(captureSdp(c.name));
      expect(skipped).toEqual([]);
      const [t] = tracks;
      expect(t).toMatchObject({ payloadType: 96, codec: c.codec, clockRate: 90000 });
      expect(t.track).toMatchObject({ kind: 'video', width: PROBES[c.file].width, height: PROBES[c.file].height, codecString: c.codecString });
    });
  }
  it('aac-lc-44100-stereo: config=1210', () => {
    const [t] = sdpTracks(captureSdp('aac-lc-44100-stereo')).tracks;
    expect(t).toMatchObject({ payloadType: 97, codec: 'aac', clockRate: 44100 });
    expect(t.track).toMatchObject({ sampleRate: 44100, channels: 2, codecString: 'mp4a.40.2' });
    expect(t.track?.kind === 'audio' && hex(t.track.config)).toBe('1210');
  });
  it('pcma and pcmu: static payload types without rtpmap', () => {
    expect(sdpTracks(captureSdp('pcma-8000')).tracks[0]).toMatchObject({ payloadType: 8, codec: 'pcma', track: { codecString: 'alaw', sampleRate: 8000 } });
    expect(sdpTracks(captureSdp('pcmu-8000')).tracks[0]).toMatchObject({ payloadType: 0, codec: 'pcmu', track: { codecString: 'ulaw', sampleRate: 8000 } });
  });
});

describe('SDP media edge cases', () => {
  it('H.264 without sprop-parameter-sets: no track yet (in-band parameter sets), still a depacketiser', () => {
    const t = mediaTrack(media(['m=video 0 RTP/AVP 96', 'a=rtpmap:96 H264/90000', 'a=fmtp:96 packetization-mode=1']));
    expect(t.track).toBeUndefined();
    expect(t.createDepacketiser()).toBeDefined();
  });
  it('fmtp names are case-insensitive (cameras write Sprop-Parameter-Sets)', () => {
    const t = mediaTrack(
      media(['m=video 0 RTP/AVP 96', 'a=rtpmap:96 H264/90000', 'a=fmtp:96 Packetization-Mode=1;Sprop-Parameter-Sets=Z00AH52oFAFum4CAgKAAAAMAIAAABlCA,aO48gA==']),
    );
    expect(t.track).toMatchObject({ width: 1280, height: 720, codecString: 'avc1.4d001f' });
  });
  it('H.265 with DONL is refused with a clear reason', () => {
    const m = media(['m=video 0 RTP/AVP 96', 'a=rtpmap:96 H265/90000', 'a=fmtp:96 sprop-max-don-diff=2']);
    expect(() => mediaTrack(m)).toThrow(/DONL/);
    expect(sdpTracks({ attributes: [], media: [m] }).skipped[0].reason).toMatch(/DONL/);
  });
  it('packetization-mode=2, MP4A-LATM and unknown encodings are unsupported', () => {
    expect(() => mediaTrack(media(['m=video 0 RTP/AVP 96', 'a=rtpmap:96 H264/90000', 'a=fmtp:96 packetization-mode=2']))).toThrow(RtpError);
    expect(() => mediaTrack(media(['m=audio 0 RTP/AVP 96', 'a=rtpmap:96 MP4A-LATM/44100/2']))).toThrow(/LATM/);
    expect(() => mediaTrack(media(['m=video 0 RTP/AVP 26']))).toThrow(/no supported payload format/);
  });
  it('mpeg4-generic needs AAC-hbr/lbr and a config', () => {
    expect(() => mediaTrack(media(['m=audio 0 RTP/AVP 97', 'a=rtpmap:97 mpeg4-generic/16000/1', 'a=fmtp:97 mode=CELP-cbr;config=1408']))).toThrow(RtpError);
    expect(() => mediaTrack(media(['m=audio 0 RTP/AVP 97', 'a=rtpmap:97 mpeg4-generic/16000/1', 'a=fmtp:97 mode=AAC-hbr']))).toThrow(RtpError);
    const t = mediaTrack(media(['m=audio 0 RTP/AVP 97', 'a=rtpmap:97 MPEG4-GENERIC/16000/1', 'a=fmtp:97 streamtype=5;mode=aac-hbr;config=1408']));
    expect(t.track).toMatchObject({ sampleRate: 16000, channels: 1 });
  });
  it('picks the first supported format of several', () => {
    const t = mediaTrack(media(['m=audio 0 RTP/AVP 101 8 0', 'a=rtpmap:101 telephone-event/8000']));
    expect(t).toMatchObject({ payloadType: 8, codec: 'pcma' });
  });
  it('decodeBase64: padding optional, URL-safe alphabet, bad characters typed', () => {
    expect(hex(decodeBase64('aM48gA=='))).toBe('68ce3c80');
    expect(hex(decodeBase64('aM48gA'))).toBe('68ce3c80');
    expect(hex(decodeBase64('-_8'))).toBe('fbff');
    expect(() => decodeBase64('a*b')).toThrow(RtpError);
  });
});
