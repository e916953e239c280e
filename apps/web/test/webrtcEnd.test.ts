/**
 * How the WebRTC player ends its WHEP session. It closed the peer connection first: the browser's
 * DTLS close_notify reached the server, which ended the session on it, so the DELETE that followed
 * found nothing and every switch away from WebRTC (or leaving its page) logged "404 Not Found" in the
 * browser's console (audit, session 24). The DELETE now goes first and the connection closes once it
 * is answered; a session the server ended itself (its DTLS transport closed) is not deleted again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startWebrtc } from '../src/components/player/webrtc';
import type { EngineEvents } from '../src/components/player/engine';

const events: string[] = [];

class FakeDtls extends EventTarget {
  state = 'connected';
}
let dtls: FakeDtls;

class FakePc {
  iceGatheringState = 'complete';
  connectionState = 'new';
  localDescription = { sdp: 'v=0 offer' };
  onconnectionstatechange: (() => void) | null = null;
  ontrack: unknown = null;
  addTransceiver() {}
  addEventListener() {}
  async createOffer() {
    return { type: 'offer', sdp: 'v=0 offer' };
  }
  async setLocalDescription() {}
  async setRemoteDescription() {}
  getReceivers() {
    return [{ transport: dtls }];
  }
  getStats() {
    return Promise.resolve(new Map());
  }
  close() {
    events.push('pc.close');
  }
}

const ev = (): EngineEvents => ({ onInfo() {}, onState() {}, onBytes() {}, onPlaying() {}, onUnsupported() {}, onFailure: vi.fn() }) as unknown as EngineEvents;

beforeEach(() => {
  events.length = 0;
  dtls = new FakeDtls();
  vi.stubGlobal('RTCPeerConnection', FakePc);
  vi.stubGlobal('MediaStream', class {});
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      events.push(`fetch ${method}`);
      if (method === 'POST') return new Response('v=0 answer', { status: 201, headers: { location: '/webrtc/whep/stream_1_0/abc' } });
      await Promise.resolve();
      events.push(`${method} answered`);
      return new Response(null, { status: 200 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('the WebRTC player ends its WHEP session', () => {
  it('deletes the session before it closes the connection', async () => {
    const video = document.createElement('video');
    const engine = await startWebrtc(video, 'http://127.0.0.1/webrtc/whep/stream_1_0?play_token=t', ev());
    engine.stop();
    await vi.waitFor(() => expect(events).toContain('pc.close'));
    expect(events).toEqual(['fetch POST', 'fetch DELETE', 'DELETE answered', 'pc.close']);
    expect((fetch as unknown as { mock: { calls: [string][] } }).mock.calls[1]![0]).toBe('http://127.0.0.1/webrtc/whep/stream_1_0/abc');
  });

  it('does not delete a session the server ended (its DTLS transport closed)', async () => {
    const video = document.createElement('video');
    const events_ = ev();
    await startWebrtc(video, 'http://127.0.0.1/webrtc/whep/stream_1_0?play_token=t', events_);
    dtls.state = 'closed';
    dtls.dispatchEvent(new Event('statechange'));
    await vi.waitFor(() => expect(events).toContain('pc.close'));
    expect(events).toEqual(['fetch POST', 'pc.close']);
    expect(events_.onFailure).toHaveBeenCalledTimes(1);
  });
});
