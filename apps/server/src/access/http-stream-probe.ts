/**
 * Is this HTTP(S) stream there? A 2xx said only that the web server is (a wrong stream name on
 * many streaming servers still answers 200 with a web page or an empty playlist), so the probe reads
 * the start of the answer, as ffmpeg would:
 * - HTTP-FLV: the body starts with the FLV signature ("FLV"); read no further (it never ends);
 * - HLS: a playlist that parses (#EXTM3U); a master playlist's first variant is fetched too, and a
 *   media playlist must list a segment and be live: one that has ended (EXT-X-ENDLIST, VOD) is a
 *   recording, not a camera; a live one must get a new segment within 1.5 target durations, as
 *   RFC 8216 6.2.1 has a server publish one (a source that stopped leaves its last playlist served
 *   unchanged). What the earlier looks at the address saw decides that at once where it can
 *   (hls-liveness.ts); else the probe reads it again every half target duration until it can (its
 *   deadline pushed back for that long, and its caller told it only waits: onWait);
 * - MPEG-TS over HTTP (sync byte 0x47), or anything else not named .flv/.m3u8 and not a web page:
 *   left to ffmpeg, which demuxes more than this knows.
 * Redirects are followed (5 at most, http and https only, as ffmpeg's protocol whitelist allows);
 * the channel's credentials go as Basic, and only to the address's own origin. Every https:// host's
 * certificate is held to the pull's policy before a request is sent (access/tls/https-trust.ts: an
 * authority, else the channel's pin for the address's own host, which the probe takes too). Every failure is a
 * result with the log's words and the catalogue's reason (what the channel stores), never an exception.
 */
import http from 'node:http';
import https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Reason } from '@opencvr/shared';
import { ABORTED, answeredMiss, socketMiss, timeoutMiss, type ProbeMiss } from './rtsp/probe.js';
import { looksLikePlaylist, readHlsPlaylist, type HlsPlaylist } from './hls-playlist.js';
import { forgetPlaylist, lookAtPlaylist, type MediaPlaylist } from './hls-liveness.js';
import { connectHttps, ownHost, pinHttpsFirstUse, TlsRefused } from './tls/https-trust.js';

export interface HttpProbeResult {
  ok: boolean;
  /** The last HTTP status; 0 when none came. */
  status: number;
  /** "OK", or why not in the log's words. */
  reason: string;
  /** Why not, from the REASONS catalogue; absent when ok. */
  why?: Reason;
}

const OK = (status: number): HttpProbeResult => ({ ok: true, status, reason: 'OK' });
const miss = (status: number, m: ProbeMiss): HttpProbeResult => ({ ok: false, status, reason: m.reason, why: m.why });
const NOT_HLS: ProbeMiss = { reason: 'not an HLS playlist', why: { key: 'statusNotHls' } };

/** What the probe reads of a playlist at most (a live one is a few KB; a VOD one of hours, a few hundred). */
const MAX_PLAYLIST = 1 << 20;
/** Enough of a body to tell FLV, MPEG-TS and a playlist apart. */
const HEAD_BYTES = 16;
const MAX_REDIRECTS = 5;
/**
 * A live playlist is watched this long at most for its next segment; one that would need longer is
 * taken as live (a probe cannot wait that long, and cameras cut segments of seconds).
 */
export const MAX_WATCH_MS = 30_000;

/** The FLV file header's signature: an HTTP-FLV server sends it first, and then tags for as long as it runs. */
const isFlv = (b: Uint8Array) => b.length >= 3 && b[0] === 0x46 && b[1] === 0x4c && b[2] === 0x56;

class Failure extends Error {
  constructor(
    readonly miss: ProbeMiss,
    readonly status = 0,
  ) {
    super(miss.reason);
  }
}

interface Answer {
  res: http.IncomingMessage;
  url: URL;
}

/** The probe's deadline: its timeout, pushed back while a live playlist is watched. */
class Deadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout;
  readonly signal = this.controller.signal;
  constructor(ms: number) {
    this.timer = setTimeout(() => this.controller.abort(), ms);
  }
  /** The probe ends `ms` from now instead. */
  moveTo(ms: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.controller.abort(), ms);
  }
  clear() {
    clearTimeout(this.timer);
  }
}

/** Whose certificates a fetch meets: the channel (its pin) and its address (whose host may be pinned). */
interface Pinning {
  channel?: number;
  address: URL;
}

/** What each step of one probe shares. */
interface Probe {
  /** The address without credentials: what hls-liveness.ts remembers a live playlist by. */
  address: string;
  onWait?: () => void;
  auth: { origin: string; header: string } | undefined;
  pinning: Pinning;
  signal: AbortSignal;
  deadline: Deadline;
  timeoutMs: number;
}

