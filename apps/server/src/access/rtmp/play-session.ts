/**
 * One RTMP play, as a player does it: handshake, connect (app and tcUrl from the address, a login's
 * parameters appended), createStream, play (the stream key: the path after the app, with the query),
 * Set Buffer Length; then the stream's messages until the connection ends. The stream checker's
 * probe (probe.ts) stops at the first media message; the native pull source (ingest/rtmp-source.ts)
 * keeps reading. While it reads, the session does what a server expects of a long-lived player:
 * acknowledges the bytes received once per window (Window Acknowledgement Size) and answers pings
 * (nginx-rtmp drops a player that does not), and splits aggregate messages (Wowza, AMS) into the
 * audio and video messages they hold.
 *
 * A login the server asks for (auth.ts) ends the session with the parameters of the next connect;
 * everything else that ends it carries the log's words and the catalogue's reason. No timer here: the
 * caller bounds each step (`step` says which one it waits in).
 */
import net from 'node:net';
import { Amf0EcmaArray, Amf0Error, decodeAmf0, encodeAmf0, FlvFormatError, readFlvTags, type Amf0Object, type Amf0Value } from '@opencvr/flv';
import {
  encodeChunks,
  handshakeC0C1,
  handshakeC2,
  HANDSHAKE_SIZE,
  RTMP_VERSION,
  RtmpChunkReader,
  RtmpError,
  RtmpType,
  setBufferLength,
  u32Payload,
  type RtmpMessage,
} from './chunks.js';
import { CLOSED_BY_CAMERA, socketMiss, type ProbeMiss } from '../rtsp/probe.js';
import { rtmpAuthStep, type RtmpAuthFailure } from './auth.js';
import { certificateMiss, connectRtmps } from './tls-connect.js';

/** What the session waits for: the server's handshake, the connect's answer, the play's, media. */
export type PlayStep = 'handshake' | 'connect' | 'play' | 'playing';

export type PlayEnd =
  /** Connect again with these login parameters (auth.ts). */
  | { reconnect: string }
  /** Over: why, and the socket's error when that was it. */
  | { miss: ProbeMiss; error?: NodeJS.ErrnoException };

export interface PlayHandlers {
  /** Audio (8), video (9) and data (18) messages of the stream, once it is created. */
  media(m: RtmpMessage): void;
  /** An onStatus the session does not act on itself (NetStream.Play.Stop, UnpublishNotify...). */
  status?(code: string, info: Amf0Object | undefined): void;
  /** The session ended by itself (never after close()). */
  end(e: PlayEnd): void;
}

export interface PlayOptions {
  /** A login's parameters, appended to the app and tcUrl of the connect ('' for none). */
  auth: string;
  creds?: { user: string; password: string };
  /** Set Buffer Length asked of the server. */
  bufferMs?: number;
}

/** Aggregate message (section 7.1.6): FLV tags, back pointers included. */
const AGGREGATE = 22;
const USER_CONTROL = { pingRequest: 6, pingResponse: 7 } as const;

/** The commands sent, in order; their transaction ids. */
const TX = { connect: 1, createStream: 2 } as const;
const CSID = { command: 3, stream: 8, control: 2 } as const;

const notRtmp = (detail: string): ProbeMiss => ({ reason: `not an RTMP server (${detail})`, why: { key: 'statusNotRtmp' } });
export const playRefused = (code: string): ProbeMiss => ({ reason: `RTMP play refused: ${code}`, why: { key: 'statusRtmpPlayRefused', vars: { code } } });

/** A login the server asked for and did not get: what the user is told. */
const AUTH_REASON = { required: 'statusRtmpAuthRequired', failed: 'statusRtmpAuthFailed', unsupported: 'statusRtmpAuthUnsupported' } as const;
export const authMiss = (failure: RtmpAuthFailure, method: string): ProbeMiss => ({
  reason: `RTMP authentication ${failure === 'required' ? 'required' : failure === 'failed' ? 'failed' : 'not supported'} (authmod=${method})`,
  why: { key: AUTH_REASON[failure], vars: { method } },
});

/** Where the stream is: the app (first path segment, as ffmpeg and OBS split it) and the stream key. */
export function rtmpTarget(url: URL): { app: string; stream: string; tcUrl: string } {
  const parts = url.pathname.replace(/^\/+/, '').split('/');
  const app = decoded(parts[0] ?? '');
  const stream = decoded(parts.slice(1).join('/')) + url.search;
  const port = url.port ? `:${url.port}` : '';
  return { app, stream, tcUrl: `${url.protocol}//${url.hostname}${port}/${parts[0] ?? ''}` };
}

