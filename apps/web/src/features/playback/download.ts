/**
 * Range download with progress: fetch the MP4, count bytes from a ReadableStream reader against
 * Content-Length, then save a Blob under the server's file name (Content-Disposition, filename*
 * preferred).
 *
 * A file larger than IN_PAGE_MAX_BYTES is not gathered in the page: its bytes were held twice in the
 * tab's memory (the chunks, then the Blob made of them), and a segment list's row of a day recorded
 * at 4 Mbit/s is 14 GB for 8 hours. Such a file is handed to the browser instead, which streams it to
 * disk with its own progress (and can resume it: the server answers byte ranges): a link to the same
 * address with the session's token in its query, as the console's snapshot and socket addresses carry it.
 */
import { currentLang } from '../../i18n';
import { useSession } from '../../lib/stores/session';

/** The file name of a Content-Disposition header: filename* (RFC 5987/6266) before filename. */
export function fileNameOf(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*([^;]+)/i.exec(header);
  if (star) {
    let v = star[1].trim().replace(/^"|"$/g, '');
    const m = /^([\w!#$%&+^`{}~-]*)'[^']*'(.*)$/.exec(v);
    if (m) v = m[2];
    try {
      const name = decodeURIComponent(v);
      if (name) return safeName(name);
    } catch {
      /* fall back to filename */
    }
  }
  const plain = /(?:^|;)\s*filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]*)/i.exec(header);
  if (plain) {
    const v = plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1].trim();
    if (v) return safeName(v);
  }
  return undefined;
}

/** No folders in a file name. */
function safeName(name: string): string {
  return name.split(/[\\/]/).pop()!.trim() || 'download';
}

export interface Progress {
  loaded: number;
  /** Content-Length, 0 when unknown. */
  total: number;
}

/** The largest file gathered in the page (a quarter of an hour or so at 4 Mbit/s is ~450 MB). */
export const IN_PAGE_MAX_BYTES = 512 * 1024 * 1024;

/** A file handed to the browser's own download (too large to gather in the page): its name and size. */
export interface HandedOff {
  handedOff: true;
  name: string;
  total: number;
}

/** Starts the browser's own download of `url` (a path of ours), signed in by the session's token in the query. */
export function browserDownload(url: string, name: string): void {
  const token = useSession.getState().token;
  const u = new URL(url, window.location.origin);
  if (token) u.searchParams.set('token', token);
  u.searchParams.set('lang', currentLang());
  const a = document.createElement('a');
  a.href = u.pathname + u.search;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export class DownloadError extends Error {
  constructor(public readonly status: number, message: string) {
    super(message);
  }
}

/**
 * Fetches `url`, reporting progress; resolves with the blob and its file name, or, with `handOff` and
 * a Content-Length above IN_PAGE_MAX_BYTES, stops reading and hands the address to the browser's own
 * download (browserDownload).
 */
export async function fetchWithProgress(url: string, onProgress: (p: Progress) => void, fallbackName: string, signal?: AbortSignal): Promise<{ blob: Blob; name: string }>;
export async function fetchWithProgress(url: string, onProgress: (p: Progress) => void, fallbackName: string, signal: AbortSignal | undefined, handOff: true): Promise<{ blob: Blob; name: string } | HandedOff>;
export async function fetchWithProgress(url: string, onProgress: (p: Progress) => void, fallbackName: string, signal?: AbortSignal, handOff = false): Promise<{ blob: Blob; name: string } | HandedOff> {
  const token = useSession.getState().token;
  // The server says why it refused in the console's language (not the browser's Accept-Language).
  const res = await fetch(url, { headers: { 'Accept-Language': currentLang(), ...(token ? { token } : {}) }, signal });
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    let reason = text;
    try {
      const j = JSON.parse(text) as { msg?: string; EasyDarwin?: { Header?: { ErrorString?: string } } };
      reason = j.msg || j.EasyDarwin?.Header?.ErrorString || text;
    } catch {
      /* plain text */
    }
    throw new DownloadError(res.status, reason || `HTTP ${res.status}`);
  }
  const total = Number(res.headers.get('Content-Length') ?? 0) || 0;
  const name = fileNameOf(res.headers.get('Content-Disposition')) ?? fallbackName;
  if (handOff && total > IN_PAGE_MAX_BYTES) {
    await res.body?.cancel().catch(() => undefined);
    browserDownload(url, name);
    return { handedOff: true, name, total };
  }
  const type = res.headers.get('Content-Type') ?? 'video/mp4';
  const chunks: BlobPart[] = [];
  let loaded = 0;
  onProgress({ loaded, total });
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value as BlobPart);
      loaded += value.byteLength;
      onProgress({ loaded, total });
    }
  } else {
    const buf = await res.arrayBuffer();
    chunks.push(buf);
    loaded = buf.byteLength;
    onProgress({ loaded, total });
  }
  return { blob: new Blob(chunks, { type }), name };
}

export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}

export const percent = (p: Progress) => (p.total > 0 ? Math.min(100, Math.round((p.loaded / p.total) * 100)) : 0);