/** One GET, no redirect followed; an https:// server's certificate is judged before the request goes out. */
async function getOnce(url: URL, headers: Record<string, string>, pinning: Pinning, signal: AbortSignal): Promise<http.IncomingMessage> {
  if (url.protocol !== 'https:') {
    return new Promise((resolve, reject) => http.get(url, { headers, signal }, resolve).on('error', reject));
  }
  let checked;
  try {
    checked = await connectHttps(url.hostname, Number(url.port) || 443, { channel: pinning.channel, own: ownHost(url, pinning.address) }, signal);
  } catch (err) {
    if (err instanceof TlsRefused) throw new Failure(err.miss);
    throw err;
  }
  const { socket, peer } = checked;
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    https.get(url, { headers, signal, createConnection: () => socket }, resolve).on('error', reject);
  });
  // The server answered HTTP: a first-use certificate is the channel's from now on.
  const refused = await pinHttpsFirstUse(peer);
  if (refused) {
    res.destroy();
    throw new Failure(refused);
  }
  return res;
}

/** GET with redirects followed; a non-2xx final status is a Failure with its status line. */
async function get(url: URL, auth: { origin: string; header: string } | undefined, pinning: Pinning, signal: AbortSignal): Promise<Answer> {
  for (let hops = 0; ; hops++) {
    const headers: Record<string, string> = { 'User-Agent': 'OpenCVR' };
    if (auth && url.origin === auth.origin) headers.Authorization = auth.header;
    const res = await getOnce(url, headers, pinning, signal);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (status >= 300 && status < 400 && location && hops < MAX_REDIRECTS) {
      res.destroy();
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new Failure({ reason: `${status} redirect to an invalid address`, why: { key: 'statusBadRedirect', vars: { status } } }, status);
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        const why: Reason = { key: 'statusRedirectNotFollowed', vars: { status, protocol: next.protocol } };
        throw new Failure({ reason: `${status} redirect to ${next.protocol}// (not followed)`, why }, status);
      }
      url = next;
      continue;
    }
    if (status < 200 || status >= 300) {
      res.destroy();
      throw new Failure(answeredMiss(status, res.statusMessage ?? ''), status);
    }
    return { res, url };
  }
}

/** Reads the body until `enough` says so, it ends, or `max` bytes; the response is destroyed after. */
async function readBody(res: http.IncomingMessage, enough: (got: Uint8Array) => boolean, max: number): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      parts.push(chunk);
      length += chunk.length;
      if (length >= max) break;
      if (enough(Buffer.concat(parts))) break;
    }
  } finally {
    res.destroy();
  }
  return Buffer.concat(parts).subarray(0, max);
}

const NO_SEGMENT: ProbeMiss = { reason: 'the HLS playlist lists no segment', why: { key: 'statusHlsNoSegment' } };
const HLS_ENDED: ProbeMiss = { reason: 'the HLS playlist has ended (EXT-X-ENDLIST): a recording, not a live stream', why: { key: 'statusHlsEnded' } };

/** A playlist read whole: a media playlist must list a segment and be live, a master one's first variant is fetched and must. */
async function checkPlaylist(body: Uint8Array, at: URL, status: number, p: Probe, depth = 0): Promise<HttpProbeResult> {
  const list = readHlsPlaylist(new TextDecoder().decode(body));
  if (list.kind === 'not-hls') return miss(status, NOT_HLS);
  if (list.kind === 'media') {
    if (list.segments === 0) return miss(status, NO_SEGMENT);
    if (list.ended) {
      forgetPlaylist(p.address);
      return miss(status, HLS_ENDED);
    }
    const stale = await watchLive(list, at, p);
    return stale ? miss(status, stale) : OK(status);
  }
  let variant: URL | undefined;
  try {
    if (list.variant && depth === 0) variant = new URL(list.variant, at);
  } catch {
    variant = undefined;
  }
  if (!variant || (variant.protocol !== 'http:' && variant.protocol !== 'https:')) return miss(status, { reason: 'the HLS playlist lists no variant', why: { key: 'statusHlsNoVariant' } });
  const next = await get(variant, p.auth, p.pinning, p.signal);
  const nextBody = await readBody(next.res, () => false, MAX_PLAYLIST);
  return checkPlaylist(nextBody, next.url, next.res.statusCode ?? 200, p, depth + 1);
}

/**
 * Whether a live playlist moves (hls-liveness.ts): decided at once where the earlier looks tell, else
 * it is read again every half target duration (RFC 8216 6.3.4's reload interval for an unchanged one)
 * until they do (live: undefined; stale: why). One that ended meanwhile is a recording after all.
 */
