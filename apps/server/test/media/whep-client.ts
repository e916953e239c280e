/**
 * The WHEP client of the WebRTC tests: a werift peer on loopback that receives what it is offered,
 * sends its offer (candidates gathered) to a WHEP URL of the app and takes the answer.
 */
import { RTCPeerConnection, RTCRtpCodecParameters, type MediaStreamTrack, type PeerConfig } from 'werift';
import { sendCloseNotify } from '../../src/media/outputs/webrtc-dtls.js';

/** H.264 constrained baseline, as a browser offers first. */
export const H264_BASELINE = () =>
  new RTCRtpCodecParameters({ mimeType: 'video/H264', clockRate: 90000, parameters: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f' });

export interface WhepOffer {
  /** What the peer may receive, per kind. */
  codecs: PeerConfig['codecs'];
  /** One receive-only transceiver each. */
  kinds?: ('video' | 'audio')[];
  /** Each track the answer brings. */
  onTrack: (track: MediaStreamTrack) => void;
  /** Where the peer is kept, so the test closes it afterwards. */
  peers: RTCPeerConnection[];
}

/** POSTs the peer's offer to `baseUrl + url`; a 201's answer is set as the remote description. */
export async function whepPeer(baseUrl: string, url: string, { codecs, kinds = ['video'], onTrack, peers }: WhepOffer) {
  const pc = new RTCPeerConnection({ iceServers: [], iceUseIpv6: false, iceAdditionalHostAddresses: ['127.0.0.1'], codecs });
  peers.push(pc);
  for (const kind of kinds) pc.addTransceiver(kind, { direction: 'recvonly' });
  pc.onTrack.subscribe(onTrack);
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise<void>((resolve) => {
    if (pc.iceGatheringState === 'complete') resolve();
    pc.iceGatheringStateChange.subscribe((s) => s === 'complete' && resolve());
  });
  const res = await fetch(`${baseUrl}${url}`, { method: 'POST', headers: { 'content-type': 'application/sdp' }, body: pc.localDescription!.sdp });
  const answer = await res.text();
  if (res.status === 201) await pc.setRemoteDescription({ type: 'answer', sdp: answer });
  return { pc, res, answer };
}

/**
 * Closes the peer as a browser does: a close_notify alert on each connected DTLS transport, then
 * close(). werift's close() sends none (RTCDtlsTransport.stop: "todo impl send alert"), so the far
 * end would learn of it only when ICE consent expires (30 s, RFC 7675). The alert is the server's own
 * (sendCloseNotify, webrtc-dtls.ts), which ends a session the same way.
 */
export async function closeLikeBrowser(pc: RTCPeerConnection): Promise<void> {
  for (const transport of pc.dtlsTransports) await sendCloseNotify(transport);
  await pc.close();
}
