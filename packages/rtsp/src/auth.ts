/**
 * RTSP authentication as cameras use it: HTTP Basic and Digest (RFC 2617, RFC 7616 with MD5 and
 * MD5-sess; qop "auth" or none). Parses WWW-Authenticate challenges and computes Authorization.
 */
import { md5hex } from './md5.js';
import { base64, utf8 } from './text.js';

export interface Challenge {
  /** As sent ("Digest", "Basic", ...). */
  scheme: string;
  /** Auth-params with lower-case names, quotes removed. */
  params: Record<string, string>;
}

/**
 * Parses one WWW-Authenticate value, which may hold several challenges
 * (`Digest realm="a", nonce="b", Basic realm="a"`). Never throws: what it cannot read it skips.
 */
export function parseWwwAuthenticate(value: string): Challenge[] {
  const out: Challenge[] = [];
  let i = 0;
  const s = value;
  const ws = () => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === ',')) i++;
  };
  const token = () => {
    const m = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/.exec(s.slice(i));
    if (!m) return '';
    i += m[0].length;
    return m[0];
  };
  let current: Challenge | undefined;
  while (i < s.length) {
    ws();
    if (i >= s.length) break;
    const start = i;
    const name = token();
    if (!name) {
      i++; // an unexpected character: skip it
      continue;
    }
    let j = i;
    while (j < s.length && (s[j] === ' ' || s[j] === '\t')) j++;
    if (s[j] === '=' && current) {
      // name=value (token or quoted string)
      i = j + 1;
      while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
      let v = '';
      if (s[i] === '"') {
        i++;
        while (i < s.length && s[i] !== '"') {
          if (s[i] === '\\' && i + 1 < s.length) i++;
          v += s[i++];
        }
        i++; // closing quote
      } else {
        const m = /^[^,\s]*/.exec(s.slice(i))!;
        v = m[0];
        i += v.length;
      }
      current.params[name.toLowerCase()] = v;
    } else if (s[j] === '=' && !current) {
      // a parameter before any scheme: not a challenge; skip to the next comma
      while (i < s.length && s[i] !== ',') i++;
    } else {
      // A new scheme. (token68 forms such as `Negotiate abc==` are kept as a "token68" param.)
      current = { scheme: name, params: {} };
      out.push(current);
      i = j;
      const t68 = /^([A-Za-z0-9\-._~+/]+=*)\s*(,|$)/.exec(s.slice(i));
      if (t68 && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*=[^=]/.test(s.slice(i))) {
        current.params.token68 = t68[1];
        i += t68[0].length;
      }
    }
    if (i === start) i++;
  }
  return out;
}

export interface Credentials {
  username: string;
  password: string;
}

export interface AuthorizationInput extends Credentials {
  method: string;
  uri: string;
  /** Client nonce for qop=auth; random when absent. */
  cnonce?: string;
  /** Nonce count, 1 for the first use of a nonce. */
  nc?: number;
}

const isDigestUsable = (c: Challenge) => {
  if (c.scheme.toLowerCase() !== 'digest' || !c.params.nonce) return false;
  const alg = (c.params.algorithm ?? 'MD5').toUpperCase();
  if (alg !== 'MD5' && alg !== 'MD5-SESS') return false;
  if (c.params.qop === undefined) return true;
  return qopList(c).includes('auth');
};
const qopList = (c: Challenge) => (c.params.qop ?? '').split(',').map((q) => q.trim().toLowerCase());

/** The challenge to answer: Digest (MD5, qop auth or none) before Basic; undefined when none is usable. */
export function chooseChallenge(challenges: Challenge[]): Challenge | undefined {
  return challenges.find(isDigestUsable) ?? challenges.find((c) => c.scheme.toLowerCase() === 'basic');
}

const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

function randomHex(n: number) {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(Math.random() * 16).toString(16);
  return s;
}

/** The Authorization value answering `challenge`, or undefined when the challenge is not one we can answer. */
export function authorization(challenge: Challenge, input: AuthorizationInput): string | undefined {
  const scheme = challenge.scheme.toLowerCase();
  if (scheme === 'basic') return `Basic ${base64(utf8(`${input.username}:${input.password}`))}`;
  if (!isDigestUsable(challenge)) return undefined;
  const p = challenge.params;
  const realm = p.realm ?? '';
  const alg = p.algorithm;
  const qop = p.qop !== undefined ? 'auth' : undefined;
  const cnonce = input.cnonce ?? randomHex(16);
  const nc = (input.nc ?? 1).toString(16).padStart(8, '0');
  let ha1 = md5hex(`${input.username}:${realm}:${input.password}`);
  if (alg && alg.toUpperCase() === 'MD5-SESS') ha1 = md5hex(`${ha1}:${p.nonce}:${cnonce}`);
  const ha2 = md5hex(`${input.method}:${input.uri}`);
  const response = qop ? md5hex(`${ha1}:${p.nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : md5hex(`${ha1}:${p.nonce}:${ha2}`);
  const parts = [
    `username=${quote(input.username)}`,
    `realm=${quote(realm)}`,
    `nonce=${quote(p.nonce)}`,
    `uri=${quote(input.uri)}`,
    `response=${quote(response)}`,
  ];
  if (alg) parts.push(`algorithm=${alg}`);
  if (p.opaque !== undefined) parts.push(`opaque=${quote(p.opaque)}`);
  if (qop) parts.push(`qop=${qop}`, `nc=${nc}`, `cnonce=${quote(cnonce)}`);
  return `Digest ${parts.join(', ')}`;
}
