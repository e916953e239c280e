/**
 * A media connection let in by a play token ends when the token expires (routes/media/token-expiry.ts):
 * the test camera played over WS-fMP4, WS-FLV, HTTP-FLV and WebRTC with a token that expires in about
 * two seconds is closed after it, while one opened beside it with a token of an hour plays on. HLS
 * checks the token on every request, so an expired one is refused; a shared link's play URLs expire
 * with the link.
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RTCPeerConnection } from 'werift';
import { until } from '../helpers/index.js';
import { useAdminApp } from '../api/admin-app.js';
import { useCamera } from '../fixtures/use-camera.js';
import { openCameraStream } from './open-stream.js';
import { H264_BASELINE, whepPeer } from './whep-client.js';
import { whepSessionsOf } from '../../src/routes/media/webrtc.js';
import { endAtExpiry } from '../../src/routes/media/token-expiry.js';

const cam = useCamera();
const api = useAdminApp({ listen: true });
const peers: RTCPeerConnection[] = [];
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.close().catch(() => undefined)));
});

/** A play token for the stream that expires in `seconds` (signed as the platform signs every play token). */
const tokenFor = async (stream: string, seconds: number) => (await api.t.ctx.streams.signShare(stream, seconds)).token;

/** A viewer of a media WebSocket: counts messages and resolves `closed` with the close code and reason. */
function wsViewer(url: string) {
  const ws = new WebSocket(url);
  const viewer = { ws, messages: 0, closed: new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) }))) };
  ws.on('message', () => viewer.messages++);
  ws.on('error', () => undefined);
  return viewer;
}

for (const [protocol, path] of [
  ['WS_FMP4', (key: string) => `/ws_m4s/live/${key}.mp4`],
  ['WS_FLV', (key: string) => `/ws_flv/live/${key}.flv`],
] as const) {
  it(`${protocol}: the socket of a token expiring in ~2 s is closed after it ('play token expired'); one with a longer token plays on`, async () => {
    const s = await openCameraStream(api, cam.url, protocol);
    const ws = api.t.baseUrl!.replace('http', 'ws');
    const short = wsViewer(`${ws}${path(s.Stream)}?play_token=${await tokenFor(s.Stream, 2)}`);
    const long = wsViewer(`${ws}${path(s.Stream)}?play_token=${await tokenFor(s.Stream, 3600)}`);
    await until(() => short.messages > 0 && long.messages > 0, 15000, { what: () => 'both viewers playing' });
    expect(await short.closed).toEqual({ code: 1008, reason: 'play token expired' });
    // the other viewer still gets media after the short token's close
    const seen = long.messages;
    await until(() => long.messages > seen + 3, 15000, { what: () => 'the long-token viewer still playing' });
    expect(long.ws.readyState).toBe(WebSocket.OPEN);
    long.ws.close();
  });
}

it('HTTP-FLV: the response of a token expiring in ~2 s ends after it', async () => {
  const s = await openCameraStream(api, cam.url, 'FLV');
  const res = await fetch(`${api.t.baseUrl}/flv/live/${s.Stream}.flv?play_token=${await tokenFor(s.Stream, 2)}`);
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
  }
  // it played before it ended
  expect(bytes).toBeGreaterThan(1000);
});

it('WebRTC: the WHEP session of a token expiring in ~2 s is closed after it; one with a longer token stays', async () => {
  const s = await openCameraStream(api, cam.url, 'WEBRTC');
  const sessions = whepSessionsOf(api.t.ctx)!;
  const offer = { codecs: { video: [H264_BASELINE()] }, onTrack: () => undefined, peers };
  const short = await whepPeer(api.t.baseUrl!, `/webrtc/whep/${s.Stream}?play_token=${await tokenFor(s.Stream, 2)}`, offer);
  const long = await whepPeer(api.t.baseUrl!, `/webrtc/whep/${s.Stream}?play_token=${await tokenFor(s.Stream, 3600)}`, offer);
  expect([short.res.status, long.res.status]).toEqual([201, 201]);
  const idOf = (r: Response) => r.headers.get('location')!.split('/').pop()!;
  const [shortId, longId] = [idOf(short.res), idOf(long.res)];
  await until(() => !sessions.has(shortId), 15000, { what: () => 'the short-token session closed' });
  expect(sessions.has(longId)).toBe(true);
});

