import { describe, expect, it } from 'vitest';
import { candidates, chooseTransport, h264Variant, isHevc, needsProbe, type Capabilities, type Transport } from '../src/components/player/transport';
import { transportFrom } from '../src/components/player/transportChoice';
import { absoluteUrl } from '../src/components/player/api';

const chrome: Capabilities = { mse: true, nativeHls: false, webrtc: true, flv: false };
const safariNoMse: Capabilities = { mse: false, nativeHls: true, webrtc: true, flv: false };
const bare: Capabilities = { mse: false, nativeHls: false, webrtc: false, flv: false };
const ALL = {
  WS_FMP4: '/ws_m4s/live/stream_1_0.mp4?play_token=t',
  HLS: '/hls/stream_1_0/playlist.m3u8?play_token=t',
  FLV: '/flv/live/stream_1_0.flv?play_token=t',
  WS_FLV: '/ws_flv/live/stream_1_0.flv?play_token=t',
  WEBRTC: '/webrtc/whep/stream_1_0?play_token=t',
};

describe('transport choice', () => {
  it('takes WS fMP4 first when the browser has MSE, without probing the server', () => {
    expect(chooseTransport({ caps: chrome, urls: ALL })).toBe('ws-fmp4');
  });

  it('orders candidates WS fMP4 → HLS → WebRTC; FLV only where chosen', () => {
    expect(candidates({ caps: chrome, urls: ALL })).toEqual(['ws-fmp4', 'hls', 'webrtc']);
    expect(candidates({ caps: { ...chrome, flv: true }, urls: ALL })).toEqual(['ws-fmp4', 'hls', 'webrtc']);
    expect(candidates({ caps: { ...chrome, flv: true }, urls: ALL, only: 'flv' })).toEqual(['flv']);
    expect(candidates({ caps: chrome, urls: ALL, only: 'flv' })).toEqual([]);
  });

  it('a chosen transport is the only one: no fallback after failures, nothing when the server lacks it', () => {
    const failed = new Set<Transport>(['hls']);
    expect(chooseTransport({ caps: chrome, urls: ALL, only: 'hls', failed, served: { hls: true } })).toBe('hls');
    expect(chooseTransport({ caps: chrome, urls: ALL, only: 'hls', served: { hls: false } })).toBeNull();
    expect(chooseTransport({ caps: chrome, urls: ALL, only: 'webrtc' })).toBe('webrtc');
    expect(chooseTransport({ caps: { ...chrome, flv: true }, urls: ALL, only: 'flv', failed: new Set<Transport>(['flv']) })).toBe('flv');
    expect(chooseTransport({ caps: chrome, urls: { WS_FMP4: ALL.WS_FMP4 }, only: 'webrtc' })).toBeNull();
  });

  it('probes the HTTP outputs only (HLS, WebRTC); the WebSockets are handed out by channelstream', () => {
    expect((['ws-fmp4', 'hls', 'webrtc', 'flv'] as Transport[]).filter(needsProbe)).toEqual(['hls', 'webrtc']);
  });

  it("the page's ?transport= overrides the stored choice when it names a transport", () => {
    expect(transportFrom('?transport=hls', 'auto')).toBe('hls');
    expect(transportFrom('?play_token=x&transport=flv', 'webrtc')).toBe('flv');
    expect(transportFrom('?transport=rtmp', 'webrtc')).toBe('webrtc');
    expect(transportFrom('', 'auto')).toBe('auto');
  });

  it('without MSE goes to native HLS, asking for a probe first, then WebRTC when HLS is not served', () => {
    expect(chooseTransport({ caps: safariNoMse, urls: ALL })).toBe('hls');
    expect(chooseTransport({ caps: safariNoMse, urls: ALL, served: { hls: true } })).toBe('hls');
    expect(chooseTransport({ caps: safariNoMse, urls: ALL, served: { hls: false } })).toBe('webrtc');
    expect(chooseTransport({ caps: safariNoMse, urls: ALL, served: { hls: false, webrtc: false } })).toBeNull();
  });

  it('falls back past a transport that failed hard, and skips outputs the server does not serve', () => {
    const failed = new Set<Transport>(['ws-fmp4']);
    expect(chooseTransport({ caps: chrome, urls: ALL, failed })).toBe('hls');
    expect(chooseTransport({ caps: chrome, urls: ALL, failed, served: { hls: false } })).toBe('webrtc');
    expect(chooseTransport({ caps: chrome, urls: ALL, failed, served: { hls: false, webrtc: false } })).toBe('ws-fmp4');
  });

  it('starts over with the best one once every usable transport failed', () => {
    const failed = new Set<Transport>(['ws-fmp4', 'hls', 'webrtc']);
    expect(chooseTransport({ caps: chrome, urls: ALL, failed, served: { hls: true, webrtc: true } })).toBe('ws-fmp4');
  });

  it('needs a URL from the server: a missing one is no candidate', () => {
    expect(chooseTransport({ caps: chrome, urls: { HLS: ALL.HLS } })).toBe('hls');
    expect(chooseTransport({ caps: chrome, urls: {} })).toBeNull();
    expect(chooseTransport({ caps: bare, urls: ALL })).toBeNull();
  });
});

describe('absolute URLs', () => {
  const http = { protocol: 'http:', host: 'cvr.local:18000' };
  const https = { protocol: 'https:', host: 'cvr.example' };
  it('turns a server path into ws/wss or http/https on this origin', () => {
    expect(absoluteUrl('/ws_m4s/live/a.mp4?play_token=x', true, http)).toBe('ws://cvr.local:18000/ws_m4s/live/a.mp4?play_token=x');
    expect(absoluteUrl('/ws_m4s/live/a.mp4', true, https)).toBe('wss://cvr.example/ws_m4s/live/a.mp4');
    expect(absoluteUrl('/hls/a/playlist.m3u8', false, https)).toBe('https://cvr.example/hls/a/playlist.m3u8');
  });
  it('keeps a full URL of another node, switching its scheme as needed', () => {
    expect(absoluteUrl('http://node2:18000/ws_m4s/live/a.mp4', true, http)).toBe('ws://node2:18000/ws_m4s/live/a.mp4');
    expect(absoluteUrl('https://node2/hls/a.m3u8', false, http)).toBe('https://node2/hls/a.m3u8');
  });
});

describe("an H.265 stream's H.264 variant", () => {
  it('maps the _H264 URLs onto the plain protocol names, and is null without them', () => {
    const urls = { ...ALL, WS_FMP4_H264: '/ws_m4s/live/stream_1_0_h264.mp4?play_token=u', HLS_H264: '/hls/stream_1_0_h264/playlist.m3u8?play_token=u' };
    expect(h264Variant(urls)).toEqual({ WS_FMP4: urls.WS_FMP4_H264, HLS: urls.HLS_H264 });
    expect(chooseTransport({ caps: chrome, urls: h264Variant(urls)! })).toBe('ws-fmp4');
    expect(h264Variant(ALL)).toBeNull();
    expect(h264Variant({ WS_FMP4_H264: '' })).toBeNull();
  });
  it('knows an H.265 codec string', () => {
    expect(isHevc('video/mp4; codecs="hvc1.1.6.L93.B0"')).toBe(true);
    expect(isHevc('hev1.1.6.L93.B0')).toBe(true);
    expect(isHevc('avc1.64001f')).toBe(false);
  });
});
