/**
 * Receives one GB28181 media session's RTP: over UDP, over TCP with the platform listening (passive:
 * the device connects) or connecting (active: to the address in the device's SDP answer), RFC 4571
 * framing on TCP. Packets of the expected SSRC go out in sequence order (a small reorder buffer on
 * UDP); devices that send another SSRC than the one offered are followed when allowed (the first SSRC
 * seen wins and is logged). When nothing arrives in time, the failure names the likely cause (media
 * IP announced, port unreachable) instead of a bare timeout. Never throws out of a socket callback.
 */
import type dgram from 'node:dgram';
import net from 'node:net';
import { parseRtp, ReorderBuffer, Rfc4571Reader, type RtpPacket } from '@opencvr/rtp';
import type { Reason } from '@opencvr/shared';
import { closeQuietly, type RtpPortPool } from './ports.js';
import { activeConnectReason, mediaSocketReason } from './socket-reasons.js';

/** UDP, or TCP with the platform passive (listening) or active (connecting). */
export type GbMediaTransport = 'udp' | 'tcp-passive' | 'tcp-active';

export interface ReceiverLog {
  info(o: object, m: string): void;
  warn(o: object, m: string): void;
}

export interface RtpReceiverOptions {
  transport: GbMediaTransport;
  pool: RtpPortPool;
  /** Local address to bind (default 0.0.0.0). */
  bindHost?: string;
  /** The media IP announced in the SDP offer: named in the no-RTP message. */
  announcedIp: string;
  /** No RTP this long after start() fails the session (gb AckTimeout). */
  firstPacketTimeoutMs: number;
  /** No RTP this long once media flowed fails it (default: firstPacketTimeoutMs). */
  idleTimeoutMs?: number;
  /** Follow a device that sends another SSRC than expected (default true). */
  acceptOtherSsrc?: boolean;
  /** Reorder window on UDP (default 128 packets / 80 ms). */
  reorder?: { size: number; maxDelayMs: number };
  log?: ReceiverLog;
}

export interface ReceiverStart {
  /** The SSRC the session agreed (y= of the answer, else the offer's); undefined = the first seen. */
  ssrc?: number;
  /** TCP active: the device's media address and port from its SDP answer. */
  remote?: { ip: string; port: number };
}

export interface ReceiverHandlers {
  /** One RTP packet in order; `lost` packets are missing just before it. */
  packet(packet: RtpPacket, lost: number): void;
  /**
   * The session cannot go on: `reason` in the log's words (the hub's state), `why` the same from the
   * catalogue (a device playback or download tells its user in their language). Called once; the receiver is closed.
   */
  failed(reason: string, why: Reason): void;
}

export interface ReceiverStats {
  bytes: number;
  packets: number;
  lost: number;
  late: number;
  duplicate: number;
  badPackets: number;
  /** Packets of another SSRC dropped. */
  foreign: number;
  /** The SSRC followed, once known. */
  ssrc?: number;
  /** Where the media comes from. */
  remote?: string;
  firstPacketAt?: number;
  lastPacketAt?: number;
}

const ACTIVE_CONNECT_TIMEOUT_MS = 5000;

export class RtpReceiver {
  readonly stats: ReceiverStats = { bytes: 0, packets: 0, lost: 0, late: 0, duplicate: 0, badPackets: 0, foreign: 0 };
  private udp?: dgram.Socket;
  private server?: net.Server;
  private conn?: net.Socket;
  private release?: () => void;
  private handlers?: ReceiverHandlers;
  private expected?: number;
  private reorder?: ReorderBuffer;
  private timers: NodeJS.Timeout[] = [];
  private closed = false;
  private startedAt = 0;
  private tcpConnected = false;
  private lastForeign = 0;
  /** Packets that came before start() (a device quicker than our INVITE handling), replayed by it. */
  private early: { packet: RtpPacket; from: string; udp: boolean }[] = [];

  private constructor(
    private readonly opts: RtpReceiverOptions,
    /** The local port to announce in the SDP offer (9, the discard port, for TCP active: RFC 4145). */
    readonly port: number,
  ) {}

  /** Binds the UDP socket or the TCP listener (nothing for TCP active) from the pool. */
  static async open(opts: RtpReceiverOptions): Promise<RtpReceiver> {
    const host = opts.bindHost ?? '0.0.0.0';
    if (opts.transport === 'udp') {
      const { socket, port, release } = await opts.pool.bindUdp(host);
      const r = new RtpReceiver(opts, port);
      r.udp = socket;
      r.release = release;
      r.reorder = new ReorderBuffer(opts.reorder ?? { size: 128, maxDelayMs: 80 });
      socket.on('message', (msg, rinfo) => r.onDatagram(msg, `${rinfo.address}:${rinfo.port}`));
      socket.on('error', (err: NodeJS.ErrnoException) => r.socketFailed(`UDP port ${port}: ${err.message}`, err, mediaSocketReason(err, `UDP ${port}`)));
      return r;
    }
    if (opts.transport === 'tcp-passive') {
      const { socket, port, release } = await opts.pool.listenTcp(host);
      const r = new RtpReceiver(opts, port);
      r.server = socket;
      r.release = release;
      socket.on('connection', (conn) => r.onTcpConnection(conn));
      socket.on('error', (err: NodeJS.ErrnoException) => r.socketFailed(`TCP port ${port}: ${err.message}`, err, mediaSocketReason(err, `TCP ${port}`)));
      return r;
    }
    return new RtpReceiver(opts, 9);
  }

