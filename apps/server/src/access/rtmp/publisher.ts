/**
 * An RTMP(S) publish over a socket: the handshake, the session of publish.ts (with the login's extra
 * connections, as the probe makes them), then FLV tags out as RTMP audio, video and data messages.
 * No ffmpeg: the address, its stream key and its password live in this process only (an ffmpeg push
 * had them on its command line, readable by every local user), and a password with "/ ? # % +" in it,
 * percent-encoded in the address, is decoded here before it is hashed.
 *
 * openRtmpPublish resolves once the server said NetStream.Publish.Start, or rejects with
 * RtmpPublishError (the log's words: a refusal, a failed login, a timeout, a socket error). After
 * that, `ended` resolves with why the connection ended (never rejects). Each why is said twice: in
 * the log's words, and as a catalogue reason the administrator reads in their language.
 */
import net from 'node:net';
import type { Reason } from '@opencvr/shared';
import { encodeChunks, handshakeC0C1, handshakeC2, HANDSHAKE_SIZE, RTMP_VERSION, RtmpChunkReader, RtmpError, RtmpType, type RtmpMessage } from './chunks.js';
import { flvMessages } from './flv-messages.js';
import { PUBLISH_CHUNK_SIZE, PublishCsid, RtmpPublishSession, type PublishRefusal } from './publish.js';
import { decoded, rtmpTarget } from './probe.js';
import { certificateMiss, connectRtmps } from './tls-connect.js';

export class RtmpPublishError extends Error {
  override readonly name = 'RtmpPublishError';
  constructor(
    message: string,
    /** The same in the catalogue. */
    readonly why: Reason,
    /** The login failed (or was missing): retrying soon will not help. */
    readonly auth = false,
  ) {
    super(message);
  }
}

export interface RtmpPublication {
  /** Whole FLV tags (an FLV header may lead), sent as messages on the publish stream. */
  write(flv: Uint8Array): void;
  /** Bytes handed to the socket and not sent yet. */
  buffered(): number;
  /** Bytes the kernel took (sent, or on their way). */
  sent(): number;
  /** Why the connection ended (the server closed it, an error, or close()). */
  readonly ended: Promise<PublishEnd>;
  /** Says FCUnpublish and deleteStream, then closes (at most `graceMs` for them to go). */
  close(graceMs?: number): Promise<void>;
}

/** Why a publication ended: the log's words and the catalogue's reason. */
export interface PublishEnd {
  words: string;
  why: Reason;
}

export interface RtmpPublishOptions {
  /** For each step's answer (handshake, connect, createStream, publish). */
  timeoutMs: number;
  /** The stream will carry HEVC as enhanced RTMP ('hvc1'). */
  hevc?: boolean;
  signal?: AbortSignal;
  /** A server that takes none of what is queued for this long has stopped reading: the publication ends (default 10 s). */
  stallMs?: number;
}

/** A login takes three connections (auth.ts); a fourth would be a loop. */
const MAX_CONNECTS = 3;

export async function openRtmpPublish(url: URL, o: RtmpPublishOptions): Promise<RtmpPublication> {
  const creds = url.username ? { user: decoded(url.username), password: decoded(url.password) } : undefined;
  let auth = '';
  for (let connects = 1; ; connects++) {
    const r = await connectOnce(url, auth, creds, o);
    if (!('reconnect' in r)) return r;
    if (connects >= MAX_CONNECTS) throw new RtmpPublishError('RTMP authentication failed (the server asked again)', { key: 'cdnAuthFailed', vars: { method: 'loop' } }, true);
    auth = r.reconnect;
  }
}

