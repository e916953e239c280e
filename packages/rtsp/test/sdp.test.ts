import { describe, expect, it } from 'vitest';
import { parseSdp, resolveControl, sdpCodecs } from '../src/index.js';
import { GST_SDP, HIKVISION_SDP, RFC2326_SDP } from './fixtures.js';

describe('SDP', () => {
  it('GStreamer rtsp-server (captured here)', () => {
    const sdp = parseSdp(GST_SDP);
    expect(sdp.version).toBe(0);
    expect(sdp.sessionName).toBe('Session streamed with GStreamer');
    expect(sdp.control).toBe('*');
    expect(sdp.range).toBe('npt=now-');
    expect(sdp.media).toHaveLength(1);
    const [v] = sdp.media;
    expect(v).toMatchObject({ type: 'video', port: 0, protocol: 'RTP/AVP', formats: ['96'], control: 'stream=0' });
    expect(v.rtpmap).toEqual([{ payloadType: 96, encoding: 'H264', clockRate: 90000 }]);
    expect(v.fmtp['96']).toEqual({
      'packetization-mode': '1',
      'sprop-parameter-sets': 'Z0LADNoFB+wFqDAwNSgAAAMACAAAAwD0eKFV,aM48gA==',
      'profile-level-id': '42c00c',
      'level-asymmetry-allowed': '1',
    });
    expect(sdpCodecs(sdp)).toEqual(['H264']);
    expect(resolveControl('rtsp://127.0.0.1:18554/cam/', v.control)).toBe('rtsp://127.0.0.1:18554/cam/stream=0');
  });

  it('Hikvision (github.com/mpromonet/webrtc-streamer/issues/138)', () => {
    const sdp = parseSdp(HIKVISION_SDP);
    const [v] = sdp.media;
    expect(v.fmtp['96']['profile-level-id']).toBe('420029');
    expect(v.fmtp['96']['packetization-mode']).toBe('1');
    expect(resolveControl('rtsp://x/', v.control)).toBe('rtsp://21m677n127.imwork.net:17970/h264/ch1/main/av_stream/trackID=1');
    expect(sdpCodecs(sdp)).toEqual(['H264']);
  });

  it('RFC 2326 10.2: static payload types and a non-RTP medium', () => {
    const sdp = parseSdp(RFC2326_SDP);
    expect(sdp.media.map((m) => m.type)).toEqual(['audio', 'video', 'whiteboard']);
    expect(sdp.media[0].port).toBe(3456);
    // PT 0 is PCMU; 31 (H261) is not in our static table, WB is not a payload type.
    expect(sdpCodecs(sdp)).toEqual(['PCMU']);
    expect(sdp.media[2].attributes).toEqual([['orient', 'portrait']]);
  });

  it('audio with channels, control relative without a trailing slash', () => {
    const sdp = parseSdp('v=0\nm=audio 0 RTP/AVP 97 8\na=rtpmap:97 MPEG4-GENERIC/48000/2\na=control:trackID=2\n');
    expect(sdp.media[0].rtpmap[0]).toEqual({ payloadType: 97, encoding: 'MPEG4-GENERIC', clockRate: 48000, channels: 2 });
    expect(sdpCodecs(sdp)).toEqual(['MPEG4-GENERIC', 'PCMA']);
    expect(resolveControl('rtsp://h/live', sdp.media[0].control)).toBe('rtsp://h/live/trackID=2');
  });
});
