/**
 * Pulls a camera's stream over RTSP or RTSPS (RTSP inside TLS: interleaved only, the camera's
 * certificate trusted by authority or pinned at first use, access/tls/rtsps-trust.ts, before any
 * request carries credentials) (TCP interleaved, or RTP over UDP when asked: client_port pairs
 * from the port allocator, packets from the camera's address only, reordered by the rtp package's
 * ReorderBuffer; a camera that answers 461 Unsupported Transport is asked again for TCP) into a hub: DESCRIBE (answering a Digest or
 * Basic challenge), SETUP of each audio/video track, PLAY, then RTP → access units through the rtp
 * package's depacketisers. Keeps the session alive with GET_PARAMETER/OPTIONS, reports a camera that
 * stops sending, and never throws out of a socket callback: every failure goes to sink.failed(), in
 * its words and as a catalogue reason (source-failure.ts).
 */
import net from 'node:net';
import type tls from 'node:tls';
import type { AccessUnit, Track, VideoAccessUnit } from '@opencvr/codec';
import { h264NalType, h265NalType, videoTrackFromParameterSets } from '@opencvr/codec';
import {
  authorization,
  bodyText,
  chooseChallenge,
  getHeader,
  parseSdp,
  parseWwwAuthenticate,
  request,
  resolveControl,
  RtspParser,
  serialize,
  type Challenge,
  type RtspHandler,
  type RtspResponse,
} from '@opencvr/rtsp';
import { newRtpView, parseRtp, readRtp, ReorderBuffer, sdpTracks, type MediaTrack, type RtpPacket } from '@opencvr/rtp';
import type { Depacketiser } from '@opencvr/rtp';
import type { Reason } from '@opencvr/shared';
import { checkPeer, connectRtsps, pinFirstUse, type RtspsPeer } from '../../access/tls/rtsps-trust.js';
import type { MediaSource, SourceSink } from '../hub.js';
import { socketFailure, SourceFailure, whyOf } from './source-failure.js';
import { allocateUdpPair, DEFAULT_UDP_PORTS, type UdpPair, type UdpPortRange } from './udp-ports.js';

export interface RtspSourceOptions {
  username?: string;
  password?: string;
  /** Connect and each request. */
  timeoutMs?: number;
  /** No RTP for this long ends the session (the hub retries). */
  mediaTimeoutMs?: number;
  /** RTP over the RTSP connection (default) or over UDP. */
  transport?: 'tcp' | 'udp';
  /** Local ports for UDP. */
  udpPorts?: UdpPortRange;
  /** Take the camera's audio (default true; the channel's EnableAudio): without it, no audio track is set up. */
  audio?: boolean;
  /** The channel (its id) an rtsps:// camera's certificate is pinned for; none: nothing is pinned. */
  pinFor?: number;
}

interface Setup {
  media: MediaTrack;
  depacketiser: Depacketiser;
  track?: Track;
  /** In-band parameter sets seen so far, for video tracks the SDP did not describe. */
  params: { vps?: Uint8Array; sps?: Uint8Array; pps?: Uint8Array };
  /** First timestamp of the track, and where it lands on the session clock. */
  base?: number;
  offset: number;
  /** UDP transport: the socket pair and the reorder buffer in front of the depacketiser. */
  udp?: { pair: UdpPair; reorder: ReorderBuffer };
  /** Its index in `setups`: the track number the hub is told. */
  index: number;
}

const USER_AGENT = 'OpenCVR';

/**
 * One read buffer for every RTSP connection of the process: each read is parsed, depacketised and
 * copied out of it (RtspParser.feed, the depacketisers copy what they keep) before the next read
 * reuses it, so a read allocates nothing and a connection holds no buffer of its own.
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);
/** The same bytes as a plain Uint8Array: its subarray() is the cheap typed-array one, not Buffer's. */
const READ_BYTES = new Uint8Array(READ_BUFFER.buffer, READ_BUFFER.byteOffset, READ_BUFFER.length);