it('HLS: a playlist or segment request with an expired token is refused (each request is checked)', async () => {
  const s = await openCameraStream(api, cam.url, 'HLS');
  const expired = await tokenFor(s.Stream, -1);
  expect((await fetch(`${api.t.baseUrl}/hls/${s.Stream}/playlist.m3u8?play_token=${expired}`)).status).toBe(401);
  expect((await fetch(`${api.t.baseUrl}/hls/${s.Stream}/seg_1.m4s?play_token=${expired}`)).status).toBe(401);
  expect((await fetch(`${api.t.baseUrl}/hls/${s.Stream}/playlist.m3u8?play_token=${await tokenFor(s.Stream, 60)}`)).status).toBe(200);
});

it("a shared link's play URLs expire with the link, not after the play tokens' TokenTimeout", async () => {
  const s = await openCameraStream(api, cam.url, 'WS_FMP4');
  const link = await api.body(`/api/v1/devices/sharelink?device=${s.dev}&channel=1&expire=60`);
  const token = new URL(link.URL, 'http://x').searchParams.get('play_token')!;
  const res = await api.t.app.inject({ url: `/api/v1/share/channelstream?device=${s.dev}&channel=1&play_token=${token}` });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json().EasyDarwin.Body;
  expect(body.ExpiresAt).toBe(link.ExpiresAt);
  for (const url of Object.values(body.URLs as Record<string, string>)) {
    const claims = JSON.parse(Buffer.from(url.split('play_token=')[1].split('.')[0], 'base64url').toString());
    expect(claims.e, url).toBeLessThanOrEqual(link.ExpiresAt);
  }
});

/** A token's expiry (unix seconds) read from a play URL (its claims are base64url JSON before the signature). */
const claimsExpiry = (url: string) => JSON.parse(Buffer.from(url.split('play_token=')[1]!.split('.')[0]!, 'base64url').toString()).e as number;

it('the stream answers say how many seconds their URLs have left (UrlsExpireIn, the server’s count), for the player to renew before the end', async () => {
  const s = await openCameraStream(api, cam.url, 'WS_FMP4');
  const answer = (await api.body(`/api/v1/devices/channelstream?device=${s.dev}&channel=1`)) as { URLs: Record<string, string>; ExpiresAt: number; UrlsExpireIn: number };
  const { TokenTimeout } = await api.t.ctx.config.get('play');
  const now = Math.floor(Date.now() / 1000);
  expect(answer.UrlsExpireIn).toBeGreaterThan(TokenTimeout - 5);
  expect(answer.UrlsExpireIn).toBeLessThanOrEqual(TokenTimeout);
  expect(Math.abs(now + answer.UrlsExpireIn - claimsExpiry(answer.URLs.WS_FMP4!))).toBeLessThanOrEqual(5);

  // A shared link that outlives TokenTimeout: ExpiresAt is the link's end, UrlsExpireIn the URLs' (shorter).
  const link = await api.body(`/api/v1/devices/sharelink?device=${s.dev}&channel=1&expire=${TokenTimeout * 3}`);
  const token = new URL(link.URL, 'http://x').searchParams.get('play_token')!;
  const res = await api.t.app.inject({ url: `/api/v1/share/channelstream?device=${s.dev}&channel=1&play_token=${token}` });
  const shared = res.json().EasyDarwin.Body as { URLs: Record<string, string>; ExpiresAt: number; UrlsExpireIn: number };
  expect(shared.ExpiresAt).toBe(link.ExpiresAt);
  expect(shared.UrlsExpireIn).toBeLessThanOrEqual(TokenTimeout);
  expect(Math.abs(Math.floor(Date.now() / 1000) + shared.UrlsExpireIn - claimsExpiry(shared.URLs.WS_FMP4!))).toBeLessThanOrEqual(5);
});

describe('endAtExpiry', () => {
  it('ends at once when the expiry has passed, never without one, and not once cancelled', () => {
    let ended = 0;
    endAtExpiry(Date.now() / 1000 - 1, () => ended++);
    expect(ended).toBe(1);
    endAtExpiry(undefined, () => ended++)();
    const cancel = endAtExpiry(Date.now() / 1000 + 3600, () => ended++);
    cancel();
    expect(ended).toBe(1);
  });
});
