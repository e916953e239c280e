/**
 * Live output over WebRTC, signalled by WHEP (draft-ietf-wish-whep): the viewer POSTs an SDP offer,
 * gets an answer with the server's candidates (no trickle), and media flows over one DTLS-SRTP
 * connection made by werift. H.264 only, no transcoding: each access unit is packetised once for
 * all viewers (RFC 6184, FU-A/STAP-A, parameter sets before each keyframe) and each viewer only adds
 * its RTP header and werift's SRTP (webrtc-rtp.ts), starting at the first keyframe. werift's DTLS
 * client is repaired for busy machines (webrtc-dtls.ts). An H.265 stream is refused here; its
 * transcoded "_h264" variant plays. A session ends when its hub stops or its camera comes back with
 * video that is not H.264 (a codec changed while watched): the viewer's DTLS transport closes and it
 * asks for the stream again (the variant, or the camera's own stream once H.264 again).
 * G.711 audio (PCMA/PCMU, which every WebRTC browser decodes) passes through as it is when the offer
 * has the codec: one RTP packet per unit (split past 1200 bytes), timestamps in its 8 kHz clock.
 * AAC is transcoded to Opus by one ffmpeg per stream shared by its WebRTC viewers (webrtc-opus.ts).
 *
 * ICE is limited to the configured addresses (loopback and the network config's rtc_host): they are
 * added as host addresses, pairs on any other local address are filtered out, STUN on them is not
 * answered, and their candidates are left out of the answer. No STUN/TURN server is contacted.
 */
import crypto from 'node:crypto';
import { reason, type Reason } from '@opencvr/shared';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, RtpPacket, useOPUS, usePCMU, type RTCRtpSender } from 'werift';
import { sameBytes, type AccessUnit, type AudioAccessUnit, type Track, type VideoTrack } from '@opencvr/codec';
import type { HubState, StreamHub, Subscriber } from '../hub.js';
import { latencyProbe } from '../latency-probe.js';
import { sendCloseNotify, tolerateRepeatedHelloVerify } from './webrtc-dtls.js';
import { OpusTranscoder } from './webrtc-opus.js';
import { webrtcSendQueue, type SendQueue } from './webrtc-send-queue.js';
import { inBandParameterSets, SrtpVideoStream, videoPayloads, type ParameterSets } from './webrtc-rtp.js';
import { chooseH264, keepCandidates, keepVideoPayloadType, offeredAudio, offeredH264, passthroughAudio } from './webrtc-sdp.js';

/**
 * A refused offer: the status, and why from the catalogue (the answer renders it in the asker's
 * language). `detail`: a library's own words, for the log only; the message is the English of both.
 */
export class WhepError extends Error {
  constructor(
    readonly status: number,
    readonly why: Reason,
    readonly detail?: string,
  ) {
    super(detail ? `${reason(why.key, 'en-US', why.vars)}: ${detail}` : reason(why.key, 'en-US', why.vars));
  }
}

/**
 * Units a viewer may have waiting in the send queue before it skips to the next keyframe: 2.4 s at
 * 25 fps, room for the hub's cached GOP (a new viewer gets it at once) when the queue is busy.
 */
export const MAX_QUEUED_UNITS = 60;
/** Largest G.711 payload per RTP packet (bytes = samples for mono). */
const MAX_AUDIO_PAYLOAD = 1200;

/** Where a viewer's video goes: its SRTP stream once connected (SrtpVideoStream). */
export interface VideoUnitSink {
  /** Sends a unit's RTP payloads; resolves once its last packet is handed to the socket. */
  sendUnit(payloads: readonly Buffer[], time90k: number): Promise<unknown>;
}

/** Sends a hub's H.264 track (and its G.711 audio when given a sender for it) to one peer. */
export class WebRtcOutput implements Subscriber {
  private videoTrack = -1;
  private audioTrack = -1;
  private audioSeq = crypto.randomInt(0, 0x10000);
  private params?: ParameterSets;
  private started = false;
  /** Units handed to the send queue and not sent yet. */
  private queued = 0;
  /** Units and packets sent, units skipped while waiting for a keyframe, times sending fell behind. */
  readonly stats = { units: 0, packets: 0, skipped: 0, behind: 0, audioPackets: 0 };

  constructor(
    private readonly video: VideoUnitSink,
    private readonly isReady: () => boolean,
    /**
     * The stream can no longer play on this peer: its hub stopped (stopstream, a transcoded leg whose
     * camera is H.264 again), or the camera came back with video that is not H.264 (its codec changed
     * while watched). The session ends, and the viewer asks for the stream again.
     */
    private readonly onEnd?: (reason: string) => void,
    private readonly audioSender?: Pick<RTCRtpSender, 'sendRtp'>,
    private readonly queue: Pick<SendQueue, 'push'> = webrtcSendQueue,
  ) {}

