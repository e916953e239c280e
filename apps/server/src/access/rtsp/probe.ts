/**
 * Is this RTSP (or RTSPS: the same inside TLS) stream there? Connects, sends OPTIONS then DESCRIBE (answering one 401 challenge per
 * request with Digest or Basic) and reads the codecs from the SDP. An rtsps:// camera's certificate
 * goes through the pull's policy (access/tls/rtsps-trust.ts: trusted by authority, or pinned for the
 * channel at first use) before any request: a changed one is offline with tlsCertChanged. Every failure comes back as a
 * result with a reason; the function does not throw, and it closes its socket before returning.
 */
import net from 'node:net';
import type tls from 'node:tls';
import {
  authorization,
  bodyText,
  chooseChallenge,
  getHeader,
  getHeaders,
  parseSdp,
  parseWwwAuthenticate,
  request,
  RtspError,
  RtspParser,
  sdpCodecs,
  serialize,
  type Challenge,
  type RtspResponse,
} from '@opencvr/rtsp';
import type { Reason } from '@opencvr/shared';
import { checkPeer, connectRtsps, pinFirstUse, type RtspsPeer } from '../tls/rtsps-trust.js';

export interface ProbeOptions {
  username?: string;
  password?: string;
  /** For the whole probe (connect, OPTIONS, DESCRIBE). Default 3000 ms. */
  timeoutMs?: number;
  /** Aborting closes the socket at once (reason "aborted"). */
  signal?: AbortSignal;
  /**
   * Called once the probe is only waiting (a live HLS playlist's next segment, http-stream-probe.ts):
   * the caller may count it out of its concurrency bound, as it holds no connection and little work.
   */
  onWait?: () => void;
  /** rtsps://, https://: the channel (its id) the server's certificate is pinned for; none: nothing is pinned. */
  pinFor?: number;
}

export interface ProbeResult {
  ok: boolean;
  /** RTSP status of the last answer; 0 when none came. */
  status: number;
  /**
   * Whether the server answered at all, for a protocol without a status (RTMP: it sent its handshake);
   * when absent, a status other than 0 says so.
   */
  answered?: boolean;
  /** "OK", or why not in the log's words: "connection refused", "timeout after 3000 ms", "401 Unauthorized", ... */
  reason: string;
  /** Why not, from the REASONS catalogue: what the channel stores and the user reads (in their language). Absent when ok. */
  why?: Reason;
  /** Encodings from the SDP ("H264", "PCMA", ...). */
  codecs: string[];
  /** Time from connecting to the DESCRIBE answer. */
  latencyMs: number;
}

const USER_AGENT = 'OpenCVR';

/** A failed probe's two words: the log's (`reason`) and the catalogue's (`why`, stored with the channel). */
export interface ProbeMiss {
  reason: string;
  why: Reason;
}

class ProbeFailure extends Error {
  constructor(
    readonly miss: ProbeMiss,
    readonly status = 0,
    /** A camera that answered without a status (its certificate refused): it is there. */
    readonly answered?: boolean,
  ) {
    super(miss.reason);
  }
}

/** A socket error (also the pull probes', stream-probe.ts). */
export function socketMiss(err: NodeJS.ErrnoException): ProbeMiss {
  switch (err.code) {
    case 'ECONNREFUSED':
      return { reason: 'connection refused', why: { key: 'connectionRefused' } };
    case 'ECONNRESET':
    case 'EPIPE':
      return { reason: 'connection reset', why: { key: 'connectionReset' } };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { reason: 'host not found', why: { key: 'hostNotFound' } };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { reason: 'host unreachable', why: { key: 'hostUnreachable' } };
    case 'ETIMEDOUT':
      return { reason: 'connection timed out', why: { key: 'statusTimedOut' } };
    default:
      // An error without a code: its own words are the log's.
      return err.code
        ? { reason: `socket error ${err.code}`, why: { key: 'statusSocketError', vars: { code: err.code } } }
        : { reason: `socket error: ${err.message}`, why: { key: 'statusCheckFailed' } };
  }
}

/** A status other than success, with the server's phrase (RTSP and HTTP alike): 401 is a refused login. */
export function answeredMiss(status: number, phrase: string, words = `${status} ${phrase}`.trim()): ProbeMiss {
  return { reason: words, why: { key: status === 401 ? 'statusUnauthorized' : 'statusAnswered', vars: { status, phrase } } };
}

