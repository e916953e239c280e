/**
 * A camera's own snapshot (a channel's SnapUrl: Hikvision's /ISAPI/Streaming/channels/101/picture,
 * Dahua's /cgi-bin/snapshot.cgi, an ONVIF GetSnapshotUri answer): one HTTP(S) GET for a JPEG,
 * answering a 401 with the channel's credentials (Digest, as these cameras ask, or Basic) once.
 * Bounded: a timeout for the whole exchange and a size cap, and only http(s) URLs with a host.
 */
import { authorization, chooseChallenge, parseWwwAuthenticate } from '@opencvr/rtsp';

export interface SnapshotSource {
  url: string;
  username: string;
  password: string;
}

export interface HttpSnapshotOptions {
  timeoutMs: number;
  /** Bigger answers are refused (a 4K JPEG is ~1-2 MB). */
  maxBytes: number;
}

export const DEFAULT_HTTP_SNAPSHOT_OPTIONS: HttpSnapshotOptions = { timeoutMs: 5000, maxBytes: 8 * 1024 * 1024 };

export class HttpSnapshotError extends Error {}

/** The URL to ask and the credentials to answer with (the URL's own user part wins), or undefined for another scheme. */
export function snapshotTarget(src: SnapshotSource): { url: URL; username: string; password: string } | undefined {
  let url: URL;
  try {
    url = new URL(src.url.trim());
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return undefined;
  const username = url.username ? decodeURIComponent(url.username) : src.username;
  const password = url.username ? decodeURIComponent(url.password) : src.password;
  // fetch() refuses URLs with credentials in them; they go in the Authorization header instead.
  url.username = '';
  url.password = '';
  return { url, username, password };
}

/** The camera's JPEG; HttpSnapshotError when it answers anything else (its status, a 401 after answering, not a JPEG, too big). */
export async function fetchSnapshot(src: SnapshotSource, opts: HttpSnapshotOptions = DEFAULT_HTTP_SNAPSHOT_OPTIONS): Promise<Buffer> {
  const target = snapshotTarget(src);
  if (!target) throw new HttpSnapshotError('not an http(s) URL');
  const { url, username, password } = target;
  const signal = AbortSignal.timeout(opts.timeoutMs);
  let res = await fetch(url, { signal, redirect: 'follow' });
  if (res.status === 401 && (username || password)) {
    const challenge = chooseChallenge(res.headers.get('www-authenticate') ? parseWwwAuthenticate(res.headers.get('www-authenticate')!) : []);
    await res.body?.cancel();
    const header = challenge && authorization(challenge, { username, password, method: 'GET', uri: url.pathname + url.search });
    if (!header) throw new HttpSnapshotError('401 with no challenge we can answer');
    res = await fetch(url, { signal, redirect: 'follow', headers: { authorization: header } });
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new HttpSnapshotError(`HTTP ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > opts.maxBytes) {
    await res.body?.cancel();
    throw new HttpSnapshotError(`${declared} bytes, more than ${opts.maxBytes}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.length;
    if (size > opts.maxBytes) throw new HttpSnapshotError(`more than ${opts.maxBytes} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  const jpeg = Buffer.concat(chunks);
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new HttpSnapshotError('not a JPEG');
  return jpeg;
}