export class RtspSource implements MediaSource {
  private socket?: net.Socket;
  private parser = new RtspParser({ maxBodyBytes: 1024 * 1024 });
  private cseq = 0;
  private pending = new Map<number, (res: RtspResponse) => void>();
  private challenge?: Challenge;
  private session?: string;
  private setups: Setup[] = [];
  /**
   * The setup of each interleaved channel (0-255, the frame's channel byte), by index: looked up per
   * RTP packet, where a Map's get() cost a hash lookup (perf of the server at 16 streams).
   */
  private byChannel: (Setup | undefined)[] = [];
  private sink?: SourceSink;
  private stopped = false;
  private keepalive?: NodeJS.Timeout;
  /**
   * Fails the session after mediaTimeoutMs without media: a timeout pushed back (refresh()) after each
   * socket read that carried a packet, not per packet (hundreds a second per stream), nor a timer
   * looking every second: it fires only when the media stopped, so a stream does not wake the
   * process for it (issue 4). Node keeps a refreshed timer where it is in its list and only moves it
   * when the list's time comes, so a stream whose media flows costs one timer wake-up per
   * mediaTimeoutMs at most (shared by all the streams' timeouts of that length).
   */
  private watchdog?: NodeJS.Timeout;
  /** A packet parsed since the last read ended (set per packet, turned into a refresh per read). */
  private mediaSeen = false;
  private startedAt = 0;
  private announced = false;
  private drainTimer?: NodeJS.Timeout;
  /** The transport in use once set up (UDP may fall back to TCP). */
  transport: 'tcp' | 'udp';
  /** Packets that failed to parse or depacketise, for the stream status. */
  readonly stats = { badPackets: 0, udpPackets: 0, udpForeign: 0 };
  private readonly url: string;
  private readonly creds: { username: string; password: string };
  private readonly timeoutMs: number;
  private readonly mediaTimeoutMs: number;

  constructor(url: string, opts: RtspSourceOptions = {}) {
    const u = new URL(url);
    this.creds = {
      username: opts.username || decodeURIComponent(u.username),
      password: opts.password || decodeURIComponent(u.password),
    };
    u.username = '';
    u.password = '';
    this.url = u.toString();
    this.timeoutMs = opts.timeoutMs ?? 5000;
    this.mediaTimeoutMs = opts.mediaTimeoutMs ?? 10_000;
    this.transport = opts.transport ?? 'tcp';
    this.udpPorts = opts.udpPorts ?? DEFAULT_UDP_PORTS;
    this.audio = opts.audio ?? true;
    this.pinFor = opts.pinFor;
  }

  private readonly pinFor?: number;
  /** rtsps://: how the camera's certificate was taken (a first use is pinned once DESCRIBE is answered). */
  private peer?: RtspsPeer;

  private readonly audio: boolean;

  private readonly udpPorts: UdpPortRange;

  start(sink: SourceSink) {
    this.sink = sink;
    // An error without a catalogue reason (no free UDP port pair for RTP, an error of ours):
    // streamSourceFailed for the user, its words in the log (the hub's onFailure).
    this.run().catch((err) => this.fail(err instanceof Error ? err.message : String(err), whyOf(err) ?? { key: 'streamSourceFailed' }));
  }

