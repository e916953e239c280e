/**
 * The addresses the ffmpeg pull source takes (everything a channel may hold but rtsp(s)://, which the
 * native RTSP client pulls, TLS included): HTTP(S) (HTTP-FLV, HLS .m3u8, any stream ffmpeg can demux)
 * and RTMP(S) (channels pull it natively, rtmp-source.ts; its checks and credentials here serve that
 * client, the stream checker's probe, and the cost bench's ffmpeg). Only these
 * schemes with a host get to ffmpeg, as one argument it parses as a URL: no file
 * path, no `-option`, no `concat:`/`subfile,`/`pipe:` pseudo-protocol; the protocols ffmpeg may open
 * on its behalf (an HLS playlist's segments, a redirect) are limited to the same family by
 * PULL_PROTOCOLS (`-protocol_whitelist`).
 *
 * The channel's Username/Password go into the URL's user part (ffmpeg's RTMP, HTTP and RTSP clients
 * all read them there; RTMP's without decoding them: rtmpUserPart) unless the URL has its own;
 * reasons shown to users go through redact().
 */

export type PullScheme = 'rtmp' | 'rtmps' | 'http' | 'https';

export const PULL_SCHEMES: readonly PullScheme[] = ['rtmp', 'rtmps', 'http', 'https'];

/** The protocols ffmpeg may use for each scheme, nested opens included. */
export const PULL_PROTOCOLS: Record<PullScheme, string> = {
  rtmp: 'rtmp,tcp',
  rtmps: 'rtmps,tcp,tls',
  // crypto: AES-128 HLS segments; http and https both: playlists and redirects mix them; httpproxy:
  // ffmpeg's TLS reaches every server through the pull gateway's tunnel (pull-gateway.ts).
  http: 'http,https,tcp,tls,crypto,httpproxy',
  https: 'http,https,tcp,tls,crypto,httpproxy',
};

export interface PullUrl {
  scheme: PullScheme;
  /** What ffmpeg is given: the normalised URL with the credentials in it. */
  url: string;
  /** The same without credentials (logs, reasons). */
  display: string;
  /** Removes the credentials from a text ffmpeg wrote (it may echo the URL). */
  redact(text: string): string;
}

export class PullUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PullUrlError';
  }
}

/** The scheme of a URL the pull source takes, or undefined (rtsp(s)://, other schemes, not a URL). */
export function pullSchemeOf(raw: string): PullScheme | undefined {
  const m = /^([a-z]+):\/\//i.exec(raw.trim());
  const s = m?.[1].toLowerCase();
  return PULL_SCHEMES.find((x) => x === s);
}

/**
 * The address as ffmpeg's RTMP client needs it: it takes the user and password from the URL as they
 * are written, without decoding them (ffmpeg 5.1's rtmpproto.c; its HTTP and RTSP clients decode),
 * and hashes them so for Adobe's login: "p%2Bw" there is not the password "p+w". So they go in as
 * they are where ffmpeg can still split them out (av_url_split: the user part ends at the last "@"
 * before the first "/", "?" or "#"; user and password part at the first ":"), and percent-encoded
 * otherwise (a login with such a password fails in ffmpeg as it would anyway).
 */
function rtmpUserPart(u: URL): string {
  const encoded = u.toString();
  if (!u.username) return encoded;
  const user = safeDecode(u.username);
  const password = safeDecode(u.password);
  if (/[/?#%:]/.test(user) || /[/?#%]/.test(password)) return encoded;
  return encoded.replace(/^(rtmps?:\/\/)[^@]*@/, (_, scheme: string) => `${scheme}${user}${u.password ? `:${password}` : ''}@`);
}

/** A URL's user or password as written, decoded where it can be. */
function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Checks a channel's address for the pull source and puts the credentials in; throws PullUrlError
 * with a reason a user can act on.
 */
export function pullUrl(raw: string, creds: { username?: string; password?: string } = {}): PullUrl {
  const text = raw.trim();
  // Control characters and spaces have no place in an address (an URL parser would quietly encode or drop them).
  if (/[\s\x00-\x1f\x7f]/.test(text)) throw new PullUrlError('the stream address has spaces or control characters');
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new PullUrlError('the stream address is not a URL');
  }
  const scheme = PULL_SCHEMES.find((s) => `${s}:` === u.protocol);
  if (!scheme) throw new PullUrlError(`${u.protocol}// is not pulled through ffmpeg (rtmp, rtmps, http, https are)`);
  if (!u.hostname || u.hostname.startsWith('-')) throw new PullUrlError('the stream address has no host');
  const secrets = [u.username, u.password].filter(Boolean).map(safeDecode);
  if (!u.username && creds.username) {
    u.username = encodeURIComponent(creds.username);
    u.password = encodeURIComponent(creds.password ?? '');
    secrets.push(creds.username, creds.password ?? '');
  }
  const url = scheme === 'rtmp' || scheme === 'rtmps' ? rtmpUserPart(u) : u.toString();
  const bare = new URL(u.toString());
  bare.username = '';
  bare.password = '';
  const display = bare.toString();
  const plain = secrets.filter((s) => s.length >= 3);
  return {
    scheme,
    url,
    display,
    redact: (t) => {
      let out = t.split(url).join(display).replace(/(\b[a-z]+:\/\/)[^/@\s]*@/gi, '$1');
      for (const s of plain) out = out.split(s).join('***');
      return out;
    },
  };
}
