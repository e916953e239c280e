/**
 * SIP digest authentication (RFC 3261 §22.4 on RFC 2617): MD5 and MD5-sess, with qop=auth or the
 * RFC 2069 form without qop (most GB28181 cameras answer without qop; some with).
 * Server side: stateless nonces (time + random + HMAC), so a restart or 10,000 devices cost no table,
 * and an expired nonce is told apart from a forged one (answer a fresh challenge with stale=true).
 * Client side: the Authorization a device computes, for test doubles.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface AuthValue {
  scheme: string;
  /** Parameter names lower-cased, quotes removed. */
  params: Record<string, string>;
}

/** `Digest realm="x", nonce="y", algorithm=MD5` → {scheme:'Digest', params}. Never throws. */
export function parseAuthValue(value: string): AuthValue | undefined {
  const m = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*(.*)$/s.exec(value);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  const s = m[2];
  let i = 0;
  while (i < s.length) {
    while (i < s.length && /[\s,]/.test(s[i])) i++;
    const nm = /^[A-Za-z0-9_-]+/.exec(s.slice(i));
    if (!nm) {
      i++;
      continue;
    }
    const name = nm[0].toLowerCase();
    i += nm[0].length;
    while (i < s.length && /\s/.test(s[i])) i++;
    if (s[i] !== '=') continue;
    i++;
    while (i < s.length && /\s/.test(s[i])) i++;
    let v = '';
    if (s[i] === '"') {
      i++;
      while (i < s.length && s[i] !== '"') {
        if (s[i] === '\\' && i + 1 < s.length) i++;
        v += s[i++];
      }
      i++;
    } else {
      const vm = /^[^,\s]*/.exec(s.slice(i))!;
      v = vm[0];
      i += v.length;
    }
    params[name] = v;
  }
  return { scheme: m[1], params };
}

const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');

export interface DigestInput {
  username: string;
  realm: string;
  password: string;
  method: string;
  uri: string;
  nonce: string;
  algorithm?: string;
  qop?: string;
  nc?: string;
  cnonce?: string;
}

/** The response value: MD5(HA1:nonce[:nc:cnonce:qop]:HA2). */
export function digestResponse(d: DigestInput): string {
  let ha1 = md5(`${d.username}:${d.realm}:${d.password}`);
  if ((d.algorithm ?? 'MD5').toUpperCase() === 'MD5-SESS') ha1 = md5(`${ha1}:${d.nonce}:${d.cnonce ?? ''}`);
  const ha2 = md5(`${d.method}:${d.uri}`);
  if (d.qop) return md5(`${ha1}:${d.nonce}:${d.nc ?? ''}:${d.cnonce ?? ''}:${d.qop}:${ha2}`);
  return md5(`${ha1}:${d.nonce}:${ha2}`);
}

export interface Challenge {
  realm: string;
  nonce: string;
  algorithm?: string;
  qop?: string;
  opaque?: string;
  stale?: boolean;
}

export function formatChallenge(c: Challenge): string {
  let s = `Digest realm="${c.realm}", nonce="${c.nonce}"`;
  if (c.opaque) s += `, opaque="${c.opaque}"`;
  s += `, algorithm=${c.algorithm ?? 'MD5'}`;
  if (c.qop) s += `, qop="${c.qop}"`;
  if (c.stale) s += ', stale=TRUE';
  return s;
}

/** Client side: the Authorization value answering a WWW-Authenticate challenge. */
export function authorizationFor(
  challengeValue: string,
  creds: { username: string; password: string },
  method: string,
  uri: string,
  opts: { nc?: number; cnonce?: string } = {},
): string | undefined {
  const ch = parseAuthValue(challengeValue);
  if (!ch || ch.scheme.toLowerCase() !== 'digest' || !ch.params.nonce) return undefined;
  const realm = ch.params.realm ?? '';
  const algorithm = ch.params.algorithm ?? 'MD5';
  const qop = ch.params.qop?.split(',').map((q) => q.trim().toLowerCase()).includes('auth') ? 'auth' : undefined;
  const nc = qop ? (opts.nc ?? 1).toString(16).padStart(8, '0') : undefined;
  const cnonce = qop || algorithm.toUpperCase() === 'MD5-SESS' ? (opts.cnonce ?? randomBytes(8).toString('hex')) : undefined;
  const response = digestResponse({ ...creds, realm, method, uri, nonce: ch.params.nonce, algorithm, qop, nc, cnonce });
  let s = `Digest username="${creds.username}", realm="${realm}", nonce="${ch.params.nonce}", uri="${uri}", response="${response}", algorithm=${algorithm}`;
  if (ch.params.opaque !== undefined) s += `, opaque="${ch.params.opaque}"`;
  if (qop) s += `, qop=${qop}, nc=${nc}`;
  if (cnonce) s += `, cnonce="${cnonce}"`;
  return s;
}