  get transport(): GbMediaTransport {
    return this.opts.transport;
  }

  /** Starts delivering (and the time-outs); TCP active connects to the device now. */
  start(params: ReceiverStart, handlers: ReceiverHandlers): void {
    if (this.closed) {
      handlers.failed('the RTP receiver was closed', { key: 'gbRtpReceiverClosed' });
      return;
    }
    this.handlers = handlers;
    this.expected = params.ssrc === undefined ? undefined : params.ssrc >>> 0;
    this.startedAt = Date.now();
    const first = this.opts.firstPacketTimeoutMs;
    const idle = this.opts.idleTimeoutMs ?? first;
    const watchdog = setInterval(
      () => {
        const now = Date.now();
        if (this.stats.lastPacketAt === undefined) {
          if (now - this.startedAt >= first) this.fail(...this.noRtpReason(first));
        } else if (now - this.stats.lastPacketAt >= idle) {
          const seconds = Math.round(idle / 1000);
          this.fail(`RTP stopped: nothing on ${this.where()} for ${seconds} s`, { key: 'gbDeviceStoppedSending', vars: { seconds } });
        }
      },
      Math.min(500, Math.max(50, first / 4)),
    );
    watchdog.unref();
    this.timers.push(watchdog);
    if (this.reorder) {
      const drain = setInterval(() => {
        if (!this.closed) for (const r of this.reorder!.drain(Date.now())) this.deliver(r.packet, r.lost);
      }, 40);
      drain.unref();
      this.timers.push(drain);
    }
    const early = this.early;
    this.early = [];
    for (const e of early) this.onPacket(e.packet, e.from, e.udp);
    if (this.opts.transport === 'tcp-active') this.connectActive(params.remote);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    if (this.udp) closeQuietly(this.udp);
    if (this.server) closeQuietly(this.server);
    this.conn?.destroy();
    this.release?.();
  }

  private fail(reason: string, why: Reason) {
    if (this.closed) return;
    const h = this.handlers;
    this.close();
    h?.failed(reason, why);
  }

  /** A socket error: without an OS code the user is told to read the log, so its words go there (the sink may not log them). */
  private socketFailed(words: string, err: NodeJS.ErrnoException, why: Reason) {
    if (this.closed) return;
    if (!err.code) this.opts.log?.warn({ err: err.message }, `gb media: ${words}`);
    this.fail(words, why);
  }

  private where(): string {
    if (this.opts.transport === 'udp') return `UDP port ${this.port}`;
    if (this.opts.transport === 'tcp-passive') return `TCP port ${this.port}`;
    return `the TCP connection to ${this.stats.remote ?? 'the device'}`;
  }

  /** Why nothing came, in the operator's terms (the log's words, and the catalogue's). */
  private noRtpReason(ms: number): [string, Reason] {
    const s = Math.round(ms / 1000);
    const ip = this.opts.announcedIp;
    const port = this.port;
    if (this.stats.foreign > 0) {
      const vars = { got: hex(this.lastForeign), expected: hex(this.expected ?? 0), count: this.stats.foreign };
      return [
        `RTP arrived on ${this.where()} but only with SSRC ${vars.got} while ${vars.expected} was expected (${vars.count} packets dropped)`,
        { key: 'gbRtpWrongSsrc', vars },
      ];
    }
    if (this.stats.badPackets > 0)
      return [
        `${this.stats.badPackets} packets arrived on ${this.where()} within ${s} s but none was RTP`,
        { key: 'gbRtpNotRtp', vars: { count: this.stats.badPackets, seconds: s } },
      ];
    if (this.opts.transport === 'udp') {
      return [
        `no RTP received on UDP port ${port} within ${s} s: check the media IP announced (${ip}) and that the port is reachable from the device`,
        { key: 'gbNoRtpUdp', vars: { port, seconds: s, ip } },
      ];
    }
    if (this.opts.transport === 'tcp-passive') {
      return this.tcpConnected
        ? [`the device connected to TCP port ${port} but sent no RTP within ${s} s`, { key: 'gbTcpNoRtp', vars: { port, seconds: s } }]
        : [
            `the device did not connect to TCP port ${port} within ${s} s: check the media IP announced (${ip}) and that the port is reachable from the device`,
            { key: 'gbTcpNotConnected', vars: { port, seconds: s, ip } },
          ];
    }
    const address = this.stats.remote ?? '?';
    return [
      `no RTP received from the device over TCP (${this.stats.remote ?? 'no address'}) within ${s} s`,
      { key: 'gbTcpActiveNoRtp', vars: { address, seconds: s } },
    ];
  }

