/**
 * Range download with progress: fetch the MP4, count bytes from a ReadableStream reader against
 * Content-Length, then save a Blob under the server's file name (Content-Disposition, filename*
 * preferred).
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

export class DownloadError extends Error {
  constructor(public readonly status: number, message: string) {
    super(message);
  }
}

/** Fetches `url`, reporting progress; resolves with the blob and its file name. */
export async function fetchWithProgress(url: string, onProgress: (p: Progress) => void, fallbackName: string, signal?: AbortSignal): Promise<{ blob: Blob; name: string }> {
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