export type DigestVerdict = 'ok' | 'stale' | 'bad-nonce' | 'bad-response' | 'malformed';

export interface DigestServerOptions {
  realm: string;
  /** Seconds a nonce is accepted after it was issued (default 300). */
  nonceTtlSeconds?: number;
  /** Offer qop="auth" in challenges (both forms are accepted either way). Default false: most cameras expect none. */
  qop?: boolean;
  /** Clock, for tests. */
  now?: () => number;
  /** HMAC key; random per process by default (nonces then end with the process, which only costs a re-challenge). */
  secret?: Uint8Array;
}

export class DigestServer {
  readonly realm: string;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly secret: Uint8Array;
  private readonly qop: boolean;

  constructor(opts: DigestServerOptions) {
    this.realm = opts.realm;
    this.ttlMs = (opts.nonceTtlSeconds ?? 300) * 1000;
    this.now = opts.now ?? Date.now;
    this.secret = opts.secret ?? randomBytes(32);
    this.qop = opts.qop ?? false;
  }

  /** A nonce: hex(issue time) + random, signed. */
  nonce(): string {
    const body = `${Math.floor(this.now()).toString(16)}${randomBytes(8).toString('hex')}`;
    return `${body}${this.sign(body)}`;
  }

  /** The WWW-Authenticate value of a 401. */
  challenge(stale = false): string {
    return formatChallenge({ realm: this.realm, nonce: this.nonce(), algorithm: 'MD5', qop: this.qop ? 'auth' : undefined, stale });
  }

  /** The username an Authorization value claims, if it is a digest one. */
  static username(authorization: string | undefined): string | undefined {
    if (!authorization) return undefined;
    const a = parseAuthValue(authorization);
    return a && a.scheme.toLowerCase() === 'digest' ? a.params.username : undefined;
  }

  /** Checks an Authorization value for a request method against a clear-text password. */
  verify(authorization: string, method: string, password: string): DigestVerdict {
    const a = parseAuthValue(authorization);
    if (!a || a.scheme.toLowerCase() !== 'digest') return 'malformed';
    const p = a.params;
    if (!p.username || !p.nonce || !p.response || p.uri === undefined) return 'malformed';
    const nonceState = this.checkNonce(p.nonce);
    if (nonceState !== 'ok') return nonceState;
    // The realm must be ours: a response computed for another realm proves nothing here.
    if ((p.realm ?? '') !== this.realm) return 'bad-response';
    const qop = p.qop?.toLowerCase();
    if (qop && qop !== 'auth') return 'malformed';
    if (qop && (!p.nc || !p.cnonce)) return 'malformed';
    const expected = digestResponse({
      username: p.username,
      realm: this.realm,
      password,
      method,
      uri: p.uri,
      nonce: p.nonce,
      algorithm: p.algorithm,
      qop,
      nc: p.nc,
      cnonce: p.cnonce,
    });
    const got = Buffer.from(p.response.toLowerCase(), 'utf8');
    const want = Buffer.from(expected, 'utf8');
    return got.length === want.length && timingSafeEqual(got, want) ? 'ok' : 'bad-response';
  }

  private checkNonce(nonce: string): 'ok' | 'stale' | 'bad-nonce' {
    const m = /^([0-9a-f]{1,13})([0-9a-f]{16})([0-9a-f]{32})$/.exec(nonce);
    if (!m) return 'bad-nonce';
    const body = m[1] + m[2];
    const sig = Buffer.from(m[3], 'utf8');
    const want = Buffer.from(this.sign(body), 'utf8');
    if (!timingSafeEqual(sig, want)) return 'bad-nonce';
    const issued = parseInt(m[1], 16);
    const age = this.now() - issued;
    if (age < -60_000 || age > this.ttlMs) return 'stale';
    return 'ok';
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('hex').slice(0, 32);
  }
}