  tracks(tracks: Track[]) {
    this.videoTrack = tracks.findIndex((t) => t.kind === 'video' && t.codec === 'h264');
    const other = tracks.find((t) => t.kind === 'video' && t.codec !== 'h264');
    if (this.videoTrack < 0 && other) this.onEnd?.(`video is ${other.codec}, not H.264`);
    this.audioTrack = this.audioSender ? tracks.findIndex((t) => t.kind === 'audio' && (t.codec === 'pcma' || t.codec === 'pcmu')) : -1;
    const v = tracks[this.videoTrack] as VideoTrack | undefined;
    this.params = v ? { sps: v.sps, pps: v.pps } : undefined;
    this.started = false;
  }

  unit(track: number, unit: AccessUnit) {
    if (track === this.audioTrack && unit.kind === 'audio') return this.audio(unit);
    if (track !== this.videoTrack || unit.kind !== 'video' || !this.isReady()) return;
    if (!this.started && !unit.keyframe) {
      this.stats.skipped++;
      return;
    }
    this.started = true;
    // In-band parameter sets replace the SDP's (a camera may change them).
    const inBand = inBandParameterSets(unit);
    // Kept as copies (the unit's bytes are lent), and only when they differ: the payload cache is keyed
    // by these objects, shared by every viewer of the track.
    if (inBand && !(sameBytes(inBand.sps, this.params?.sps) && sameBytes(inBand.pps, this.params?.pps))) {
      this.params = { sps: inBand.sps.slice(), pps: inBand.pps.slice() };
    }
    const payloads = videoPayloads(unit, this.params);
    const arrival = latencyProbe?.arrivalOf(unit);
    if (this.queued >= MAX_QUEUED_UNITS) {
      // Sending is seconds behind (a machine out of CPU): start again at the next keyframe
      // rather than let the queue and the viewer's delay grow.
      this.started = false;
      this.stats.skipped++;
      this.stats.behind++;
      return;
    }
    this.queued++;
    this.queue.push(() => {
      this.queued--;
      if (!this.isReady()) return;
      const sent = this.video.sendUnit(payloads, unit.pts);
      // Bench probe (off: arrival is undefined): the unit has left once its last packet is sent.
      if (arrival !== undefined) void sent.then(() => latencyProbe?.record('webrtc', arrival)).catch(() => undefined);
    });
    this.stats.packets += payloads.length;
    this.stats.units++;
  }

  /** An Opus packet of the stream's transcoder (AAC sources); from the first video keyframe on. */
  opus(payload: Buffer, timestamp: number) {
    if (!this.audioSender || !this.isReady() || (this.videoTrack >= 0 && !this.started)) return;
    const header = new RtpHeader({ marker: false, sequenceNumber: this.audioSeq, timestamp, payloadType: 111 });
    this.audioSeq = (this.audioSeq + 1) & 0xffff;
    void this.audioSender.sendRtp(new RtpPacket(header, payload)).catch(() => undefined);
    this.stats.audioPackets++;
  }

  /** G.711 as it is; from the first video keyframe on, so both start together. */
  private audio(unit: AudioAccessUnit) {
    if (!this.audioSender || !this.isReady() || (this.videoTrack >= 0 && !this.started)) return;
    for (let off = 0; off < unit.data.length; off += MAX_AUDIO_PAYLOAD) {
      const chunk = unit.data.subarray(off, off + MAX_AUDIO_PAYLOAD);
      const header = new RtpHeader({ marker: false, sequenceNumber: this.audioSeq, timestamp: (unit.pts + off) % 0x1_0000_0000, payloadType: 8 });
      this.audioSeq = (this.audioSeq + 1) & 0xffff;
      void this.audioSender.sendRtp(new RtpPacket(header, Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))).catch(() => undefined);
      this.stats.audioPackets++;
    }
  }

  state(state: HubState, reason: string) {
    if (state === 'stopped') this.onEnd?.(reason || 'stream stopped');
  }
}

export interface WhepSessionInfo {
  id: string;
  key: string;
  createdAt: number;
  state: string;
  stats: WebRtcOutput['stats'];
  /** The viewer's video RTP stream, once connected: packets sent, of them by the direct path, retransmitted, reports. */
  video?: SrtpVideoStream['stats'];
}

