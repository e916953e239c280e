/**
 * Is this RTMP stream there? Does what a player does, up to the first picture or sound: handshake,
 * connect (app and tcUrl from the address), createStream, play (the stream key: the path after the
 * app, with the query), then waits for the server's onStatus and the first audio or video message.
 * A TCP connection alone said nothing: every RTMP server takes one whatever the key, and one with no
 * such stream says so only after play (NetStream.Play.StreamNotFound, or a Play.Start and no media,
 * as nginx-rtmp does for a key nobody publishes).
 *
 * A server that asks for a login (authmod=adobe or llnw, auth.ts) gets it when the address has credentials,
 * as ffmpeg would give it when it plays; without them, or refused, the reason says it was the login.
 *
 * A failure has the log's words (`reason`) and the catalogue's (`why`: what the channel stores and the
 * user reads). `answered` tells the checker the server itself is there (it sent its handshake).
 */
import net from 'node:net';
import tls from 'node:tls';
import { Amf0EcmaArray, Amf0Error, decodeAmf0, encodeAmf0, type Amf0Object, type Amf0Value } from '@opencvr/flv';
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
import type { Reason } from '@opencvr/shared';
import { ABORTED, CLOSED_BY_CAMERA, socketMiss, type ProbeMiss } from '../rtsp/probe.js';
import { rtmpAuthStep, type RtmpAuthFailure } from './auth.js';

export interface RtmpProbeResult {
  ok: boolean;
  /** The server sent its handshake: it is there, whatever came after. */
  answered: boolean;
  /** "OK", or why not in the log's words. */
  reason: string;
  /** Why not, from the REASONS catalogue; absent when ok. */
  why?: Reason;
}

/** The server took the play but sent nothing, or never answered a command. */
const noMedia = (ms: number): ProbeMiss => ({ reason: `no media within ${ms} ms`, why: { key: 'statusNoMediaWithin', vars: { ms } } });
const noAnswerTo = (command: 'connect' | 'play', ms: number): ProbeMiss => ({
  reason: `no answer to ${command} within ${ms} ms`,
  why: { key: 'statusRtmpNoAnswerTo', vars: { command, ms } },
});
const notRtmp = (detail: string): ProbeMiss => ({ reason: `not an RTMP server (${detail})`, why: { key: 'statusNotRtmp' } });
const playRefused = (code: string): ProbeMiss => ({ reason: `RTMP play refused: ${code}`, why: { key: 'statusRtmpPlayRefused', vars: { code } } });

/** Where the stream is: the app (first path segment, as ffmpeg and OBS split it) and the stream key. */
export function rtmpTarget(url: URL): { app: string; stream: string; tcUrl: string } {
  const parts = url.pathname.replace(/^\/+/, '').split('/');
  const app = decodeURIComponent(parts[0] ?? '');
  const stream = decodeURIComponent(parts.slice(1).join('/')) + url.search;
  const port = url.port ? `:${url.port}` : '';
  return { app, stream, tcUrl: `${url.protocol}//${url.hostname}${port}/${parts[0] ?? ''}` };
}

/** The commands sent, in order; their transaction ids. */
const TX = { connect: 1, createStream: 2 } as const;
const CSID = { command: 3, stream: 8, control: 2 } as const;

/** A login the server asked for and did not get: what the user is told. */
const AUTH_REASON = { required: 'statusRtmpAuthRequired', failed: 'statusRtmpAuthFailed', unsupported: 'statusRtmpAuthUnsupported' } as const;
const authMiss = (failure: RtmpAuthFailure, method: string): ProbeMiss => ({
  reason: `RTMP authentication ${failure === 'required' ? 'required' : failure === 'failed' ? 'failed' : 'not supported'} (authmod=${method})`,
  why: { key: AUTH_REASON[failure], vars: { method } },
});

/** A server that asks for a login takes three connections (auth.ts); a fourth would be a loop. */
const MAX_CONNECTS = 3;

