/**
 * WebRTC over WHEP end to end: the GStreamer camera → hub → WHEP output, received by a werift peer
 * acting as the WHEP client; its RTP is depacketised with @opencvr/rtp and the frames and keyframes
 * counted. Also: the answer's candidates are the configured addresses only, DELETE and a peer that goes
 * away end the session, so do a stopped stream and a camera back with video that is not H.264 (a
 * same-codec return plays on in the session), and the POST is authorised like every media URL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RTCRtpCodecParameters, type MediaStreamTrack, type RTCPeerConnection } from 'werift';
import { H264Depacketiser, parseRtp } from '@opencvr/rtp';
import { h264NalType, type VideoAccessUnit } from '@opencvr/codec';
import { until } from '../helpers/index.js';
import { closeLikeBrowser, whepPeer } from './whep-client.js';
import { whepSessionsOf } from '../../src/routes/media/webrtc.js';
import { candidateAddresses } from '../../src/media/outputs/webrtc-sdp.js';
import { useAdminApp } from '../api/admin-app.js';
import { useCamera } from '../fixtures/use-camera.js';
import { openCameraStream } from './open-stream.js';

const peers: RTCPeerConnection[] = [];
const cam = useCamera();
const api = useAdminApp({ listen: true });
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.close().catch(() => undefined)));
});

const openStream = () => openCameraStream(api, cam.url, 'webrtc');

/** A WHEP client: werift peer that receives one H.264 video track. */
async function whepClient(url: string) {
  const units: VideoAccessUnit[] = [];
  const depacketiser = new H264Depacketiser();
  let gotTrack!: (track: MediaStreamTrack) => void;
  const track0 = new Promise<MediaStreamTrack>((resolve) => (gotTrack = resolve));
  const { pc, res, answer } = await whepPeer(api.t.baseUrl!, url, {
    codecs: {
      video: [
        new RTCRtpCodecParameters({ mimeType: 'video/H264', clockRate: 90000, parameters: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f', rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }] }),
        new RTCRtpCodecParameters({ mimeType: 'video/H264', clockRate: 90000, parameters: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=640032' }),
      ],
    },
    onTrack: (track) => gotTrack(track),
    peers,
  });
  if (res.status !== 201) return { res, answer, pc, units };
  const track = await track0;
  track.onReceiveRtp.subscribe((rtp) => {
    try {
      units.push(...depacketiser.push(parseRtp(rtp.serialize())));
    } catch {
      /* counted as missing frames */
    }
  });
  return { res, answer, pc, units };
}

describe('WebRTC over WHEP', () => {
  it('a WHEP peer receives the camera as H.264 RTP: keyframes with SPS/PPS, frames in order; DELETE ends the session', async () => {
    const body = await openStream();
    expect(body.URL).toMatch(/^\/webrtc\/whep\/stream_\d+_0\?play_token=/);
    const { res, answer, units } = await whepClient(body.URL);
    expect(res.status, answer).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/sdp/);
    const location = res.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^/webrtc/whep/${body.Stream}/[\\w-]{20,}$`));
    // one H.264 payload type answered, the one matching the camera (x264 High → 640032 offered second)
    const video = answer.split('\r\n').filter((l) => l.startsWith('a=rtpmap:'));
    expect(video.filter((l) => /H264/.test(l))).toHaveLength(1);
    expect(answer).toMatch(/a=sendonly/);
    // candidates: the configured addresses only (loopback; no rtc_host set)
    expect(new Set(candidateAddresses(answer))).toEqual(new Set(['127.0.0.1']));

    await until(() => units.filter((u) => u.keyframe).length >= 2 && units.length >= 20, 20000);
    const first = units[0];
    expect(first.keyframe).toBe(true);
    const kf = units.filter((u) => u.keyframe);
    for (const u of kf) {
      const types = u.nalus.map(h264NalType);
      const before = types.slice(0, types.indexOf(5));
      expect(before).toContain(7);
      expect(before).toContain(8);
    }
    // 15 fps: consecutive frames 6000 ticks apart (90 kHz)
    const steps = units.slice(1, 15).map((u, i) => u.pts - units[i].pts);
    expect(steps.every((s) => s > 0 && s < 20000)).toBe(true);
    expect(units.filter((u) => u.damaged).length).toBe(0);
    expect(whepSessionsOf(api.t.ctx)!.size).toBe(1);
    // werift's peer takes AEAD_AES_128_GCM over host UDP: every video packet went the direct way.
    const sent = whepSessionsOf(api.t.ctx)!.list()[0].video!;
    expect(sent.packets).toBeGreaterThan(0);
    expect(sent.direct).toBe(sent.packets);

    // The session's id under another stream's key names no session: nothing ends.
    const elsewhere = location.replace(`/whep/${body.Stream}/`, '/whep/stream_999_0/');
    expect((await fetch(`${api.t.baseUrl}${elsewhere}`, { method: 'DELETE' })).status).toBe(404);
    expect((await fetch(`${api.t.baseUrl}${elsewhere}`, { method: 'PATCH' })).status).toBe(404);
    expect(whepSessionsOf(api.t.ctx)!.size).toBe(1);

    const del = await fetch(`${api.t.baseUrl}${location}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(whepSessionsOf(api.t.ctx)!.size).toBe(0);
    expect((await fetch(`${api.t.baseUrl}${location}`, { method: 'DELETE' })).status).toBe(404);
    expect(api.t.ctx.streams.get(body.Stream)!.viewers).toBe(0);
  });

  it('a peer that closes as a browser does (DTLS close_notify) ends its session at once and leaves the hub', async () => {
    const body = await openStream();
    const { res, pc, units } = await whepClient(body.URL);
    expect(res.status).toBe(201);
    await until(() => units.length >= 5, 20000);
    const hub = api.t.ctx.streams.get(body.Stream)!;
    expect(hub.viewers).toBe(1);
    await closeLikeBrowser(pc);
    await until(() => whepSessionsOf(api.t.ctx)!.size === 0, 5000);
    expect(hub.viewers).toBe(0);
  });

  it('a camera back as H.264 keeps its session (frames again on the same peer); back as H.265 ends it, and the hub keeps no viewer of it', async () => {
    const body = await openStream();
    const { res, units } = await whepClient(body.URL);
    expect(res.status).toBe(201);
    await until(() => units.length >= 5, 20000);
    const hub = api.t.ctx.streams.get(body.Stream)!;
    const port = cam.port;

    await cam.stop();
    await until(() => hub.state === 'retrying', 15000);
    await cam.start({ port });
    const before = units.length;
    await until(() => units.length >= before + 5, 30000);
    expect(whepSessionsOf(api.t.ctx)!.size).toBe(1);

    // The camera's encoder set to H.265: WHEP is H.264 only, so the session ends (the viewer asks
    // again and is offered the H.264 leg) instead of staying connected with no picture.
    await cam.stop();
    await until(() => hub.state === 'retrying', 15000);
    await cam.start({ port, codec: 'h265' });
    await until(() => whepSessionsOf(api.t.ctx)!.size === 0, 30000);
    expect(hub.tracks.find((t) => t.kind === 'video')?.codec).toBe('h265');
    expect(hub.viewers).toBe(0);
  }, 90_000);

  it('stopstream ends the WHEP sessions of the stream (they stayed connected with no picture), telling the peer with a DTLS close_notify', async () => {
    const body = await openStream();
    const { res, units, pc } = await whepClient(body.URL);
    expect(res.status).toBe(201);
    await until(() => units.length >= 5, 20000);
    expect(pc.dtlsTransports.map((t) => t.state)).toContain('connected');
    const stop = await api.get(`/api/v1/stopstream?device=${body.dev}&channel=1&stream=0`);
    expect(stop.statusCode, stop.body).toBe(200);
    await until(() => whepSessionsOf(api.t.ctx)!.size === 0, 5000);
    // The peer knows at once (werift closes its transport on close_notify, as a browser does), not
    // after its ICE checks go unanswered.
    await until(() => pc.dtlsTransports.every((t) => t.state === 'closed'), 3000);
  });

  it('refuses a POST without a token, a body that is not SDP, and an offer without H.264', async () => {
    const body = await openStream();
    const bare = body.URL.split('?')[0];
    const offer = 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\nc=IN IP4 0.0.0.0\r\na=rtpmap:96 VP8/90000\r\na=recvonly\r\na=mid:0\r\n';
    const post = (url: string, type: string, sdp: string, lang = 'zh-CN') =>
      fetch(`${api.t.baseUrl}${url}`, { method: 'POST', headers: { 'content-type': type, 'accept-language': lang }, body: sdp });
    expect((await post(bare, 'application/sdp', offer)).status).toBe(401);
    const text = await post(`${bare}?token=${api.admin}`, 'text/plain', offer);
    expect(text.status).toBe(415);
    // Why, in the asker's language (the catalogue's; not the server's English)
    expect(((await text.json()) as { msg: string }).msg).toBe('请求须为 application/sdp 类型的 SDP offer');
    const vp8 = await post(body.URL, 'application/sdp', offer);
    expect(vp8.status).toBe(415);
    expect(((await vp8.json()) as { msg: string }).msg).toBe('offer 中没有 packetization-mode=1 的 H.264');
    const vp8en = await post(body.URL, 'application/sdp', offer, 'en-US');
    expect(((await vp8en.json()) as { msg: string }).msg).toBe('the offer has no H.264 with packetization-mode=1');
    expect((await post('/webrtc/whep/stream_999_0?token=' + api.admin, 'application/sdp', offer)).status).toBe(404);
    expect(whepSessionsOf(api.t.ctx)!.size).toBe(0);
  });
});