async function watchLive(list: MediaPlaylist, at: URL, p: Probe): Promise<ProbeMiss | undefined> {
  for (;;) {
    const verdict = lookAtPlaylist(p.address, list);
    if (verdict.kind === 'live') return undefined;
    if (verdict.kind === 'stale') return staleMiss(verdict.seconds);
    const waitMs = verdict.decideAt - Date.now();
    if (waitMs > MAX_WATCH_MS) return undefined;
    p.deadline.moveTo(waitMs + p.timeoutMs);
    // Only a timer and a small GET now: the checker's slot can go to another channel meanwhile.
    p.onWait?.();
    await sleep(Math.max(0, Math.min(verdict.reloadMs, waitMs)), undefined, { signal: p.signal });
    const again = await get(at, p.auth, p.pinning, p.signal);
    const next = readHlsPlaylist(new TextDecoder().decode(await readBody(again.res, () => false, MAX_PLAYLIST)));
    if (next.kind !== 'media') return NOT_HLS;
    if (next.ended) {
      forgetPlaylist(p.address);
      return HLS_ENDED;
    }
    if (next.segments === 0) return NO_SEGMENT;
    list = next;
  }
}

/** The catalogue's stale reason, for the probe and the pull source alike. */
export function staleMiss(seconds: number): ProbeMiss {
  return { reason: `the HLS playlist did not change within ${seconds} s`, why: { key: 'statusHlsStale', vars: { seconds } } };
}

/**
 * The address without its user and password, which go into a Basic Authorization header instead
 * (sent to that origin only: a redirect elsewhere does not get them).
 */
function withoutCredentials(rawUrl: string) {
  const url = new URL(rawUrl);
  const auth = url.username
    ? { origin: url.origin, header: `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}` }
    : undefined;
  url.username = '';
  url.password = '';
  return { url, auth };
}

/** `pinFor`: the channel whose pin an https:// address's own host holds (access/tls/https-trust.ts). */
export async function probeHttpStream(
  rawUrl: string,
  o: { timeoutMs: number; signal?: AbortSignal; onWait?: () => void; pinFor?: number },
): Promise<HttpProbeResult> {
  const { url, auth } = withoutCredentials(rawUrl);
  const deadline = new Deadline(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, deadline.signal]) : deadline.signal;
  const pinning: Pinning = { channel: o.pinFor, address: url };
  const p: Probe = { address: url.href, onWait: o.onWait, auth, pinning, signal, deadline, timeoutMs: o.timeoutMs };
  let status = 0;
  try {
    const answer = await get(url, auth, pinning, signal);
    status = answer.res.statusCode ?? 200;
    const type = String(answer.res.headers['content-type'] ?? '').toLowerCase();
    const path = answer.url.pathname.toLowerCase();
    // A playlist is read whole; anything else only as far as its first bytes.
    const head = await readBody(answer.res, (got) => isFlv(got) || (got.length >= HEAD_BYTES && !looksLikePlaylist(got)), MAX_PLAYLIST);
    if (head.length === 0) return miss(status, { reason: 'the server sent an empty answer', why: { key: 'statusEmptyAnswer' } });
    if (isFlv(head)) return OK(status);
    if (looksLikePlaylist(head) || type.includes('mpegurl')) return await checkPlaylist(head, answer.url, status, p);
    if (path.endsWith('.flv')) return miss(status, { reason: 'not an FLV stream', why: { key: 'statusNotFlv' } });
    if (path.endsWith('.m3u8') || path.endsWith('.m3u')) return miss(status, NOT_HLS);
    if (head[0] === 0x47) return OK(status);
    if (type.startsWith('text/html')) return miss(status, { reason: 'a web page, not a stream', why: { key: 'statusWebPage' } });
    return OK(status);
  } catch (err) {
    if (err instanceof Failure) return miss(err.status, err.miss);
    if (o.signal?.aborted) return miss(status, ABORTED);
    if (deadline.signal.aborted) return miss(status, timeoutMiss(o.timeoutMs));
    return miss(status, socketMiss(err as NodeJS.ErrnoException));
  } finally {
    deadline.clear();
  }
}

/** What hls-liveness.ts remembers a live playlist by: its address without credentials (the probe's and the pull source's alike). */
export const playlistAddress = (rawUrl: string) => withoutCredentials(rawUrl).url.href;

/**
 * A live HLS address's media playlist as it is now (a master playlist's first variant read instead),
 * for the pull source, which must know where a live playlist stands before it plays it again
 * (media/ingest/hls-played.ts). Undefined when it cannot be read within `timeoutMs` (or its
 * certificate is refused: ffmpeg's fetches are refused the same way, pull-gateway.ts): the caller plays on.
 */
export async function readMediaPlaylist(rawUrl: string, timeoutMs: number, pinFor?: number): Promise<HlsPlaylist | undefined> {
  const { url, auth } = withoutCredentials(rawUrl);
  const signal = AbortSignal.timeout(timeoutMs);
  const pinning: Pinning = { channel: pinFor, address: url };
  try {
    let at = url;
    for (let depth = 0; depth < 2; depth++) {
      const answer = await get(at, auth, pinning, signal);
      const list = readHlsPlaylist(new TextDecoder().decode(await readBody(answer.res, () => false, MAX_PLAYLIST)));
      if (list.kind !== 'master') return list;
      if (!list.variant) return undefined;
      at = new URL(list.variant, answer.url);
    }
  } catch {
    /* unreadable now: undefined */
  }
  return undefined;
}
