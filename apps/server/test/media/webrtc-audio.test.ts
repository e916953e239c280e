/**
 * WebRTC audio end to end: a GStreamer camera sending H.264 and G.711 A-law; a werift WHEP client
 * offering Opus, PCMU and PCMA gets PCMA answered and receives the camera's A-law as it is (8 kHz
 * clock, payload type 8) beside the video. An AAC camera's audio arrives as Opus (one ffmpeg for the
 * stream, gone with the last viewer). A camera without audio answers no G.711 and sends none.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { RTCRtpCodecParameters, useOPUS, usePCMU, type RTCPeerConnection } from 'werift';
import { until } from '../helpers/index.js';
import { startCamera, type Camera, type CameraOptions } from '../fixtures/camera.js';
import { whepSessionsOf } from '../../src/routes/media/webrtc.js';
import { H264_BASELINE, whepPeer } from './whep-client.js';
import { useAdminApp } from '../api/admin-app.js';
import { openCameraStream } from './open-stream.js';

let cam: Camera | undefined;
const peers: RTCPeerConnection[] = [];
// Registered before useAdminApp(): the camera stops after the app has closed.
afterEach(async () => {
  await cam?.stop();
  cam = undefined;
});
const api = useAdminApp({ listen: true });
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.close().catch(() => undefined)));
});

/** A camera with these options (each test its own), added and opened over WebRTC. */
async function setup(opts: CameraOptions) {
  cam = await startCamera(opts);
  return openCameraStream(api, cam.url, 'webrtc');
}

/** A WHEP client offering H.264 video and Opus/PCMU/PCMA audio; counts what arrives per kind. */
async function whep(url: string) {
  const got = { video: 0, audio: [] as { pt: number; ts: number; bytes: number }[] };
  const { pc, res, answer } = await whepPeer(api.t.baseUrl!, url, {
    codecs: {
      video: [H264_BASELINE()],
      audio: [useOPUS(), usePCMU(), new RTCRtpCodecParameters({ mimeType: 'audio/PCMA', clockRate: 8000, channels: 1, payloadType: 8 })],
    },
    kinds: ['video', 'audio'],
    onTrack: (track) =>
      track.onReceiveRtp.subscribe((rtp) => {
        if (track.kind === 'audio') got.audio.push({ pt: rtp.header.payloadType, ts: rtp.header.timestamp, bytes: rtp.payload.length });
        else got.video++;
      }),
    peers,
  });
  expect(res.status, answer).toBe(201);
  return { answer, got, pc };
}

/** This process's ffmpeg children encoding Opus. */
function opusChildren(): number[] {
  return fs.readdirSync('/proc').filter((d) => {
    if (!/^\d+$/.test(d)) return false;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return ppid === process.pid && fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('libopus');
    } catch {
      return false;
    }
  }).map(Number);
}

describe('WebRTC audio', () => {
  it('passes the camera G.711 A-law through as PCMA beside the video', async () => {
    const body = await setup({ audio: 'pcma' });
    const { answer, got } = await whep(body.URL);
    const audio = answer.split('m=audio')[1] ?? '';
    expect(audio).toMatch(/a=rtpmap:8 PCMA\/8000/);
    expect(audio).not.toMatch(/opus/i);
    expect(audio).toMatch(/a=sendonly/);
    await until(() => got.audio.length >= 20 && got.video >= 10, 20000);
    expect(got.audio.every((p) => p.pt === 8 && p.bytes > 0 && p.bytes <= 1200)).toBe(true);
    // 8 kHz clock: the timestamps advance by the samples sent (1 byte = 1 sample, mono).
    const steps = got.audio.slice(1, 10).map((p, i) => (p.ts - got.audio[i].ts) >>> 0);
    expect(steps.every((s, i) => s === got.audio[i].bytes)).toBe(true);
  }, 60000);

  it('transcodes AAC to Opus for the viewer and stops ffmpeg when the session ends', async () => {
    const body = await setup({ audio: 'aac' });
    const { answer, got, pc } = await whep(body.URL);
    const audio = answer.split('m=audio')[1] ?? '';
    expect(audio).toMatch(/opus\/48000\/2/i);
    expect(audio).not.toMatch(/PCM[AU]/);
    await until(() => got.audio.length >= 20 && got.video >= 10, 30000);
    // 20 ms Opus frames: 960 ticks of the 48 kHz clock apart.
    const steps = got.audio.slice(1, 10).map((p, i) => (p.ts - got.audio[i].ts) >>> 0);
    expect(steps.every((s) => s === 960)).toBe(true);
    expect(opusChildren()).toHaveLength(1);
    await whepSessionsOf(api.t.ctx)!.closeAll();
    await pc.close();
    await until(() => opusChildren().length === 0, 20000);
  }, 60000);

  it('sends no audio for a camera without it', async () => {
    const body = await setup({});
    const { answer, got } = await whep(body.URL);
    expect(answer.split('m=audio')[1] ?? '').not.toMatch(/PCMA/);
    await until(() => got.video >= 10, 20000);
    expect(got.audio).toHaveLength(0);
  }, 60000);
});