/**
 * The probe: one play, or, when the server asks for a login (Adobe's or Limelight's, auth.ts) and the address has
 * the credentials (the channel's are put there by pullUrl), the connections that login takes, within
 * the one timeout.
 */
export async function probeRtmp(url: URL, o: { timeoutMs: number; signal?: AbortSignal }): Promise<RtmpProbeResult> {
  const creds = url.username ? { user: decoded(url.username), password: decoded(url.password) } : undefined;
  const deadline = performance.now() + o.timeoutMs;
  let auth = '';
  for (let connects = 1; ; connects++) {
    const r = await playOnce(url, { ...o, budgetMs: Math.max(1, deadline - performance.now()), auth, creds });
    if (!('reconnect' in r)) return r;
    if (connects >= MAX_CONNECTS) return { ok: false, answered: true, ...authMiss('failed', /authmod=(\w+)/.exec(r.reconnect)?.[1] ?? '') };
    auth = r.reconnect;
  }
}

function playOnce(
  url: URL,
  o: { timeoutMs: number; budgetMs: number; signal?: AbortSignal; auth: string; creds?: { user: string; password: string } },
): Promise<RtmpProbeResult | { reconnect: string }> {
  const { app, stream, tcUrl } = rtmpTarget(url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const secure = url.protocol === 'rtmps:';
  const port = url.port ? Number(url.port) : secure ? 443 : 1935;

  return new Promise((resolve) => {
    let answered = false;
    let done = false;
    const socket: net.Socket = secure
      ? // As ffmpeg, which plays it, does not check the certificate (servers in a site sign their own).
        tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, rejectUnauthorized: false })
      : net.connect({ host, port });
    const finish = (m: ProbeMiss | 'OK' | { reconnect: string }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      if (m !== 'OK' && 'reconnect' in m) return resolve(m);
      resolve(m === 'OK' ? { ok: true, answered, reason: 'OK' } : { ok: false, answered, reason: m.reason, why: m.why });
    };
    /** What the deadline means at each step. */
    let waiting: ProbeMiss = { reason: `timeout after ${o.timeoutMs} ms`, why: { key: 'statusNoAnswerWithin', vars: { ms: o.timeoutMs } } };
    const timer = setTimeout(() => finish(waiting), o.budgetMs);
    const onAbort = () => finish(ABORTED);
    if (o.signal?.aborted) return onAbort();
    o.signal?.addEventListener('abort', onAbort, { once: true });

    const send = (m: Omit<RtmpMessage, 'timestamp'>) => socket.write(encodeChunks({ ...m, timestamp: 0 }));
    const command = (name: string, tx: number, ...args: Amf0Value[]) =>
      send({ csid: CSID.command, type: RtmpType.commandAmf0, streamId: 0, payload: encodeAmf0(name, tx, ...args) });

    let handshake: Uint8Array | undefined = new Uint8Array(0);
    const reader = new RtmpChunkReader();
    let streamId: number | undefined;
    let playing = false;

    const onMessage = (m: RtmpMessage): void => {
      if (m.type === RtmpType.audio || m.type === RtmpType.video) {
        // Media after play: the stream is there (a server may skip the onStatus).
        if (streamId !== undefined && m.payload.length > 0) finish('OK');
        return;
      }
      if (m.type !== RtmpType.commandAmf0) return;
      let values: Amf0Value[];
      try {
        values = decodeAmf0(m.payload);
      } catch (err) {
        if (err instanceof Amf0Error) return finish(notRtmp('unreadable command'));
        throw err;
      }
      const [name, tx] = values;
      const info = values.slice(2).map(asObject).find((v) => v !== undefined);
      const code = typeof info?.code === 'string' ? info.code : '';
      if (name === '_error' && tx === TX.connect) {
        // A login asked for: the next connect carries it, or the login is over (auth.ts).
        const step = rtmpAuthStep(typeof info?.description === 'string' ? info.description : '', o.creds, o.auth.includes('&response='), app);
        if (step) return finish('params' in step ? { reconnect: step.params } : authMiss(step.failure, step.method));
        const refused = code || 'NetConnection.Connect.Rejected';
        return finish({ reason: `RTMP connect refused: ${refused}`, why: { key: 'statusRtmpConnectRefused', vars: { code: refused } } });
      }
      if (name === '_error' && tx === TX.createStream) return finish(playRefused(code || 'createStream failed'));
      if (name === '_result' && tx === TX.connect) {
        command('createStream', TX.createStream, null);
        return;
      }
      if (name === '_result' && tx === TX.createStream) {
        const id = values[3];
        streamId = typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : 1;
        send({ csid: CSID.stream, type: RtmpType.commandAmf0, streamId, payload: encodeAmf0('play', 0, null, stream, -2) });
        send({ csid: CSID.control, type: RtmpType.userControl, streamId: 0, payload: setBufferLength(streamId, 1000) });
        waiting = noAnswerTo('play', o.timeoutMs);
        return;
      }
      if (name !== 'onStatus') return;
      if (code === 'NetStream.Play.StreamNotFound') return finish({ reason: `no such stream: ${code}`, why: { key: 'statusNoSuchStream', vars: { code } } });
      if (code === 'NetStream.Play.Start' || code === 'NetStream.Play.Reset' || code === 'NetStream.Data.Start') {
        if (!playing) waiting = noMedia(o.timeoutMs);
        playing = true;
        return;
      }
      if (info?.level === 'error' || /Failed|Rejected|BadName|Forbidden/.test(code)) return finish(playRefused(code || 'error'));
    };

    socket.once(secure ? 'secureConnect' : 'connect', () => {
      socket.write(handshakeC0C1());
    });
    socket.on('data', (data: Buffer) => {
      if (done) return;
      let rest: Uint8Array = data;
      if (handshake) {
        // Any byte back: a server is there, RTMP or not (the checker's endpoint is up).
        answered = true;
        const had = handshake.length;
        handshake = concat(handshake, rest);
        if (handshake[0] !== RTMP_VERSION) return finish(notRtmp('handshake'));
        // C2 as soon as S1 is in: a server may hold S2 until it has C2.
        if (had < 1 + HANDSHAKE_SIZE && handshake.length >= 1 + HANDSHAKE_SIZE) socket.write(handshakeC2(handshake.subarray(1, 1 + HANDSHAKE_SIZE)));
        if (handshake.length < 1 + 2 * HANDSHAKE_SIZE) return;
        // S2 came too: the connect, and what a player says with it.
        send({ csid: CSID.control, type: RtmpType.windowAckSize, streamId: 0, payload: u32Payload(2_500_000) });
        command('connect', TX.connect, {
          // A login's parameters ride on both, as ffmpeg sends them.
          app: app + o.auth,
          flashVer: 'LNX 9,0,124,2',
          tcUrl: tcUrl + o.auth,
          fpad: false,
          capabilities: 15,
          audioCodecs: 4071,
          videoCodecs: 252,
          videoFunction: 1,
        });
        waiting = noAnswerTo('connect', o.timeoutMs);
        rest = handshake.subarray(1 + 2 * HANDSHAKE_SIZE);
        handshake = undefined;
      }
      try {
        for (const m of reader.push(rest)) {
          onMessage(m);
          if (done) return;
        }
      } catch (err) {
        if (err instanceof RtmpError) return finish(notRtmp(err.message.replace(/^rtmp: /, '')));
        throw err;
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => finish(socketMiss(err)));
    socket.on('close', () => finish(answered ? { reason: 'connection closed by the server', why: { key: 'statusClosedByServer' } } : CLOSED_BY_CAMERA));
  });
}

/** A URL's user or password, decoded where it can be (a stray "%" is taken as written). */
export function decoded(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** An info object (some servers send it as an ECMA array). */
function asObject(v: Amf0Value): Amf0Object | undefined {
  if (v instanceof Amf0EcmaArray) return v.entries;
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