interface Session {
  id: string;
  key: string;
  /** The stream key of the URL the session was made on (its Location holds it). */
  urlKey: string;
  pc: RTCPeerConnection;
  output: WebRtcOutput;
  /** The video RTP stream, from the moment DTLS is up. */
  video?: SrtpVideoStream;
  unsubscribe?: () => void;
  /** Leaves the stream's Opus transcoder (AAC audio). */
  leaveOpus?: () => void;
  createdAt: number;
  timer?: NodeJS.Timeout;
  /** Called once when the session ends, whatever ended it. */
  onClose?: () => void;
}

export interface WhepOptions {
  /** How long a session may take to connect before it is dropped. */
  connectTimeoutMs?: number;
  /** How long to wait for the stream's tracks when the hub is still connecting. */
  tracksTimeoutMs?: number;
  /** ffmpeg for AAC → Opus (default: ffmpeg on PATH); null: no Opus, AAC streams play without sound. */
  ffmpeg?: string | null;
}

/** The WHEP sessions of one node. */
export class WhepSessions {
  private sessions = new Map<string, Session>();
  private opus = new Map<StreamHub, OpusTranscoder>();

  constructor(private readonly opts: WhepOptions = {}) {}

  get size() {
    return this.sessions.size;
  }

  list(): WhepSessionInfo[] {
    return [...this.sessions.values()].map((s) => ({ id: s.id, key: s.key, createdAt: s.createdAt, state: s.pc.connectionState, stats: s.output.stats, video: s.video?.stats }));
  }