/** A URL's user, password or path part, decoded where it can be (a stray "%" is taken as written). */
export function decoded(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export class RtmpPlaySession {
  /** The server sent something back: it is there, whatever came after. */
  answered = false;
  step: PlayStep = 'handshake';
  /** Bytes read from the server (its handshake included), for the acknowledgements. */
  bytesIn = 0;
  private done = false;
  private readonly socket: net.Socket;
  private handshake: Uint8Array | undefined = new Uint8Array(0);
  private readonly reader = new RtmpChunkReader();
  private streamId?: number;
  private ackWindow = 0;
  private ackedAt = 0;

  constructor(
    private readonly url: URL,
    private readonly o: PlayOptions,
    private readonly h: PlayHandlers,
  ) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const secure = url.protocol === 'rtmps:';
    const port = url.port ? Number(url.port) : secure ? 443 : 1935;
    // rtmps://: the certificate checked (tls-connect.ts).
    this.socket = secure ? connectRtmps(host, port) : net.connect({ host, port });
    this.socket.once(secure ? 'secureConnect' : 'connect', () => this.socket.write(handshakeC0C1()));
    this.socket.on('data', (data: Buffer) => this.data(data));
    this.socket.on('error', (err: NodeJS.ErrnoException) => {
      // A refused certificate: the server is there (it sent one), it is not to be trusted.
      const cert = certificateMiss(err);
      if (cert) this.answered = true;
      this.end({ miss: cert ?? socketMiss(err), error: err });
    });
    this.socket.on('close', () =>
      this.end({ miss: this.answered ? { reason: 'connection closed by the server', why: { key: 'statusClosedByServer' } } : CLOSED_BY_CAMERA }),
    );
  }

  /** Ends the session without a word to the handlers. */
  close() {
    this.done = true;
    this.socket.destroy();
  }

  private end(e: PlayEnd) {
    if (this.done) return;
    this.close();
    this.h.end(e);
  }

  private send(m: Omit<RtmpMessage, 'timestamp'>) {
    this.socket.write(encodeChunks({ ...m, timestamp: 0 }));
  }

  private command(name: string, tx: number, ...args: Amf0Value[]) {
    this.send({ csid: CSID.command, type: RtmpType.commandAmf0, streamId: 0, payload: encodeAmf0(name, tx, ...args) });
  }

  private data(data: Buffer) {
    if (this.done) return;
    this.bytesIn += data.length;
    let rest: Uint8Array = data;
    if (this.handshake) {
      this.answered = true;
      const had = this.handshake.length;
      this.handshake = concat(this.handshake, rest);
      if (this.handshake[0] !== RTMP_VERSION) return this.end({ miss: notRtmp('handshake') });
      // C2 as soon as S1 is in: a server may hold S2 until it has C2.
      if (had < 1 + HANDSHAKE_SIZE && this.handshake.length >= 1 + HANDSHAKE_SIZE) this.socket.write(handshakeC2(this.handshake.subarray(1, 1 + HANDSHAKE_SIZE)));
      if (this.handshake.length < 1 + 2 * HANDSHAKE_SIZE) return;
      this.connect();
      rest = this.handshake.subarray(1 + 2 * HANDSHAKE_SIZE);
      this.handshake = undefined;
    }
    try {
      for (const m of this.reader.push(rest)) {
        this.message(m);
        if (this.done) return;
      }
    } catch (err) {
      if (err instanceof RtmpError) return this.end({ miss: notRtmp(err.message.replace(/^rtmp: /, '')) });
      if (err instanceof Amf0Error) return this.end({ miss: notRtmp('unreadable command') });
      throw err;
    }
    this.acknowledge();
  }

  private connect() {
    const { app, tcUrl } = rtmpTarget(this.url);
    this.send({ csid: CSID.control, type: RtmpType.windowAckSize, streamId: 0, payload: u32Payload(2_500_000) });
    this.command('connect', TX.connect, {
      // A login's parameters ride on both, as ffmpeg sends them.
      app: app + this.o.auth,
      flashVer: 'LNX 9,0,124,2',
      tcUrl: tcUrl + this.o.auth,
      fpad: false,
      capabilities: 15,
      audioCodecs: 4071,
      videoCodecs: 252,
      videoFunction: 1,
    });
    this.step = 'connect';
  }

  /** An Acknowledgement once a window's worth has come since the last (section 5.4.3). */
  private acknowledge() {
    if (this.ackWindow <= 0 || this.bytesIn - this.ackedAt < this.ackWindow) return;
    this.ackedAt = this.bytesIn;
    this.send({ csid: CSID.control, type: RtmpType.acknowledgement, streamId: 0, payload: u32Payload(this.bytesIn >>> 0) });
  }

  private message(m: RtmpMessage): void {
    switch (m.type) {
      case RtmpType.audio:
      case RtmpType.video:
      case RtmpType.dataAmf0:
        if (this.streamId !== undefined && m.payload.length > 0) this.h.media(m);
        return;
      case AGGREGATE:
        if (this.streamId !== undefined) this.aggregate(m);
        return;
      case RtmpType.windowAckSize:
        if (m.payload.length >= 4) this.ackWindow = new DataView(m.payload.buffer, m.payload.byteOffset, 4).getUint32(0);
        return;
      case RtmpType.userControl:
        if (m.payload.length >= 6 && ((m.payload[0] << 8) | m.payload[1]) === USER_CONTROL.pingRequest) {
          const pong = m.payload.slice(0, 6);
          pong[1] = USER_CONTROL.pingResponse;
          this.send({ csid: CSID.control, type: RtmpType.userControl, streamId: 0, payload: pong });
        }
        return;
      case RtmpType.commandAmf0:
        return this.commandMessage(m);
    }
  }

  /** The tags of an aggregate message as messages, at the aggregate's time plus their offset from the first. */
  private aggregate(m: RtmpMessage) {
    let tags;
    try {
      tags = readFlvTags(m.payload, 0);
    } catch (err) {
      // A broken aggregate is lost, not the session: the next one may be whole.
      if (err instanceof FlvFormatError) return;
      throw err;
    }
    const base = tags[0]?.timestamp ?? 0;
    for (const t of tags) {
      if (this.done) return;
      if (t.data.length > 0 && (t.type === RtmpType.audio || t.type === RtmpType.video || t.type === RtmpType.dataAmf0))
        this.h.media({ csid: m.csid, type: t.type, streamId: m.streamId, timestamp: (m.timestamp + t.timestamp - base) >>> 0, payload: t.data });
    }
  }

  private commandMessage(m: RtmpMessage) {
    const values = decodeAmf0(m.payload);
    const [name, tx] = values;
    const info = values.slice(2).map(asObject).find((v) => v !== undefined);
    const code = typeof info?.code === 'string' ? info.code : '';
    if (name === '_error' && tx === TX.connect) {
      const { app } = rtmpTarget(this.url);
      // A login asked for: the next connect carries it, or the login is over (auth.ts).
      const step = rtmpAuthStep(typeof info?.description === 'string' ? info.description : '', this.o.creds, this.o.auth.includes('&response='), app);
      if (step) return this.end('params' in step ? { reconnect: step.params } : { miss: authMiss(step.failure, step.method) });
      const refused = code || 'NetConnection.Connect.Rejected';
      return this.end({ miss: { reason: `RTMP connect refused: ${refused}`, why: { key: 'statusRtmpConnectRefused', vars: { code: refused } } } });
    }
    if (name === '_error' && tx === TX.createStream) return this.end({ miss: playRefused(code || 'createStream failed') });
    if (name === '_result' && tx === TX.connect) return this.command('createStream', TX.createStream, null);
    if (name === '_result' && tx === TX.createStream) {
      const id = values[3];
      const streamId = typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : 1;
      this.streamId = streamId;
      const { stream } = rtmpTarget(this.url);
      this.send({ csid: CSID.stream, type: RtmpType.commandAmf0, streamId, payload: encodeAmf0('play', 0, null, stream, -2) });
      this.send({ csid: CSID.control, type: RtmpType.userControl, streamId: 0, payload: setBufferLength(streamId, this.o.bufferMs ?? 1000) });
      this.step = 'play';
      return;
    }
    if (name !== 'onStatus') return;
    if (code === 'NetStream.Play.StreamNotFound') return this.end({ miss: { reason: `no such stream: ${code}`, why: { key: 'statusNoSuchStream', vars: { code } } } });
    if (code === 'NetStream.Play.Start' || code === 'NetStream.Play.Reset' || code === 'NetStream.Data.Start') {
      this.step = 'playing';
      return;
    }
    if (info?.level === 'error' || /Failed|Rejected|BadName|Forbidden/.test(code)) return this.end({ miss: playRefused(code || 'error') });
    this.h.status?.(code, info);
  }
}

/** An info object (some servers send it as an ECMA array). */
export function asObject(v: Amf0Value): Amf0Object | undefined {
  if (v instanceof Amf0EcmaArray) return v.entries;
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
