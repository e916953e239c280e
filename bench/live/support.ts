/**
 * What the live bench's parts (first-frame, latency, viewers) share: a context handed over by run.ts
 * (the camera), a fresh initialised server, devices and play URLs through the API, CPU seconds from
 * /proc, and viewers that only count what they get: a WebSocket (fMP4 or FLV) reader (bench/lib/ws-viewer.ts) and a WHEP
 * client made with werift (the server's own WebRTC library, here on the receiving side).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { RTCPeerConnection, RTCRtpCodecParameters, SrtpAuthenticationError, type RTCDtlsTransport } from 'werift';
import { call, initialise, startServer as startServerProcess } from '../lib/server';
import type { CountingViewer } from '../lib/ws-viewer';

// The reading viewer lives in bench/lib (the recording bench's viewer windows use it too).
export { wsViewer, type CountingViewer } from '../lib/ws-viewer';

/** What run.ts hands to every part. */
export interface LiveContext {
  /** rtsp URL of the shared bench camera; each n is its own session (own device, own hub). */
  cameraUrl(n: number): string;
  log(m: string): void;
  /** Command-line option of the run (`--name=value`), or the default. */
  arg(name: string, def: string): string;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;
export const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').trim();

export function percentile(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
/** utime + stime of a process (all its threads) and of its children that ended (its ffmpeg runs), in seconds. */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / CLK_TCK;
}

export interface BenchServer {
  base: string;
  pid: number;
  token: string;
  stop(): Promise<void>;
}

export async function startServer(ctx: LiveContext, label: string, env: Record<string, string> = {}): Promise<BenchServer> {
  const s = await startServerProcess({ label, prefix: 'live', env: { CHANNEL_CHECK_INTERVAL: '0', ...env }, showLogOnStop: true, log: ctx.log });
  const session = await initialise(s.url);
  return { base: s.url, pid: s.pid, token: session.Token, stop: s.stop };
}

export async function addDevice(s: BenchServer, name: string, url: string): Promise<string> {
  const body = await call<{ DeviceID: string }>(s.base, '/api/v1/adddevice', {
    method: 'POST',
    headers: { token: s.token, 'content-type': 'application/json' },
    body: JSON.stringify({ DeviceName: name, DeviceType: 'RTSP', RtspUrl: url }),
  });
  if (!body.DeviceID) throw new Error(`adddevice answered no DeviceID: ${JSON.stringify(body)}`);
  return body.DeviceID;
}

export type PlayProtocol = 'WS_FMP4' | 'HLS' | 'FLV' | 'WS_FLV' | 'WEBRTC';

/** Every play URL of a channel's main stream (getchannelstream), absolute. */
export async function playUrls(s: BenchServer, device: string): Promise<Record<PlayProtocol, string>> {
  const body = await call<{ URLs: Record<PlayProtocol, string> }>(
    s.base,
    `/api/v1/getchannelstream?${new URLSearchParams({ device, channel: '1', protocol: 'ws_m4s' })}`,
    { headers: { token: s.token } },
  );
  const abs = (p: string, ws: boolean) => (ws ? s.base.replace(/^http/, 'ws') : s.base) + p;
  return {
    WS_FMP4: abs(body.URLs.WS_FMP4, true),
    WS_FLV: abs(body.URLs.WS_FLV, true),
    HLS: abs(body.URLs.HLS, false),
    FLV: abs(body.URLs.FLV, false),
    WEBRTC: abs(body.URLs.WEBRTC, false),
  };
}

/**
 * The WHEP client checks one SRTP packet in VERIFY_EVERY (decrypted and authenticated with the
 * session's keys) and only counts the others: a werift peer that decrypts and depacketises every
 * packet costs as much as the server's sending, and 64 of them in one process on a shared 2-core
 * machine starved their own ICE and DTLS timers (sessions that never connected).
 */
const VERIFY_EVERY = 64;
const COUNTED = new SrtpAuthenticationError('counted (bench viewer)');

/**
 * A WHEP client (werift) receiving the H.264 track; ready at its first authenticated SRTP packet.
 * `bytes` counts SRTP datagrams (RTP header, payload and tag); nothing reaches werift's receiver,
 * so it sends no NACKs for the packets it did not decrypt.
 */
export async function whepViewer(url: string): Promise<CountingViewer> {
  const pc = new RTCPeerConnection({
    iceServers: [],
    iceUseIpv6: false,
    iceAdditionalHostAddresses: ['127.0.0.1'],
    // The server's answer has loopback candidates only: checks from other local addresses are waste.
    iceFilterCandidatePair: (pair) => pair.protocol.localCandidate?.host === '127.0.0.1',
    codecs: {
      video: [
        new RTCRtpCodecParameters({
          mimeType: 'video/H264',
          clockRate: 90000,
          parameters: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=640032',
          rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }],
        }),
      ],
    },
  });
  pc.addTransceiver('video', { direction: 'recvonly' });
  let resource = '';
  let received!: () => void;
  const v: CountingViewer = {
    bytes: 0,
    ready: new Promise<void>((resolve) => (received = resolve)),
    state: () => `${pc.iceConnectionState}/${pc.connectionState}`,
    close: async () => {
      if (resource) await fetch(resource, { method: 'DELETE' }).catch(() => undefined);
      await pc.close().catch(() => undefined);
    },
  };
  const countOnly = (dtls: RTCDtlsTransport) => {
    const srtp = dtls.srtp;
    const decrypt = srtp.decrypt;
    let n = 0;
    srtp.decrypt = (buf: Buffer) => {
      v.bytes += buf.length;
      if (n++ % VERIFY_EVERY === 0) {
        decrypt(buf); // throws SrtpAuthenticationError on a packet that is not this session's
        if (v.firstAt === undefined) {
          v.firstAt = performance.now();
          received();
        }
      }
      // werift drops a packet that fails authentication without a word: the cheap way out (one
      // error object for all, so no stack is captured per packet).
      throw COUNTED;
    };
  };
  try {
    await pc.setLocalDescription(await pc.createOffer());
    // Loopback candidates gather at once; a loaded machine gets 5 s, then the offer goes as it is.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5000);
      if (pc.iceGatheringState === 'complete') resolve();
      pc.iceGatheringStateChange.subscribe((s) => s === 'complete' && (clearTimeout(timer), resolve()));
    });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp' },
      body: pc.localDescription!.sdp,
      signal: AbortSignal.timeout(30_000),
    });
    const answer = await res.text();
    if (res.status !== 201) throw new Error(`WHEP answered ${res.status}: ${answer.slice(0, 200)}`);
    resource = new URL(res.headers.get('location')!, url).toString();
    await pc.setRemoteDescription({ type: 'answer', sdp: answer });
    const dtls = pc.getTransceivers()[0].dtlsTransport;
    // The SRTP session exists once DTLS is up (werift makes it just before "connected").
    if (dtls.state === 'connected') countOnly(dtls);
    else dtls.onStateChange.subscribe((s) => s === 'connected' && countOnly(dtls));
  } catch (err) {
    await v.close();
    throw err;
  }
  v.ready.catch(() => undefined);
  return v;
}

/** Waits for a promise, failing after ms with a message. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, sleep(ms).then(() => Promise.reject(new Error(`${what}: nothing in ${ms} ms`)))]);
}