  /**
   * Answers an offer for a hub; the session starts sending once the peer connects. `onClose` is
   * called once when the session ends (the route cancels its token-expiry timer with it).
   */
  async create(
    hub: StreamHub,
    offer: string,
    addresses: string[],
    { onClose, urlKey = hub.key }: { onClose?: () => void; urlKey?: string } = {},
  ): Promise<{ id: string; answer: string }> {
    const tracks = await waitTracks(hub, this.opts.tracksTimeoutMs ?? 8000);
    const video = tracks.find((t): t is VideoTrack => t.kind === 'video');
    if (video && video.codec !== 'h264') throw new WhepError(415, { key: 'whepNotH264', vars: { codec: video.codec.toUpperCase() } });
    if (tracks.length && !video) throw new WhepError(415, { key: 'whepNoVideo' });
    const chosen = chooseH264(offeredH264(offer), video?.sps);
    if (!chosen) throw new WhepError(415, { key: 'whepNoH264Offer' });
    const g711 = passthroughAudio(offer, tracks.find((t) => t.kind === 'audio')?.codec);
    const aac = !g711 && this.opts.ffmpeg !== null && tracks.some((t) => t.kind === 'audio' && t.codec === 'aac') && offeredAudio(offer).some((c) => c.name === 'OPUS' && c.clockRate === 48000);

    const allowed = new Set(addresses);
    const localAllowed = (host: string | undefined) => host !== undefined && allowed.has(host);
    const pc = new RTCPeerConnection({
      iceServers: [],
      iceUseIpv6: addresses.some((a) => a.includes(':')),
      iceAdditionalHostAddresses: addresses,
      iceFilterCandidatePair: (pair) => localAllowed(pair.protocol.localCandidate?.host),
      iceFilterStunResponse: (_msg, _addr, protocol) => localAllowed(protocol.localCandidate?.host),
      codecs: {
        video: [
          new RTCRtpCodecParameters({
            mimeType: 'video/H264',
            clockRate: 90000,
            rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }],
            parameters: chosen.fmtp,
          }),
        ],
        // G.711 passes through in its own codec; otherwise an audio section in the offer is answered
        // but nothing is sent on it.
        audio: g711
          ? [new RTCRtpCodecParameters({ mimeType: `audio/${g711}`, clockRate: 8000, channels: 1, payloadType: g711 === 'PCMA' ? 8 : 0 })]
          : aac
            ? [useOPUS()]
            : [useOPUS(), usePCMU()],
      },
    });
    const id = crypto.randomBytes(16).toString('base64url');
    const track = new MediaStreamTrack({ kind: 'video' });
    let connected = false;
    const output = new WebRtcOutput(
      { sendUnit: (payloads, t) => session.video?.sendUnit(payloads, t) ?? Promise.resolve() },
      () => connected,
      // Later: the hub is calling this output; the close unsubscribes it. The peer is sent a DTLS
      // close_notify, sees its transport closed and asks again (player/webrtc.ts).
      () => void setImmediate(() => void this.close(id)),
      g711 || aac ? { sendRtp: (p) => (connected && audioSender ? audioSender.sendRtp(p) : Promise.resolve()) } : undefined,
    );
    const session: Session = { id, key: hub.key, urlKey, pc, output, createdAt: Date.now(), onClose };
    const sender = pc.addTransceiver(track, { direction: 'sendonly' }).sender;
    const audioSender = g711 || aac ? pc.addTransceiver(new MediaStreamTrack({ kind: 'audio' }), { direction: 'sendonly' }).sender : undefined;
    this.sessions.set(id, session);
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected' && !connected) {
        connected = true;
        session.video = new SrtpVideoStream(sender.dtlsTransport, sender);
        clearTimeout(session.timer);
        session.unsubscribe = hub.subscribe(output);
        if (aac) session.leaveOpus = this.opusOf(hub).add((payload, ts) => output.opus(payload, ts));
      }
      if (state === 'failed' || state === 'closed' || state === 'disconnected') void this.close(id);
    });
    session.timer = setTimeout(() => {
      if (!connected) void this.close(id);
    }, this.opts.connectTimeoutMs ?? 20_000);
    session.timer.unref();
    try {
      await pc.setRemoteDescription({ type: 'offer', sdp: keepVideoPayloadType(offer, chosen.payloadType) });
      for (const t of new Set(pc.getTransceivers().map((x) => x.dtlsTransport))) {
        tolerateRepeatedHelloVerify(t);
        // A viewer that closes its peer sends a DTLS close_notify (a browser does): werift closes the
        // transport but leaves the connection 'connected', and the session sent on until ICE consent
        // expired (30 s), counted as a viewer all that time.
        t.onStateChange.subscribe((state) => state === 'closed' && void this.close(id));
      }
      await pc.setLocalDescription(await pc.createAnswer());
      await gathered(pc, 5000);
      const answer = pc.localDescription?.sdp;
      if (!answer) throw new Error('no local description');
      return { id, answer: keepCandidates(answer, allowed) };
    } catch (err) {
      await this.close(id);
      if (err instanceof WhepError) throw err;
      // The WebRTC stack's words are the log's; the answer says it in the asker's language.
      throw new WhepError(400, { key: 'whepCannotAnswer' }, err instanceof Error ? err.message : String(err));
    }
  }

  /** The Opus transcoder of a hub, made on first use and forgotten when its last viewer leaves. */
  private opusOf(hub: StreamHub): OpusTranscoder {
    let t = this.opus.get(hub);
    if (!t) {
      const made = new OpusTranscoder(hub, { ffmpeg: this.opts.ffmpeg ?? undefined, onIdle: () => this.opus.get(hub) === made && this.opus.delete(hub) });
      this.opus.set(hub, made);
      t = made;
    }
    return t;
  }

  /**
   * Whether a session is there; with `urlKey`, only if it was made on that stream's URL. The id alone
   * is 128 random bits, but a session URL whose stream part was changed names no session.
   */
  has(id: string, urlKey?: string) {
    const s = this.sessions.get(id);
    return s !== undefined && (urlKey === undefined || s.urlKey === urlKey);
  }

  /** Ends a session (DELETE, peer gone, connect timeout, shutdown). */
  async close(id: string): Promise<boolean> {
    const s = this.sessions.get(id);
    if (!s) return false;
    this.sessions.delete(id);
    clearTimeout(s.timer);
    s.onClose?.();
    s.unsubscribe?.();
    s.video?.close();
    s.leaveOpus?.();
    // The peer is told (DTLS close_notify), not left to find out from ICE checks going unanswered.
    for (const t of new Set(s.pc.getTransceivers().map((x) => x.dtlsTransport))) await sendCloseNotify(t).catch(() => undefined);
    await s.pc.close().catch(() => undefined);
    return true;
  }

  async closeAll() {
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }
}

/** The hub's tracks, waiting for them while it connects. */
function waitTracks(hub: StreamHub, ms: number): Promise<Track[]> {
  if (hub.tracks.length) return Promise.resolve(hub.tracks);
  return new Promise((resolve) => {
    let done = false;
    const finish = (tracks: Track[]) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      // Later: subscribe() may call back before it returns.
      setImmediate(() => unsubscribe());
      resolve(tracks);
    };
    const timer = setTimeout(() => finish([]), ms);
    const unsubscribe = hub.subscribe({ tracks: finish, unit: () => undefined });
  });
}

function gathered(pc: RTCPeerConnection, ms: number): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    pc.iceGatheringStateChange.subscribe((s) => {
      if (s === 'complete') {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}