function connectOnce(
  url: URL,
  auth: string,
  creds: { user: string; password: string } | undefined,
  o: RtmpPublishOptions,
): Promise<RtmpPublication | { reconnect: string }> {
  const { app, stream, tcUrl } = rtmpTarget(url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const secure = url.protocol === 'rtmps:';
  const port = url.port ? Number(url.port) : secure ? 443 : 1935;
  const session = new RtmpPublishSession({ app, stream, tcUrl, auth, creds, hevc: o.hevc });

  return new Promise((resolve, reject) => {
    // rtmps://: the certificate checked (tls-connect.ts): the key and the login go to the CDN only.
    const socket: net.Socket = secure ? connectRtmps(host, port) : net.connect({ host, port });
    socket.setNoDelay(true);
    let chunkSize = 128;
    const send = (ms: RtmpMessage[]) => {
      for (const m of ms) {
        if (socket.destroyed) return;
        socket.write(encodeChunks(m, chunkSize));
        if (m.type === RtmpType.setChunkSize) chunkSize = PUBLISH_CHUNK_SIZE;
      }
    };

    /** Before publishing: the step waited for, and the deadline for its answer. */
    let waiting = 'the handshake';
    const noAnswer = (what: string) => {
      const step = what === 'the handshake' ? 'handshake' : what;
      fail(`no answer to ${what} within ${o.timeoutMs} ms`, { key: 'cdnNoAnswer', vars: { step, ms: o.timeoutMs } });
    };
    let timer = setTimeout(() => noAnswer(waiting), o.timeoutMs);
    const waitFor = (what: string) => {
      waiting = what;
      clearTimeout(timer);
      timer = setTimeout(() => noAnswer(what), o.timeoutMs);
    };
    let settled = false;
    /** The server sent its handshake. */
    let answered = false;
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
    };
    const fail = (reason: string, why: Reason, refusal?: PublishRefusal) => {
      if (settled) return;
      settle();
      socket.destroy();
      reject(new RtmpPublishError(reason, why, !!refusal?.auth));
    };
    const onAbort = () => fail('stopped', { key: 'cdnChannelStopped' });
    if (o.signal?.aborted) return onAbort();
    o.signal?.addEventListener('abort', onAbort, { once: true });

    // After publishing: why it ended.
    let endReason: PublishEnd | undefined;
    let resolveEnded!: (why: PublishEnd) => void;
    const ended = new Promise<PublishEnd>((r) => (resolveEnded = r));
    const end = (words: string, why: Reason) => {
      endReason ??= { words, why };
      socket.destroy();
    };
    const closed: PublishEnd = { words: 'connection closed by the server', why: { key: 'cdnClosedByServer' } };
    socket.on('close', () => {
      // A server that takes the connection and drops it on publish refused the key without a
      // word: nginx-rtmp does so when its on_publish callback answers other than 2xx.
      if (session.awaiting === 'publish') fail('connection closed by the server on publish (the stream key refused?)', { key: 'cdnPublishDropped' });
      else if (answered) fail(closed.words, closed.why);
      else fail('connection closed before the handshake', { key: 'cdnClosedBeforeHandshake' });
      resolveEnded(endReason ?? closed);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // A refused certificate says its problem (expired, self-signed, another host's).
      const cert = certificateMiss(err);
      const words = cert?.reason ?? (err.code ? `${err.code} ${err.message}` : err.message);
      // A TLS or DNS error without a code: its words are the log's.
      const why: Reason = cert?.why ?? { key: 'cdnSocketError', vars: { code: err.code ?? err.name } };
      fail(words, why);
      endReason ??= { words, why };
    });

    // A server that stopped reading (its TCP window shut) leaves the socket open for ever: watched
    // here by what the kernel took (bytesWritten counts the queued bytes too), not by the queue's
    // size, which also grows while a slow server still reads.
    const stallMs = o.stallMs ?? 10_000;
    const taken = () => socket.bytesWritten - socket.writableLength;
    let lastTaken = 0;
    let stuckSince: number | undefined;
    const watchdog = setInterval(() => {
      const now = taken();
      stuckSince = socket.writableLength > 0 && now === lastTaken ? (stuckSince ?? performance.now()) : undefined;
      lastTaken = now;
      if (stuckSince !== undefined && performance.now() - stuckSince >= stallMs) end(`the server took nothing for ${stallMs} ms`, { key: 'cdnStalled', vars: { seconds: Math.round(stallMs / 100) / 10 } });
    }, Math.min(1000, stallMs / 4));
    watchdog.unref();
    ended.then(() => clearInterval(watchdog), () => undefined);

    const publication = (streamId: number): RtmpPublication => ({
      write(flv) {
        if (socket.destroyed) return;
        // Our own muxer's output: a throw here would be a bug, not the network's doing.
        for (const t of flvMessages(flv)) {
          const csid = t.type === RtmpType.audio ? PublishCsid.audio : t.type === RtmpType.video ? PublishCsid.video : PublishCsid.data;
          socket.write(encodeChunks({ csid, type: t.type, streamId, timestamp: t.timestamp, payload: t.payload }, chunkSize));
        }
      },
      buffered: () => socket.writableLength,
      sent: taken,
      ended,
      close(graceMs = 1000) {
        if (socket.destroyed) return ended.then(() => undefined);
        // Ours: the channel's stream ended (or the push was stopped, which records no reason).
        endReason ??= { words: 'stopped', why: { key: 'cdnChannelStopped' } };
        send(session.closing());
        socket.end();
        const force = setTimeout(() => socket.destroy(), graceMs);
        return ended.then(() => clearTimeout(force));
      },
    });

    let handshake: Uint8Array | undefined = new Uint8Array(0);
    const reader = new RtmpChunkReader();
    socket.once(secure ? 'secureConnect' : 'connect', () => socket.write(handshakeC0C1()));
    socket.on('data', (data: Buffer) => {
      if (socket.destroyed) return;
      let rest: Uint8Array = data;
      if (handshake) {
        answered = true;
        const had = handshake.length;
        handshake = Buffer.concat([handshake, rest]);
        if (handshake[0] !== RTMP_VERSION) return fail('not an RTMP server (handshake)', { key: 'cdnNotRtmp' });
        // C2 as soon as S1 is in: a server may hold S2 until it has C2.
        if (had < 1 + HANDSHAKE_SIZE && handshake.length >= 1 + HANDSHAKE_SIZE) socket.write(handshakeC2(handshake.subarray(1, 1 + HANDSHAKE_SIZE)));
        if (handshake.length < 1 + 2 * HANDSHAKE_SIZE) return;
        rest = handshake.subarray(1 + 2 * HANDSHAKE_SIZE);
        handshake = undefined;
        send(session.opening());
        waitFor('connect');
      }
      send(session.bytesReceived(rest.length));
      let messages: RtmpMessage[];
      try {
        messages = reader.push(rest);
      } catch (err) {
        if (!(err instanceof RtmpError)) throw err;
        const words = `not an RTMP server (${err.message.replace(/^rtmp: /, '')})`;
        if (settled) return end(words, { key: 'cdnNotRtmp' });
        return fail(words, { key: 'cdnNotRtmp' });
      }
      for (const m of messages) {
        const step = session.receive(m);
        send(step.send);
        const out = step.outcome;
        if (!out) continue;
        if ('reconnect' in out) {
          if (settled) return end('the server asked for a login again', { key: 'cdnAuthFailed', vars: { method: 'reconnect' } });
          settle();
          socket.destroy();
          return resolve({ reconnect: out.reconnect });
        }
        if ('refused' in out) {
          if (settled) return end(out.refused.reason, out.refused.why);
          return fail(out.refused.reason, out.refused.why, out.refused);
        }
        settle();
        resolve(publication(out.streamId));
      }
      // The server is answering: the deadline runs again for the next answer (createStream's, publish's).
      if (!settled && messages.length) waitFor(session.awaiting ?? waiting);
    });
  });
}
