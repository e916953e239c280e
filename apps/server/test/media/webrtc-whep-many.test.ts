/**
 * Many WHEP sessions on one stream: 20 werift peers on loopback, set up a few at a time as a page of
 * viewers would be, each must connect and receive the camera's RTP (a keyframe first), and all of
 * them leave the hub when closed. (On a loaded machine werift's DTLS client lost sessions past ~15:
 * that needs a late DTLS peer to show, so the repair itself is tested in webrtc-rtp.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MediaStreamTrack, RTCPeerConnection } from 'werift';
import { H264Depacketiser, parseRtp } from '@opencvr/rtp';
import type { VideoAccessUnit } from '@opencvr/codec';
import { until } from '../helpers/index.js';
import { H264_BASELINE, whepPeer } from './whep-client.js';
import { whepSessionsOf } from '../../src/routes/media/webrtc.js';
import { useAdminApp } from '../api/admin-app.js';
import { useCamera } from '../fixtures/use-camera.js';

const VIEWERS = 20;
const BATCH = 5;

const peers: RTCPeerConnection[] = [];
const cam = useCamera();
const api = useAdminApp({ listen: true });
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.close().catch(() => undefined)));
});

async function whepViewer(url: string) {
  const units: VideoAccessUnit[] = [];
  const depacketiser = new H264Depacketiser();
  let gotTrack!: (track: MediaStreamTrack) => void;
  const track0 = new Promise<MediaStreamTrack>((resolve) => (gotTrack = resolve));
  const { pc, res, answer } = await whepPeer(api.t.baseUrl!, url, { codecs: { video: [H264_BASELINE()] }, onTrack: (track) => gotTrack(track), peers });
  expect(res.status, answer).toBe(201);
  const track = await track0;
  track.onReceiveRtp.subscribe((rtp) => {
    try {
      units.push(...depacketiser.push(parseRtp(rtp.serialize())));
    } catch {
      /* a damaged unit is not counted */
    }
  });
  return { pc, units };
}

describe('WebRTC over WHEP, many sessions', () => {
  it(`${VIEWERS} WHEP peers of one stream all connect and receive its video, starting on a keyframe`, async () => {
    const add = await api.t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token: api.admin }, payload: { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: cam.url } });
    const dev = add.json().EasyDarwin.Body.DeviceID as string;
    const play = await api.t.app.inject({ url: `/api/v1/devices/channelstream?device=${dev}&channel=1&protocol=webrtc`, headers: { token: api.admin } });
    const { URL: url, Stream: key } = play.json().EasyDarwin.Body as { URL: string; Stream: string };
    const viewers: Awaited<ReturnType<typeof whepViewer>>[] = [];
    for (let i = 0; i < VIEWERS; i += BATCH) viewers.push(...(await Promise.all(Array.from({ length: BATCH }, () => whepViewer(url)))));
    const receiving = () => viewers.filter((v) => v.units.length >= 3).length;
    await until(() => receiving() === VIEWERS, 90_000, { what: () => `all ${VIEWERS} to receive (${receiving()} do)` });
    for (const v of viewers) {
      expect(v.units[0].keyframe).toBe(true);
      expect(v.pc.connectionState).toBe('connected');
    }
    expect(whepSessionsOf(api.t.ctx)!.size).toBe(VIEWERS);
    expect(api.t.ctx.streams.get(key)!.viewers).toBe(VIEWERS);
    await whepSessionsOf(api.t.ctx)!.closeAll();
    expect(whepSessionsOf(api.t.ctx)!.size).toBe(0);
    expect(api.t.ctx.streams.get(key)!.viewers).toBe(0);
  }, 150_000);
});
