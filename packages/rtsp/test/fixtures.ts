/**
 * Real RTSP exchanges, each with where it came from. Line ends are CRLF as on the wire; where a
 * source printed the message (an RFC, a log in an issue), the text is re-assembled with CRLF and any
 * Content-Length is recomputed for those bytes (noted per case).
 */
import fs from 'node:fs';

export const crlf = (...lines: string[]) => lines.join('\r\n');

export interface MessageCase {
  name: string;
  source: string;
  text: string;
  /** serialize(parse(text)) gives back the same bytes (false when the source folds lines). */
  exact: boolean;
}

/** SDP of GStreamer 1.22's rtsp-server for apps/server/test/fixtures/rtsp-camera.py (captured here). */
export const GST_SDP = crlf(
  'v=0',
  'o=- 10854177488484264810 1 IN IP4 127.0.0.1',
  's=Session streamed with GStreamer',
  'i=rtsp-server',
  't=0 0',
  'a=tool:GStreamer',
  'a=type:broadcast',
  'a=control:*',
  'a=range:npt=now-',
  'm=video 0 RTP/AVP 96',
  'c=IN IP4 0.0.0.0',
  'b=AS:262',
  'a=rtpmap:96 H264/90000',
  'a=framerate:15',
  'a=fmtp:96 packetization-mode=1;sprop-parameter-sets=Z0LADNoFB+wFqDAwNSgAAAMACAAAAwD0eKFV,aM48gA==;profile-level-id=42c00c;level-asymmetry-allowed=1',
  'a=control:stream=0',
  'a=ts-refclk:local',
  'a=mediaclk:sender',
  'a=ssrc:252795437 cname:user1069232587@host-69e8b4ae',
  '',
);

/** SDP of a Hikvision camera, from the LIVE555 log in github.com/mpromonet/webrtc-streamer/issues/138 (the vendor's Media_header line left out). */
export const HIKVISION_SDP = crlf(
  'v=0',
  'o=- 1534930022996637 1534930022996637 IN IP4 192.168.1.4',
  's=Media Presentation',
  'e=NONE',
  'b=AS:5050',
  't=0 0',
  'a=control:rtsp://21m677n127.imwork.net:17970/h264/ch1/main/av_stream/',
  'm=video 0 RTP/AVP 96',
  'c=IN IP4 0.0.0.0',
  'b=AS:5000',
  'a=recvonly',
  'a=x-dimensions:1280,720',
  'a=control:rtsp://21m677n127.imwork.net:17970/h264/ch1/main/av_stream/trackID=1',
  'a=rtpmap:96 H264/90000',
  'a=fmtp:96 profile-level-id=420029; packetization-mode=1; sprop-parameter-sets=Z00AH52oFAFum4CAgKAAAAMAIAAABlCA,aO48gA==',
  '',
);

/** The DESCRIBE example of RFC 2326 section 10.2 (SDP of RFC 2327 style). */
export const RFC2326_SDP = crlf(
  'v=0',
  'o=mhandley 2890844526 2890842807 IN IP4 126.16.64.4',
  's=SDP Seminar',
  'i=A Seminar on the session description protocol',
  'u=http://www.cs.ucl.ac.uk/staff/M.Handley/sdp.03.ps',
  'e=mjh@isi.edu (Mark Handley)',
  'c=IN IP4 224.2.17.12/127',
  't=2873397496 2873404696',
  'a=recvonly',
  'm=audio 3456 RTP/AVP 0',
  'm=video 2232 RTP/AVP 31',
  'm=whiteboard 32416 UDP WB',
  'a=orient:portrait',
  '',
);

const withBody = (head: string[], body: string) => crlf(...head, `Content-Length: ${Buffer.byteLength(body)}`, '', body);