  private connectActive(remote: ReceiverStart['remote']) {
    if (!remote?.ip || !remote.port || remote.port > 65535) {
      const address = `${remote?.ip || '?'}:${remote?.port ?? '?'}`;
      this.fail(`TCP active: the device's SDP answer gave no media address to connect to (${address})`, { key: 'gbTcpActiveNoAddress', vars: { address } });
      return;
    }
    const target = `${remote.ip}:${remote.port}`;
    this.stats.remote = target;
    const socket = net.connect({ host: remote.ip, port: remote.port });
    const timer = setTimeout(() => {
      socket.destroy();
      const seconds = ACTIVE_CONNECT_TIMEOUT_MS / 1000;
      this.fail(`TCP active: could not connect to the device's media address ${target} within ${seconds} s`, {
        key: 'gbTcpActiveTimeout',
        vars: { address: target, seconds },
      });
    }, ACTIVE_CONNECT_TIMEOUT_MS);
    timer.unref();
    socket.once('connect', () => clearTimeout(timer));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      this.socketFailed(`TCP active: connection to the device's media address ${target} failed (${err.code ?? err.message})`, err, activeConnectReason(err, target));
    });
    this.attachTcp(socket, target);
  }

  private onTcpConnection(conn: net.Socket) {
    // One device connection per session; a second one is not ours.
    if (this.conn || this.closed) {
      conn.destroy();
      return;
    }
    this.tcpConnected = true;
    const from = `${conn.remoteAddress?.replace(/^::ffff:/, '')}:${conn.remotePort}`;
    this.stats.remote = from;
    conn.on('error', (err: NodeJS.ErrnoException) => this.socketFailed(`TCP media connection from ${from}: ${err.message}`, err, mediaSocketReason(err, from)));
    this.attachTcp(conn, from);
  }

  private attachTcp(conn: net.Socket, from: string) {
    this.conn = conn;
    conn.setNoDelay(true);
    const reader = new Rfc4571Reader();
    conn.on('data', (chunk: Buffer) => {
      if (this.closed) return;
      this.stats.bytes += chunk.length;
      for (const frame of reader.push(chunk)) this.onPacketBytes(frame, from, false);
    });
    conn.on('close', () => this.fail(`the device closed the TCP media connection (${from})`, { key: 'gbTcpClosedByDevice', vars: { address: from } }));
  }

  private onDatagram(msg: Buffer, from: string) {
    if (this.closed) return;
    this.stats.bytes += msg.length;
    this.onPacketBytes(msg, from, true);
  }

  private onPacketBytes(bytes: Uint8Array, from: string, udp: boolean) {
    let packet: RtpPacket;
    try {
      packet = parseRtp(bytes);
    } catch {
      this.stats.badPackets++;
      return;
    }
    if (!this.handlers) {
      if (this.early.length < 4000) this.early.push({ packet, from, udp });
      return;
    }
    this.onPacket(packet, from, udp);
  }

  private onPacket(packet: RtpPacket, from: string, udp: boolean) {
    if (!this.acceptSsrc(packet.ssrc >>> 0, from)) return;
    this.stats.packets++;
    const now = Date.now();
    this.stats.firstPacketAt ??= now;
    this.stats.lastPacketAt = now;
    if (!udp) {
      this.deliver(packet, 0);
      return;
    }
    this.stats.remote = from;
    for (const r of this.reorder!.push(packet, now)) this.deliver(r.packet, r.lost);
  }

  /**
   * The agreed SSRC is followed; another one only when allowed and while the agreed one has not been
   * seen (the first such wins); the rest are counted as foreign.
   */
  private acceptSsrc(ssrc: number, from: string): boolean {
    if (this.stats.ssrc !== undefined) {
      if (ssrc === this.stats.ssrc) return true;
      if (ssrc === this.expected) {
        // The agreed SSRC wins over one followed before it showed up (a stray packet came first).
        this.opts.log?.info(
          { was: hex(this.stats.ssrc), now: hex(ssrc), from },
          'gb media: the agreed SSRC arrived; following it',
        );
        this.stats.ssrc = ssrc;
        return true;
      }
      this.stats.foreign++;
      this.lastForeign = ssrc;
      return false;
    }
    if (this.expected === undefined || ssrc === this.expected) {
      this.stats.ssrc = ssrc;
      return true;
    }
    if (this.opts.acceptOtherSsrc === false) {
      this.stats.foreign++;
      this.lastForeign = ssrc;
      return false;
    }
    this.opts.log?.info(
      { expected: hex(this.expected), got: hex(ssrc), from },
      'gb media: the device sends another SSRC than agreed; following it',
    );
    this.stats.ssrc = ssrc;
    return true;
  }

  private deliver(packet: RtpPacket, lost: number) {
    if (this.closed || !this.handlers) return;
    if (this.reorder) {
      this.stats.lost = this.reorder.stats.lost;
      this.stats.late = this.reorder.stats.late;
      this.stats.duplicate = this.reorder.stats.duplicate;
    }
    this.handlers.packet(packet, lost);
  }
}

const hex = (n: number) => `0x${(n >>> 0).toString(16).padStart(8, '0')}`;
