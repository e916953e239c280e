/**
 * RTMP servers that ask for a login (Adobe Media Server, Wowza, and those that copy them) refuse the
 * connect with an _error whose description names the method: "authmod=adobe" or "authmod=llnw"
 * (Limelight). The Adobe exchange, as ffmpeg's RTMP client (libavformat/rtmpproto.c) and OBS do it,
 * takes three connections:
 * 1. connect to the app: "[ AccessManager.Reject ] : [ code=403 need auth; authmod=adobe ] : ";
 * 2. connect to "app?authmod=adobe&user=U": "... : ?reason=needauth&user=U&salt=S&challenge=C&opaque=O";
 * 3. connect to "app?authmod=adobe&user=U&challenge=C2&response=R&opaque=O", where C2 is the client's
 *    own random challenge and R = base64(md5(base64(md5(U + S + password)) + (O or C) + C2)):
 *    accepted, or "?reason=authfailed" / "?reason=nosuchuser".
 * This reads a refusal and says what to send next, or why it is over. Pure but for C2's randomness.
 * Limelight's (authmod=llnw) runs the same way with a nonce and a digest response (llnwResponse).
 */
import { createHash, randomBytes } from 'node:crypto';

export type RtmpAuthFailure = 'required' | 'failed' | 'unsupported';

export type RtmpAuthStep =
  /** Connect again with this appended to the app and tcUrl. */
  | { params: string }
  /** The login is over: none given, refused, or a method not done here. */
  | { failure: RtmpAuthFailure; method: string };

const md5base64 = (text: string) => createHash('md5').update(text, 'utf8').digest('base64');

/** Adobe's response to a challenge (exported for the server double, which checks it the same way). */
export function adobeResponse(user: string, salt: string, password: string, opaqueOrChallenge: string, clientChallenge: string): string {
  return md5base64(md5base64(user + salt + password) + opaqueOrChallenge + clientChallenge);
}

const md5hex = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/**
 * Limelight's response: HTTP digest's (RFC 2617, qop=auth, realm "live") over the method and the app
 * (with "/_definst_" when it names no instance). The method is "publish" for a play too: ffmpeg sends
 * it so, and the probe must log in as the ffmpeg that plays the channel will.
 */
export function llnwResponse(user: string, password: string, app: string, nonce: string, cnonce: string): string {
  const ha1 = md5hex(`${user}:live:${password}`);
  const ha2 = md5hex(`publish:/${app}${app.includes('/') ? '' : '/_definst_'}`);
  return md5hex(`${ha1}:${nonce}:00000001:${cnonce}:auth:${ha2}`);
}

/**
 * The next step after a connect refused with `description`; undefined when the refusal is not a
 * login's (a wrong app, a ban: the probe reports it as a refused connect). `answered`: a response was
 * sent already (a second challenge means it was wrong).
 */
export function rtmpAuthStep(
  description: string,
  creds: { user: string; password: string } | undefined,
  answered: boolean,
  app: string,
  clientChallenge = randomBytes(4).toString('hex'),
): RtmpAuthStep | undefined {
  const method = /authmod=(\w+)/.exec(description)?.[1];
  if (!method) return undefined;
  if (!creds?.user || !creds.password) return { failure: 'required', method };
  if (method !== 'adobe' && method !== 'llnw') return { failure: 'unsupported', method };
  if (/\?reason=(authfailed|nosuchuser)/.test(description) || answered) return { failure: 'failed', method };
  // The user as written, as ffmpeg sends it.
  const user = creds.user;
  if (description.includes('code=403 need auth')) return { params: `?authmod=${method}&user=${user}` };
  const needAuth = description.indexOf('?reason=needauth');
  if (needAuth < 0) return { failure: 'failed', method };
  // Taken as they come, as ffmpeg does: salt, challenge and opaque are base64 ("+", "/", "=" in them),
  // not form-encoded.
  const vars = new Map<string, string>();
  for (const pair of description.slice(needAuth + 1).split(/\s/)[0].split('&')) {
    const eq = pair.indexOf('=');
    if (eq > 0) vars.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  if (method === 'llnw') {
    const nonce = vars.get('nonce') ?? '';
    const asked = vars.get('user') ?? user;
    const response = llnwResponse(asked, creds.password, app, nonce, clientChallenge);
    return { params: `?authmod=llnw&user=${asked}&nonce=${nonce}&cnonce=${clientChallenge}&nc=00000001&response=${response}` };
  }
  const opaque = vars.get('opaque');
  const asked = vars.get('user') ?? user;
  const response = adobeResponse(asked, vars.get('salt') ?? '', creds.password, opaque ?? vars.get('challenge') ?? '', clientChallenge);
  return { params: `?authmod=adobe&user=${asked}&challenge=${clientChallenge}&response=${response}${opaque !== undefined ? `&opaque=${opaque}` : ''}` };
}