export const MESSAGES: MessageCase[] = [
  {
    name: 'RFC 2326 10.1 OPTIONS request',
    source: 'RFC 2326 section 10.1',
    text: crlf('OPTIONS * RTSP/1.0', 'CSeq: 1', 'Require: implicit-play', 'Proxy-Require: gzipped-messages', '', ''),
    exact: true,
  },
  {
    name: 'RFC 2326 10.1 OPTIONS response',
    source: 'RFC 2326 section 10.1',
    text: crlf('RTSP/1.0 200 OK', 'CSeq: 1', 'Public: DESCRIBE, SETUP, TEARDOWN, PLAY, PAUSE', '', ''),
    exact: true,
  },
  {
    name: 'RFC 2326 10.2 DESCRIBE request',
    source: 'RFC 2326 section 10.2',
    text: crlf('DESCRIBE rtsp://server.example.com/fizzle/foo RTSP/1.0', 'CSeq: 312', 'Accept: application/sdp, application/rtsl, application/mheg', '', ''),
    exact: true,
  },
  {
    name: 'RFC 2326 10.2 DESCRIBE response with SDP',
    source: 'RFC 2326 section 10.2 (Content-Length recomputed for CRLF line ends)',
    text: withBody(['RTSP/1.0 200 OK', 'CSeq: 312', 'Date: 23 Jan 1997 15:35:06 GMT', 'Content-Type: application/sdp'], RFC2326_SDP),
    exact: true,
  },
  {
    name: 'RFC 2326 10.4 SETUP response with a folded Transport header',
    source: 'RFC 2326 section 10.4',
    text: crlf(
      'RTSP/1.0 200 OK',
      'CSeq: 302',
      'Date: 23 Jan 1997 15:35:06 GMT',
      'Session: 47112344',
      'Transport: RTP/AVP;unicast;',
      '  client_port=4588-4589;server_port=6256-6257',
      '',
      '',
    ),
    exact: false,
  },
  {
    name: 'GStreamer OPTIONS response',
    source: 'captured here from gst-rtsp-server 1.22 (apps/server/test/fixtures/rtsp-camera.py)',
    text: crlf(
      'RTSP/1.0 200 OK',
      'CSeq: 1',
      'Public: OPTIONS, DESCRIBE, ANNOUNCE, GET_PARAMETER, PAUSE, PLAY, RECORD, SETUP, SET_PARAMETER, TEARDOWN',
      'Server: GStreamer RTSP server',
      'Date: Sun, 22 Nov 2026 00:12:35 GMT',
      '',
      '',
    ),
    exact: true,
  },
  {
    name: 'GStreamer DESCRIBE response',
    source: 'captured here from gst-rtsp-server 1.22 (apps/server/test/fixtures/rtsp-camera.py)',
    text: crlf(
      'RTSP/1.0 200 OK',
      'CSeq: 2',
      'Content-Type: application/sdp',
      'Content-Base: rtsp://127.0.0.1:18554/cam/',
      'Server: GStreamer RTSP server',
      'Date: Sun, 22 Nov 2026 00:12:36 GMT',
      'Content-Length: 524',
      '',
      GST_SDP,
    ),
    exact: true,
  },
  {
    name: 'GStreamer 401 with a Digest challenge',
    source: 'captured here from gst-rtsp-server 1.22 with RTSPAuth digest',
    text: crlf(
      'RTSP/1.0 401 Unauthorized',
      'CSeq: 1',
      'WWW-Authenticate: Digest realm="GStreamer RTSP Server", nonce="51f22f4ab5abc1b9"',
      'Server: GStreamer RTSP server',
      'Date: Sun, 22 Nov 2026 00:12:52 GMT',
      '',
      '',
    ),
    exact: true,
  },
  {
    name: 'GStreamer 404',
    source: 'captured here from gst-rtsp-server 1.22 (DESCRIBE of an unknown mount)',
    text: crlf('RTSP/1.0 404 Not Found', 'CSeq: 1', 'Server: GStreamer RTSP server', 'Date: Sun, 22 Nov 2026 00:12:38 GMT', '', ''),
    exact: true,
  },
  {
    name: 'Hikvision 401 with Digest and Basic challenges',
    source: 'ExoPlayer log in github.com/google/ExoPlayer/issues/9800',
    text: crlf(
      'RTSP/1.0 401 Unauthorized',
      'CSeq: 1',
      'WWW-Authenticate: Digest realm="IP Camera(C1214)", nonce="0191a41d87c28cd52b3e9c8adc99291c", stale="FALSE"',
      'WWW-Authenticate: Basic realm="IP Camera(C1214)"',
      'Date:  Tue, Dec 21 2021 12:08:36 GMT',
      '',
      '',
    ),
    // "Date:  Tue" has two spaces; parsing trims them.
    exact: false,
  },
  {
    name: 'IP Webcam 401 with qop=auth',
    source: 'curl log in github.com/Ullaakut/cameradar/issues/197',
    text: crlf('RTSP/1.0 401 Unauthorized', 'CSeq: 1', 'Content-Length: 0', 'WWW-Authenticate: Digest realm="IP Webcam", nonce="1558451085", qop="auth"', '', ''),
    exact: true,
  },
  {
    name: 'LIVE555 DESCRIBE with Digest credentials (Hikvision)',
    source: 'LIVE555 log in github.com/mpromonet/webrtc-streamer/issues/138 (user:password removed from the URL)',
    text: crlf(
      'DESCRIBE rtsp://21m677n127.imwork.net:17970/h264/ch1/main/av_stream RTSP/1.0',
      'CSeq: 3',
      'Authorization: Digest username="admin", realm="IP Camera(C2189)", nonce="1bcc728fe33807c8070f8572af32b356", uri="rtsp://21m677n127.imwork.net:17970/h264/ch1/main/av_stream", response="5e35a0c03ad0ada2e286b9a59d3325c8"',
      'User-Agent: LIVE555 Streaming Media v2018.08.05',
      'Accept: application/sdp',
      '',
      '',
    ),
    exact: true,
  },
  {
    name: 'Hikvision DESCRIBE response',
    source: 'LIVE555 log in github.com/mpromonet/webrtc-streamer/issues/138 (Content-Length recomputed, Media_header line left out)',
    text: withBody(
      ['RTSP/1.0 200 OK', 'CSeq: 3', 'Content-Type: application/sdp', 'Content-Base: rtsp://21m677n127.imwork.net:17970/h264/ch1/main/av_stream/'],
      HIKVISION_SDP,
    ),
    exact: true,
  },
];

/** The bytes after PLAY from GStreamer: the 200 OK and 4 interleaved RTP packets (see the file's header). */
export function gstPlayInterleaved(): Uint8Array {
  const text = fs.readFileSync(new URL('./fixtures/gst-play-interleaved.hex', import.meta.url), 'utf8');
  const hex = text
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('')
    .trim();
  return Uint8Array.from(hex.match(/../g)!.map((h) => parseInt(h, 16)));
}