/** No answer within the probe's time. */
export const timeoutMiss = (ms: number): ProbeMiss => ({ reason: `timeout after ${ms} ms`, why: { key: 'statusNoAnswerWithin', vars: { ms } } });

/** Stopped by its caller (the checker stopping: never stored). */
export const ABORTED: ProbeMiss = { reason: 'aborted', why: { key: 'statusCheckFailed' } };

/** The other end closed the connection before it was there (the RTMP probe's too, before a handshake). */
export const CLOSED_BY_CAMERA: ProbeMiss = { reason: 'connection closed by the camera', why: { key: 'statusClosedByCamera' } };

/** Not a URL the probe can read. */
export const BAD_URL: ProbeMiss = { reason: 'invalid URL', why: { key: 'statusBadUrl' } };

/** A URL without its user info, and the credentials that were in it. */
export function splitCredentials(raw: string): { url: URL; username?: string; password?: string } {
  const url = new URL(raw);
  const username = url.username ? decodeURIComponent(url.username) : undefined;
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  url.username = '';
  url.password = '';
  return { url, username, password };
}

export async function probeRtsp(rawUrl: string, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const timeoutMs = opts.timeoutMs ?? 3000;
  const started = performance.now();
  const fail = ({ reason, why }: ProbeMiss, status = 0, answered?: boolean): ProbeResult => ({
    ok: false,
    status,
    reason,
    why,
    codecs: [],
    latencyMs: Math.round(performance.now() - started),
    ...(answered === undefined ? {} : { answered }),
  });

  let target: ReturnType<typeof splitCredentials>;
  try {
    target = splitCredentials(rawUrl);
  } catch {
    return fail(BAD_URL);
  }
  const { url } = target;
  const secure = url.protocol === 'rtsps:';
  if (!secure && url.protocol !== 'rtsp:') return fail({ reason: `not an rtsp:// URL (${url.protocol})`, why: { key: 'statusNotRtspUrl', vars: { protocol: url.protocol } } });
  if (!url.hostname) return fail(BAD_URL);
  const username = target.username ?? opts.username ?? '';
  const password = target.password ?? opts.password ?? '';
  const uri = url.toString();
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port ? Number(url.port) : secure ? 322 : 554;

  const session = new Session(host, port, secure ? { pinFor: opts.pinFor } : undefined, timeoutMs, opts.signal);
  try {
    await session.connected;
    let cseq = 0;
    let challenge: Challenge | undefined;
    let nc = 0;

    const exchange = async (method: string, extra: Record<string, string>): Promise<RtspResponse> => {
      let answered = false;
      for (;;) {
        const headers: Record<string, string> = { 'User-Agent': USER_AGENT, ...extra };
        if (challenge) {
          const value = authorization(challenge, { username, password, method, uri, nc: ++nc });
          if (value) headers.Authorization = value;
        }
        const res = await session.send(serialize(request({ method, uri, cseq: ++cseq, headers })), cseq);
        if (res.status !== 401) return res;
        if (answered || !username) return res;
        const offered = getHeaders(res, 'WWW-Authenticate').flatMap(parseWwwAuthenticate);
        const chosen = chooseChallenge(offered);
        if (!chosen) throw new ProbeFailure(answeredMiss(401, res.reason || 'Unauthorized', '401 Unauthorized (no supported authentication scheme)'), 401);
        challenge = chosen;
        nc = 0;
        answered = true;
      }
    };

    // OPTIONS tells little, but some cameras only answer DESCRIBE after it; its failure is not final.
    const options = await exchange('OPTIONS', {});
    if (options.status === 401) return fail(answeredMiss(401, options.reason || 'Unauthorized'), 401);
    const describe = await exchange('DESCRIBE', { Accept: 'application/sdp' });
    const latencyMs = Math.round(performance.now() - started);
    if (describe.status !== 200) return fail(answeredMiss(describe.status, describe.reason), describe.status);
    const type = getHeader(describe, 'Content-Type') ?? '';
    if (type && !/application\/sdp/i.test(type)) return fail({ reason: `unexpected Content-Type ${type}`, why: { key: 'statusNotSdp', vars: { type } } }, 200);
    const codecs = sdpCodecs(parseSdp(bodyText(describe)));
    if (!codecs.length) return fail({ reason: 'no media in the SDP', why: { key: 'statusNoMedia' } }, 200);
    // The camera answered as a camera: a certificate taken at first use is pinned now.
    const refused = session.peer && (await pinFirstUse(session.peer));
    if (refused) return fail(refused, 0, true);
    return { ok: true, status: 200, reason: 'OK', codecs, latencyMs };
  } catch (err) {
    if (err instanceof ProbeFailure) return fail(err.miss, err.status, err.answered);
    // The error's own words are the log's (the checker logs every change with them).
    return fail({ reason: `unexpected error: ${(err as Error).message}`, why: { key: 'statusCheckFailed' } });
  } finally {
    session.close();
  }
}