  stop() {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.keepalive);
    clearTimeout(this.watchdog);
    clearInterval(this.drainTimer);
    for (const s of this.setups) s.udp?.pair.close();
    if (this.socket && !this.socket.destroyed && this.session) {
      // Best effort: tell the camera, then close without waiting for its answer.
      try {
        this.socket.write(serialize(this.req('TEARDOWN', this.url)));
      } catch {
        /* closing anyway */
      }
    }
    this.socket?.destroy();
    for (const [, reject] of this.pending) reject({ status: 0 } as RtspResponse);
    this.pending.clear();
  }

  private fail(reason: string, why?: Reason) {
    if (this.stopped) return;
    this.stop();
    this.sink?.failed(reason, why);
  }

  private async run() {
    const u = new URL(this.url);
    const secure = u.protocol === 'rtsps:';
    if (!secure && u.protocol !== 'rtsp:') throw new SourceFailure(`${u.protocol} is not supported (rtsp:// and rtsps:// only)`, { key: 'statusNotRtspUrl', vars: { protocol: u.protocol } });
    // No RTP over UDP beside TLS: it would travel unencrypted (SRTP is another protocol).
    if (secure) this.transport = 'tcp';
    await this.connect(u.hostname.replace(/^\[|\]$/g, ''), Number(u.port || (secure ? 322 : 554)), secure);
    const described = await this.call('DESCRIBE', this.url, [['Accept', 'application/sdp']]);
    // The camera answered as a camera: a certificate taken at first use is pinned now.
    const refused = this.peer && (await pinFirstUse(this.peer));
    if (refused) throw new SourceFailure(refused.reason, refused.why);
    const base = getHeader(described, 'Content-Base') ?? getHeader(described, 'Content-Location') ?? this.url;
    const sdp = parseSdp(bodyText(described));
    const all = sdpTracks(sdp);
    const skipped = all.skipped;
    // Audio switched off for the channel: its tracks are not even set up (no bandwidth, no output).
    const tracks = this.audio ? all.tracks : all.tracks.filter((t) => t.codec === 'h264' || t.codec === 'h265');
    if (!tracks.length)
      throw new SourceFailure(`no playable track in the SDP${skipped.length ? ` (${skipped.map((s) => s.reason).join('; ')})` : ''}`, { key: 'streamNoPlayableTrack' });
    const sessionBase = resolveControl(base, sdp.control);
    for (const media of tracks) {
      const channel = this.setups.length * 2;
      const control = resolveControl(sessionBase, media.control);
      const setup: Setup = {
        media,
        depacketiser: media.createDepacketiser({ lendUnits: true }),
        track: media.track,
        params: { ...media.parameterSets },
        offset: 0,
        index: this.setups.length,
      };
      if (this.transport === 'udp') {
        const pair = await allocateUdpPair(this.udpPorts);
        if (this.stopped) {
          pair.close();
          throw new Error('stopped');
        }
        const res = await this.call('SETUP', control, [['Transport', `RTP/AVP;unicast;client_port=${pair.rtpPort}-${pair.rtpPort + 1}`]], [461]);
        const transport = getHeader(res, 'Transport') ?? '';
        if (res.status === 461 || /interleaved=/.test(transport)) {
          pair.close();
          // 461 Unsupported Transport: this camera streams over TCP only (every track, then).
          if (res.status === 461) this.transport = 'tcp';
        } else {
          this.takeSession(res);
          setup.udp = { pair, reorder: new ReorderBuffer({ size: 256, maxDelayMs: 150 }) };
          this.setups.push(setup);
          this.listenUdp(setup);
          continue;
        }
        if (res.status !== 461) {
          this.takeSession(res);
          const m = /interleaved=(\d+)/.exec(transport);
          this.setups.push(setup);
          this.setChannel(m ? Number(m[1]) : channel, setup);
          continue;
        }
      }
      const res = await this.call('SETUP', control, [['Transport', `RTP/AVP/TCP;unicast;interleaved=${channel}-${channel + 1}`]]);
      this.takeSession(res);
      const transport = getHeader(res, 'Transport') ?? '';
      const m = /interleaved=(\d+)/.exec(transport);
      this.setups.push(setup);
      this.setChannel(m ? Number(m[1]) : channel, setup);
    }
    if (this.setups.some((s) => s.udp)) {
      this.drainTimer = setInterval(() => {
        for (const s of this.setups) if (s.udp) for (const r of s.udp.reorder.drain(Date.now())) this.onPacket(s, r.packet);
        // RTP over UDP comes a datagram at a time: the watchdog is pushed back here, 20 times a second.
        this.mediaFlowed();
      }, 50);
      this.drainTimer.unref();
    }
    const play = await this.call('PLAY', sessionBase, [['Range', 'npt=0.000-']]);
    const timeout = /timeout=(\d+)/.exec(getHeader(play, 'Session') ?? '');
    const every = Math.max(5, Math.min(60, timeout ? Number(timeout[1]) / 2 : 30)) * 1000;
    this.keepalive = setInterval(() => {
      this.call('GET_PARAMETER', sessionBase, []).catch(() => this.call('OPTIONS', this.url, []).catch(() => undefined));
    }, every);
    this.keepalive.unref();
    this.startedAt = Date.now();
    this.watchdog = setTimeout(() => {
      const seconds = Math.round(this.mediaTimeoutMs / 1000);
      this.fail(`no media for ${seconds} s`, { key: 'streamNoMedia', vars: { seconds } });
    }, this.mediaTimeoutMs);
    this.watchdog.unref();
    this.announce();
  }

  private connect(host: string, port: number, secure: boolean) {
    return new Promise<void>((resolve, reject) => {
      const onread = {
        buffer: READ_BUFFER,
        callback: (n: number) => {
          this.onData(READ_BYTES, n);
          return true; // keep reading
        },
      };
      const socket = secure ? connectRtsps(host, port, onread) : net.connect({ host, port, onread });
      this.socket = socket;
      socket.setNoDelay(true);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new SourceFailure(`connect timeout after ${this.timeoutMs} ms`, { key: 'streamConnectTimeout', vars: { ms: this.timeoutMs } }));
      }, this.timeoutMs);
      if (!secure) {
        socket.once('connect', () => {
          clearTimeout(timer);
          resolve();
        });
      } else {
        // The handshake is inside the connect time; the certificate decides before any request.
        socket.once('secureConnect', () => {
          clearTimeout(timer);
          checkPeer(socket as tls.TLSSocket, this.pinFor).then((peer) => {
            if ('refused' in peer) {
              reject(new SourceFailure(peer.refused.reason, peer.refused.why));
              return;
            }
            this.peer = peer;
            resolve();
          }, reject);
        });
      }
      socket.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const { words, why } = socketFailure(err);
        reject(new SourceFailure(words, why));
        this.fail(words, why);
      });
      socket.on('close', () => this.fail('connection closed by the camera', { key: 'streamClosed' }));
    });
  }

  /** Where the parser delivers: frames in place in the read buffer, valid during the call. */
  private readonly handler: RtspHandler = {
    interleaved: (channel, bytes, start, end) => this.onInterleaved(channel, bytes, start, end),
    message: (msg) => {
      if (msg.kind !== 'response') return; // requests from the camera (rare: ANNOUNCE, SET_PARAMETER) are ignored
      const cseq = Number(getHeader(msg, 'CSeq'));
      const resolve = this.pending.get(cseq);
      this.pending.delete(cseq);
      resolve?.(msg);
    },
  };

  private onData(buf: Uint8Array, length: number) {
    if (this.stopped) return;
    try {
      this.parser.feed(buf, this.handler, length);
    } catch (err) {
      this.fail(`bad data from the camera: ${err instanceof Error ? err.message : String(err)}`, { key: 'streamBadData' });
      return;
    }
    this.mediaFlowed();
  }

  /** Media came since the last call: the no-media timeout starts again from now. */
  private mediaFlowed() {
    if (!this.mediaSeen) return;
    this.mediaSeen = false;
    this.watchdog?.refresh();
  }

  private takeSession(res: RtspResponse) {
    const session = getHeader(res, 'Session');
    if (session) this.session = session.split(';')[0].trim();
  }

  /** RTP from the camera's address only (another sender on the port is ignored), through the reorder buffer. */
  private listenUdp(setup: Setup) {
    const udp = setup.udp!;
    const camera = this.socket?.remoteAddress?.replace(/^::ffff:/, '');
    udp.pair.rtp.on('message', (msg, rinfo) => {
      if (this.stopped) return;
      if (camera && rinfo.address.replace(/^::ffff:/, '') !== camera) {
        this.stats.udpForeign++;
        return;
      }
      this.stats.udpPackets++;
      let packet: RtpPacket;
      try {
        packet = parseRtp(msg);
      } catch {
        this.stats.badPackets++;
        return;
      }
      for (const r of udp.reorder.push(packet, Date.now())) this.onPacket(setup, r.packet);
    });
    // Sender reports are not used yet; reading them keeps the socket's buffer empty.
    udp.pair.rtcp.on('message', () => undefined);
    for (const s of [udp.pair.rtp, udp.pair.rtcp])
      s.on('error', (err: NodeJS.ErrnoException) => this.fail(`UDP: ${err.message}`, { key: 'streamSocketError', vars: { code: err.code ?? 'UDP' } }));
  }

  /** One packet read in place, for every interleaved frame (no allocation per packet). */
  private readonly view = newRtpView();

  /** Frames come on channels 0-255 only: a setup on another channel (a camera's odd answer) never gets one. */
  private setChannel(channel: number, setup: Setup) {
    if (Number.isInteger(channel) && channel >= 0 && channel < 256) this.byChannel[channel] = setup;
  }

  private onInterleaved(channel: number, bytes: Uint8Array, start: number, end: number) {
    const setup = this.byChannel[channel];
    if (!setup) return; // RTCP on odd channels, or a channel we did not set up
    let units: readonly AccessUnit[];
    try {
      units = setup.depacketiser.pushView(readRtp(bytes, start, end, this.view));
    } catch {
      // A malformed packet is dropped; the depacketiser resynchronises on the next one. Only packets
      // that parse count as media for the watchdog, so a camera sending garbage is retried.
      this.stats.badPackets++;
      return;
    }
    this.mediaSeen = true;
    for (let i = 0; i < units.length; i++) this.deliver(setup, units[i]);
  }

  /** A packet from UDP, after the reorder buffer. */
  private onPacket(setup: Setup, packet: RtpPacket) {
    let units: readonly AccessUnit[];
    try {
      units = setup.depacketiser.push(packet);
    } catch {
      // A malformed packet is dropped; the depacketiser resynchronises on the next one. Only packets
      // that parse count as media for the watchdog, so a camera sending garbage is retried.
      this.stats.badPackets++;
      return;
    }
    this.mediaSeen = true;
    for (const u of units) this.deliver(setup, u);
  }

  private deliver(setup: Setup, unit: AccessUnit) {
    if (!setup.track) {
      if (unit.kind !== 'video') return;
      this.learnParameterSets(setup, unit);
      if (!setup.track) return;
    }
    // Each track starts on the session clock where it first arrived, so audio and video line up
    // without RTCP sender reports.
    if (setup.base === undefined) {
      setup.base = unit.pts;
      setup.offset = Math.round(((Date.now() - this.startedAt) / 1000) * setup.track.clockRate);
    }
    const shift = setup.offset - setup.base;
    if (!this.announced) {
      this.announce();
      if (!this.announced) return;
    }
    // The depacketisers hand over a new unit object each time (it is ours): shifted in place rather
    // than copied per unit.
    unit.pts += shift;
    if (unit.kind === 'video') unit.dts += shift;
    this.sink?.unit(setup.index, unit);
  }

  /** A video track without SDP parameter sets starts once SPS/PPS (and VPS) arrive in-band (copied: units are lent). */
  private learnParameterSets(setup: Setup, unit: VideoAccessUnit) {
    const codec = setup.media.codec;
    for (const n of unit.nalus) {
      if (codec === 'h264') {
        const t = h264NalType(n);
        if (t === 7) setup.params.sps = n.slice();
        if (t === 8) setup.params.pps = n.slice();
      } else if (codec === 'h265') {
        const t = h265NalType(n);
        if (t === 32) setup.params.vps = n.slice();
        if (t === 33) setup.params.sps = n.slice();
        if (t === 34) setup.params.pps = n.slice();
      }
    }
    const { sps, pps, vps } = setup.params;
    if (sps && pps && (codec === 'h264' || vps)) {
      try {
        setup.track = videoTrackFromParameterSets(codec as 'h264' | 'h265', { sps, pps, vps });
        this.announced = false;
        this.announce();
      } catch {
        /* wait for the next parameter sets */
      }
    }
  }

  /** Tells the hub the tracks once every track is known. */
  private announce() {
    if (this.announced || !this.setups.length) return;
    if (this.setups.some((s) => !s.track)) return;
    this.announced = true;
    this.sink?.tracks(this.setups.map((s) => s.track!));
    // Video is assembled in the hub's store of its track: kept without a copy (see GopStore).
    for (const s of this.setups) s.depacketiser.useMemory?.(this.sink?.memory?.(s.index));
  }

  private req(method: string, url: string, headers: [string, string][] = []) {
    const all: [string, string][] = [['CSeq', String(++this.cseq)], ['User-Agent', USER_AGENT], ...headers];
    if (this.session) all.push(['Session', this.session]);
    if (this.challenge) {
      const auth = authorization(this.challenge, { ...this.creds, method, uri: url });
      if (auth) all.push(['Authorization', auth]);
    }
    return request({ method, uri: url, headers: all });
  }

  /** A request and its answer; a status of 300 or more throws unless listed in `allow`. */
  private async call(method: string, url: string, headers: [string, string][], allow: number[] = []): Promise<RtspResponse> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const msg = this.req(method, url, headers);
      const cseq = this.cseq;
      const res = await new Promise<RtspResponse>((resolve, reject) => {
        const timer = setTimeout(() => {
          this.pending.delete(cseq);
          reject(new SourceFailure(`${method} timeout after ${this.timeoutMs} ms`, { key: 'streamRequestTimeout', vars: { method, ms: this.timeoutMs } }));
        }, this.timeoutMs);
        this.pending.set(cseq, (r) => {
          clearTimeout(timer);
          if (!r.status) reject(new Error('stopped'));
          else resolve(r);
        });
        this.socket!.write(serialize(msg));
      });
      if (res.status === 401 && attempt === 0 && (this.creds.username || this.creds.password)) {
        const challenge = chooseChallenge(parseWwwAuthenticate(getHeader(res, 'WWW-Authenticate') ?? ''));
        if (challenge) {
          this.challenge = challenge;
          continue;
        }
      }
      if (res.status >= 300 && !allow.includes(res.status)) {
        // The camera's reason phrase is its own words, shown as it wrote them.
        const why: Reason = res.status === 401 ? { key: 'streamUnauthorized' } : { key: 'streamAnswered', vars: { method, status: res.status, phrase: res.reason } };
        throw new SourceFailure(`${method}: ${res.status} ${res.reason}`, why);
      }
      return res;
    }
    throw new SourceFailure(`${method}: 401 Unauthorized`, { key: 'streamUnauthorized' });
  }
}
