/** WebRTC through WHEP: one recvonly offer POSTed as application/sdp, the answer set, the tracks played. */
import { playSafely, type Engine, type EngineEvents } from './engine';
import { failureText } from './failureText';
import { currentLang } from '../../i18n';

function iceGathered(pc: RTCPeerConnection, ms: number): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    pc.addEventListener('icegatheringstatechange', () => {
      if (pc.iceGatheringState === 'complete') {
        clearTimeout(t);
        resolve();
      }
    });
  });
}

export async function startWebrtc(video: HTMLVideoElement, url: string, ev: EngineEvents): Promise<Engine> {
  const pc = new RTCPeerConnection();
  let stopped = false;
  let resource = '';
  let lastBytes = 0;
  const stream = new MediaStream();
  pc.addTransceiver('video', { direction: 'recvonly' });
  pc.addTransceiver('audio', { direction: 'recvonly' });
  pc.ontrack = (e) => {
    stream.addTrack(e.track);
    video.srcObject = stream;
    playSafely(video);
  };
  /**
   * Ends the session: the WHEP DELETE first, the connection closed once it is answered. Closed first,
   * the browser's DTLS close_notify ended the session on the server before the DELETE came, which then
   * answered 404 (an error in the browser's console at every switch away). `serverEnded`: the server
   * closed the DTLS transport itself, so there is no session left to delete.
   */
  const stop = (serverEnded = false) => {
    if (stopped) return;
    stopped = true;
    clearInterval(stats);
    video.srcObject = null;
    if (!resource || serverEnded) {
      pc.close();
      return;
    }
    void fetch(resource, { method: 'DELETE', keepalive: true, signal: AbortSignal.timeout(2000) })
      .catch(() => undefined)
      .finally(() => pc.close());
  };
  const stats = setInterval(() => {
    void pc.getStats().then((report) => {
      report.forEach((s: { type: string; kind?: string; bytesReceived?: number; frameWidth?: number; frameHeight?: number; codecId?: string }) => {
        if (s.type !== 'inbound-rtp' || s.kind !== 'video') return;
        const bytes = s.bytesReceived ?? 0;
        if (bytes > lastBytes) ev.onBytes(bytes - lastBytes);
        lastBytes = bytes;
        const codec = s.codecId ? (report.get(s.codecId) as { mimeType?: string } | undefined)?.mimeType : undefined;
        if (s.frameWidth || codec) ev.onInfo({ width: s.frameWidth, height: s.frameHeight, codec: codec?.replace(/^video\//, '') });
      });
    });
  }, 1000);
  pc.onconnectionstatechange = () => {
    if (pc.connectionState === 'connected') ev.onPlaying();
    // 'disconnected' is an end too: a server that ends a session without a DTLS close_notify (an
    // older one: werift sends none) is found out only from unanswered ICE checks, 'disconnected'
    // ~7 s later and 'failed' ~10 s after that, a frozen picture all the while.
    if (pc.connectionState === 'failed' || pc.connectionState === 'closed' || pc.connectionState === 'disconnected') {
      if (!stopped) {
        stop();
        ev.onFailure('closed', failureText.webrtc(pc.connectionState));
      }
    }
  };
  try {
    await pc.setLocalDescription(await pc.createOffer());
    await iceGathered(pc, 2000);
    // The server says why it refuses an offer in the console's language (not the browser's Accept-Language).
    const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/sdp', 'Accept-Language': currentLang() }, body: pc.localDescription?.sdp ?? '' });
    if (!res.ok) throw new Error(await whepRefusal(res));
    const location = res.headers.get('location');
    if (location) resource = new URL(location, url).toString();
    await pc.setRemoteDescription({ type: 'answer', sdp: await res.text() });
    // The server ends a session (its stream stopped, or its camera's video is no longer H.264 after
    // a codec change) with a DTLS close_notify. Chromium keeps the connection 'connected' (a closed
    // DTLS transport counts as connected): the transport's own state says it at once. Asking again
    // gets the stream as it is now (the H.264 leg, or the camera's own stream).
    const dtls = pc.getReceivers()[0]?.transport;
    dtls?.addEventListener('statechange', () => {
      if ((dtls.state === 'closed' || dtls.state === 'failed') && !stopped) {
        stop(dtls.state === 'closed');
        ev.onFailure('closed', failureText.webrtc(dtls.state));
      }
    });
  } catch (err) {
    stop();
    throw err;
  }
  return { stop: () => stop() };
}

/** Why the server refused the offer: its msg (in the console's language), else the status. */
export async function whepRefusal(res: Response): Promise<string> {
  const body = (await res.json().catch(() => undefined)) as { msg?: unknown } | undefined;
  return typeof body?.msg === 'string' && body.msg ? body.msg : failureText.whep(res.status);
}