/** One TCP (or TLS) connection with a deadline; answers are matched to requests by CSeq. */
class Session {
  readonly connected: Promise<void>;
  private socket: net.Socket;
  /** rtsps://: how the camera's certificate was taken. */
  peer?: RtspsPeer;
  private parser = new RtspParser({ maxBodyBytes: 256 * 1024 });
  private waiting: { cseq: number; resolve: (r: RtspResponse) => void; reject: (e: ProbeFailure) => void } | undefined;
  private failure: ProbeFailure | undefined;
  private timer: NodeJS.Timeout;
  private onAbort = () => this.fail(new ProbeFailure(ABORTED));

  constructor(
    host: string,
    port: number,
    /** RTSPS: RTSP inside TLS, the certificate checked as the pull checks it (rtsps-trust.ts). */
    secure: { pinFor?: number } | undefined,
    timeoutMs: number,
    private readonly signal?: AbortSignal,
  ) {
    this.socket = secure ? connectRtsps(host, port) : net.connect({ host, port });
    this.socket.setNoDelay(true);
    this.timer = setTimeout(() => this.fail(new ProbeFailure(timeoutMiss(timeoutMs))), timeoutMs);
    this.connected = new Promise<void>((resolve, reject) => {
      if (!secure) this.socket.once('connect', resolve);
      else
        this.socket.once('secureConnect', () => {
          checkPeer(this.socket as tls.TLSSocket, secure.pinFor).then((peer) => {
            if ('refused' in peer) return this.fail(new ProbeFailure(peer.refused, 0, true));
            this.peer = peer;
            resolve();
          }, reject);
        });
      this.socket.once('error', (err) => reject(new ProbeFailure(socketMiss(err))));
      this.connectReject = reject;
    });
    // A rejection nobody awaits yet (the timeout before connect) must not become unhandled.
    this.connected.catch(() => {});
    this.socket.on('error', (err: NodeJS.ErrnoException) => this.fail(new ProbeFailure(socketMiss(err))));
    this.socket.on('close', () => this.fail(new ProbeFailure(CLOSED_BY_CAMERA)));
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    if (signal?.aborted) this.onAbort();
    else signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  private connectReject: ((e: ProbeFailure) => void) | undefined;

  private onData(chunk: Buffer) {
    if (this.failure) return;
    let events;
    try {
      events = this.parser.push(chunk);
    } catch (err) {
      const msg = err instanceof RtspError ? err.message : String(err);
      this.fail(new ProbeFailure({ reason: `not an RTSP answer (${msg})`, why: { key: 'statusNotRtsp' } }));
      return;
    }
    for (const ev of events) {
      if (ev.kind !== 'response') continue; // interleaved data or a server request: not ours
      const w = this.waiting;
      if (!w) continue;
      const cseq = getHeader(ev, 'CSeq');
      // Answers without CSeq are accepted (some cameras omit it); a different one is stale.
      if (cseq !== undefined && Number(cseq) !== w.cseq) continue;
      this.waiting = undefined;
      w.resolve(ev);
    }
  }

  send(bytes: Uint8Array, cseq: number): Promise<RtspResponse> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<RtspResponse>((resolve, reject) => {
      this.waiting = { cseq, resolve, reject };
      this.socket.write(bytes);
    });
  }

  private fail(f: ProbeFailure) {
    if (this.failure) return;
    this.failure = f;
    this.connectReject?.(f);
    const w = this.waiting;
    this.waiting = undefined;
    w?.reject(f);
    this.close();
  }

  close() {
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
    if (!this.failure) this.failure = new ProbeFailure({ reason: 'closed', why: { key: 'statusClosedByCamera' } });
    this.socket.destroy();
  }
}
